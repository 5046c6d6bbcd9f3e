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
  /** Holdings without any known price; they count at their cost (no gain, no loss). */
  readonly unpricedCount: number;
}

/** Sums of the holdings' cent amounts, so a snapshot equals the sum of the listed holdings to the cent. */
export function portfolioTotals(valuations: readonly HoldingValuation[]): PortfolioTotals {
  const totalCost = Decimal.sum(valuations.map((v) => v.totalCost));
  const totalValue = Decimal.sum(valuations.map((v) => v.currentValue ?? v.totalCost));
  const totalGainLoss = totalValue.sub(totalCost);
  return {
    totalValue,
    totalCost,
    totalGainLoss,
    totalReturnPct: percentage(totalGainLoss, totalCost),
    holdingsCount: valuations.length,
    unpricedCount: valuations.filter((v) => v.currentValue === null).length,
  };
}
