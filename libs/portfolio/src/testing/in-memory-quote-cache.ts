import { QuoteCache } from '../application/quote-cache.port.js';
import type { Quote, SymbolPrice } from '../domain/quote.js';

export class InMemoryQuoteCache extends QuoteCache {
  readonly entries = new Map<string, SymbolPrice>();

  async findBySymbols(symbols: readonly string[]): Promise<Map<string, SymbolPrice>> {
    return new Map(symbols.flatMap((s) => (this.entries.has(s) ? [[s, this.entries.get(s)!] as const] : [])));
  }

  async saveQuote(quote: Quote, fetchedAt: Date): Promise<void> {
    const known = this.entries.get(quote.symbol);
    if (known && known.checkedAt > fetchedAt) return;
    this.entries.set(quote.symbol, {
      symbol: quote.symbol,
      quote: { ...quote, fetchedAt },
      checkedAt: fetchedAt,
      notFound: false,
      companyName: known?.companyName ?? null,
    });
  }

  async markNotFound(symbol: string, checkedAt: Date): Promise<void> {
    const known = this.entries.get(symbol);
    if (known && known.checkedAt > checkedAt) return;
    this.entries.set(symbol, { symbol, quote: known?.quote ?? null, checkedAt, notFound: true, companyName: known?.companyName ?? null });
  }

  async saveCompanyName(symbol: string, name: string): Promise<void> {
    const known = this.entries.get(symbol);
    if (known) this.entries.set(symbol, { ...known, companyName: name });
  }
}
