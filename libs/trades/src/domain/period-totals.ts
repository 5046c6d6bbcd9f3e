import { Decimal, type IsoDate } from '@app/shared/domain';

/**
 * What every trading report adds up over a period (a day, a week, a month, a timeframe): trades count
 * on their closing date, dividends on their transaction date. Money is exact; it is rounded only in
 * the response.
 */
export interface PeriodTotals {
  readonly tradeCount: number;
  readonly winningTrades: number;
  readonly tradingProfitLoss: Decimal;
  readonly dividendCount: number;
  readonly dividends: Decimal;
}

/** The totals of one calendar day, as the read model's daily rollup holds them. */
export interface DayTotals extends PeriodTotals {
  readonly date: IsoDate;
}

export const NO_ACTIVITY: PeriodTotals = Object.freeze({
  tradeCount: 0,
  winningTrades: 0,
  tradingProfitLoss: Decimal.ZERO,
  dividendCount: 0,
  dividends: Decimal.ZERO,
});

export function addTotals(a: PeriodTotals, b: PeriodTotals): PeriodTotals {
  return {
    tradeCount: a.tradeCount + b.tradeCount,
    winningTrades: a.winningTrades + b.winningTrades,
    tradingProfitLoss: a.tradingProfitLoss.add(b.tradingProfitLoss),
    dividendCount: a.dividendCount + b.dividendCount,
    dividends: a.dividends.add(b.dividends),
  };
}

export function sumTotals(periods: Iterable<PeriodTotals>): PeriodTotals {
  let total = NO_ACTIVITY;
  for (const period of periods) total = addTotals(total, period);
  return total;
}

/** Winning ÷ total × 100 (a percent number), 0 without trades (../shared/spec/decisions.md §4). */
export function winRate(winningTrades: number, totalTrades: number): Decimal {
  return totalTrades === 0 ? Decimal.ZERO : Decimal.of(winningTrades).mulDiv(Decimal.HUNDRED, Decimal.of(totalTrades));
}

/** Trading P&L plus dividends. */
export function totalReturn(totals: PeriodTotals): Decimal {
  return totals.tradingProfitLoss.add(totals.dividends);
}

export function hasActivity(totals: PeriodTotals): boolean {
  return totals.tradeCount > 0 || totals.dividendCount > 0;
}
