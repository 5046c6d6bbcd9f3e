import type { EquityPoint } from '../api/types';
import { formatCompactMoney, formatDate, formatSignedMoney } from '../lib/format';
import { Chart } from './Chart';
import { ACCENT, LOSS } from './chart-types';

/** Cumulative realized trading P&L as a stepped line over real time, its drawdown shaded beneath. */
export function EquityCurveChart({ points, height = 300 }: { points: readonly EquityPoint[]; height?: number }) {
  if (points.length === 0) return <p className="muted">No closed trades or dividends in this selection.</p>;
  return (
    <Chart
      kind="line"
      timeAxis
      labels={points.map((point) => point.date)}
      series={[
        { label: 'Trading P&L, cumulative', values: points.map((point) => point.cumulative_trading_profit_loss), color: ACCENT, stepped: true },
        { label: 'Drawdown', values: points.map((point) => point.drawdown), color: LOSS, stepped: true, fill: true },
      ]}
      description={`Stepped line of cumulative realized trading P&L over ${points.length} days with a trade or a dividend, from ${formatDate(points[0].date)} to ${formatDate(points.at(-1)!.date)}, ending at ${formatSignedMoney(points.at(-1)!.cumulative_trading_profit_loss)}; the drawdown below it is shaded.`}
      format={formatSignedMoney}
      axisFormat={formatCompactMoney}
      height={height}
    />
  );
}
