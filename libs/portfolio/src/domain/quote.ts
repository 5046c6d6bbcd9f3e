import type { Decimal } from '@app/shared/domain';

/** A price quote as the portfolio needs it (the contract's Price data), whatever the provider. */
export interface Quote {
  readonly symbol: string;
  readonly currentPrice: Decimal;
  readonly change: Decimal | null;
  readonly percentChange: Decimal | null;
  readonly high: Decimal | null;
  readonly low: Decimal | null;
  readonly open: Decimal | null;
  readonly previousClose: Decimal | null;
  /** When the provider says the price was set; null when it does not say. */
  readonly quotedAt: Date | null;
}

/** A quote kept in the cache, with when it was fetched. */
export interface CachedQuote extends Quote {
  readonly fetchedAt: Date;
}

/** The cache's knowledge of a symbol: its last good quote, and when the provider was last asked. */
export interface SymbolPrice {
  readonly symbol: string;
  /** The last good quote, if any. */
  readonly quote: CachedQuote | null;
  /** When the provider last answered for this symbol (a quote, or "unknown symbol"). */
  readonly checkedAt: Date;
  /** True when the provider's last answer was "unknown symbol". */
  readonly notFound: boolean;
  readonly companyName: string | null;
}
