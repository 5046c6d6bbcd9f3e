import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { allRowsOfJob, Database, MIGRATIONS, type CopyJob } from '@app/persistence';
import { loadConfig } from '@app/shared';
import { Decimal } from '@app/shared/domain';
import { createTestDatabase, serverDatabaseUrl, type TestDatabase } from '../../../../../test/support/test-database.js';
import type { AccountLedger } from '../../application/trade-ledger.port.js';
import type { ClosedTrade, DividendPayment, PositionChange } from '../../domain/closed-trade.js';
import { PROFIT_LOSS_EDGES } from '../../domain/trade-statistics.js';
import { aDividend, aTrade } from '../../testing/in-memory-trade-reports.js';
import { rollupJobs } from './ledger-rollups.js';
import { ReportDataChanges } from './report-data-changes.js';
import { refreshTradeReports } from './report-rollups.js';
import { SqlTradeLedger } from './sql-trade-ledger.js';

/** Each rollup table's columns, in the order `rollupJobs` writes them. */
const TABLES: Record<string, string[]> = {};

/** A ledger with what the rollups tell apart: figures of 0 to 10 decimals, bucket edges, breakeven and tiny P&L, both sides and sources, the empty symbol, reversed dividends, positions on many days. */
function ledgerOf(seed: number): AccountLedger {
  let state = seed;
  const next = (below: number): number => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return Math.floor((state / 2 ** 31) * below);
  };
  const figure = (whole: number): Decimal => {
    const places = next(11);
    const units = BigInt(next(whole)) * 10n ** BigInt(places) + BigInt(next(10 ** Math.min(places, 6)));
    const value = Decimal.fromUnits(units * 10n ** BigInt(Decimal.SCALE - places));
    return next(3) === 0 ? value.neg() : value;
  };
  const symbols = ['AAPL', 'KO', 'MSFT', 'BRK.B', 'SPY', 'TSLA', 'X', ''];
  const day = (offset: number) => new Date(Date.UTC(2023, 0, 2) + offset * 86_400_000).toISOString().slice(0, 10);
  const trades: ClosedTrade[] = [];
  for (let index = 0; index < 600; index += 1) {
    const edge = PROFIT_LOSS_EDGES[next(PROFIT_LOSS_EDGES.length)];
    const pnl = [Decimal.of(edge), Decimal.ZERO, Decimal.parse('0.004'), Decimal.parse('-0.004')][next(12)] ?? figure(20_000);
    const holdingDays = [0, 1, 7, 8, 30, 31, 365, 366, 900][next(9)];
    const close = next(400);
    trades.push(
      aTrade({
        symbol: symbols[next(symbols.length)],
        closeDate: day(close),
        openDate: day(close - holdingDays),
        holdingDays,
        totalProfitLoss: pnl,
        side: next(4) === 0 ? 'short' : 'long',
        source: next(3) === 0 ? 'fifo' : 'broker',
        volume: figure(500).abs(),
        costBasis: figure(50_000).abs(),
        returnPercentage: figure(300),
      }),
    );
  }
  // Sums past 2^53 units ($900,719.92…), where they are no longer kept in a number, and a loss that brings one back below.
  for (const [pnl, costBasis] of [['800000.1234567891', '2500000.5'], ['750000.5', '4000000'], ['-1900000.25', '9000000.0000000001']]) {
    trades.push(aTrade({ symbol: 'AAPL', closeDate: day(7), openDate: day(3), holdingDays: 4, totalProfitLoss: Decimal.parse(pnl), volume: Decimal.parse('1000000'), costBasis: Decimal.parse(costBasis), returnPercentage: Decimal.parse('32.5') }));
  }
  const dividends: DividendPayment[] = Array.from({ length: 80 }, () => aDividend(symbols[next(symbols.length)], day(next(420)), figure(300).toString()));
  const positions: PositionChange[] = [];
  for (const symbol of symbols.slice(0, 6)) {
    for (let offset = next(30); offset < 400; offset += 1 + next(40)) positions.push({ symbol, date: day(offset), shares: figure(2_000) });
  }
  // A symbol held but never traded or paid.
  positions.push({ symbol: 'HELD', date: day(5), shares: Decimal.parse('12.5') });
  const companyNames = new Map([
    ['AAPL', 'APPLE INC'],
    ['KO', 'COCA COLA CO'],
    ['HELD', 'HELD ONLY CORP'],
  ]);
  return { trades, dividends, positions, companyNames, openLots: [] };
}

describe('rollups from a ledger in memory (real database)', () => {
  let dataDir: string;
  let serverDatabase: TestDatabase | undefined;
  let database: Database;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    dataDir = await mkdtemp(join(tmpdir(), 'sta-rollups-'));
    const adminUrl = serverDatabaseUrl();
    serverDatabase = adminUrl ? await createTestDatabase(adminUrl) : undefined;
    database = new Database(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: serverDatabase?.url }), { entities: [], migrations: MIGRATIONS });
    await database.onApplicationBootstrap();
    for (const job of rollupJobs(0, 0, { trades: [], dividends: [], positions: [], companyNames: new Map() })) TABLES[job.target.table] = [...job.target.columns];
  }, 60000);

  afterAll(async () => {
    await database?.onApplicationShutdown();
    await serverDatabase?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const trader = async (email: string, ...accounts: string[]) => {
    const [user] = await database.manager.query(`INSERT INTO users (email) VALUES ($1) RETURNING id`, [email]);
    const ids: number[] = [];
    for (const account of accounts) {
      const [row] = await database.manager.query(`INSERT INTO brokerage_accounts (user_id, account_number) VALUES ($1, $2) RETURNING id`, [user.id, account]);
      ids.push(Number(row.id));
    }
    return { userId: Number(user.id), accounts: ids };
  };
  const ledgerWriter = () => new SqlTradeLedger(database, new ReportDataChanges());

  /** A user's rollup rows as the database gives their text, each table's rows sorted. */
  const stored = async (userId: number) => {
    const tables: Record<string, (string | null)[][]> = {};
    for (const [table, columns] of Object.entries(TABLES)) {
      const rows: Record<string, string | null>[] = await database.manager.query(
        `SELECT ${columns.map((column) => `${column}::text AS ${column}`).join(', ')} FROM ${table} WHERE user_id = $1`,
        [userId],
      );
      tables[table] = sorted(rows.map((row) => columns.map((column) => row[column])));
    }
    return tables;
  };
  /** The rows `rollupJobs` would write, as text the same way. */
  const computed = async (jobs: CopyJob[]) =>
    Object.fromEntries(
      await Promise.all(jobs.map(async (job) => [job.target.table, sorted((await allRowsOfJob(job)).map((row) => row.map((value) => (value === null ? null : String(value)))))])),
    );
  const sorted = (rows: (string | null)[][]) => rows.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));

  it('writes every column of the rollup tables (a column added to them needs its figure here too)', async () => {
    for (const [table, columns] of Object.entries(TABLES)) {
      const rows: { column_name: string }[] = await database.manager.query(
        `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`,
        [table],
      );
      expect([table, rows.map((row) => row.column_name).sort()]).toEqual([table, [...columns].sort()]);
    }
  });

  it.each([1, 2, 3])('gives the rows the statements give, to the character (ledger %i)', async (seed) => {
    const { userId, accounts } = await trader(`rollups-${seed}@example.com`, `R-${seed}`);
    const ledger = ledgerOf(seed);
    await database.inTransaction(() => ledgerWriter().replaceAccount(userId, accounts[0], ledger));
    await database.inTransaction(() => refreshTradeReports(database, userId));
    const statements = await stored(userId);
    expect(statements.trade_statistic_groups.length).toBeGreaterThan(100);
    expect(await computed(rollupJobs(userId, accounts[0], ledger))).toEqual(statements);
    // What the ledger wrote for the user's only account is those rows too.
    await database.inTransaction(() => ledgerWriter().replaceAccount(userId, accounts[0], ledger));
    expect(await stored(userId)).toEqual(statements);
  }, 60000);

  it('sums in what the user’s other accounts hold', async () => {
    const { userId, accounts } = await trader('two-accounts@example.com', 'T-1', 'T-2');
    await database.inTransaction(() => ledgerWriter().replaceAccount(userId, accounts[1], ledgerOf(7)));
    await database.inTransaction(() => ledgerWriter().replaceAccount(userId, accounts[0], ledgerOf(8)));
    const written = await stored(userId);
    await database.inTransaction(() => refreshTradeReports(database, userId));
    expect(written).toEqual(await stored(userId));
    const days = written.daily_totals.map(([, day]) => day);
    expect(new Set(days).size).toBe(days.length);
    expect(written.symbol_totals.some(([, account]) => account === String(accounts[1]))).toBe(true);
  }, 60000);
});
