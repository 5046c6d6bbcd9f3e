import { Injectable } from '@nestjs/common';
import { Clock } from '@app/calendar';
import type { Decimal } from '@app/shared/domain';
import { PositionNotFoundError } from '../domain/portfolio.errors.js';
import { positionsFromLots, valuePosition, weightsOf, type ImportedLot, type Position, type PositionValuation } from '../domain/position.js';
import type { CachedQuote, SymbolPrice } from '../domain/quote.js';
import { Holdings } from './holdings.port.js';
import { ImportedPositions } from './imported-positions.port.js';
import { MarketPrices } from './market-prices.service.js';
import { PortfolioSettings } from './portfolio-settings.js';

/**
 * Where a position's price stands: `current`; `stale` (older than PRICE_STALE_MINUTES, being fetched
 * again when the provider is configured); `pending` (no price yet, being fetched); `unavailable` (no
 * price and none coming: no provider key, or the provider does not know the symbol).
 */
export type PriceStatus = 'current' | 'stale' | 'pending' | 'unavailable';

export interface PricedPosition {
  readonly position: Position;
  readonly quote: CachedQuote | null;
  readonly priceStatus: PriceStatus;
  /** Its price is being fetched now (missing or stale): a later read may have a newer one. */
  readonly fetching: boolean;
  readonly valuation: PositionValuation;
  /** Percent of the priced positions' gross market value; null without a price. */
  readonly weight: Decimal | null;
  /** The user also keeps a manual holding of this symbol (counted separately). */
  readonly alsoManual: boolean;
}

export interface PositionsReport {
  readonly positions: PricedPosition[];
  /** Positions whose price is being fetched: a later read has more. */
  readonly pending: number;
  /** Positions without any price: left out of value, cost and gain totals and of the weights. */
  readonly unpriced: number;
  /** How long this answer stays true: until its oldest price turns stale; 0 while prices are on their way. */
  readonly freshForMs: number;
}

/**
 * The positions the imports leave open (docs/api.md "Positions"), priced through the market-data port:
 * the cached prices at once, stale and missing ones fetched within the provider's budget.
 */
@Injectable()
export class PositionsService {
  constructor(
    private readonly imported: ImportedPositions,
    private readonly holdings: Holdings,
    private readonly prices: MarketPrices,
    private readonly clock: Clock,
    private readonly settings: PortfolioSettings,
  ) {}

  /**
   * Every open position (of one account when `account` names it). With `prices: 'fetch'` the stale and
   * missing prices are asked for (waiting at most `listRepricingWaitMs`); with `'cached'` only the cache is read.
   */
  async list(userId: number, options: { account?: string; prices?: 'fetch' | 'cached' } = {}): Promise<PositionsReport> {
    return this.report(userId, await this.imported.lots(userId, { account: options.account }), options.prices ?? 'fetch');
  }

  /**
   * The positions in one symbol (long and short, if both are open) with their lots; 404 when none is
   * open. Weighed within the whole portfolio, as in the list.
   */
  async detail(userId: number, symbol: string): Promise<{ report: PositionsReport; lots: ImportedLot[] }> {
    const all = await this.imported.lots(userId);
    const lots = all.filter((lot) => lot.symbol === symbol);
    if (lots.length === 0) throw new PositionNotFoundError(symbol);
    const report = await this.report(userId, all, 'fetch');
    const positions = report.positions.filter((p) => p.position.symbol === symbol);
    return {
      report: {
        positions,
        pending: positions.filter((p) => p.fetching).length,
        unpriced: positions.filter((p) => p.quote === null).length,
        freshForMs: report.freshForMs,
      },
      lots,
    };
  }

  private async report(userId: number, lots: readonly ImportedLot[], prices: 'fetch' | 'cached'): Promise<PositionsReport> {
    const positions = positionsFromLots(lots);
    const symbols = [...new Set(positions.map((p) => p.symbol))];
    const [{ known, waiting }, manual] = await Promise.all([
      prices === 'fetch' ? this.prices.current(symbols) : this.prices.cached(symbols).then((cached) => ({ known: cached, waiting: new Set<string>() })),
      this.holdings.findBySymbols(userId, symbols),
    ]);
    const manualSymbols = new Set(manual.map((h) => h.symbol));
    const valued = positions.map((position) => {
      const price = known.get(position.symbol);
      const quote = price?.quote ?? null;
      const fetching = waiting.has(position.symbol);
      return { position, quote, priceStatus: this.statusOf(price, fetching), fetching, valuation: valuePosition(position, quote) };
    });
    const weights = weightsOf(valued.map((v) => v.valuation.currentValue));
    const now = this.clock.now().getTime();
    const untilStale = valued
      .filter((v) => v.priceStatus === 'current')
      .map((v) => (v.quote as CachedQuote).fetchedAt.getTime() + this.settings.priceStaleMs - now);
    return {
      positions: valued.map((v, index) => ({ ...v, weight: weights[index], alsoManual: manualSymbols.has(v.position.symbol) })),
      pending: valued.filter((v) => v.fetching).length,
      unpriced: valued.filter((v) => v.quote === null).length,
      freshForMs: waiting.size > 0 ? 0 : Math.max(0, untilStale.reduce((soonest, ms) => Math.min(soonest, ms), Number.MAX_SAFE_INTEGER)),
    };
  }

  private statusOf(price: SymbolPrice | undefined, fetching: boolean): PriceStatus {
    const quote = price?.quote ?? null;
    if (quote === null) return fetching ? 'pending' : 'unavailable';
    return this.clock.now().getTime() - quote.fetchedAt.getTime() >= this.settings.priceStaleMs ? 'stale' : 'current';
  }
}
