import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { Database, MIGRATIONS } from '@app/persistence';
import { loadConfig } from '@app/shared';
import { Decimal } from '@app/shared/domain';
import { migrateAgain } from '../../../../../test/support/migrations.js';
import { createTestDatabase, serverDatabaseUrl, withClient, type TestDatabase } from '../../../../../test/support/test-database.js';
import type { DividendPayment, ClosedTrade } from '../../domain/closed-trade.js';
import type { ReportScope, TradeReports } from '../../application/trade-reports.port.js';
import { parseTradeListQuery, type TradeCursor, type TradeListPage } from '../../domain/trade-list.js';
import type { TradeAggregates } from '../../domain/trade-statistics.js';
import { aDividend, aTrade, InMemoryTradeReports, type PositionChange } from '../../testing/in-memory-trade-reports.js';
import { ReportDataChanges } from './report-data-changes.js';
import { refreshTradeReports } from './report-rollups.js';
import { DatabaseReportVersions, InProcessReportVersions } from './report-versions.adapters.js';
import { SqlTradeLedger } from './sql-trade-ledger.js';
import { SqlTradeReports } from './sql-trade-reports.js';

const d = (text: string) => Decimal.parse(text);
/** Every account of a user. */
const all = (userId: number): ReportScope => ({ userId, accountId: null });
/** Aggregates with their maps as sorted entries, so a difference shows as itself rather than as an order. */
const comparable = (aggregates: TradeAggregates) =>
  Object.fromEntries(Object.entries(aggregates).map(([key, value]) => [key, value instanceof Map ? [...value].sort(([a], [b]) => (a < b ? -1 : 1)) : value]));

/**
 * The SQL read model and its rollups against a real database (embedded, or the server when
 * DATABASE_URL is set), compared with the in-memory model fed the same rows.
 */
describe('SqlTradeReports (real database)', () => {
  let dataDir: string;
  let serverDatabase: TestDatabase | undefined;
  let database: Database;
  let sql: SqlTradeReports;
  const memory = new InMemoryTradeReports().nameSymbol('AAPL', 'APPLE INC').nameSymbol('KO', 'COCA COLA CO');
  const users: { id: number; accountId: number }[] = [];
  /** Each user's scopes: all their accounts, then each account alone. */
  const scopes: ReportScope[] = [];

  async function addUser(email: string, account: string) {
    const [user] = await database.manager.query(`INSERT INTO users (email) VALUES ($1) RETURNING id`, [email]);
    const [row] = await database.manager.query(`INSERT INTO brokerage_accounts (user_id, account_number) VALUES ($1, $2) RETURNING id`, [user.id, account]);
    const added = { id: Number(user.id), accountId: Number(row.id) };
    users.push(added);
    scopes.push(all(added.id), { userId: added.id, accountId: added.accountId });
    return added;
  }

  /** A second brokerage account of the user (as an import that names one creates it). */
  async function addAccount(user: { id: number }, account: string) {
    const [row] = await database.manager.query(`INSERT INTO brokerage_accounts (user_id, account_number) VALUES ($1, $2) RETURNING id`, [user.id, account]);
    scopes.push({ userId: user.id, accountId: Number(row.id) });
    return { id: user.id, accountId: Number(row.id) };
  }

  /** Through the ledger, the only writer of these tables; the in-memory model gets the same rows. */
  async function store(user: { id: number; accountId: number }, trades: ClosedTrade[], dividends: DividendPayment[], positions: PositionChange[]) {
    memory.addTrades(user.id, user.accountId, trades).addDividends(user.id, user.accountId, dividends).addPositions(user.id, user.accountId, positions);
    const companyNames = new Map([
      ['AAPL', 'APPLE INC'],
      ['KO', 'COCA COLA CO'],
    ]);
    await database.inTransaction(() => new SqlTradeLedger(database, new ReportDataChanges()).replaceAccount(user.id, user.accountId, { trades, dividends, positions, companyNames, openLots: [] }));
  }

  beforeAll(async () => {
    Logger.overrideLogger(false);
    dataDir = await mkdtemp(join(tmpdir(), 'sta-trades-'));
    const adminUrl = serverDatabaseUrl();
    serverDatabase = adminUrl ? await createTestDatabase(adminUrl) : undefined;
    // A database whose dates would read otherwise ('SQL, DMY'): the service's connections ask for ISO.
    if (serverDatabase !== undefined) {
      await withClient(serverDatabase.url, (client) =>
        client.query(`DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET DateStyle = %L', current_database(), 'SQL, DMY'); END $$`),
      );
    }
    // The URL's own startup options too: the service adds the ISO dates to them.
    const url = serverDatabase === undefined ? undefined : new URL(serverDatabase.url);
    url?.searchParams.set('options', '-c search_path=public');
    database = new Database(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url?.toString() }), { entities: [], migrations: MIGRATIONS });
    await database.onApplicationBootstrap();
    sql = new SqlTradeReports(database);

    const alice = await addUser('alice@example.com', 'A-1');
    await store(
      alice,
      [
        aTrade({ symbol: 'AAPL', openDate: '2024-12-02', closeDate: '2024-12-30', totalProfitLoss: d('100.005'), holdingDays: 28, washSale: false, term: 'Short Term', source: 'broker', buyTxPrice: d('99.5') }),
        aTrade({ symbol: 'AAPL', openDate: '2024-12-31', closeDate: '2025-01-02', totalProfitLoss: d('-40.004'), holdingDays: 2, washSale: true, disallowedLoss: d('12.5') }),
        aTrade({ symbol: 'MSFT', closeDate: '2025-01-31', totalProfitLoss: d('0.004') }),
        aTrade({ symbol: 'SNOW', side: 'short', buyDate: '2025-01-31', sellDate: '2025-01-10', openDate: '2025-01-10', closeDate: '2025-01-31', totalProfitLoss: d('7.25'), holdingDays: 21 }),
      ],
      [aDividend('KO', '2025-01-15', '12.34'), aDividend('KO', '2025-03-03', '-2.34', 'Rev Cash Div'), aDividend('', '2025-01-15', '1.11', 'Credit Interest Div')],
      [
        { symbol: 'AAPL', date: '2024-12-02', shares: d('10') },
        { symbol: 'AAPL', date: '2024-12-30', shares: d('0') },
        { symbol: 'AAPL', date: '2024-12-31', shares: d('10') },
        { symbol: 'AAPL', date: '2025-01-02', shares: d('5') },
        { symbol: 'SNOW', date: '2025-01-10', shares: d('-3') },
        { symbol: 'SNOW', date: '2025-01-31', shares: d('0') },
        { symbol: 'TSLA', date: '2025-01-20', shares: d('0.333') },
      ],
    );
    const bob = await addUser('bob@example.com', 'B-1');
    // A symbol with commas (the month's trades come as one comma-joined text per trade, the symbol last).
    const commas = aTrade({ symbol: 'X,Y ,', closeDate: '2025-01-02', totalProfitLoss: d('1.5'), washSale: true });
    // Figures the month's JSON rounds (half away from zero, either sign) and a symbol JSON escapes.
    const rounded = aTrade({
      symbol: 'Q"\\Z',
      closeDate: '2025-01-03',
      totalProfitLoss: d('-0.005'),
      buyPrice: d('12.34565'),
      sellPrice: d('0.00005'),
      volume: d('1234.0000005'),
      returnPercentage: d('-12.3449999'),
      washSale: false,
    });
    // A symbol of control characters (JSON escapes them), a day before 1970 and a short side.
    const controls = aTrade({ symbol: 'S\u001fT\u001f', side: 'short', openDate: '1969-12-31', closeDate: '2025-01-04', totalProfitLoss: d('100'), holdingDays: 20093 });
    await store(bob, [aTrade({ symbol: 'AAPL', closeDate: '2025-01-02', totalProfitLoss: d('-999') }), commas, rounded, controls], [aDividend('T', '2025-01-02', '1')], []);
    await addUser('nobody@example.com', 'N-1');
    const carol = await addUser('carol@example.com', 'C-1');
    const twin = aTrade({ symbol: 'NVDA', openDate: '2025-02-03', closeDate: '2025-02-05', totalProfitLoss: d('5'), holdingDays: 2 });
    await store(
      carol,
      [
        twin,
        aTrade({ symbol: 'AMD', closeDate: '2025-02-05', totalProfitLoss: d('-5'), holdingDays: 0, source: 'broker' }),
        twin,
        aTrade({ symbol: 'NVDA', side: 'short', openDate: '2025-01-06', closeDate: '2025-02-05', totalProfitLoss: d('0'), holdingDays: 30 }),
        aTrade({ symbol: 'AMD', openDate: '2024-02-01', closeDate: '2025-03-03', totalProfitLoss: d('250.5'), holdingDays: 396, volume: d('25') }),
        twin,
        aTrade({ symbol: 'INTC', closeDate: '2025-03-03', totalProfitLoss: d('-0.01'), holdingDays: 0, volume: d('1.5') }),
      ],
      [],
      [],
    );
    // Dora has two accounts: every report of hers sums both, or shows one when asked.
    const dora = await addUser('dora@example.com', 'D-1');
    await store(
      dora,
      [aTrade({ symbol: 'AAPL', openDate: '2024-12-02', closeDate: '2025-01-02', totalProfitLoss: d('-3.5'), holdingDays: 31 })],
      [aDividend('KO', '2025-01-15', '1.00')],
      [{ symbol: 'AAPL', date: '2024-12-02', shares: d('2') }, { symbol: 'AAPL', date: '2025-01-02', shares: d('1') }],
    );
    await store(
      await addAccount(dora, 'D-2'),
      [aTrade({ symbol: 'AAPL', openDate: '2024-12-16', closeDate: '2025-01-02', totalProfitLoss: d('12.5'), holdingDays: 17 })],
      [aDividend('KO', '2025-01-15', '3.21')],
      [{ symbol: 'AAPL', date: '2024-12-16', shares: d('4') }, { symbol: 'AAPL', date: '2025-01-02', shares: d('1') }],
    );
  }, 60000);

  afterAll(async () => {
    await database?.onApplicationShutdown();
    await serverDatabase?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('agrees with the in-memory model on every query, for every user and each of their accounts (including a user with no data)', async () => {
    for (const scope of scopes) {
      expect(await sql.monthlyTotals(scope)).toEqual(await memory.monthlyTotals(scope));
      expect(await sql.dailyTotals(scope, null, null)).toEqual(await memory.dailyTotals(scope, null, null));
      for (const range of [{ from: '2024-12-30', to: '2025-01-05' }, { from: '2025-01-02', to: '2025-01-02' }, { from: '2020-01-01', to: '2020-12-31' }]) {
        expect(await sql.dailyTotals(scope, range, ['AAPL', 'KO'])).toEqual(await memory.dailyTotals(scope, range, ['AAPL', 'KO']));
        expect(await sql.tradesClosedIn(scope, range)).toEqual(await memory.tradesClosedIn(scope, range));
        // The same text as serialising the month's views of the trades, to the character.
        expect(await sql.monthTradesJson(scope, range)).toEqual(await memory.monthTradesJson(scope, range));
        expect(await sql.dividendsPaidIn(scope, range)).toEqual(await memory.dividendsPaidIn(scope, range));
      }
      for (const symbol of ['AAPL', 'KO', 'SNOW', 'TSLA', 'NONE']) {
        expect(await sql.tradesOfSymbol(scope, symbol)).toEqual(await memory.tradesOfSymbol(scope, symbol));
        expect(await sql.dividendsOfSymbol(scope, symbol)).toEqual(await memory.dividendsOfSymbol(scope, symbol));
        expect(await sql.symbolTotals(scope, symbol)).toEqual(await memory.symbolTotals(scope, symbol));
      }
      expect(await sql.symbolTotals(scope)).toEqual(await memory.symbolTotals(scope));
      for (const asOf of [null, '2024-12-01', '2024-12-30', '2025-01-15', '2030-01-01']) {
        expect(await sql.openPositions(scope, asOf, null)).toEqual(await memory.openPositions(scope, asOf, null));
        expect(await sql.openPositions(scope, asOf, ['SNOW', 'TSLA'])).toEqual(await memory.openPositions(scope, asOf, ['SNOW', 'TSLA']));
      }
    }
  });

  it('lists trades page by page in every sort and order as the in-memory model does, each trade once, with stable ids', async () => {
    const carol = users[3];
    const everything = parseTradeListQuery({});
    const sorts = ['close_date', 'open_date', 'symbol', 'profit_loss', 'return_percentage', 'holding_days', 'volume'] as const;
    const pages = async (reports: TradeReports, sort: (typeof sorts)[number], order: 'asc' | 'desc', filters = everything.filters) => {
      const listed: { id: string; symbol: string; pnl: string }[] = [];
      let after: TradeCursor | null = null;
      for (let page = 0; page < 10; page++) {
        const result: TradeListPage = await reports.tradeListPage(all(carol.id), { filters, sort, order, limit: 2, after });
        listed.push(...result.trades.map((row) => ({ id: row.id, symbol: row.trade.symbol, pnl: row.trade.totalProfitLoss.toString() })));
        expect(result).toMatchObject({ totalCount: (await memory.tradeListPage(all(carol.id), { filters, sort, order, limit: 1, after: null })).totalCount });
        if (result.next === null) break;
        after = result.next;
      }
      return listed;
    };
    for (const sort of sorts) {
      for (const order of ['asc', 'desc'] as const) {
        const fromSql = await pages(sql, sort, order);
        expect(fromSql).toEqual(await pages(memory, sort, order));
        expect(fromSql).toHaveLength(7);
        expect(new Set(fromSql.map((row) => row.id)).size).toBe(7);
      }
    }
    // The three identical NVDA trades: three ids, the same whichever way the list is sorted or filtered.
    const byClose = await pages(sql, 'close_date', 'asc');
    const nvdaLongs = await pages(sql, 'profit_loss', 'desc', parseTradeListQuery({ symbol: 'NVDA', side: 'long', result: 'Win' }).filters);
    expect(nvdaLongs.map((row) => row.id).sort()).toEqual(byClose.filter((row) => row.symbol === 'NVDA' && row.pnl === '5').map((row) => row.id).sort());
    const first = await sql.tradeListPage(all(carol.id), { ...everything, sort: 'close_date', order: 'asc', limit: 500, after: null });
    expect(first).toMatchObject({ totalCount: 7, winningTrades: 4, next: null });
    expect(first.netProfitLoss.toString()).toBe('260.49');
    const filtered = parseTradeListQuery({ min_holding_days: '1', max_holding_days: '30', source: 'fifo', start: '2025-02-01', end: '2025-02-28' }).filters;
    expect(await sql.tradesMatching(all(carol.id), filtered)).toEqual(await memory.tradesMatching(all(carol.id), filtered));
    expect(await sql.tradesMatching(all(carol.id), filtered)).toHaveLength(4);
    expect(await sql.tradesMatching(all(users[0].id), parseTradeListQuery({ symbol: 'NVDA' }).filters)).toEqual([]);
  });

  it('sums trades for the statistics as the in-memory model does, under every filter', async () => {
    const queries = [{}, { side: 'short' }, { symbol: 'NVDA,AAPL' }, { start: '2025-01-01', end: '2025-02-05' }, { start: '2020-01-01', end: '2020-12-31' }];
    for (const scope of scopes) {
      for (const query of queries) {
        const filters = parseTradeListQuery(query).filters;
        expect({ scope, query, ...comparable(await sql.tradeAggregates(scope, filters)) }).toEqual({ scope, query, ...comparable(await memory.tradeAggregates(scope, filters)) });
      }
    }
    const carol = await sql.tradeAggregates(all(users[3].id), parseTradeListQuery({}).filters);
    expect(carol.largestWin?.totalProfitLoss.toString()).toBe('250.5');
    expect(carol.bySymbol.get('NVDA')).toMatchObject({ totalTrades: 4, winningTrades: 3, losingTrades: 0, winnersHoldingDays: 6 });
    expect(carol.byHoldingPeriod.get('over_365')).toMatchObject({ totalTrades: 1 });
  });

  it("finds a user's account by its number, never another user's; one account's figures are its own", async () => {
    const [, bob] = users;
    const dora = users[users.length - 1];
    const second = scopes.find((scope) => scope.userId === dora.id && scope.accountId !== null && scope.accountId !== dora.accountId);
    expect(await sql.accountNamed(dora.id, 'D-2')).toBe(second?.accountId);
    expect(await sql.accountNamed(dora.id, 'D-1')).toBe(dora.accountId);
    expect(await sql.accountNamed(dora.id, 'B-1')).toBeNull();
    expect(await sql.accountNamed(bob.id, 'D-2')).toBeNull();
    const january = async (scope: ReportScope) => {
      const [month] = (await sql.monthlyTotals(scope)).filter((entry) => entry.month === '2025-01');
      return [month.totals.tradeCount, month.totals.tradingProfitLoss.toString(), month.totals.dividends.toString()];
    };
    expect(await january(all(dora.id))).toEqual([2, '9', '4.21']);
    expect(await january({ userId: dora.id, accountId: second?.accountId ?? null })).toEqual([1, '12.5', '3.21']);
    expect(await january({ userId: dora.id, accountId: dora.accountId })).toEqual([1, '-3.5', '1']);
  });

  it('keeps exact values: trades, shorts, broker flags, dividends without a symbol count in the day', async () => {
    const [alice] = users;
    const january = await sql.dailyTotals(all(alice.id), { from: '2025-01-15', to: '2025-01-15' }, null);
    expect(january).toEqual([{ date: '2025-01-15', tradeCount: 0, winningTrades: 0, tradingProfitLoss: Decimal.ZERO, dividendCount: 2, dividends: d('13.45') }]);
    const [trade] = await sql.tradesClosedIn(all(alice.id), { from: '2024-12-30', to: '2024-12-30' });
    expect(trade).toMatchObject({ source: 'broker', washSale: false, term: 'Short Term', holdingDays: 28 });
    expect(trade.totalProfitLoss.toString()).toBe('100.005');
    expect(trade.buyTxPrice?.toString()).toBe('99.5');
    const short = (await sql.tradesOfSymbol(all(alice.id), 'SNOW'))[0];
    expect(short).toMatchObject({ side: 'short', buyDate: '2025-01-31', sellDate: '2025-01-10', closeDate: '2025-01-31' });
    expect((await sql.symbolTotals(all(alice.id))).map((row) => row.symbol)).toEqual(['AAPL', 'KO', 'MSFT', 'SNOW', 'TSLA']);
    expect((await sql.symbolTotals(all(alice.id), 'AAPL'))[0]).toMatchObject({ companyName: 'APPLE INC', firstOpenDate: '2024-12-02' });
  });

  it('rebuilding raises the user’s report version, and only that user’s rollups change', async () => {
    const [alice, bob] = users;
    const versions = new DatabaseReportVersions(database);
    const before = await versions.current(alice.id);
    const bobBefore = await sql.dailyTotals(all(bob.id), null, null);
    await database.manager.query(`DELETE FROM closed_trades WHERE user_id = $1 AND symbol = 'MSFT'`, [alice.id]);
    await database.inTransaction(() => refreshTradeReports(database, alice.id));
    expect(await versions.current(alice.id)).toBe(before + 1);
    expect(await versions.current(users[2].id)).toBe(0);
    expect((await sql.monthlyTotals(all(alice.id))).find((month) => month.month === '2025-01')?.totals.tradeCount).toBe(2);
    expect(await sql.dailyTotals(all(bob.id), null, null)).toEqual(bobBefore);
  });

  // The symbol totals' import figures (broker trades, FIFO sides) and their symbols' byte order come with later
  // migrations, run again after it (so the tables are left as every migration leaves them).
  it.each([
    ['CreateTradeReportRollups1763760000000', 'IncrementalImports1763880000000', 'SymbolsAndTradeIdsInByteOrder1763890000000', 'DailySymbolTotalsByDay1763900000000', 'RawRowKeysByDay1763910000000'],
    ['TradeStatisticGroups1763820000000'],
  ])('the migration that creates the rollups (%s) fills them for data imported before it, as a rebuild does', async (...names) => {
    const snapshot = async () => {
      const tables: Record<string, unknown[]> = {};
      for (const [table, order] of [
        ['daily_totals', 'user_id, day'],
        ['daily_symbol_totals', 'user_id, symbol, day'],
        ['symbol_totals', 'user_id, symbol, account_id'],
        ['trade_statistic_groups', 'user_id, grouping, side, key'],
      ]) {
        tables[table] = await database.manager.query(`SELECT * FROM ${table} ORDER BY ${order}`);
      }
      return tables;
    };
    const rebuilt = await snapshot();
    expect(rebuilt.daily_totals.length).toBeGreaterThan(5);
    expect(rebuilt.trade_statistic_groups.length).toBeGreaterThan(20);
    await migrateAgain(database, ...names);
    expect(await snapshot()).toEqual(rebuilt);
  });

  it('symbols, trade ids and close fills compare byte by byte, whatever the database’s locale (SymbolsAndTradeIdsInByteOrder1763890000000)', async () => {
    const columns = (await database.manager.query(
      `SELECT c.relname AS table, a.attname AS column, co.collname AS collation
         FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
         LEFT JOIN pg_collation co ON co.oid = a.attcollation
        WHERE n.nspname = current_schema() AND c.relkind = 'r' AND a.attname IN ('symbol', 'trade_id', 'close_fill') AND NOT a.attisdropped
        ORDER BY 1, 2`,
    )) as { table: string; column: string; collation: string }[];
    expect(columns.length).toBeGreaterThanOrEqual(18);
    expect(columns.filter((column) => column.collation !== 'C')).toEqual([]);
    // Sorted as JavaScript sorts them (code units: punctuation, then digits, then capitals), which a locale's collation would not keep.
    const symbols = ['BRKA', 'BRK.B', 'BRK-A', 'BF/B', 'BF.A', '^VIX', 'A1', 'AA'];
    await database.manager.query(`CREATE TEMPORARY TABLE sorted_symbols AS SELECT symbol FROM closed_trades LIMIT 0`);
    try {
      await database.manager.query(`INSERT INTO sorted_symbols (symbol) SELECT unnest($1::text[])`, [symbols]);
      const sorted = (await database.manager.query(`SELECT symbol FROM sorted_symbols ORDER BY symbol`)) as { symbol: string }[];
      expect(sorted.map((row) => row.symbol)).toEqual([...symbols].sort());
    } finally {
      await database.manager.query(`DROP TABLE sorted_symbols`);
    }
  });

  it('the migrations that store trade ids (TradeJournal1763830000000, TradeIdsWithProfitLoss1763835000000) give trades stored before them the ids the ledger computes', async () => {
    const ids = async () =>
      ((await database.manager.query(`SELECT account_id, seq, trade_id FROM closed_trades ORDER BY account_id, seq`)) as { trade_id: string }[]).map((row) => row.trade_id);
    const written = await ids();
    expect(written.length).toBeGreaterThan(10);
    expect(written.every((id) => /^[0-9a-f]{20}$/.test(id))).toBe(true);
    await migrateAgain(
      database,
      'TradeJournal1763830000000',
      'TradeIdsWithProfitLoss1763835000000',
      'TagFiguresWithoutJoins1763840000000',
      'SymbolsAndTradeIdsInByteOrder1763890000000',
      'TradeIdsByHash1763950000000',
    );
    expect(await ids()).toEqual(written);
  });

  it('the in-process versions count every rebuild of this process, per user', async () => {
    const changes = new ReportDataChanges();
    const versions = new InProcessReportVersions(changes);
    expect(await versions.current(1)).toBe(0);
    changes.changed(1);
    changes.changed(2);
    changes.changed(1);
    expect([await versions.current(1), await versions.current(2), await versions.current(3)]).toEqual([3, 2, 0]);
    versions.onModuleDestroy();
    changes.changed(1);
    expect(await versions.current(1)).toBe(3);
  });
});
