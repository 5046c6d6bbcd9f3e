import { Decimal } from '@app/shared/domain';
import type { HoldingValuation } from './holding.js';
import { percentage } from '@app/shared/domain';

/** A portfolio at one moment: what a snapshot records. */
export interface PortfolioTotals {
  readonly totalValue: Decimal;
  readonly totalCost: Decimal;
  readonly totalGainLoss: Decimal;
  /** Percent, two decimals. */
  readonly totalReturnPct: Decimal;
  readonly holdingsCount: number;
  /** Holdings without any known price: left out of the value, the cost and the gain (nothing is made up for them). */
  readonly unpricedCount: number;
}

/**
 * Sums of the priced holdings' cent amounts, so a snapshot equals the sum of the listed holdings to the
 * cent. A holding without any known price is left out of value, cost and gain alike (counting it at
 * its cost would show a value no price supports); `unpricedCount` says how many were.
 */
export function portfolioTotals(valuations: readonly HoldingValuation[]): PortfolioTotals {
  const priced = valuations.filter((v) => v.currentValue !== null);
  const totalCost = Decimal.sum(priced.map((v) => v.totalCost));
  const totalValue = Decimal.sum(priced.map((v) => v.currentValue ?? Decimal.ZERO));
  const totalGainLoss = totalValue.sub(totalCost);
  return {
    totalValue,
    totalCost,
    totalGainLoss,
    totalReturnPct: percentage(totalGainLoss, totalCost),
    holdingsCount: valuations.length,
    unpricedCount: valuations.length - priced.length,
  };
}
