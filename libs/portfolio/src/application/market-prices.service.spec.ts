import { FixedClock } from '@app/calendar/testing';
import { MarketDataNotConfiguredError, MarketDataUnavailableError, SymbolNotFoundError } from '../domain/portfolio.errors.js';
import { InMemoryMarketDataProvider } from '../testing/in-memory-market-data.provider.js';
import { InMemoryQuoteCache } from '../testing/in-memory-quote-cache.js';
import { MarketPrices } from './market-prices.service.js';
import { PortfolioSettings } from './portfolio-settings.js';

describe('MarketPrices', () => {
  const settings = new PortfolioSettings({ finnhubBaseUrl: 'http://unused', quoteReuseMs: 60_000 });
  let clock: FixedClock;
  let provider: InMemoryMarketDataProvider;
  let cache: InMemoryQuoteCache;
  let prices: MarketPrices;

  beforeEach(() => {
    clock = new FixedClock('2025-11-19T15:00:00Z');
    provider = new InMemoryMarketDataProvider().setPrice('AAPL', '190.5', 'Apple Inc').setPrice('MSFT', '410');
    cache = new InMemoryQuoteCache();
    prices = new MarketPrices(provider, cache, clock, settings);
  });

  it('fetches once, then serves the cache while the quote is younger than maxAge', async () => {
    const first = await prices.quote('AAPL', { maxAgeMs: 60_000, urgency: 'interactive' });
    expect(first?.currentPrice.toString()).toBe('190.5');
    clock.advance(59_999);
    await prices.quote('AAPL', { maxAgeMs: 60_000, urgency: 'interactive' });
    expect(provider.quoteCalls('AAPL')).toBe(1);
    clock.advance(1);
    await prices.quote('AAPL', { maxAgeMs: 60_000, urgency: 'interactive' });
    expect(provider.quoteCalls('AAPL')).toBe(2);
    expect(cache.entries.get('AAPL')?.quote?.fetchedAt).toEqual(clock.now());
  });

  it('collapses concurrent requests for one symbol into a single provider call', async () => {
    provider.setDelay('AAPL', 50);
    const answers = await Promise.all(Array.from({ length: 10 }, () => prices.quote('AAPL', { maxAgeMs: 0, urgency: 'interactive' })));
    expect(provider.quoteCalls('AAPL')).toBe(1);
    expect(new Set(answers.map((a) => a?.currentPrice.toString()))).toEqual(new Set(['190.5']));
    // Once it is done, a new request asks again.
    await prices.quote('AAPL', { maxAgeMs: 0, urgency: 'interactive' });
    expect(provider.quoteCalls('AAPL')).toBe(2);
  });

  it('a failed call is not shared with later requests', async () => {
    provider.failWith('MSFT', new MarketDataUnavailableError('down', 'unavailable'));
    await expect(prices.quote('MSFT', { maxAgeMs: 0, urgency: 'interactive' })).rejects.toThrow('down');
    provider.failWith('MSFT', undefined);
    expect((await prices.quote('MSFT', { maxAgeMs: 0, urgency: 'interactive' }))?.currentPrice.toString()).toBe('410');
  });

  it('remembers an unknown symbol for maxAge, keeping an earlier good price', async () => {
    expect(await prices.quote('NOPE', { maxAgeMs: 60_000, urgency: 'interactive' })).toBeNull();
    expect(await prices.quote('NOPE', { maxAgeMs: 60_000, urgency: 'interactive' })).toBeNull();
    expect(provider.quoteCalls('NOPE')).toBe(1);
    expect(cache.entries.get('NOPE')).toMatchObject({ notFound: true, quote: null });
  });

  it('refresh reports each symbol: updated, not found, or the provider’s failure', async () => {
    provider.failWith('MSFT', new MarketDataUnavailableError('Market-data provider did not answer within 5 s (MSFT)', 'timeout'));
    const outcomes = await prices.refresh(['AAPL', 'MSFT', 'NOPE'], { maxAgeMs: 0, urgency: 'interactive' });
    expect(outcomes.map((o) => [o.symbol, o.status, o.status === 'failed' ? o.error : o.quote.currentPrice.toString()])).toEqual([
      ['AAPL', 'updated', '190.5'],
      ['MSFT', 'failed', 'Market-data provider did not answer within 5 s (MSFT)'],
      ['NOPE', 'failed', 'Symbol not found'],
    ]);
  });

  it('refresh reads the cache once, and asks the provider for what is older than maxAge only', async () => {
    await prices.quote('AAPL', { maxAgeMs: 0, urgency: 'interactive' });
    let reads = 0;
    const findBySymbols = cache.findBySymbols.bind(cache);
    cache.findBySymbols = (symbols) => {
      reads += 1;
      return findBySymbols(symbols);
    };
    const outcomes = await prices.refresh(['AAPL', 'MSFT', 'NOPE'], { maxAgeMs: 60_000, urgency: 'background' });
    expect(outcomes.map((o) => o.status)).toEqual(['updated', 'updated', 'failed']);
    expect(reads).toBe(1);
    expect([provider.quoteCalls('AAPL'), provider.quoteCalls('MSFT'), provider.quoteCalls('NOPE')]).toEqual([1, 1, 1]);
  });

  it('fetches in the background a few at a time, each symbol once, while a person’s request asks at once', async () => {
    const symbols = Array.from({ length: 40 }, (_, index) => `S${index}`);
    let asking = 0;
    let most = 0;
    const getQuote = provider.getQuote.bind(provider);
    provider.getQuote = async (symbol, urgency) => {
      asking += 1;
      most = Math.max(most, asking);
      try {
        return await getQuote(symbol, urgency);
      } finally {
        asking -= 1;
      }
    };
    for (const symbol of symbols) provider.setPrice(symbol, '10').setDelay(symbol, 5);
    const background = prices.refresh(symbols, { maxAgeMs: 0, urgency: 'background' });
    // The last symbol is queued behind 36 others: the person's request does not wait for them.
    const interactive = await prices.quote('S39', { maxAgeMs: 0, urgency: 'interactive' });
    const askedBeforeIt = provider.quoteCalls();
    const outcomes = await background;
    expect(interactive?.currentPrice.toString()).toBe('10');
    expect(askedBeforeIt).toBeLessThan(symbols.length);
    expect(outcomes.every((outcome) => outcome.status === 'updated')).toBe(true);
    expect(most).toBeLessThanOrEqual(5); // four background calls and the person's
    expect(symbols.map((symbol) => provider.quoteCalls(symbol))).toEqual(symbols.map(() => 1));
  });

  it('refuses every lookup when the provider has no key', async () => {
    provider.setConfigured(false);
    await expect(prices.refresh(['AAPL'], { maxAgeMs: 0, urgency: 'interactive' })).rejects.toThrow(MarketDataNotConfiguredError);
    await expect(prices.priceOf('AAPL')).rejects.toThrow('Market-data provider API key not configured');
    await expect(prices.validate('AAPL')).rejects.toThrow(MarketDataNotConfiguredError);
  });

  it('validate: valid with the company name (looked up once), or not valid', async () => {
    expect(await prices.validate('AAPL')).toMatchObject({ valid: true, symbol: 'AAPL', companyName: 'Apple Inc' });
    expect(await prices.validate('AAPL')).toMatchObject({ valid: true, companyName: 'Apple Inc' });
    expect(provider.calls.filter((c) => c.method === 'profile')).toHaveLength(1);
    expect(await prices.validate('MSFT')).toMatchObject({ valid: true, companyName: null });
    expect(await prices.validate('NOPE')).toEqual({ valid: false, symbol: 'NOPE' });
  });

  it('priceOf: an unknown symbol is a not-found error', async () => {
    await expect(prices.priceOf('NOPE')).rejects.toThrow(SymbolNotFoundError);
    expect((await prices.priceOf('MSFT')).currentPrice.toString()).toBe('410');
  });
});
