import type { Quote, SymbolPrice } from '../domain/quote.js';

/** The quote cache, shared by all users and instances (a database table). */
export abstract class QuoteCache {
  abstract findBySymbols(symbols: readonly string[]): Promise<Map<string, SymbolPrice>>;

  /** Stores a good quote fetched at `fetchedAt`. */
  abstract saveQuote(quote: Quote, fetchedAt: Date): Promise<void>;

  /** Records that the provider does not know the symbol; an earlier good quote is kept. */
  abstract markNotFound(symbol: string, checkedAt: Date): Promise<void>;

  abstract saveCompanyName(symbol: string, name: string): Promise<void>;
}
