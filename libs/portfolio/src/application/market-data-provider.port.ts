import type { Quote } from '../domain/quote.js';

/** How soon an answer is needed: a person waiting, or a background re-pricing that can queue. */
export type Urgency = 'interactive' | 'background';

export interface CompanyProfile {
  readonly symbol: string;
  readonly name: string;
}

/**
 * A source of market prices. Adapters keep within the provider's budget, time out, and throw
 * `MarketDataNotConfiguredError` / `MarketDataUnavailableError` (portfolio.errors) when they cannot answer.
 */
export abstract class MarketDataProvider {
  /** False when the provider has no credential: every call would fail with "not configured". */
  abstract get isConfigured(): boolean;

  /** The latest quote, or null when the provider does not know the symbol. */
  abstract getQuote(symbol: string, urgency: Urgency): Promise<Quote | null>;

  /** The company behind a symbol, or null when the provider has no profile for it (many ETFs and funds). */
  abstract getProfile(symbol: string, urgency: Urgency): Promise<CompanyProfile | null>;
}
