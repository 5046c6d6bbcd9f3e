import { InMemoryImportedPositions } from '../testing/in-memory-imported-positions.js';
import { PositionsService } from './positions.service.js';
import { Logger } from '@nestjs/common';
import { TradingCalendar } from '@app/calendar';
import { Decimal } from '@app/shared/domain';
import type { HoldingDraft } from '../domain/holding.js';
import { SnapshotNotFoundError } from '../domain/portfolio.errors.js';
import { InMemoryHoldings } from '../testing/in-memory-holdings.js';
import { InMemoryMarketDataProvider } from '../testing/in-memory-market-data.provider.js';
import { InMemoryQuoteCache } from '../testing/in-memory-quote-cache.js';
import { InMemorySnapshots } from '../testing/in-memory-snapshots.js';
import { FixedClock } from '@app/calendar/testing';
import { EndOfDaySnapshots } from './end-of-day-snapshots.service.js';
import { HoldingsService } from './holdings.service.js';
import { MarketPrices } from './market-prices.service.js';
import { PortfolioSettings } from './portfolio-settings.js';
import { SnapshotsService } from './snapshots.service.js';

const draft = (symbol: string, shares: string, averageCost: string): HoldingDraft => ({
  symbol,
  holdingType: 'stock',
  shares: Decimal.of(shares),
  averageCost: Decimal.of(averageCost),
  notes: '',
  purchaseDate: null,
});

describe('snapshots', () => {
  const settings = new PortfolioSettings({ finnhubBaseUrl: 'http://unused', endOfDayGraceMs: 10 * 60_000 });
  let clock: FixedClock;
  let provider: InMemoryMarketDataProvider;
  let cache: InMemoryQuoteCache;
  let storedHoldings: InMemoryHoldings;
  let storedSnapshots: InMemorySnapshots;
  let prices: MarketPrices;
  let holdings: HoldingsService;
  let imported: InMemoryImportedPositions;
  let positions: PositionsService;
  let snapshots: SnapshotsService;
  const endOfDay = () =>
    new EndOfDaySnapshots(new TradingCalendar(), clock, storedHoldings, holdings, imported, positions, storedSnapshots, prices, settings);

  beforeAll(() => Logger.overrideLogger(false));

  beforeEach(async () => {
    clock = new FixedClock('2025-11-19T15:00:00Z'); // Wednesday 10:00 EST
    provider = new InMemoryMarketDataProvider().setPrice('AAPL', '200').setPrice('MSFT', '400.125');
    cache = new InMemoryQuoteCache();
    storedHoldings = new InMemoryHoldings();
    storedSnapshots = new InMemorySnapshots();
    prices = new MarketPrices(provider, cache, clock, settings);
    holdings = new HoldingsService(storedHoldings, prices, clock, settings);
    imported = new InMemoryImportedPositions();
    positions = new PositionsService(imported, storedHoldings, prices, clock, settings);
    snapshots = new SnapshotsService(holdings, positions, storedSnapshots, clock);
    await holdings.create(1, draft('AAPL', '10', '150'));
    await holdings.create(1, draft('MSFT', '3', '300'));
    await holdings.create(2, draft('AAPL', '1', '100'));
  });

  it('a snapshot equals the listed holdings at that moment, to the cent', async () => {
    const listed = await holdings.list(1);
    const snapshot = await snapshots.take(1, 'MANUAL', 'before earnings');
    const sum = (pick: (v: (typeof listed)[number]) => Decimal) => Decimal.sum(listed.map(pick)).toFixed(2);
    expect(snapshot.totalValue.toFixed(2)).toBe(sum((h) => h.valuation.currentValue!)); // 2000 + 1200.38
    expect(snapshot.totalValue.toFixed(2)).toBe('3200.38');
    expect(snapshot.totalCost.toFixed(2)).toBe(sum((h) => h.valuation.totalCost));
    expect(snapshot.totalGainLoss.toFixed(2)).toBe('800.38');
    expect(snapshot.totalReturnPct.toFixed(2)).toBe('33.35');
    expect(snapshot).toMatchObject({ userId: 1, type: 'MANUAL', notes: 'before earnings', holdingsCount: 2, tradingDate: null });
    expect(snapshot.takenAt).toEqual(clock.now());
  });

  it('history is newest first, filtered by days and type; delete names type and time, only for the owner', async () => {
    const old = await snapshots.take(1, 'AUTOMATIC', '');
    clock.advance(40 * 86_400_000);
    const recent = await snapshots.take(1, 'MANUAL', '');
    clock.advance(1000);
    const newest = await snapshots.take(1, 'MANUAL', '');
    expect((await snapshots.history(1, 30)).map((s) => s.id)).toEqual([newest.id, recent.id]);
    expect((await snapshots.history(1, 0)).map((s) => s.id)).toEqual([newest.id, recent.id, old.id]);
    expect((await snapshots.history(1, 0, 'AUTOMATIC')).map((s) => s.id)).toEqual([old.id]);
    expect(await snapshots.history(2, 0)).toEqual([]);

    await expect(snapshots.delete(2, recent.id)).rejects.toThrow(SnapshotNotFoundError);
    expect(await snapshots.delete(1, recent.id)).toBe(`Deleted MANUAL snapshot taken at ${recent.takenAt.toISOString()}`);
    await expect(snapshots.delete(1, recent.id)).rejects.toThrow(SnapshotNotFoundError);
  });

  it('end of day: nothing while the market trades; after the close one EOD snapshot per user at closing prices', async () => {
    await holdings.list(1); // prices cached during the day
    expect(await endOfDay().runDue()).toBeNull();

    clock.set('2025-11-19T21:10:00Z'); // 16:10 EST
    provider.setPrice('AAPL', '201');
    const run = await endOfDay().runDue();
    expect(run).toEqual({ tradingDate: '2025-11-19', created: 2 });
    const eod = storedSnapshots.rows.filter((s) => s.type === 'EOD');
    expect(eod.map((s) => [s.userId, s.tradingDate, s.totalValue.toFixed(2)])).toEqual([
      [1, '2025-11-19', '3210.38'], // AAPL re-priced after the close: 2010 + 1200.38
      [2, '2025-11-19', '201.00'],
    ]);
  });

  it('end of day runs once per user and trading day, also from two instances at once', async () => {
    clock.set('2025-11-19T21:30:00Z');
    const [a, b] = await Promise.all([endOfDay().runDue(), endOfDay().runDue()]);
    expect((a?.created ?? 0) + (b?.created ?? 0)).toBe(2);
    expect(await endOfDay().runDue()).toEqual({ tradingDate: '2025-11-19', created: 0 });
    clock.set('2025-11-20T13:00:00Z'); // next morning before the open: still the 19th, nothing new
    expect(await endOfDay().runDue()).toEqual({ tradingDate: '2025-11-19', created: 0 });
    expect(storedSnapshots.rows.filter((s) => s.type === 'EOD')).toHaveLength(2);
  });

  it("end of day: a user whose first holding comes after the day's run gets that day's snapshot from the next run", async () => {
    clock.set('2025-11-19T21:30:00Z');
    const job = endOfDay(); // one instance: its runs share one object
    expect(await job.runDue()).toEqual({ tradingDate: '2025-11-19', created: 2 });
    await holdings.create(3, draft('MSFT', '2', '350'));
    clock.set('2025-11-19T21:31:00Z');
    expect(await job.runDue()).toEqual({ tradingDate: '2025-11-19', created: 1 });
    expect(storedSnapshots.rows.filter((s) => s.type === 'EOD').map((s) => [s.userId, s.tradingDate, s.totalValue.toFixed(2)])).toEqual([
      [1, '2025-11-19', '3200.38'],
      [2, '2025-11-19', '200.00'],
      [3, '2025-11-19', '800.25'],
    ]);
    expect(await job.runDue()).toEqual({ tradingDate: '2025-11-19', created: 0 });
  });

  it('end of day without a provider key uses the last known prices', async () => {
    provider.setConfigured(false);
    clock.set('2025-11-22T12:00:00Z'); // Saturday: Friday's EOD is due
    expect(await endOfDay().runDue()).toEqual({ tradingDate: '2025-11-21', created: 2 });
    expect(provider.calls).toEqual([]);
    const eod = storedSnapshots.rows.find((s) => s.userId === 1)!;
    expect(eod.unpricedCount).toBe(2);
    // Nothing priced: nothing valued, rather than the holdings' cost shown as their value.
    expect([eod.totalValue.toFixed(2), eod.totalCost.toFixed(2)]).toEqual(['0.00', '0.00']);
  });

  it('end of day stopped (the service shutting down) leaves the users it did not reach to the next run', async () => {
    clock.set('2025-11-19T21:30:00Z');
    let users = 0;
    const job = endOfDay();
    expect(await job.runDue(() => users++ >= 1)).toEqual({ tradingDate: '2025-11-19', created: 1 });
    expect(storedSnapshots.rows.filter((s) => s.type === 'EOD').map((s) => s.userId)).toEqual([1]);
    expect(await job.runDue()).toEqual({ tradingDate: '2025-11-19', created: 1 });
    expect(storedSnapshots.rows.filter((s) => s.type === 'EOD').map((s) => s.userId)).toEqual([1, 2]);
  });
});
