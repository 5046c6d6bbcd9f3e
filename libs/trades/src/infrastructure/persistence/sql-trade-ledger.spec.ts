import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { Database, MIGRATIONS } from '@app/persistence';
import { loadConfig } from '@app/shared';
import { Decimal, type IsoDate } from '@app/shared/domain';
import { createTestDatabase, serverDatabaseUrl, type TestDatabase } from '../../../../../test/support/test-database.js';
import type { AccountLedger, LedgerOpenLot, LedgerRest, LedgerTrade, WantedBook } from '../../application/trade-ledger.port.js';
import type { TradeSide } from '../../domain/closed-trade.js';
import { aDividend, aTrade } from '../../testing/in-memory-trade-reports.js';
import { ReportDataChanges } from './report-data-changes.js';
import { InProcessReportVersions } from './report-versions.adapters.js';
import { SqlTradeLedger } from './sql-trade-ledger.js';

const d = (text: string) => Decimal.parse(text);
const wantedBook = (symbol: string, side: TradeSide, wanted: Partial<WantedBook> = {}): WantedBook => ({ symbol, side, whole: false, oldestShares: Decimal.ZERO, openDates: [], ...wanted });
const wholeBook = (symbol: string, side: TradeSide) => wantedBook(symbol, side, { whole: true });

/** The ledger against a real database (embedded, or the server when DATABASE_URL is set: a pool of ten). */
describe('SqlTradeLedger (real database)', () => {
  let dataDir: string;
  let serverDatabase: TestDatabase | undefined;
  let database: Database;
  let userId: number;
  let accountId: number;

  const ledgerOf = (overrides: Partial<AccountLedger> = {}): AccountLedger => ({
    trades: [
      aTrade({ symbol: 'AAPL', closeDate: '2025-01-10', totalProfitLoss: d('12.50') }),
      aTrade({ symbol: 'KO', closeDate: '2025-01-20', totalProfitLoss: d('-3.25') }),
      aTrade({ symbol: 'AAPL', closeDate: '2025-02-03', totalProfitLoss: d('7') }),
    ],
    dividends: [aDividend('KO', '2025-03-14', '4.10')],
    positions: [{ symbol: 'KO', date: '2025-01-02', shares: d('10') }],
    companyNames: new Map([['AAPL', 'APPLE INC']]),
    openLots: [{ symbol: 'KO', side: 'long', openDate: '2025-01-02', shares: d('10'), cost: d('601.05'), price: d('60.0050'), source: 'fifo' }],
    ...overrides,
  });

  beforeAll(async () => {
    Logger.overrideLogger(false);
    dataDir = await mkdtemp(join(tmpdir(), 'sta-ledger-'));
    const adminUrl = serverDatabaseUrl();
    serverDatabase = adminUrl ? await createTestDatabase(adminUrl) : undefined;
    database = new Database(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: serverDatabase?.url }), { entities: [], migrations: MIGRATIONS });
    await database.onApplicationBootstrap();
    const [user] = await database.manager.query(`INSERT INTO users (email) VALUES ('ledger@example.com') RETURNING id`);
    const [account] = await database.manager.query(`INSERT INTO brokerage_accounts (user_id, account_number) VALUES ($1, 'L-1') RETURNING id`, [user.id]);
    userId = Number(user.id);
    accountId = Number(account.id);
  }, 60000);

  afterAll(async () => {
    await database?.onApplicationShutdown();
    await serverDatabase?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const replace = (ledger: SqlTradeLedger, contents: AccountLedger) => database.inTransaction(() => ledger.replaceAccount(userId, accountId, contents));

  it('says which months changed: all the first time, none for the same contents, and only the month that differs', async () => {
    const ledger = new SqlTradeLedger(database, new ReportDataChanges());
    expect(await replace(ledger, ledgerOf())).toEqual({ monthsChanged: ['2025-01', '2025-02', '2025-03'] });
    expect(await replace(ledger, ledgerOf())).toEqual({ monthsChanged: [] });

    // The same trades in another order (their order is bookkeeping), and new positions and names: nothing the months show.
    const [first, second, third] = ledgerOf().trades;
    const reordered = ledgerOf({ trades: [third, second, first], positions: [], companyNames: new Map() });
    expect(await replace(ledger, reordered)).toEqual({ monthsChanged: [] });

    // One cent more on one trade; one cent more on the dividend; a month's only trade gone.
    expect(await replace(ledger, ledgerOf({ trades: [first, { ...second, totalProfitLoss: d('-3.24') }, third] }))).toEqual({ monthsChanged: ['2025-01'] });
    expect(await replace(ledger, ledgerOf({ dividends: [aDividend('KO', '2025-03-14', '4.11')] }))).toEqual({ monthsChanged: ['2025-01', '2025-03'] });
    expect(await replace(ledger, ledgerOf({ dividends: [aDividend('KO', '2025-03-14', '4.11')], trades: [first, second] }))).toEqual({
      monthsChanged: ['2025-02'],
    });

    const [stored] = await database.manager.query(
      `SELECT count(*)::int AS trades, sum(profit_loss)::text AS total FROM closed_trades WHERE account_id = $1`,
      [accountId],
    );
    expect(stored).toEqual({ trades: 2, total: expect.stringMatching(/^9\.25(0*)$/) });
  });

  describe('a ledger in making (its trades given as matching makes them)', () => {
    /** Every row the ledger's tables and the user's rollups hold, as text. */
    const stored = async () => {
      const all: Record<string, unknown[]> = {};
      for (const [table, owner, order] of [
        ['closed_trades', 'account_id', 'seq'],
        ['dividends', 'account_id', 'seq'],
        ['position_history', 'account_id', 'symbol, as_of'],
        ['open_lots', 'account_id', 'seq'],
        ['securities', 'account_id', 'symbol'],
        ['daily_symbol_totals', 'user_id', 'symbol, day'],
        ['daily_totals', 'user_id', 'day'],
        ['symbol_totals', 'user_id', 'symbol'],
        ['trade_statistic_groups', 'user_id', 'grouping, side, key'],
      ]) {
        const rows: Record<string, unknown>[] = await database.manager.query(`SELECT * FROM ${table} WHERE ${owner} = $1 ORDER BY ${order}`, [owner === 'user_id' ? userId : accountId]);
        all[table] = rows.map(({ id: _id, updated_at: _updated, created_at: _created, ...row }) => JSON.stringify(row));
      }
      return all;
    };

    /**
     * The ledger's trades in two batches, the second given once the writer has taken the first, and
     * the rest of the ledger (no trade: they are only in the batches) once both are taken (or after two
     * seconds, which a writer that waited for the whole ledger before taking a trade would show in `events`).
     */
    const inMaking = (ledger: AccountLedger, failure?: Error) => {
      const events: string[] = [];
      let timer: NodeJS.Timeout | undefined;
      let whole: () => void = () => undefined;
      let broken: (error: Error) => void = () => undefined;
      const wholeLedger = new Promise<LedgerRest>((resolve, reject) => {
        whole = () => {
          clearTimeout(timer);
          const { dividends, positions, companyNames, openLots } = ledger;
          resolve({ dividends, positions, companyNames, openLots });
        };
        broken = reject;
        timer = setTimeout(() => {
          events.push('whole, no trade taken');
          whole();
        }, 2000);
      });
      wholeLedger.catch(() => undefined);
      async function* trades(): AsyncGenerator<readonly LedgerTrade[]> {
        events.push('first batch taken');
        yield ledger.trades.slice(0, 2);
        events.push('second batch taken');
        if (failure !== undefined) {
          clearTimeout(timer);
          broken(failure);
          throw failure;
        }
        yield ledger.trades.slice(2);
        events.push('whole');
        whole();
      }
      return { making: { trades: trades(), rest: wholeLedger }, events };
    };

    it('writes the trades as they come, before the ledger is whole, and the same rows as the whole ledger', async () => {
      const ledger = new SqlTradeLedger(database, new ReportDataChanges());
      const contents = ledgerOf({ trades: [...ledgerOf().trades, aTrade({ symbol: 'AAPL', closeDate: '2025-02-03', totalProfitLoss: d('7') })] });
      await replace(ledger, contents);
      const whole = await stored();
      await replace(ledger, ledgerOf({ trades: [], dividends: [], positions: [], openLots: [] }));
      const { making, events } = inMaking(contents);
      expect(await database.inTransaction(() => ledger.replaceAccount(userId, accountId, making))).toEqual({ monthsChanged: ['2025-01', '2025-02', '2025-03'] });
      expect(events).toEqual(['first batch taken', 'second batch taken', 'whole']);
      expect(await stored()).toEqual(whole);
    });

    it('fails with the matching, writing nothing', async () => {
      const ledger = new SqlTradeLedger(database, new ReportDataChanges());
      await replace(ledger, ledgerOf());
      const before = await stored();
      const { making } = inMaking(ledgerOf(), new Error('matching failed'));
      await expect(database.inTransaction(() => ledger.replaceAccount(userId, accountId, making))).rejects.toThrow('matching failed');
      expect(await stored()).toEqual(before);
    });

    it('gathers the whole ledger first when the journal has trades to carry over', async () => {
      const ledger = new SqlTradeLedger(database, new ReportDataChanges());
      await replace(ledger, ledgerOf());
      const [trade] = await database.manager.query(
        `INSERT INTO journal_trades (user_id, trade_id, account_id, close_fill, symbol, side, open_date, close_date, volume, profit_loss)
         SELECT user_id, trade_id, account_id, close_fill, symbol, side, open_date, close_date, volume, profit_loss
           FROM closed_trades WHERE account_id = $1 ORDER BY seq LIMIT 1 RETURNING trade_id`,
        [accountId],
      );
      const whole = await stored();
      const { making, events } = inMaking(ledgerOf());
      await database.inTransaction(() => ledger.replaceAccount(userId, accountId, making));
      expect(events).toEqual(['first batch taken', 'second batch taken', 'whole']);
      expect(await stored()).toEqual(whole);
      // The trade is derived again: its journal stays its own.
      expect(await database.manager.query(`SELECT trade_id FROM journal_trades WHERE account_id = $1`, [accountId])).toEqual([{ trade_id: trade.trade_id }]);
      await database.manager.query(`DELETE FROM journal_trades WHERE account_id = $1`, [accountId]);
    });
  });

  it('keeps the open lots as given, replacing the earlier ones', async () => {
    const ledger = new SqlTradeLedger(database, new ReportDataChanges());
    const lots = async () =>
      database.manager.query(
        `SELECT symbol, side, to_char(open_date, 'YYYY-MM-DD') AS open_date, shares::text, cost::text, price::text, source
           FROM open_lots WHERE account_id = $1 ORDER BY seq`,
        [accountId],
      );
    await replace(ledger, ledgerOf());
    expect(await lots()).toEqual([{ symbol: 'KO', side: 'long', open_date: '2025-01-02', shares: '10', cost: '601.05', price: '60.005', source: 'fifo' }]);
    const short = { symbol: 'TSLA', side: 'short', openDate: '2025-02-03', shares: d('2.5'), cost: d('500'), price: null, source: 'broker' } as const;
    await replace(ledger, ledgerOf({ openLots: [short] }));
    expect(await lots()).toEqual([{ symbol: 'TSLA', side: 'short', open_date: '2025-02-03', shares: '2.5', cost: '500', price: null, source: 'broker' }]);
  });

  it('appends after the stored days: trades and dividends after the stored ones, the touched symbols’ open lots and names replaced', async () => {
    const changes = new ReportDataChanges();
    const versions = new InProcessReportVersions(changes);
    const ledger = new SqlTradeLedger(database, changes);
    await replace(ledger, ledgerOf({ openLots: [...ledgerOf().openLots, { symbol: 'AAPL', side: 'long', openDate: '2025-01-05', shares: d('1'), cost: d('150'), price: null, source: 'broker' }] }));
    const before = await versions.current(userId);
    const from = await ledger.openLots(accountId, [wholeBook('KO', 'long'), wholeBook('KO', 'short')]);
    const change = await database.inTransaction(() =>
      ledger.appendToAccount(userId, accountId, {
        from,
        after: '2025-03-14',
        symbols: ['KO'],
        trades: [aTrade({ symbol: 'KO', closeDate: '2025-04-01', totalProfitLoss: d('5') }), aTrade({ symbol: 'KO', closeDate: '2025-05-02', totalProfitLoss: d('1') })],
        dividends: [aDividend('KO', '2025-04-15', '4.20')],
        positions: [{ symbol: 'KO', date: '2025-04-01', shares: d('4') }],
        companyNames: new Map([['KO', 'COCA-COLA CO']]),
        openLots: [{ symbol: 'KO', side: 'long', openDate: '2025-01-02', shares: d('4'), cost: d('240.42'), price: d('60.0050'), source: 'fifo' }],
      }),
    );
    expect(change).toEqual({ monthsChanged: ['2025-04', '2025-05'] });
    expect(await versions.current(userId)).toBeGreaterThan(before);
    const rows = async (sql: string) => database.manager.query(sql, [accountId]);
    expect(await rows(`SELECT symbol, to_char(close_date, 'YYYY-MM-DD') AS day FROM closed_trades WHERE account_id = $1 ORDER BY seq`)).toEqual([
      { symbol: 'AAPL', day: '2025-01-10' },
      { symbol: 'KO', day: '2025-01-20' },
      { symbol: 'AAPL', day: '2025-02-03' },
      { symbol: 'KO', day: '2025-04-01' },
      { symbol: 'KO', day: '2025-05-02' },
    ]);
    expect(await rows(`SELECT symbol, amount::text FROM dividends WHERE account_id = $1 ORDER BY seq`)).toEqual([
      { symbol: 'KO', amount: '4.1' },
      { symbol: 'KO', amount: '4.2' },
    ]);
    expect(await rows(`SELECT symbol, shares::text FROM open_lots WHERE account_id = $1 ORDER BY symbol, seq`)).toEqual([
      { symbol: 'AAPL', shares: '1' },
      { symbol: 'KO', shares: '4' },
    ]);
    expect(await rows(`SELECT symbol, company_name FROM securities WHERE account_id = $1 ORDER BY symbol`)).toEqual([
      { symbol: 'AAPL', company_name: 'APPLE INC' },
      { symbol: 'KO', company_name: 'COCA-COLA CO' },
    ]);
    // KO had no name before the append: its totals take the one the append brought.
    expect(await rows(`SELECT symbol, company_name, trade_count, current_shares::text FROM symbol_totals WHERE account_id = $1 ORDER BY symbol`)).toEqual([
      { symbol: 'AAPL', company_name: 'APPLE INC', trade_count: 2, current_shares: '0' },
      { symbol: 'KO', company_name: 'COCA-COLA CO', trade_count: 3, current_shares: '4' },
    ]);
    versions.onModuleDestroy();
  });

  it('appending from the books it went on from, writes only the open lots that changed, and the books read back as given', async () => {
    const ledger = new SqlTradeLedger(database, new ReportDataChanges());
    const lot = (openDate: IsoDate, shares: string, symbol = 'KO'): LedgerOpenLot => ({ symbol, side: 'long', openDate, shares: d(shares), cost: d(shares).mul(60), price: d('60'), source: 'broker' });
    await replace(ledger, ledgerOf({ openLots: [lot('2025-01-02', '10'), lot('2025-01-03', '5'), lot('2025-01-06', '7'), lot('2025-01-07', '1', 'AAPL')] }));
    const stored = async () =>
      (await database.manager.query(`SELECT seq, symbol, to_char(open_date, 'YYYY-MM-DD') AS day, shares::text FROM open_lots WHERE account_id = $1 ORDER BY seq`, [accountId])) as {
        seq: number;
        symbol: string;
        day: string;
        shares: string;
      }[];
    const [first, second, third, apple] = await stored();
    const from = await ledger.openLots(accountId, [wholeBook('KO', 'long')]);
    expect(from.openLotKeys).toEqual([first.seq, second.seq, third.seq]);
    // A sale of 12 shares: the first lot gone, 3 of the second's 5 left; then a purchase.
    await database.inTransaction(() =>
      ledger.appendToAccount(userId, accountId, {
        ...ledgerOf({ trades: [], dividends: [], positions: [], companyNames: new Map() }),
        after: '2025-03-14',
        symbols: ['KO'],
        openLots: [lot('2025-01-03', '3'), lot('2025-01-06', '7'), lot('2025-04-01', '2')],
        from,
      }),
    );
    const after = await stored();
    expect(after.map(({ symbol, day, shares }) => [symbol, day, shares])).toEqual([
      ['KO', '2025-01-03', '3'],
      ['KO', '2025-01-06', '7'],
      ['AAPL', '2025-01-07', '1'],
      ['KO', '2025-04-01', '2'],
    ]);
    // The lots that stayed kept their rows (their keys); the new one came after every stored lot.
    expect(after.slice(0, 3).map((row) => row.seq)).toEqual([second.seq, third.seq, apple.seq]);
    expect(after[3].seq).toBeGreaterThan(apple.seq);
    const books = await ledger.openLots(accountId, [wholeBook('KO', 'long')]);
    expect(books.openLots.map((each) => [each.openDate, each.shares.toString(), each.cost.toString()])).toEqual([
      ['2025-01-03', '3', '180'],
      ['2025-01-06', '7', '420'],
      ['2025-04-01', '2', '120'],
    ]);
  });

  it('reads of a book the oldest lots by whole open dates and those of the dates wanted, what the others hold, and an append from them keeps the order', async () => {
    const ledger = new SqlTradeLedger(database, new ReportDataChanges());
    const lot = (openDate: IsoDate, shares: string): LedgerOpenLot => ({ symbol: 'KO', side: 'long', openDate, shares: d(shares), cost: d(shares).mul(60), price: d('60'), source: 'fifo' });
    const book = [lot('2025-01-02', '10'), lot('2025-01-03', '5'), lot('2025-01-03', '5'), lot('2025-01-06', '7'), lot('2025-01-07', '1'), lot('2025-01-08', '2'), lot('2025-01-09', '3')];
    await replace(ledger, ledgerOf({ openLots: [...book, { ...lot('2025-01-02', '4'), side: 'short' }] }));
    const figures = (lots: readonly LedgerOpenLot[]) => lots.map((each) => `${each.openDate} ${each.shares.toString()}`);
    const read = async (wanted: Partial<WantedBook>) => {
      const books = await ledger.openLots(accountId, [wantedBook('KO', 'long', wanted)]);
      return { lots: figures(books.openLots), elsewhere: books.heldElsewhere.map((each) => `${each.side} ${each.shares.toString()}`) };
    };
    // More than 12 shares: the first date's 10 and all of the next date's (the 12th share is in it).
    expect(await read({ oldestShares: d('12') })).toEqual({ lots: ['2025-01-02 10', '2025-01-03 5', '2025-01-03 5'], elsewhere: ['long 13'] });
    expect(await read({ oldestShares: d('10') })).toEqual({ lots: ['2025-01-02 10', '2025-01-03 5', '2025-01-03 5'], elsewhere: ['long 13'] });
    expect(await read({ oldestShares: d('9.9999') })).toEqual({ lots: ['2025-01-02 10'], elsewhere: ['long 23'] });
    expect(await read({ openDates: ['2025-01-07', '2025-01-09', '2025-02-01'] })).toEqual({ lots: ['2025-01-07 1', '2025-01-09 3'], elsewhere: ['long 29'] });
    expect(await read({ oldestShares: d('1'), openDates: ['2025-01-02', '2025-01-08'] })).toEqual({ lots: ['2025-01-02 10', '2025-01-08 2'], elsewhere: ['long 21'] });
    expect(await read({ oldestShares: d('100') })).toEqual({ lots: figures(book), elsewhere: ['long 0'] });
    expect(await read({})).toEqual({ lots: [], elsewhere: ['long 33'] });
    expect(await read({ whole: true, oldestShares: d('1') })).toEqual({ lots: figures(book), elsewhere: [] });
    // A day's sales took the lots of 01-02 and one of 01-03's two whole, 2 shares of 01-08's lot, and opened one: the books read back as the match left them.
    const from = await ledger.openLots(accountId, [wantedBook('KO', 'long', { oldestShares: d('15'), openDates: ['2025-01-08'] })]);
    expect(figures(from.openLots)).toEqual(['2025-01-02 10', '2025-01-03 5', '2025-01-03 5', '2025-01-08 2']);
    await database.inTransaction(() =>
      ledger.appendToAccount(userId, accountId, {
        ...ledgerOf({ trades: [], dividends: [], positions: [], companyNames: new Map() }),
        after: '2025-03-14',
        symbols: ['KO'],
        openLots: [lot('2025-01-03', '5'), lot('2025-04-01', '1')],
        from,
      }),
    );
    expect(figures((await ledger.openLots(accountId, [wholeBook('KO', 'long')])).openLots)).toEqual([
      '2025-01-03 5',
      '2025-01-06 7',
      '2025-01-07 1',
      '2025-01-09 3',
      '2025-04-01 1',
    ]);
    expect(figures((await ledger.openLots(accountId, [wholeBook('KO', 'short')])).openLots)).toEqual(['2025-01-02 4']);
  });

  it('raises the report version only after the commit, so no reader sees the new version before the new data', async () => {
    const changes = new ReportDataChanges();
    const versions = new InProcessReportVersions(changes);
    const ledger = new SqlTradeLedger(database, changes);
    const countOutside = async () => {
      // The pool's connection, not the transaction's (on a server a different connection; the embedded engine is one session).
      if (database.kind === 'embedded') return null;
      const [row] = await database.dataSource.manager.query(`SELECT count(*)::int AS n FROM closed_trades WHERE account_id = $1`, [accountId]);
      return row.n as number;
    };
    await replace(ledger, ledgerOf());
    const committed = await versions.current(userId);
    expect(committed).toBeGreaterThan(0);

    await database.inTransaction(async () => {
      await ledger.replaceAccount(userId, accountId, ledgerOf({ trades: [] }));
      // Written, not committed: the version still names the data every other connection sees.
      expect(await versions.current(userId)).toBe(committed);
      if (database.kind === 'server') expect(await countOutside()).toBe(3);
    });
    const next = await versions.current(userId);
    expect(next).toBeGreaterThan(committed);
    if (database.kind === 'server') expect(await countOutside()).toBe(0);

    // A rolled-back write announces nothing.
    await expect(
      database.inTransaction(async () => {
        await ledger.replaceAccount(userId, accountId, ledgerOf());
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await versions.current(userId)).toBe(next);
    versions.onModuleDestroy();
  });
});
