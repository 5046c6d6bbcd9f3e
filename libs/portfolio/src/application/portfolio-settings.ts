/**
 * Tuning of the portfolio context. Built from `AppConfig` (../shared/spec/decisions.md §1) by the module; the
 * constants here are not configuration the contract names, but tests build their own.
 */
export class PortfolioSettings {
  /** Market-data provider. */
  readonly finnhubApiKey: string | undefined;
  readonly finnhubBaseUrl: string;
  /** The provider's budget: at most `requestsPerWindow` calls in any `windowMs` (all instances together). */
  readonly requestsPerWindow: number;
  readonly windowMs: number;
  /** Head-room for network jitter: the limiter spreads the budget over `windowMs + safetyMarginMs`. */
  readonly safetyMarginMs: number;
  readonly redisUrl: string | undefined;
  /** Every provider call is abandoned after this long. */
  readonly requestTimeoutMs: number;
  /** How often a 429 is retried (after the provider's reset time, or a whole window) before giving up. */
  readonly maxRateLimitRetries: number;
  /** Prices older than this are re-priced when the holdings list is read. */
  readonly priceStaleMs: number;
  /** A quote younger than this is served from the cache even on an explicit refresh. */
  readonly quoteReuseMs: number;
  /** The longest the holdings list waits for re-pricing before it answers with the cached prices. */
  readonly listRepricingWaitMs: number;
  /** How long after the closing bell the end-of-day snapshot is taken (prices settle). */
  readonly endOfDayGraceMs: number;

  constructor(values: Partial<PortfolioSettings> & Pick<PortfolioSettings, 'finnhubBaseUrl'>) {
    this.finnhubApiKey = values.finnhubApiKey;
    this.finnhubBaseUrl = values.finnhubBaseUrl.replace(/\/+$/, '');
    this.requestsPerWindow = values.requestsPerWindow ?? 60;
    this.windowMs = values.windowMs ?? 60_000;
    this.safetyMarginMs = values.safetyMarginMs ?? Math.ceil(this.windowMs / 60);
    this.redisUrl = values.redisUrl;
    this.requestTimeoutMs = values.requestTimeoutMs ?? 5_000;
    this.maxRateLimitRetries = values.maxRateLimitRetries ?? 2;
    this.priceStaleMs = values.priceStaleMs ?? 15 * 60_000;
    this.quoteReuseMs = values.quoteReuseMs ?? 60_000;
    this.listRepricingWaitMs = values.listRepricingWaitMs ?? 2_000;
    this.endOfDayGraceMs = values.endOfDayGraceMs ?? 10 * 60_000;
  }
}
