import { HoldingsService } from '../application/holdings.service.js';
import { MarketPrices } from '../application/market-prices.service.js';
import { PortfolioSettings } from '../application/portfolio-settings.js';
import { Decimal } from '@app/shared/domain';
import { MarketDataUnavailableError } from '../domain/portfolio.errors.js';
import { InMemoryHoldings } from '../testing/in-memory-holdings.js';
import { InMemoryMarketDataProvider } from '../testing/in-memory-market-data.provider.js';
import { InMemoryQuoteCache } from '../testing/in-memory-quote-cache.js';
import { FixedClock } from '@app/calendar/testing';
import { PortfolioPricesController } from './portfolio-prices.controller.js';

describe('PortfolioPricesController', () => {
  const user = { id: 1, email: 'demo@example.com', name: null };
  const settings = new PortfolioSettings({ finnhubBaseUrl: 'http://unused' });
  let provider: InMemoryMarketDataProvider;
  let repository: InMemoryHoldings;
  let controller: PortfolioPricesController;

  beforeEach(async () => {
    const clock = new FixedClock('2025-11-19T15:00:00Z');
    provider = new InMemoryMarketDataProvider().setPrice('AAPL', '190.5').setPrice('MSFT', '410');
    repository = new InMemoryHoldings();
    const prices = new MarketPrices(provider, new InMemoryQuoteCache(), clock, settings);
    controller = new PortfolioPricesController(prices, new HoldingsService(repository, prices, clock, settings), settings);
    for (const symbol of ['AAPL', 'MSFT']) {
      await repository.create(1, { symbol, holdingType: 'stock', shares: Decimal.of('1'), averageCost: Decimal.of('1'), notes: '', purchaseDate: null });
    }
  });

  it('refresh-prices: the contract’s success body', async () => {
    expect(await controller.refresh(user)).toEqual({ success: true, updated_count: 2, errors: [], message: 'Updated prices for 2 holdings' });
    expect(await controller.refresh({ ...user, id: 2 })).toEqual({ success: true, updated_count: 0, errors: [], message: 'No holdings to refresh' });
  });

  it('refresh-prices: per-symbol failures become errors with their reason', async () => {
    provider.failWith('MSFT', new MarketDataUnavailableError('Market-data provider rate limit reached; try again in a minute', 'rate_limited'));
    expect(await controller.refresh(user)).toEqual({
      success: true,
      updated_count: 1,
      errors: [{ symbol: 'MSFT', error: 'Market-data provider rate limit reached; try again in a minute' }],
      message: 'Updated prices for 1 of 2 holdings',
    });
  });

  it('refresh-prices: a refused key fails the whole request', async () => {
    const refused = new MarketDataUnavailableError('Market-data provider rejected the API key', 'rejected_key');
    provider.failWith('AAPL', refused).failWith('MSFT', refused);
    await expect(controller.refresh(user)).rejects.toBe(refused);
  });

  it('validate-symbol: malformed symbols are answered without a provider call', async () => {
    expect(await controller.validate('no way!')).toMatchObject({ valid: false, symbol: 'no way!' });
    expect(provider.calls).toEqual([]);
  });
});
