import { MarketDataProvider, type CompanyProfile, type Urgency } from '../application/market-data-provider.port.js';
import { Decimal } from '@app/shared/domain';
import { MarketDataNotConfiguredError } from '../domain/portfolio.errors.js';
import type { Quote } from '../domain/quote.js';

/** A market-data provider in memory: set prices, make symbols slow or failing, count the calls. */
export class InMemoryMarketDataProvider extends MarketDataProvider {
  readonly calls: { method: 'quote' | 'profile'; symbol: string; urgency: Urgency }[] = [];
  private readonly prices = new Map<string, string>();
  private readonly names = new Map<string, string>();
  private readonly delays = new Map<string, number>();
  private readonly failures = new Map<string, Error>();

  constructor(private configured = true) {
    super();
  }

  get isConfigured(): boolean {
    return this.configured;
  }

  setConfigured(configured: boolean): this {
    this.configured = configured;
    return this;
  }

  setPrice(symbol: string, price: string, name?: string): this {
    this.prices.set(symbol, price);
    if (name !== undefined) this.names.set(symbol, name);
    return this;
  }

  setDelay(symbol: string, ms: number): this {
    this.delays.set(symbol, ms);
    return this;
  }

  failWith(symbol: string, error: Error | undefined): this {
    if (error === undefined) this.failures.delete(symbol);
    else this.failures.set(symbol, error);
    return this;
  }

  quoteCalls(symbol?: string): number {
    return this.calls.filter((c) => c.method === 'quote' && (symbol === undefined || c.symbol === symbol)).length;
  }

  async getQuote(symbol: string, urgency: Urgency): Promise<Quote | null> {
    this.calls.push({ method: 'quote', symbol, urgency });
    await this.answerDelay(symbol);
    const price = this.prices.get(symbol);
    if (price === undefined) return null;
    return {
      symbol,
      currentPrice: Decimal.of(price),
      change: Decimal.ZERO,
      percentChange: Decimal.ZERO,
      high: Decimal.of(price),
      low: Decimal.of(price),
      open: Decimal.of(price),
      previousClose: Decimal.of(price),
      quotedAt: null,
    };
  }

  async getProfile(symbol: string, urgency: Urgency): Promise<CompanyProfile | null> {
    this.calls.push({ method: 'profile', symbol, urgency });
    await this.answerDelay(symbol);
    const name = this.names.get(symbol);
    return name === undefined ? null : { symbol, name };
  }

  private async answerDelay(symbol: string): Promise<void> {
    if (!this.configured) throw new MarketDataNotConfiguredError();
    const delay = this.delays.get(symbol) ?? 0;
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    const failure = this.failures.get(symbol);
    if (failure !== undefined) throw failure;
  }
}
