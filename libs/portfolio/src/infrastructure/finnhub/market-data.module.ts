import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '@app/shared';
import { MarketDataProvider } from '../../application/market-data-provider.port.js';
import { PortfolioSettings } from '../../application/portfolio-settings.js';
import { budgetId, MarketDataRateLimiter } from '../rate-limit/market-data-rate-limiter.js';
import { FinnhubMarketDataProvider } from './finnhub-market-data.adapter.js';

/** Settings of the portfolio context from the validated configuration (../shared/spec/decisions.md §1). */
export function portfolioSettingsFrom(config: AppConfig): PortfolioSettings {
  return new PortfolioSettings({
    finnhubApiKey: config.finnhubApiKey,
    finnhubBaseUrl: config.finnhubBaseUrl,
    requestsPerWindow: config.marketDataRequestsPerMinute,
    windowMs: 60_000,
    redisUrl: config.redisUrl,
    priceStaleMs: config.priceStaleMinutes * 60_000,
  });
}

/** The market-data adapter group: settings, the one shared rate limiter, and Finnhub as the provider. */
@Module({
  providers: [
    { provide: PortfolioSettings, inject: [AppConfig], useFactory: portfolioSettingsFrom },
    {
      provide: MarketDataRateLimiter,
      inject: [PortfolioSettings],
      useFactory: (settings: PortfolioSettings) => {
        const budget = { requests: settings.requestsPerWindow, windowMs: settings.windowMs, safetyMarginMs: settings.safetyMarginMs };
        return new MarketDataRateLimiter(budget, { redisUrl: settings.redisUrl, id: budgetId(settings.finnhubApiKey, budget) });
      },
    },
    { provide: MarketDataProvider, useClass: FinnhubMarketDataProvider },
  ],
  exports: [PortfolioSettings, MarketDataProvider],
})
export class MarketDataModule implements OnApplicationShutdown {
  constructor(@Inject(MarketDataRateLimiter) private readonly limiter: MarketDataRateLimiter) {}

  async onApplicationShutdown(): Promise<void> {
    await this.limiter.stop();
  }
}
