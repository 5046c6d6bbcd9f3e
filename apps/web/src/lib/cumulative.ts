import type { Dividend, Trade } from '../api/types';

export interface CumulativePoint {
  date: string;
  /** Running trading P&L up to and including the date. */
  trading: number;
  /** Running trading P&L plus dividends. */
  total: number;
}

/** Adds in cents so that a long list of 2-decimal amounts does not drift (0.1 + 0.2). */
const cents = (value: number): number => Math.round(value * 100);

/**
 * The running profit of a symbol, one point per date with a closed trade or a dividend (a trade
 * counts on its closing date), oldest first.
 */
export function cumulativeSeries(trades: readonly Trade[], dividends: readonly Dividend[]): CumulativePoint[] {
  const byDate = new Map<string, { trading: number; dividends: number }>();
  const entry = (date: string) => {
    let found = byDate.get(date);
    if (found === undefined) {
      found = { trading: 0, dividends: 0 };
      byDate.set(date, found);
    }
    return found;
  };
  for (const trade of trades) entry(trade.close_date).trading += cents(trade.total_profit_loss);
  for (const dividend of dividends) entry(dividend.transaction_date).dividends += cents(dividend.amount);

  let trading = 0;
  let total = 0;
  return [...byDate.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, amounts]) => {
      trading += amounts.trading;
      total += amounts.trading + amounts.dividends;
      return { date, trading: trading / 100, total: total / 100 };
    });
}
