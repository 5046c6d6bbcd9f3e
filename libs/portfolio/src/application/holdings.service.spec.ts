import { Decimal } from '@app/shared/domain';
import type { HoldingDraft } from '../domain/holding.js';
import { DuplicateHoldingError, HoldingNotFoundError } from '../domain/portfolio.errors.js';
import { InMemoryHoldings } from '../testing/in-memory-holdings.js';
import { InMemoryMarketDataProvider } from '../testing/in-memory-market-data.provider.js';
import { InMemoryQuoteCache } from '../testing/in-memory-quote-cache.js';
import { FixedClock } from '@app/calendar/testing';
import { HoldingsService } from './holdings.service.js';
import { MarketPrices } from './market-prices.service.js';
import { PortfolioSettings } from './portfolio-settings.js';

const draft = (symbol: string, shares: string, averageCost: string): HoldingDraft => ({
  symbol,
  holdingType: 'stock',
  shares: Decimal.of(shares),
  averageCost: Decimal.of(averageCost),
  notes: '',
  purchaseDate: null,
});

describe('HoldingsService', () => {
  const settings = new PortfolioSettings({ finnhubBaseUrl: 'http://unused', priceStaleMs: 15 * 60_000, listRepricingWaitMs: 100 });
  let clock: FixedClock;
  let provider: InMemoryMarketDataProvider;
  let cache: InMemoryQuoteCache;
  let repository: InMemoryHoldings;
  let service: HoldingsService;

  beforeEach(() => {
    clock = new FixedClock('2025-11-19T15:00:00Z');
    provider = new InMemoryMarketDataProvider().setPrice('AAPL', '200').setPrice('MSFT', '400');
    cache = new InMemoryQuoteCache();
    repository = new InMemoryHoldings();
    service = new HoldingsService(repository, new MarketPrices(provider, cache, clock, settings), clock, settings);
  });

  it('prices never-priced holdings on the first read and computes their figures', async () => {
    await service.create(1, draft('AAPL', '10', '150'));
    const [aapl] = await service.list(1);
    expect(aapl.price?.toString()).toBe('200');
    expect(aapl.priceStale).toBe(false);
    expect(aapl.valuation.gainLoss?.toFixed(2)).toBe('500.00');
    expect(provider.calls).toEqual([{ method: 'quote', symbol: 'AAPL', urgency: 'background' }]);
  });

  it('re-prices only prices older than the stale limit', async () => {
    await service.create(1, draft('AAPL', '1', '1'));
    await service.list(1);
    clock.advance(15 * 60_000 - 1);
    await service.list(1);
    expect(provider.quoteCalls()).toBe(1);
    clock.advance(1);
    await service.list(1);
    expect(provider.quoteCalls()).toBe(2);
  });

  it('does not wait for slow re-pricing: serves the cached price marked stale, and the cache fills in behind', async () => {
    await service.create(1, draft('AAPL', '10', '150'));
    await service.list(1); // cached at 200
    clock.advance(20 * 60_000);
    provider.setPrice('AAPL', '210').setDelay('AAPL', 400);

    const started = Date.now();
    const [stale] = await service.list(1);
    expect(Date.now() - started).toBeLessThan(350);
    expect(stale.price?.toString()).toBe('200');
    expect(stale.priceStale).toBe(true);

    await new Promise((resolve) => setTimeout(resolve, 500));
    const [fresh] = (await service.listWithCachedPrices(1));
    expect(fresh.price?.toString()).toBe('210');
    expect(fresh.priceStale).toBe(false);
  });

  it('without a provider key, lists cached prices without calling it', async () => {
    provider.setConfigured(false);
    await service.create(1, draft('AAPL', '1', '1'));
    const [aapl] = await service.list(1);
    expect(aapl.price).toBeNull();
    expect(aapl.priceStale).toBe(true);
    expect(provider.calls).toEqual([]);
  });

  it('asks about an unknown symbol again only after the stale period', async () => {
    await service.create(1, draft('NOPE', '1', '1'));
    await service.list(1);
    await service.list(1);
    expect(provider.quoteCalls('NOPE')).toBe(1);
    clock.advance(15 * 60_000);
    await service.list(1);
    expect(provider.quoteCalls('NOPE')).toBe(2);
  });

  it('keeps users apart: another user’s holding is not found', async () => {
    const mine = await service.create(1, draft('AAPL', '1', '1'));
    await expect(service.update(2, mine.holding.id, { shares: Decimal.of('5') })).rejects.toThrow(HoldingNotFoundError);
    await expect(service.delete(2, mine.holding.id)).rejects.toThrow(HoldingNotFoundError);
    expect(await service.list(2)).toEqual([]);
    await expect(service.create(1, draft('AAPL', '2', '2'))).rejects.toThrow(DuplicateHoldingError);
    await expect(service.create(2, draft('AAPL', '2', '2'))).resolves.toBeDefined();
  });
});
