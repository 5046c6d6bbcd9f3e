import { useMemo, type ReactNode } from 'react';
import type { MonthPeriod, PeriodMetrics, TimeframeResponse, WeekPeriod } from '../api/types';
import { Chart } from '../components/Chart';
import { EmptyState, ErrorMessage, Loading, PageHeader, Pnl, Section, Stat, Stats } from '../components/common';
import { DataTable, type Column } from '../components/DataTable';
import { RangeFilter, selectionLabel, useRangeSelection } from '../components/RangeFilter';
import { formatCompactMoney, formatCount, formatDate, formatMoney, formatMonth, formatPercent, formatPrice, formatShares, formatShortDate, formatShortMonth, formatSignedMoney, priceDecimals } from '../lib/format';
import { Link, updateSearch } from '../lib/router';
import { timeframeQuery, type PresetId } from '../lib/timeframe-presets';
import { addDays, addMonths, withEmptyPeriods } from '../lib/dates';
import { useApi, useTitle } from '../lib/use-api';

const byKey = <T extends { key: string }>(points: T[]): T[] => points.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
const periodTotal = (period: PeriodMetrics) => period.total_return ?? period.trading_profit_loss + period.total_dividends;

function periodColumns<P extends PeriodMetrics>(label: string, cell: (period: P) => ReactNode, sortValue: (period: P) => string): Column<P>[] {
  return [
    { key: 'period', header: label, cell, sortValue },
    { key: 'total', header: 'Total', cell: (p) => <Pnl value={periodTotal(p)} />, sortValue: periodTotal, numeric: true },
    { key: 'pnl', header: 'Trading P&L', cell: (p) => <Pnl value={p.trading_profit_loss} />, sortValue: (p) => p.trading_profit_loss, numeric: true, minor: true },
    { key: 'dividends', header: 'Dividends', cell: (p) => <Pnl value={p.total_dividends} />, sortValue: (p) => p.total_dividends, numeric: true, minor: true },
    { key: 'trades', header: 'Trades', cell: (p) => formatCount(p.total_trades), sortValue: (p) => p.total_trades, numeric: true, minor: true },
    {
      key: 'win',
      header: 'Win rate',
      cell: (p) => (p.total_trades > 0 ? formatPercent(p.win_rate_percentage) : '—'),
      sortValue: (p) => (p.total_trades > 0 ? p.win_rate_percentage : null),
      numeric: true,
    },
  ];
}

const WEEK_COLUMNS = periodColumns<WeekPeriod>('Week of', (p) => <span className="nowrap">{formatDate(p.week_start)}</span>, (p) => p.week_start);
const MONTH_COLUMNS = periodColumns<MonthPeriod>('Month', (p) => <Link className="nowrap" to={`/month/${p.period}`}>{formatMonth(p.period)}</Link>, (p) => p.period);

export function TimeframePage() {
  useTitle('Timeframe');
  const selection = useRangeSelection();
  const { range, symbols } = selection;
  const report = useApi<TimeframeResponse>(`/api/timeframe-data?${timeframeQuery(range, symbols)}`);

  const data = report.data?.data;
  // Oldest first, with the weeks and months that have nothing as zero bars.
  const weeks = useMemo(
    () => withEmptyPeriods(byKey((data?.weekly_summary ?? []).map((w) => ({ key: w.week_start, value: periodTotal(w) }))), (day) => addDays(day, 7)),
    [data],
  );
  const months = useMemo(
    () => withEmptyPeriods(byKey((data?.monthly_summary ?? []).map((m) => ({ key: m.period, value: periodTotal(m) }))), (month) => addMonths(month, 1)),
    [data],
  );
  const empty = data !== undefined && data.weekly_summary.length === 0 && data.open_positions.length === 0;
  const positionPrices = priceDecimals((data?.open_positions ?? []).map((p) => p.last_price));

  const choose = (id: PresetId) => updateSearch({ preset: id, start: null, end: null });

  return (
    <>
      <PageHeader title="Timeframe" subtitle={`Results for ${selectionLabel(selection)}`} />
      <RangeFilter selection={selection} />

      {report.status === 'loading' && <Loading />}
      {report.status === 'error' && <ErrorMessage error={report.error} retry={report.reload} />}
      {data && (
        <>
          <Section title="Summary">
            <Stats label="Summary of the range">
              <Stat label="Total return" value={<Pnl value={periodTotal(data.summary)} className="big" />} />
              <Stat label="Trading P&L" value={<Pnl value={data.summary.trading_profit_loss} />} />
              <Stat label="Dividends" value={<Pnl value={data.summary.total_dividends} />} />
              <Stat label="Win rate" value={formatPercent(data.summary.win_rate_percentage)} hint={`${formatCount(data.summary.winning_trades)} of ${formatCount(data.summary.total_trades)} won`} />
              <Stat label="Trades" value={formatCount(data.summary.total_trades)} />
            </Stats>
          </Section>
          {empty ? (
            <EmptyState title="No trades or dividends in this range" importLink={false}>
              {data.all_time ? (
                <p>
                  Nothing has been imported for this selection yet: <Link to="/import">import your trades</Link>.
                </p>
              ) : (
                <p>
                  Try{' '}
                  <button type="button" className="button-link" onClick={() => choose('all')}>
                    all time
                  </button>
                  , or <Link to="/import">import more trades</Link>.
                </p>
              )}
            </EmptyState>
          ) : (
            <>
              <div>
                <Section title="By week" id="weekly">
                  <Chart
                    kind="bar"
                    labels={weeks.map((w) => formatShortDate(w.key))}
                    series={[{ label: 'Total', values: weeks.map((w) => w.value), colorBySign: true }]}
                    description={`Bar chart of the total per week (trading P&L plus dividends), ${weeks.length} weeks; the weekly table has the numbers.`}
                    format={formatSignedMoney}
                    axisFormat={formatCompactMoney}
                  />
                  <DataTable caption="Totals by week" columns={WEEK_COLUMNS} rows={data.weekly_summary} rowKey={(w) => w.week_start} initialSort={{ key: 'period', direction: 'descending' }} />
                </Section>
                <Section title="By month" id="monthly">
                  <Chart
                    kind="bar"
                    labels={months.map((m) => formatShortMonth(m.key))}
                    series={[{ label: 'Total', values: months.map((m) => m.value), colorBySign: true }]}
                    description={`Bar chart of the total per month (trading P&L plus dividends), ${months.length} months; the monthly table has the numbers.`}
                    format={formatSignedMoney}
                    axisFormat={formatCompactMoney}
                  />
                  <DataTable caption="Totals by month" columns={MONTH_COLUMNS} rows={data.monthly_summary} rowKey={(m) => m.period} initialSort={{ key: 'period', direction: 'descending' }} />
                </Section>
              </div>
              <Section title={`Open positions (${data.open_positions.length})`} id="open-positions">
                <DataTable
                  caption={`Positions held at ${range.all ? 'present' : formatDate(range.end)}, at the latest price`}
                  columns={[
                    { key: 'symbol', header: 'Symbol', cell: (p) => <Link to={`/symbols/${encodeURIComponent(p.symbol)}`}>{p.symbol}</Link>, sortValue: (p) => p.symbol },
                    { key: 'shares', header: 'Shares', cell: (p) => <>{formatShares(p.shares)}{p.shares < 0 && <span className="badge badge-short">Short</span>}</>, sortValue: (p) => p.shares, numeric: true },
                    { key: 'cost', header: 'Cost basis', cell: (p) => formatMoney(p.cost_basis), sortValue: (p) => p.cost_basis, numeric: true },
                    { key: 'price', header: 'Last price', cell: (p) => (p.last_price === null ? <span className="muted">no price yet</span> : formatPrice(p.last_price, positionPrices)), sortValue: (p) => p.last_price, numeric: true, minor: true },
                    { key: 'value', header: 'Value', cell: (p) => formatMoney(p.market_value), sortValue: (p) => p.market_value, numeric: true, minor: true },
                    { key: 'unrealized', header: 'Unrealized', cell: (p) => <Pnl value={p.unrealized_profit_loss} />, sortValue: (p) => p.unrealized_profit_loss, numeric: true },
                  ]}
                  rows={data.open_positions}
                  rowKey={(p) => p.symbol}
                  initialSort={{ key: 'symbol', direction: 'ascending' }}
                  empty={<p className="muted">No open positions at the end of the range.</p>}
                />
              </Section>
            </>
          )}
        </>
      )}
    </>
  );
}
