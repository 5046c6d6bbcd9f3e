import type { BreakdownRow, EquityCurveResponse, StatisticsResponse, TradeStatistics } from '../api/types';
import { Chart } from '../components/Chart';
import { ErrorMessage, Loading, PageHeader, Pnl, Section, Stat, Stats } from '../components/common';
import { DataTable, type Column } from '../components/DataTable';
import { NoTradesInSelection, RangeFilter, selectionLabel, SearchSelect, useRangeSelection } from '../components/RangeFilter';
import { ACCENT } from '../components/chart-types';
import { EquityCurveChart } from '../components/EquityCurveChart';
import { formatCompactMoney, formatCount, formatDate, formatMoney, formatPercent, formatSignedMoney } from '../lib/format';
import { Link, useLocation } from '../lib/router';
import { timeframeQuery } from '../lib/timeframe-presets';
import { useApi, useTitle } from '../lib/use-api';

export const SIDE_OPTIONS = [
  { value: '', label: 'Long and short' },
  { value: 'long', label: 'Long only' },
  { value: 'short', label: 'Short only' },
] as const;

const HOLDING_LABELS: Record<string, string> = {
  same_day: 'Same day',
  '1_7': '1–7 days',
  '8_30': '8–30 days',
  '31_365': '31–365 days',
  over_365: 'Over a year',
};

const ratio = (value: number | null) => (value === null ? '—' : value.toFixed(2));
const days = (value: number | null) => (value === null ? '—' : `${value.toFixed(1)} days`);

function streak(value: number): string {
  if (value === 0) return 'none';
  return value > 0 ? `${value} green day${value === 1 ? '' : 's'}` : `${-value} red day${value === -1 ? '' : 's'}`;
}

function bucketLabel(bucket: { from: number | null; to: number | null }): string {
  if (bucket.from === null) return `< ${formatCompactMoney(bucket.to)}`;
  if (bucket.to === null) return `≥ ${formatCompactMoney(bucket.from)}`;
  return `${formatCompactMoney(bucket.from)} to ${formatCompactMoney(bucket.to)}`;
}

function breakdownColumns<R extends BreakdownRow>(header: string, label: (row: R) => string): Column<R>[] {
  return [
    { key: 'key', header, cell: label, sortValue: label },
    { key: 'net', header: 'Net P&L', cell: (r) => <Pnl value={r.net_profit_loss} />, sortValue: (r) => r.net_profit_loss, numeric: true },
    { key: 'trades', header: 'Trades', cell: (r) => formatCount(r.total_trades), sortValue: (r) => r.total_trades, numeric: true },
    { key: 'win', header: 'Win rate', cell: (r) => formatPercent(r.win_rate), sortValue: (r) => r.win_rate, numeric: true },
    { key: 'average', header: 'Average', cell: (r) => <Pnl value={r.average_profit_loss} />, sortValue: (r) => r.average_profit_loss, numeric: true, minor: true },
  ];
}

function BreakdownChart<R extends BreakdownRow>({ title, rows, label }: { title: string; rows: R[]; label: (row: R) => string }) {
  return (
    <Section title={title}>
      <Chart
        kind="bar"
        labels={rows.map(label)}
        series={[{ label: 'Net P&L', values: rows.map((row) => row.net_profit_loss), colorBySign: true }]}
        description={`Bar chart of net P&L ${title.toLowerCase()}; the table below has the numbers.`}
        format={formatSignedMoney}
        axisFormat={formatCompactMoney}
        height={200}
      />
      <DataTable caption={`Net P&L ${title.toLowerCase()}`} columns={breakdownColumns(title.replace(/^By /, ''), label)} rows={rows} rowKey={label} />
    </Section>
  );
}

function Figures({ stats }: { stats: TradeStatistics }) {
  const drawdown = stats.max_drawdown;
  return (
    <Section title="Figures">
      <Stats label="Trade statistics">
        <Stat label="Net P&L" value={<Pnl value={stats.net_profit_loss} className="big" />} />
        <Stat label="Profit factor" value={ratio(stats.profit_factor)} hint="gross profit ÷ gross loss" />
        <Stat label="Expectancy" value={<Pnl value={stats.expectancy} />} hint="per trade" />
        <Stat label="Win rate" value={formatPercent(stats.win_rate)} hint={`${formatCount(stats.winning_trades)} of ${formatCount(stats.total_trades)} won`} />
        <Stat label="Max drawdown" value={<Pnl value={drawdown.amount} />} hint={drawdown.trough_date ? `to ${formatDate(drawdown.trough_date)}` : undefined} />
        <Stat label="Average win" value={<Pnl value={stats.average_win} />} />
        <Stat label="Average loss" value={<Pnl value={stats.average_loss} />} />
        <Stat label="Payoff ratio" value={ratio(stats.payoff_ratio)} hint="average win ÷ average loss" />
        <Stat label="Gross profit" value={<Pnl value={stats.gross_profit} />} />
        <Stat label="Gross loss" value={<Pnl value={stats.gross_loss} />} />
        <Stat
          label="Trades"
          value={formatCount(stats.total_trades)}
          hint={`${formatCount(stats.winning_trades)} won, ${formatCount(stats.losing_trades)} lost, ${formatCount(stats.breakeven_trades)} even`}
        />
        <Stat label="Win rate without breakevens" value={formatPercent(stats.win_rate_excluding_breakeven)} />
        <Stat label="Largest win" value={<Pnl value={stats.largest_win?.total_profit_loss} />} hint={stats.largest_win ? `${stats.largest_win.symbol}, ${formatDate(stats.largest_win.close_date)}` : undefined} />
        <Stat label="Largest loss" value={<Pnl value={stats.largest_loss?.total_profit_loss} />} hint={stats.largest_loss ? `${stats.largest_loss.symbol}, ${formatDate(stats.largest_loss.close_date)}` : undefined} />
        <Stat label="Held, winners" value={days(stats.average_holding_days_winners)} hint="on average" />
        <Stat label="Held, losers" value={days(stats.average_holding_days_losers)} hint="on average" />
        <Stat label="Trading days" value={formatCount(stats.trading_days)} hint={`${formatCount(stats.green_days)} green, ${formatCount(stats.red_days)} red`} />
        <Stat label="Average day" value={<Pnl value={stats.average_daily_profit_loss} />} hint={`σ ${formatMoney(stats.daily_profit_loss_std_dev)}`} />
        <Stat label="Best day" value={<Pnl value={stats.best_day?.profit_loss} />} hint={stats.best_day ? formatDate(stats.best_day.date) : undefined} />
        <Stat label="Worst day" value={<Pnl value={stats.worst_day?.profit_loss} />} hint={stats.worst_day ? formatDate(stats.worst_day.date) : undefined} />
        <Stat label="Longest streaks" value={`${stats.max_winning_day_streak} green, ${stats.max_losing_day_streak} red`} hint={`now: ${streak(stats.current_day_streak)}`} />
      </Stats>
    </Section>
  );
}

/** The query of `/api/statistics` and `/api/equity-curve` for what the address selects (side, and a tag or untagged). */
export function statisticsQuery(base: string, side: string | null, journal: { tag?: string | null; untagged?: string | null } = {}): string {
  const params = new URLSearchParams(base);
  if (side === 'long' || side === 'short') params.set('side', side);
  if (journal.tag) params.set('tag', journal.tag);
  else if (journal.untagged === 'true') params.set('untagged', 'true');
  return params.toString();
}

export function StatisticsPage() {
  useTitle('Statistics');
  const selection = useRangeSelection();
  const { range, symbols } = selection;
  const { search } = useLocation();
  const side = search.get('side');
  const tag = search.get('tag');
  const untagged = search.get('untagged');
  const query = statisticsQuery(timeframeQuery(range, symbols), side, { tag, untagged });
  const report = useApi<StatisticsResponse>(`/api/statistics?${query}`);
  const curve = useApi<EquityCurveResponse>(`/api/equity-curve?${query}`);
  const stats = report.data?.statistics;
  const points = curve.data?.points ?? [];
  const sideLabel =
    (side === 'long' ? ', long trades' : side === 'short' ? ', short trades' : '') + (tag ? `, tagged ${tag}` : untagged === 'true' ? ', without tags' : '');

  return (
    <>
      <PageHeader title="Statistics" subtitle={`Trades closed ${selectionLabel(selection)}${sideLabel}`}>
        <Link to={`/trades?${search.toString()}`} className="button-secondary">
          List these trades
        </Link>
      </PageHeader>
      <RangeFilter selection={selection}>
        <SearchSelect name="side" label="Side" options={SIDE_OPTIONS} />
      </RangeFilter>

      {report.status === 'loading' && <Loading />}
      {report.status === 'error' && <ErrorMessage error={report.error} retry={report.reload} />}
      {stats &&
        (stats.total_trades === 0 ? (
          <NoTradesInSelection />
        ) : (
          <>
            <Figures stats={stats} />
            <Section title="Equity curve" id="equity-curve">
              {curve.status === 'error' && <ErrorMessage error={curve.error} retry={curve.reload} />}
              {curve.status === 'ready' && <EquityCurveChart points={points} />}
            </Section>
            <Section title="P&L per trade" id="distribution">
              <Chart
                kind="bar"
                labels={stats.profit_loss_distribution.map(bucketLabel)}
                series={[{ label: 'Trades', values: stats.profit_loss_distribution.map((bucket) => bucket.trades), color: ACCENT }]}
                description={`Histogram of trade P&L: ${stats.profit_loss_distribution
                  .filter((bucket) => bucket.trades > 0)
                  .map((bucket) => `${bucket.trades} from ${bucketLabel(bucket)}`)
                  .join('; ')}.`}
                format={(value) => formatCount(value)}
                counts
                height={220}
              />
            </Section>
            <div className="grid-2">
              <BreakdownChart title="By weekday" rows={stats.by_weekday} label={(row) => row.weekday} />
              <BreakdownChart title="By holding period" rows={stats.by_holding_period} label={(row) => HOLDING_LABELS[row.holding_period] ?? row.holding_period} />
              <BreakdownChart title="By side" rows={stats.by_side} label={(row) => (row.side === 'long' ? 'Long' : 'Short')} />
              <Section title="Symbols">
                <DataTable
                  caption="Best and worst symbols by net P&L"
                  columns={[
                    {
                      key: 'symbol',
                      header: 'Symbol',
                      cell: (row) => <Link to={`/symbols/${encodeURIComponent(row.symbol)}`}>{row.symbol}</Link>,
                      sortValue: (row) => row.symbol,
                    },
                    ...breakdownColumns<BreakdownRow & { symbol: string }>('Symbol', (row) => row.symbol).slice(1),
                  ]}
                  rows={[...stats.by_symbol.winners, ...stats.by_symbol.losers]}
                  rowKey={(row) => row.symbol}
                  initialSort={{ key: 'net', direction: 'descending' }}
                />
              </Section>
            </div>
          </>
        ))}
    </>
  );
}
