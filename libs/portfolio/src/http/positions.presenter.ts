import { Decimal } from '@app/shared/domain';
import type { Allocation, PortfolioSummary, ValueHistoryDay } from '../application/portfolio-overview.service.js';
import type { PositionsReport, PricedPosition } from '../application/positions.service.js';
import { averageCostOf, type ImportedLot } from '../domain/position.js';
import { toTotalsResponse } from './portfolio.presenter.js';

const money = (value: Decimal | null): number | null => (value === null ? null : value.toNumber(2));

/** One imported position (docs/api.md "Positions"). */
export function toPositionResponse({ position, quote, priceStatus, valuation, weight, alsoManual }: PricedPosition) {
  return {
    symbol: position.symbol,
    side: position.side,
    shares: position.shares.toNumber(6),
    average_cost: averageCostOf(position).toNumber(4),
    cost_basis: valuation.totalCost.toNumber(2),
    last_price: quote === null ? null : quote.currentPrice.toNumber(4),
    price_time: quote === null ? null : (quote.quotedAt ?? quote.fetchedAt).toISOString(),
    price_status: priceStatus,
    market_value: money(valuation.currentValue),
    unrealized_profit_loss: money(valuation.gainLoss),
    unrealized_return_percentage: money(valuation.returnPercentage),
    day_change: money(valuation.dayChange),
    day_change_percentage: money(valuation.dayChangePercentage),
    weight: money(weight),
    lots: position.lots,
    first_opened: position.firstOpened,
    last_opened: position.lastOpened,
    lot_source: position.source,
    source: 'import' as const,
    also_manual: alsoManual,
  };
}

export function toPositionsResponse(report: PositionsReport) {
  const positions = report.positions.map(toPositionResponse);
  const priced = report.positions.filter((p) => p.valuation.currentValue !== null);
  // Of the priced positions, as the portfolio's totals: an unpriced one is in none of the sums.
  const sum = (pick: (p: PricedPosition) => Decimal | null) => Decimal.sum(priced.map((p) => pick(p) ?? Decimal.ZERO));
  return {
    positions,
    count: positions.length,
    pending_prices: report.pending,
    unpriced_count: report.unpriced,
    totals: {
      market_value: sum((p) => p.valuation.currentValue).toNumber(2),
      cost_basis: sum((p) => p.valuation.totalCost).toNumber(2),
      unrealized_profit_loss: sum((p) => p.valuation.gainLoss).toNumber(2),
      day_change: sum((p) => p.valuation.dayChange).toNumber(2),
    },
  };
}

export function toLotResponse(lot: ImportedLot) {
  return {
    account: lot.accountNumber,
    side: lot.side,
    open_date: lot.openDate,
    shares: lot.shares.toNumber(6),
    cost_basis: lot.cost.round(2).toNumber(2),
    cost_per_share: lot.shares.isZero() ? 0 : lot.cost.div(lot.shares).toNumber(4),
    price: lot.price === null ? null : lot.price.toNumber(4),
    source: lot.source,
  };
}

export function toSummaryResponse(summary: PortfolioSummary) {
  return {
    totals: toTotalsResponse(summary.total),
    manual: toTotalsResponse(summary.manual),
    imported: toTotalsResponse(summary.imported),
    pending_prices: summary.pendingPrices,
    held_twice: summary.heldTwice,
  };
}

export function toAllocationResponse(allocation: Allocation) {
  return {
    total_value: allocation.totalValue.toNumber(2),
    unpriced_count: allocation.unpriced,
    by_symbol: allocation.bySymbol.map((s) => ({ symbol: s.key, value: s.value.toNumber(2), weight: s.weight.toNumber(2) })),
    by_type: allocation.byType.map((s) => ({ type: s.key, value: s.value.toNumber(2), weight: s.weight.toNumber(2) })),
  };
}

export function toValueHistoryDay(day: ValueHistoryDay) {
  return {
    date: day.date,
    value: money(day.value),
    cost_basis: money(day.costBasis),
    unrealized_profit_loss: money(day.unrealizedProfitLoss),
    realized_profit_loss: day.realizedProfitLoss.toNumber(2),
    dividends: day.dividends.toNumber(2),
    cumulative_realized_profit_loss: day.cumulativeRealizedProfitLoss.toNumber(2),
    cumulative_dividends: day.cumulativeDividends.toNumber(2),
  };
}
