import { Injectable } from '@nestjs/common';
import { Clock } from '@app/calendar';
import { Lane } from '@app/shared';
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
  private readonly inFlight = new Map<string, InFlight>();
  /**
   * Background fetches (a list's re-pricing, the end-of-day refresh) a few at a time: each answer is a
   * write, and a thousand at once would queue a person's requests behind them on the database's
   * connections (the embedded engine has one). The provider's rate limiter sets the pace beyond that.
   */
  private readonly background = new Lane(BACKGROUND_FETCHES);

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
    const request: QuoteRequest = { maxAgeMs: this.settings.priceStaleMs, urgency: 'background' };
    const repricing = Promise.allSettled(stale.map((symbol) => this.quoteOf(symbol, known.get(symbol), request)));
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
    return this.quoteOf(symbol, (await this.cache.findBySymbols([symbol])).get(symbol), request);
  }

  /** Quotes for many symbols; each failure is reported with its reason, never thrown. The cache is read once. */
  async refresh(symbols: readonly string[], request: QuoteRequest): Promise<RefreshOutcome[]> {
    if (!this.isConfigured) throw new MarketDataNotConfiguredError();
    const known = await this.cached(symbols);
    return Promise.all(
      symbols.map(async (symbol): Promise<RefreshOutcome> => {
        try {
          const quote = await this.quoteOf(symbol, known.get(symbol), request);
          return quote === null ? { symbol, status: 'failed', error: 'Symbol not found' } : { symbol, status: 'updated', quote };
        } catch (error) {
          if (error instanceof MarketDataUnavailableError) return { symbol, status: 'failed', error: error.message, cause: error };
          throw error;
        }
      }),
    );
  }

  /** The quote of a symbol given what the cache knows of it: that answer when fresh enough, else the provider's. */
  private quoteOf(symbol: string, known: SymbolPrice | undefined, request: QuoteRequest): Promise<CachedQuote | null> {
    const now = this.clock.now().getTime();
    if (known !== undefined) {
      if (known.notFound && now - known.checkedAt.getTime() < request.maxAgeMs) return Promise.resolve(null);
      if (!known.notFound && known.quote !== null && now - known.quote.fetchedAt.getTime() < request.maxAgeMs) return Promise.resolve(known.quote);
    }
    return this.fetch(symbol, request.urgency);
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

  /**
   * One provider call per symbol at a time in this instance. A person's request does not wait for a
   * background call still queued for its turn: it asks at once, and the queued call, when its turn
   * comes, takes that answer instead of asking again.
   */
  private fetch(symbol: string, urgency: Urgency): Promise<CachedQuote | null> {
    const pending = this.inFlight.get(symbol);
    if (pending !== undefined && (urgency === 'background' || pending.asking)) return pending.call;
    const entry: InFlight = { asking: urgency !== 'background', call: Promise.resolve(null) };
    const ask = async (): Promise<CachedQuote | null> => {
      if (entry.overtakenBy !== undefined) return entry.overtakenBy.call;
      entry.asking = true;
      const quote = await this.provider.getQuote(symbol, urgency);
      const fetchedAt = this.clock.now();
      if (quote === null) {
        await this.cache.markNotFound(symbol, fetchedAt);
        return null;
      }
      await this.cache.saveQuote(quote, fetchedAt);
      return { ...quote, fetchedAt };
    };
    entry.call = (urgency === 'background' ? this.background.run(ask) : Promise.resolve().then(ask)).finally(() => {
      if (this.inFlight.get(symbol) === entry) this.inFlight.delete(symbol);
    });
    if (pending !== undefined) pending.overtakenBy = entry;
    this.inFlight.set(symbol, entry);
    return entry.call;
  }
}

/**
 * A provider call of this instance: `asking` once it has left the background lane's queue (or never was
 * in it); `overtakenBy` the call a person's request made while it was still queued.
 */
interface InFlight {
  asking: boolean;
  call: Promise<CachedQuote | null>;
  overtakenBy?: InFlight;
}

/** Waits for `work`, but no longer than `ms`; the work goes on either way. */
async function waitAtMost(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** Background fetches in flight at once, per instance. */
const BACKGROUND_FETCHES = 4;
