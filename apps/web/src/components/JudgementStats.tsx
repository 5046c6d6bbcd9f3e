import type { TradeStatistics } from '../api/types';
import { formatDate } from '../lib/format';
import { Pnl, Stat } from './common';

/** Profit factor, expectancy and max drawdown of the same trades (`/api/statistics`), once they arrive. */
export function JudgementStats({ stats }: { stats: TradeStatistics | undefined }) {
  if (stats === undefined || stats.total_trades === 0) return null;
  const drawdown = stats.max_drawdown;
  return (
    <>
      <Stat label="Profit factor" value={stats.profit_factor === null ? '—' : stats.profit_factor.toFixed(2)} hint={stats.profit_factor === null ? 'no losing trade' : 'gross profit ÷ gross loss'} />
      <Stat label="Expectancy" value={<Pnl value={stats.expectancy} />} hint="per trade" />
      <Stat label="Max drawdown" value={<Pnl value={drawdown.amount} />} hint={drawdown.trough_date ? `to ${formatDate(drawdown.trough_date)}` : undefined} />
    </>
  );
}
