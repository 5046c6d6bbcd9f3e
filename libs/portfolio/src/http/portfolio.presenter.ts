import type { PricedHolding } from '../application/holdings.service.js';
import type { Decimal } from '@app/shared/domain';
import type { PortfolioTotals } from '../domain/portfolio-totals.js';
import type { CachedQuote } from '../domain/quote.js';
import type { Snapshot } from '../domain/snapshot.js';

/** The contract's Holding (the listing's field names), plus `notes`, `purchase_date`, `price_stale` and timestamps. */
export interface HoldingResponse {
  id: number;
  symbol: string;
  holding_type: string;
  shares: number;
  average_cost: number;
  current_price: number | null;
  total_cost: number;
  current_value: number | null;
  gain_loss: number | null;
  return_percentage: number | null;
  last_updated: string | null;
  price_stale: boolean;
  /** Manual holdings are typed by hand; imported positions are listed by GET /api/positions. */
  source: 'manual';
  notes: string;
  purchase_date: string | null;
  created_at: string;
  updated_at: string;
}

export function toHoldingResponse({ holding, price, priceUpdatedAt, priceStale, valuation }: PricedHolding): HoldingResponse {
  return {
    id: holding.id,
    symbol: holding.symbol,
    holding_type: holding.holdingType,
    shares: holding.shares.toNumber(6),
    average_cost: holding.averageCost.toNumber(6),
    current_price: price === null ? null : price.toNumber(4),
    total_cost: valuation.totalCost.toNumber(2),
    current_value: cents(valuation.currentValue),
    gain_loss: cents(valuation.gainLoss),
    return_percentage: cents(valuation.returnPercentage),
    last_updated: priceUpdatedAt?.toISOString() ?? null,
    price_stale: priceStale,
    source: 'manual',
    notes: holding.notes,
    purchase_date: holding.purchaseDate,
    created_at: holding.createdAt.toISOString(),
    updated_at: holding.updatedAt.toISOString(),
  };
}

/** The contract's Price data, plus when the provider set the price and when it was fetched. */
export function toPriceData(quote: CachedQuote) {
  return {
    current_price: quote.currentPrice.toNumber(4),
    change: fourPlaces(quote.change),
    percent_change: fourPlaces(quote.percentChange),
    high: fourPlaces(quote.high),
    low: fourPlaces(quote.low),
    open: fourPlaces(quote.open),
    previous_close: fourPlaces(quote.previousClose),
    quote_time: quote.quotedAt?.toISOString() ?? null,
    last_updated: quote.fetchedAt.toISOString(),
  };
}

/**
 * A portfolio's totals with a snapshot's field names: summed exactly from the holdings' cent amounts,
 * the holdings without any known price left out of all of them (`unpriced_count` says how many).
 */
export function toTotalsResponse(totals: PortfolioTotals) {
  return {
    total_value: totals.totalValue.toNumber(2),
    total_cost: totals.totalCost.toNumber(2),
    total_gain_loss: totals.totalGainLoss.toNumber(2),
    total_return_pct: totals.totalReturnPct.toNumber(2),
    holdings_count: totals.holdingsCount,
    unpriced_count: totals.unpricedCount,
  };
}

/** The contract's snapshot; history entries add `snapshot_type` and `notes`. */
export function toSnapshotResponse(snapshot: Snapshot, withTypeAndNotes: boolean) {
  const base = { id: snapshot.id, snapshot_time: snapshot.takenAt.toISOString(), ...toTotalsResponse(snapshot) };
  return withTypeAndNotes
    ? { ...base, snapshot_type: snapshot.type, notes: snapshot.notes, trading_date: snapshot.tradingDate }
    : base;
}

function cents(value: Decimal | null): number | null {
  return value === null ? null : value.toNumber(2);
}

function fourPlaces(value: Decimal | null): number | null {
  return value === null ? null : value.toNumber(4);
}
