import { Injectable } from '@nestjs/common';
import { Clock } from '@app/calendar';
import { MarketDataNotConfiguredError, MarketDataUnavailableError, SymbolNotFoundError } from '../domain/portfolio.errors.js';
import type { CachedQuote, SymbolPrice } from '../domain/quote.js';
import { MarketDataProvider, type Urgency } from './market-data-provider.port.js';
import { PortfolioSettings } from './portfolio-settings.js';
import { QuoteCache } from './quote-cache.port.js';

export interface QuoteRequest {
  /** A cached answer younger than this is used without asking the provider. */
  readonly maxAgeMs: number;
  readonly urgency: Urgency;
}

export type RefreshOutcome =
  | { readonly symbol: string; readonly status: 'updated'; readonly quote: CachedQuote }
  | { readonly symbol: string; readonly status: 'failed'; readonly error: string; readonly cause?: Error };

export type SymbolValidation =
  | { readonly valid: true; readonly symbol: string; readonly quote: CachedQuote; readonly companyName: string | null }
  | { readonly valid: false; readonly symbol: string };

/**
 * Market prices for the portfolio: the quote cache in front of the provider. Concurrent requests for
 * the same symbol in this instance share one provider call; every answer lands in the cache, which all
 * instances share.
 */
@Injectable()
export class MarketPrices {
  private readonly inFlight = new Map<string, Promise<CachedQuote | null>>();

  constructor(
    private readonly provider: MarketDataProvider,
    private readonly cache: QuoteCache,
    private readonly clock: Clock,
    private readonly settings: PortfolioSettings,
  ) {}

  get isConfigured(): boolean {
    return this.provider.isConfigured;
  }

  /**
   * Prices for a list that a person is waiting for: the cached ones, after re-pricing those older than
   * PRICE_STALE_MINUTES (or never priced) in the background for at most `listRepricingWaitMs`. What the
   * rate limiter cannot fit in by then is answered from the cache and keeps being fetched, spread over
   * the provider's budget, for the next read; `waiting` names those symbols.
   */
  async current(symbols: readonly string[]): Promise<{ known: Map<string, SymbolPrice>; waiting: Set<string> }> {
    let known = await this.cached(symbols);
    if (!this.isConfigured) return { known, waiting: new Set() };
    const stale = symbols.filter((symbol) => this.needsRepricing(known.get(symbol)));
    if (stale.length === 0) return { known, waiting: new Set() };
    const repricing = Promise.allSettled(stale.map((symbol) => this.quote(symbol, { maxAgeMs: this.settings.priceStaleMs, urgency: 'background' })));
    await waitAtMost(repricing, this.settings.listRepricingWaitMs);
    known = await this.cached(symbols);
    return { known, waiting: new Set(stale.filter((symbol) => this.needsRepricing(known.get(symbol)))) };
  }

  /** No answer from the provider yet, or one as old as a stale price (an unknown symbol is asked again as rarely). */
  needsRepricing(known: SymbolPrice | undefined): boolean {
    if (known === undefined) return true;
    const lastAnswer = known.notFound ? known.checkedAt : (known.quote?.fetchedAt ?? known.checkedAt);
    return this.clock.now().getTime() - lastAnswer.getTime() >= this.settings.priceStaleMs;
  }

  /** What the cache knows; never calls the provider. */
  cached(symbols: readonly string[]): Promise<Map<string, SymbolPrice>> {
    return symbols.length === 0 ? Promise.resolve(new Map()) : this.cache.findBySymbols(symbols);
  }

  /** The quote of a symbol (null: the provider does not know it), from the cache when fresh enough. */
  async quote(symbol: string, request: QuoteRequest): Promise<CachedQuote | null> {
    const known = (await this.cache.findBySymbols([symbol])).get(symbol);
    const now = this.clock.now().getTime();
    if (known !== undefined) {
      if (known.notFound && now - known.checkedAt.getTime() < request.maxAgeMs) return null;
      if (!known.notFound && known.quote !== null && now - known.quote.fetchedAt.getTime() < request.maxAgeMs) return known.quote;
    }
    return this.fetch(symbol, request.urgency);
  }

  /** Quotes for many symbols; each failure is reported with its reason, never thrown. */
  async refresh(symbols: readonly string[], request: QuoteRequest): Promise<RefreshOutcome[]> {
    if (!this.isConfigured) throw new MarketDataNotConfiguredError();
    return Promise.all(
      symbols.map(async (symbol): Promise<RefreshOutcome> => {
        try {
          const quote = await this.quote(symbol, request);
          return quote === null ? { symbol, status: 'failed', error: 'Symbol not found' } : { symbol, status: 'updated', quote };
        } catch (error) {
          if (error instanceof MarketDataUnavailableError) return { symbol, status: 'failed', error: error.message, cause: error };
          throw error;
        }
      }),
    );
  }

  /** The price data of one symbol for a person waiting; updates the cache. */
  async priceOf(symbol: string): Promise<CachedQuote> {
    if (!this.isConfigured) throw new MarketDataNotConfiguredError();
    const quote = await this.quote(symbol, { maxAgeMs: this.settings.quoteReuseMs, urgency: 'interactive' });
    if (quote === null) throw new SymbolNotFoundError(symbol);
    return quote;
  }

  /** The provider decides: a symbol is valid when it has a price. The company name is looked up once. */
  async validate(symbol: string): Promise<SymbolValidation> {
    if (!this.isConfigured) throw new MarketDataNotConfiguredError();
    const quote = await this.quote(symbol, { maxAgeMs: this.settings.quoteReuseMs, urgency: 'interactive' });
    if (quote === null) return { valid: false, symbol };
    let companyName = (await this.cache.findBySymbols([symbol])).get(symbol)?.companyName ?? null;
    if (companyName === null) {
      // The name is a courtesy: a profile the provider lacks (ETFs, funds) or cannot give now changes nothing.
      const profile = await this.provider.getProfile(symbol, 'interactive').catch(() => null);
      if (profile !== null) {
        companyName = profile.name;
        await this.cache.saveCompanyName(symbol, profile.name);
      }
    }
    return { valid: true, symbol, quote, companyName };
  }

  private fetch(symbol: string, urgency: Urgency): Promise<CachedQuote | null> {
    const pending = this.inFlight.get(symbol);
    if (pending !== undefined) return pending;
    const call = Promise.resolve()
      .then(() => this.provider.getQuote(symbol, urgency))
      .then(async (quote): Promise<CachedQuote | null> => {
        const fetchedAt = this.clock.now();
        if (quote === null) {
          await this.cache.markNotFound(symbol, fetchedAt);
          return null;
        }
        await this.cache.saveQuote(quote, fetchedAt);
        return { ...quote, fetchedAt };
      })
      .finally(() => this.inFlight.delete(symbol));
    this.inFlight.set(symbol, call);
    return call;
  }
}

/** Waits for `work`, but no longer than `ms`; the work goes on either way. */
async function waitAtMost(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
