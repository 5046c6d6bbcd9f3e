import { Injectable } from '@nestjs/common';
import { Clock } from '@app/calendar';
import type { Decimal } from '@app/shared/domain';
import { valueHolding, type Holding, type HoldingChanges, type HoldingDraft, type HoldingValuation } from '../domain/holding.js';
import { HoldingNotFoundError } from '../domain/portfolio.errors.js';
import type { SymbolPrice } from '../domain/quote.js';
import { HoldingsChanges } from './holdings-changes.js';
import { Holdings } from './holdings.port.js';
import { MarketPrices } from './market-prices.service.js';
import { PortfolioSettings } from './portfolio-settings.js';

/** A holding with its latest known price and the money figures that follow. */
export interface PricedHolding {
  readonly holding: Holding;
  readonly price: Decimal | null;
  /** When that price was fetched. */
  readonly priceUpdatedAt: Date | null;
  /** No price, or one older than PRICE_STALE_MINUTES. */
  readonly priceStale: boolean;
  readonly valuation: HoldingValuation;
}

@Injectable()
export class HoldingsService {
  constructor(
    private readonly holdings: Holdings,
    private readonly prices: MarketPrices,
    private readonly clock: Clock,
    private readonly settings: PortfolioSettings,
    private readonly changes: HoldingsChanges = new HoldingsChanges(),
  ) {}

  /**
   * The user's holdings, re-pricing the stale ones first (../shared/spec/interface.md "Limits": older than 15 minutes).
   * The list waits for that at most `listRepricingWaitMs`: what the rate limiter cannot fit in is served
   * from the cache, marked stale, and keeps being fetched in the background for the next read.
   */
  async list(userId: number): Promise<PricedHolding[]> {
    const holdings = await this.holdings.findByUser(userId);
    const { known } = await this.prices.current(holdings.map((h) => h.symbol));
    return holdings.map((holding) => this.price(holding, known.get(holding.symbol)));
  }

  /** Holdings with the cached prices only (no provider calls): what a snapshot records. */
  async listWithCachedPrices(userId: number): Promise<PricedHolding[]> {
    const holdings = await this.holdings.findByUser(userId);
    const known = await this.prices.cached(holdings.map((h) => h.symbol));
    return holdings.map((holding) => this.price(holding, known.get(holding.symbol)));
  }

  async create(userId: number, draft: HoldingDraft): Promise<PricedHolding> {
    const holding = await this.holdings.create(userId, draft);
    this.changes.changed(userId);
    return this.withCachedPrice(holding);
  }

  async update(userId: number, id: number, changes: HoldingChanges): Promise<PricedHolding> {
    const holding = await this.holdings.update(userId, id, changes);
    if (holding === null) throw new HoldingNotFoundError();
    this.changes.changed(userId);
    return this.withCachedPrice(holding);
  }

  async delete(userId: number, id: number): Promise<Holding> {
    const holding = await this.holdings.findOne(userId, id);
    if (holding === null || !(await this.holdings.delete(userId, id))) throw new HoldingNotFoundError();
    this.changes.changed(userId);
    return holding;
  }

  /** The user's distinct symbols. */
  async symbolsOf(userId: number): Promise<string[]> {
    return (await this.holdings.findByUser(userId)).map((h) => h.symbol);
  }

  private async withCachedPrice(holding: Holding): Promise<PricedHolding> {
    const known = await this.prices.cached([holding.symbol]);
    return this.price(holding, known.get(holding.symbol));
  }

  private price(holding: Holding, known: SymbolPrice | undefined): PricedHolding {
    const quote = known?.quote ?? null;
    const price = quote?.currentPrice ?? null;
    const priceUpdatedAt = quote?.fetchedAt ?? null;
    const priceStale = priceUpdatedAt === null || this.clock.now().getTime() - priceUpdatedAt.getTime() >= this.settings.priceStaleMs;
    return { holding, price, priceUpdatedAt, priceStale, valuation: valueHolding(holding.shares, holding.averageCost, price) };
  }
}
