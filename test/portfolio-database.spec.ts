import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { TradingCalendar } from '@app/calendar';
import { Database, MIGRATIONS } from '@app/persistence';
import { loadConfig } from '@app/shared';
import { PORTFOLIO_ENTITIES } from '@app/portfolio';
import { EndOfDaySnapshots } from '../libs/portfolio/src/application/end-of-day-snapshots.service.js';
import { HoldingsService } from '../libs/portfolio/src/application/holdings.service.js';
import { MarketPrices } from '../libs/portfolio/src/application/market-prices.service.js';
import { PositionsService } from '../libs/portfolio/src/application/positions.service.js';
import { PortfolioSettings } from '../libs/portfolio/src/application/portfolio-settings.js';
import { Decimal } from '@app/shared/domain';
import type { HoldingDraft } from '../libs/portfolio/src/domain/holding.js';
import { DuplicateHoldingError } from '../libs/portfolio/src/domain/portfolio.errors.js';
import { portfolioTotals } from '../libs/portfolio/src/domain/portfolio-totals.js';
import { TypeOrmHoldings } from '../libs/portfolio/src/infrastructure/persistence/typeorm-holdings.repository.js';
import { TypeOrmQuoteCache } from '../libs/portfolio/src/infrastructure/persistence/typeorm-quote-cache.repository.js';
import { TypeOrmSnapshots } from '../libs/portfolio/src/infrastructure/persistence/typeorm-snapshots.repository.js';
import { SqlImportedPositions } from '../libs/portfolio/src/infrastructure/persistence/sql-imported-positions.js';
import { InMemoryMarketDataProvider } from '../libs/portfolio/src/testing/in-memory-market-data.provider.js';
import { FixedClock } from '@app/calendar/testing';
import { createTestDatabase, serverDatabaseUrl, type TestDatabase } from './support/test-database.js';

/**
 * The portfolio's TypeORM adapters against a real PostgreSQL: the embedded one by default, the server
 * named by DATABASE_URL (a fresh database on it) when set. There, two `Database` instances stand for two
 * service instances.
 */
describe('portfolio persistence (real PostgreSQL)', () => {
  let dataDir: string;
  let server: TestDatabase | undefined;
  let database: Database;
  let second: Database;
  const settings = new PortfolioSettings({ finnhubBaseUrl: 'http://unused', endOfDayGraceMs: 10 * 60_000 });

  const open = async () => {
    const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: server?.url, NODE_ENV: 'test' });
    const db = new Database(config, { entities: PORTFOLIO_ENTITIES, migrations: MIGRATIONS });
    await db.onApplicationBootstrap();
    return db;
  };
  const draft = (symbol: string, shares: string, averageCost: string): HoldingDraft => ({
    symbol,
    holdingType: 'stock',
    shares: Decimal.of(shares),
    averageCost: Decimal.of(averageCost),
    notes: '',
    purchaseDate: null,
  });
  const newUser = async (email: string): Promise<number> =>
    Number((await database.manager.query('INSERT INTO users (email) VALUES ($1) RETURNING id', [email]))[0].id);

  beforeAll(async () => {
    Logger.overrideLogger(false);
    dataDir = await mkdtemp(join(tmpdir(), 'sta-portfolio-'));
    const adminUrl = serverDatabaseUrl();
    server = adminUrl ? await createTestDatabase(adminUrl) : undefined;
    database = await open();
    // The embedded database is one process's: the second "instance" shares it; a server gets a second pool.
    second = server ? await open() : database;
  });

  afterAll(async () => {
    if (second !== database) await second?.onApplicationShutdown();
    await database?.onApplicationShutdown();
    await server?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('stores holdings exactly, one per symbol per user, and keeps users apart', async () => {
    const holdings = new TypeOrmHoldings(database);
    const alice = await newUser('alice@example.com');
    const bob = await newUser('bob@example.com');
    const created = await holdings.create(alice, { ...draft('AAPL', '0.123456', '333.3333333333'), purchaseDate: '2024-02-29', notes: 'ira' });
    expect(created.shares.toString()).toBe('0.123456');
    expect((await holdings.findOne(alice, created.id))?.averageCost.toString()).toBe('333.3333333333');
    expect((await holdings.findOne(alice, created.id))?.purchaseDate).toBe('2024-02-29');
    await expect(holdings.create(alice, draft('AAPL', '1', '1'))).rejects.toThrow(DuplicateHoldingError);
    await holdings.create(bob, draft('AAPL', '1', '1'));

    expect(await holdings.findOne(bob, created.id)).toBeNull();
    expect(await holdings.update(bob, created.id, { shares: Decimal.of('9') })).toBeNull();
    expect(await holdings.delete(bob, created.id)).toBe(false);
    const updated = await holdings.update(alice, created.id, { shares: Decimal.of('2.5'), notes: 'moved' });
    expect([updated?.shares.toString(), updated?.notes, updated?.averageCost.toString()]).toEqual(['2.5', 'moved', '333.3333333333']);
    expect(await holdings.usersWithHoldings()).toEqual(expect.arrayContaining([alice, bob]));

    await database.manager.query('DELETE FROM users WHERE id = $1', [bob]);
    expect(await holdings.findByUser(bob)).toEqual([]);
  });

  it('the quote cache keeps the newest answer and an earlier good price after "not found"', async () => {
    const cache = new TypeOrmQuoteCache(database);
    const quote = (price: string) => ({
      symbol: 'QC',
      currentPrice: Decimal.of(price),
      change: Decimal.of('-0.5'),
      percentChange: null,
      high: null,
      low: null,
      open: null,
      previousClose: Decimal.of('10.5'),
      quotedAt: new Date('2025-11-19T20:59:59Z'),
    });
    await cache.saveQuote(quote('10.0001'), new Date('2025-11-19T21:00:00Z'));
    await cache.saveQuote(quote('9'), new Date('2025-11-19T20:00:00Z')); // older: ignored
    await cache.saveCompanyName('QC', 'Quote Co');
    let known = (await cache.findBySymbols(['QC', 'NONE'])).get('QC')!;
    expect([known.quote?.currentPrice.toString(), known.quote?.change?.toString(), known.companyName, known.notFound]).toEqual(['10.0001', '-0.5', 'Quote Co', false]);

    await cache.markNotFound('QC', new Date('2025-11-19T22:00:00Z'));
    known = (await cache.findBySymbols(['QC'])).get('QC')!;
    expect(known.notFound).toBe(true);
    expect(known.quote?.currentPrice.toString()).toBe('10.0001');
    expect(known.checkedAt).toEqual(new Date('2025-11-19T22:00:00Z'));
  });

  it('two concurrent end-of-day writes for one user and trading day leave one snapshot', async () => {
    const user = await newUser('carol@example.com');
    const snapshots = [new TypeOrmSnapshots(database), new TypeOrmSnapshots(second)];
    const eod = (takenAt: string) => ({
      userId: user,
      type: 'EOD' as const,
      takenAt: new Date(takenAt),
      tradingDate: '2025-11-19',
      notes: '',
      ...portfolioTotals([]),
    });
    const results = await Promise.all([
      snapshots[0].createEndOfDay(eod('2025-11-19T21:10:00Z')),
      snapshots[1].createEndOfDay(eod('2025-11-19T21:10:00.500Z')),
    ]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(await snapshots[0].findByUser(user, { type: 'EOD' })).toHaveLength(1);
    expect(await snapshots[0].usersWithoutEndOfDay([user], '2025-11-19')).toEqual([]);
    expect(await snapshots[0].usersWithoutEndOfDay([user], '2025-11-20')).toEqual([user]);
    // A snapshot taken by hand is not an end-of-day one and does not block it.
    await snapshots[0].create({ ...eod('2025-11-20T15:00:00Z'), type: 'MANUAL', tradingDate: null });
    expect(await snapshots[0].usersWithoutEndOfDay([user], '2025-11-20')).toEqual([user]);
  });

  it('the end-of-day job finds the users holding imported open lots, and only them', async () => {
    const [holder, emptied] = [await newUser('lots-holder@example.com'), await newUser('lots-emptied@example.com')];
    for (const user of [holder, emptied]) {
      const [account] = await database.manager.query(`INSERT INTO brokerage_accounts (user_id, account_number, is_default) VALUES ($1, 'L-1', true) RETURNING id`, [user]);
      await database.manager.query(
        `INSERT INTO open_lots (user_id, account_id, seq, symbol, side, open_date, shares, cost, price, source) VALUES ($1, $2, 1, 'LOTS', 'long', '2025-11-03', 5, 50, 10, 'fifo')`,
        [user, account.id],
      );
    }
    await database.manager.query('DELETE FROM open_lots WHERE user_id = $1', [emptied]);
    const owners = await new SqlImportedPositions(database).usersWithLots();
    expect([owners.includes(holder), owners.includes(emptied)]).toEqual([true, false]);
    expect(owners).toEqual([...owners].sort((a, b) => a - b));
  });

  it('the end-of-day job run by two instances at once writes one snapshot per user', async () => {
    const users = [await newUser('dave@example.com'), await newUser('erin@example.com')];
    const clock = new FixedClock('2025-11-21T21:15:00Z'); // Friday 16:15 EST
    const provider = new InMemoryMarketDataProvider().setPrice('EODA', '12.34').setPrice('EODB', '5');
    const instance = (db: Database) => {
      const holdingRepository = new TypeOrmHoldings(db);
      const snapshots = new TypeOrmSnapshots(db);
      const prices = new MarketPrices(provider, new TypeOrmQuoteCache(db), clock, settings);
      const holdings = new HoldingsService(holdingRepository, prices, clock, settings);
      const imported = new SqlImportedPositions(db);
      const positions = new PositionsService(imported, holdingRepository, prices, clock, settings);
      const job = new EndOfDaySnapshots(new TradingCalendar(), clock, holdingRepository, holdings, imported, positions, snapshots, prices, settings);
      return { job, holdingRepository, snapshots };
    };
    const a = instance(database);
    const b = instance(second);
    await a.holdingRepository.create(users[0], draft('EODA', '10', '10'));
    await a.holdingRepository.create(users[1], draft('EODA', '1', '10'));
    await a.holdingRepository.create(users[1], draft('EODB', '2', '4'));

    const runs = await Promise.all([a.job.runDue(), b.job.runDue()]);
    expect(runs.map((r) => r?.tradingDate)).toEqual(['2025-11-21', '2025-11-21']);
    const rows = await database.manager.query(
      `SELECT user_id, trading_date::text AS trading_date, total_value::text AS total_value FROM portfolio_snapshots
       WHERE snapshot_type = 'EOD' AND user_id = ANY($1) ORDER BY user_id`,
      [users],
    );
    expect(rows.map((r: any) => [Number(r.user_id), r.trading_date, r.total_value])).toEqual([
      [users[0], '2025-11-21', '123.40'],
      [users[1], '2025-11-21', '22.34'],
    ]);
    expect((runs[0]?.created ?? 0) + (runs[1]?.created ?? 0)).toBeGreaterThanOrEqual(2);
  });
});
