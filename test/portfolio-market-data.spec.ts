import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';
import { HoldingsService } from '../libs/portfolio/src/application/holdings.service.js';
import { MarketPrices } from '../libs/portfolio/src/application/market-prices.service.js';
import { PortfolioSettings } from '../libs/portfolio/src/application/portfolio-settings.js';
import type { Urgency } from '../libs/portfolio/src/application/market-data-provider.port.js';
import { Decimal } from '@app/shared/domain';
import { MarketDataNotConfiguredError, MarketDataUnavailableError } from '../libs/portfolio/src/domain/portfolio.errors.js';
import { FinnhubMarketDataProvider } from '../libs/portfolio/src/infrastructure/finnhub/finnhub-market-data.adapter.js';
import { bucketSettings, MarketDataRateLimiter, type RateBudget } from '../libs/portfolio/src/infrastructure/rate-limit/market-data-rate-limiter.js';
import { InMemoryHoldings } from '../libs/portfolio/src/testing/in-memory-holdings.js';
import { InMemoryQuoteCache } from '../libs/portfolio/src/testing/in-memory-quote-cache.js';
import { FixedClock } from '@app/calendar/testing';
import { startFakeFinnhub, type FakeFinnhub } from './support/fake-finnhub.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * The limiter, recording when it starts each call and how many it had started when an interactive one
 * was handed to it. The budget is the limiter's promise about starts; when the requests then reach
 * the local provider also depends on how fast a loaded machine sends them, which is not its doing.
 */
class RecordingLimiter extends MarketDataRateLimiter {
  readonly starts: { at: number; urgency: Urgency }[] = [];
  startedWhenInteractiveAsked = -1;

  override schedule<T>(urgency: Urgency, call: () => Promise<T>): Promise<T> {
    if (urgency === 'interactive') this.startedWhenInteractiveAsked = this.starts.length;
    return super.schedule(urgency, () => {
      this.starts.push({ at: Date.now(), urgency });
      return call();
    });
  }
}

/** The most calls started within any `windowMs`, over several limiters sharing one budget. */
function maxStartsInAnyWindow(limiters: readonly RecordingLimiter[], windowMs: number): number {
  const times = limiters.flatMap((limiter) => limiter.starts.map((start) => start.at)).sort((a, b) => a - b);
  let most = 0;
  for (let first = 0, last = 0; last < times.length; last += 1) {
    while (times[last] - times[first] >= windowMs) first += 1;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

describe('Finnhub adapter against a local Finnhub', () => {
  let finnhub: FakeFinnhub;
  const limiters: MarketDataRateLimiter[] = [];

  const adapter = (overrides: Partial<PortfolioSettings> = {}, budget: RateBudget = { requests: 1000, windowMs: 1000, safetyMarginMs: 0 }) => {
    const settings = new PortfolioSettings({
      finnhubApiKey: finnhub.token,
      finnhubBaseUrl: finnhub.url,
      requestsPerWindow: budget.requests,
      windowMs: budget.windowMs,
      safetyMarginMs: budget.safetyMarginMs,
      // Generous: the local provider can take over a second to answer on a loaded machine. The tests of
      // the timeout itself set a short one.
      requestTimeoutMs: 10_000,
      ...overrides,
    });
    const limiter = new MarketDataRateLimiter(budget);
    limiters.push(limiter);
    return { provider: new FinnhubMarketDataProvider(settings, limiter), settings };
  };

  beforeAll(async () => {
    Logger.overrideLogger(false);
    finnhub = await startFakeFinnhub({
      quotes: { AAPL: { c: 190.5, d: 1.25, dp: 0.6605, h: 191, l: 188.2, o: 189, pc: 189.25, t: 1763740800 }, MSFT: { c: 410.1234 } },
      profiles: { AAPL: { name: 'Apple Inc' } },
    });
  });
  afterEach(async () => {
    finnhub.reset();
    await Promise.all(limiters.splice(0).map((l) => l.stop()));
  });
  afterAll(() => finnhub.close());

  it('maps /quote {c,d,dp,h,l,o,pc,t} and sends the key in X-Finnhub-Token', async () => {
    const quote = await adapter().provider.getQuote('AAPL', 'interactive');
    expect(quote).toEqual({
      symbol: 'AAPL',
      currentPrice: Decimal.of('190.5'),
      change: Decimal.of('1.25'),
      percentChange: Decimal.of('0.6605'),
      high: Decimal.of('191'),
      low: Decimal.of('188.2'),
      open: Decimal.of('189'),
      previousClose: Decimal.of('189.25'),
      quotedAt: new Date(1763740800 * 1000),
    });
    expect(finnhub.requestsFor('/quote', 'AAPL')).toHaveLength(1);
  });

  it('reads a quote of zeros as an unknown symbol, and /stock/profile2 for names', async () => {
    const { provider } = adapter();
    expect(await provider.getQuote('ZZZZ', 'interactive')).toBeNull();
    expect(await provider.getProfile('AAPL', 'interactive')).toEqual({ symbol: 'AAPL', name: 'Apple Inc' });
    expect(await provider.getProfile('MSFT', 'interactive')).toBeNull();
  });

  it('a refused key (401) is a rejected-key failure; no key at all makes no request', async () => {
    const { provider } = adapter({ finnhubApiKey: 'wrong' });
    await expect(provider.getQuote('AAPL', 'interactive')).rejects.toMatchObject({
      constructor: MarketDataUnavailableError,
      reason: 'rejected_key',
      message: 'Market-data provider rejected the API key',
    });
    const unconfigured = adapter({ finnhubApiKey: undefined });
    expect(unconfigured.provider.isConfigured).toBe(false);
    await expect(unconfigured.provider.getQuote('AAPL', 'interactive')).rejects.toThrow(MarketDataNotConfiguredError);
    expect(finnhub.requests.filter((r) => r.status !== 401)).toHaveLength(0);
  });

  it('retries after a 429 once the provider’s reset time has passed', async () => {
    finnhub.rateLimitNext(1, 1);
    const started = Date.now();
    const quote = await adapter({ windowMs: 1500 }).provider.getQuote('MSFT', 'interactive');
    expect(quote?.currentPrice.toString()).toBe('410.1234');
    expect(finnhub.requestsFor('/quote', 'MSFT').map((r) => r.status)).toEqual([429, 200]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
  });

  it('gives up after the allowed 429 retries with a rate-limit failure, not a crash', async () => {
    finnhub.rateLimitNext(10, 0);
    await expect(adapter({ maxRateLimitRetries: 2, windowMs: 200 }).provider.getQuote('MSFT', 'interactive')).rejects.toMatchObject({
      reason: 'rate_limited',
    });
    expect(finnhub.requestsFor('/quote', 'MSFT')).toHaveLength(3);
  });

  it('abandons a call that takes longer than the timeout', async () => {
    finnhub.setDelay('AAPL', 1500);
    const started = Date.now();
    await expect(adapter({ requestTimeoutMs: 200 }).provider.getQuote('AAPL', 'interactive')).rejects.toMatchObject({
      reason: 'timeout',
      message: 'Market-data provider did not answer within 0.2 s (AAPL)',
    });
    expect(Date.now() - started).toBeLessThan(1500); // it did not wait for the answer
  });

  it('an unreachable provider is an "unavailable" failure', async () => {
    const { provider } = adapter({ finnhubBaseUrl: 'http://127.0.0.1:9/api/v1' });
    await expect(provider.getQuote('AAPL', 'interactive')).rejects.toMatchObject({ reason: 'unavailable' });
  });

  describe('the shared rate limit', () => {
    // The test window: 20 requests per second (production: MARKET_DATA_REQUESTS_PER_MINUTE per minute).
    const budget: RateBudget = { requests: 20, windowMs: 1000, safetyMarginMs: 100 };

    it('bucket settings never allow more than the budget in any window', () => {
      for (const requests of [2, 10, 20, 60, 300]) {
        const s = bucketSettings({ requests, windowMs: 60_000, safetyMarginMs: 1000 });
        const refills = Math.ceil(61_000 / (s.reservoirIncreaseInterval as number));
        expect((s.reservoir as number) + refills).toBeLessThanOrEqual(requests);
        expect(s.reservoir).toBeGreaterThanOrEqual(1);
      }
      expect(bucketSettings({ requests: 1, windowMs: 60_000, safetyMarginMs: 1000 })).toMatchObject({ minTime: 61_000 });
    });

    it('150 symbols refreshed never exceed the budget in any window, and use most of it', async () => {
      const symbols = Array.from({ length: 150 }, (_, i) => `S${i}`);
      symbols.forEach((s, i) => finnhub.setQuote(s, { c: 10 + i }));
      const limiter = new RecordingLimiter(budget);
      limiters.push(limiter);
      const provider = new FinnhubMarketDataProvider(adapter({ requestTimeoutMs: 30_000 }, budget).settings, limiter);
      const quotes = await Promise.all(symbols.map((s) => provider.getQuote(s, 'background')));

      expect(quotes.every((q) => q !== null)).toBe(true);
      expect(finnhub.requests.every((r) => r.status === 200)).toBe(true);
      expect(limiter.starts).toHaveLength(150);
      expect(maxStartsInAnyWindow([limiter], budget.windowMs + budget.safetyMarginMs)).toBeLessThanOrEqual(budget.requests);
      // Not needlessly slow: some window was used to most of the budget (load can only lower the rate).
      expect(maxStartsInAnyWindow([limiter], budget.windowMs)).toBeGreaterThanOrEqual(12);
    });

    it('interactive calls overtake queued background ones', async () => {
      // A slow drip (a token every 300 ms after a burst of 2): the interactive call is queued well before
      // the next token. With a fast one, Bottleneck's drains already under way when it arrives (each has
      // picked its background job) go first, and a loaded machine piles those up.
      const slow: RateBudget = { requests: 12, windowMs: 3000, safetyMarginMs: 0 };
      const symbols = Array.from({ length: 20 }, (_, i) => `B${i}`);
      symbols.forEach((s) => finnhub.setQuote(s, { c: 1 }));
      const limiter = new RecordingLimiter(slow);
      limiters.push(limiter);
      // A generous request timeout: on a loaded machine the local provider may take over a second to answer.
      const provider = new FinnhubMarketDataProvider(adapter({ requestTimeoutMs: 30_000 }, slow).settings, limiter);
      const background = Promise.all(symbols.map((s) => provider.getQuote(s, 'background')));
      await new Promise((resolve) => setTimeout(resolve, 50));
      await provider.getQuote('AAPL', 'interactive');
      await background;
      // Before it: the calls already started, a burst the limiter had let through but not yet run, and
      // drains under way (a busy machine lets a few pile up); in arrival order it would be last, 21st.
      const position = limiter.starts.findIndex((start) => start.urgency === 'interactive');
      expect(limiter.startedWhenInteractiveAsked).toBeGreaterThanOrEqual(0);
      expect(position).toBeLessThan(symbols.length / 2);
    });

    it('two instances sharing one Redis stay within one budget together', async () => {
      const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
      const reachable = await probe.connect().then(() => true, () => false);
      probe.disconnect();
      if (!reachable) throw new Error(`Redis is not reachable at ${REDIS_URL}; the clustered limiter cannot be tested`);

      // Through Redis a token is taken in a script and the call starts when its answer is handled, so a
      // loaded machine can hold one start back and bunch it with later ones: here the margin is a sixth
      // of the window (production's is a sixtieth of a minute, a second), which such a stall stays under.
      const shared: RateBudget = { requests: 20, windowMs: 3000, safetyMarginMs: 500 };
      const id = `test-market-data-${randomBytes(4).toString('hex')}`;
      const settings = new PortfolioSettings({ finnhubApiKey: finnhub.token, finnhubBaseUrl: finnhub.url, windowMs: shared.windowMs, requestTimeoutMs: 30_000 });
      const first = new RecordingLimiter(shared, { redisUrl: REDIS_URL, id });
      const second = new RecordingLimiter(shared, { redisUrl: REDIS_URL, id });
      limiters.push(first, second);
      expect(first.clustered && second.clustered).toBe(true);
      const a = new FinnhubMarketDataProvider(settings, first);
      const b = new FinnhubMarketDataProvider(settings, second);
      const symbols = Array.from({ length: 40 }, (_, i) => `R${i}`);
      symbols.forEach((s) => finnhub.setQuote(s, { c: 5 }));

      await Promise.all(symbols.map((s, i) => (i % 2 === 0 ? a : b).getQuote(s, 'background')));

      expect(finnhub.requests.filter((r) => r.path === '/quote')).toHaveLength(40);
      expect(finnhub.requests.every((r) => r.status === 200)).toBe(true);
      // Both instances took from the one bucket: together never more than the budget in a window.
      expect(maxStartsInAnyWindow([first, second], shared.windowMs + shared.safetyMarginMs)).toBeLessThanOrEqual(shared.requests);
      expect(first.starts.length).toBeGreaterThan(0);
      expect(second.starts.length).toBeGreaterThan(0);
    });
  });

  describe('with the quote cache and the holdings list', () => {
    it('collapses concurrent requests for one symbol into one provider call, then serves the cache', async () => {
      finnhub.setDelay('AAPL', 150);
      const { provider, settings } = adapter();
      const prices = new MarketPrices(provider, new InMemoryQuoteCache(), new FixedClock('2025-11-19T15:00:00Z'), settings);
      const answers = await Promise.all(Array.from({ length: 8 }, () => prices.quote('AAPL', { maxAgeMs: 60_000, urgency: 'interactive' })));
      expect(answers.every((q) => q?.currentPrice.toString() === '190.5')).toBe(true);
      await prices.priceOf('AAPL');
      expect(finnhub.requestsFor('/quote', 'AAPL')).toHaveLength(1);
    });

    it('refresh lists a timed-out symbol among the errors and prices the others', async () => {
      finnhub.setDelay('MSFT', 8000);
      const { provider, settings } = adapter({ requestTimeoutMs: 2000 });
      const prices = new MarketPrices(provider, new InMemoryQuoteCache(), new FixedClock('2025-11-19T15:00:00Z'), settings);
      const outcomes = await prices.refresh(['AAPL', 'MSFT', 'ZZZZ'], { maxAgeMs: 0, urgency: 'interactive' });
      expect(outcomes.map((o) => [o.symbol, o.status === 'failed' ? o.error : 'updated'])).toEqual([
        ['AAPL', 'updated'],
        ['MSFT', 'Market-data provider did not answer within 2 s (MSFT)'],
        ['ZZZZ', 'Symbol not found'],
      ]);
    });

    it('the holdings list serves the cached price marked stale instead of waiting on a slow provider', async () => {
      const clock = new FixedClock('2025-11-19T15:00:00Z');
      const { provider } = adapter({ requestTimeoutMs: 3000 });
      const settings = new PortfolioSettings({ finnhubBaseUrl: finnhub.url, listRepricingWaitMs: 200, priceStaleMs: 15 * 60_000 });
      const cache = new InMemoryQuoteCache();
      const holdingsRepo = new InMemoryHoldings();
      const holdings = new HoldingsService(holdingsRepo, new MarketPrices(provider, cache, clock, settings), clock, settings);
      await holdingsRepo.create(1, { symbol: 'AAPL', holdingType: 'stock', shares: Decimal.of('2'), averageCost: Decimal.of('100'), notes: '', purchaseDate: null });

      expect((await holdings.list(1))[0]).toMatchObject({ priceStale: false });
      clock.advance(16 * 60_000);
      finnhub.setQuote('AAPL', { c: 195 });
      finnhub.setDelay('AAPL', 800);
      const started = Date.now();
      const [served] = await holdings.list(1);
      expect(Date.now() - started).toBeLessThan(600);
      expect(served.price?.toString()).toBe('190.5');
      expect(served.priceStale).toBe(true);

      await new Promise((resolve) => setTimeout(resolve, 1000));
      const [later] = await holdings.listWithCachedPrices(1);
      expect(later.price?.toString()).toBe('195');
      expect(finnhub.requestsFor('/quote', 'AAPL')).toHaveLength(2);
    });
  });
});
