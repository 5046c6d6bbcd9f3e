import { useMemo } from 'react';
import type { EquityCurveResponse, MonthsResponse, PeriodMetrics, StatisticsResponse, TimeframeResponse, TradeStatistics } from '../api/types';
import { Chart } from '../components/Chart';
import { EquityCurveChart } from '../components/EquityCurveChart';
import { JudgementStats } from '../components/JudgementStats';
import { EmptyState, ErrorMessage, ImportSteps, Loading, PageHeader, Pnl, Section, Stat, Stats } from '../components/common';
import { MarketStatus } from '../components/MarketStatus';
import { formatCompactMoney, formatCount, formatMonth, formatPercent, formatShortMonth, formatSignedMoney } from '../lib/format';
import { localToday, monthOf } from '../lib/dates';
import { Link, navigate } from '../lib/router';
import { monthRange, presetRange, timeframeQuery } from '../lib/timeframe-presets';
import { useApi, useTitle } from '../lib/use-api';

function SummaryCard({ title, metrics, stats, link }: { title: string; metrics: PeriodMetrics | undefined; stats: TradeStatistics | undefined; link: string }) {
  return (
    <Section title={title} actions={<Link to={link}>Details</Link>}>
      {metrics === undefined ? (
        <Loading />
      ) : (
        <Stats label={title}>
          <Stat label="Total return" value={<Pnl value={metrics.total_return ?? metrics.trading_profit_loss + metrics.total_dividends} className="big" />} />
          <Stat label="Trading P&L" value={<Pnl value={metrics.trading_profit_loss} />} />
          <Stat label="Dividends" value={<Pnl value={metrics.total_dividends} />} />
          <Stat
            label="Win rate"
            value={metrics.total_trades > 0 ? formatPercent(metrics.win_rate_percentage) : '—'}
            hint={metrics.total_trades > 0 ? `${formatCount(metrics.winning_trades)} of ${formatCount(metrics.total_trades)} won` : 'no trades'}
          />
          <JudgementStats stats={stats} />
          <Stat label="Trades" value={formatCount(metrics.total_trades)} />
        </Stats>
      )}
    </Section>
  );
}

export function DashboardPage() {
  useTitle('Dashboard');
  const today = localToday();
  const months = useApi<MonthsResponse>('/api/months');
  const allTime = useApi<TimeframeResponse>(`/api/timeframe-data?${timeframeQuery({ all: true }, [])}`);
  // The second card: this year, the latest year with activity, or the latest month (`recentPeriod`).
  const period = months.status === 'ready' ? recentPeriod(today, months.data.months[0]?.month, months.data.months.at(-1)?.month) : null;
  const ytdQuery = period === null ? null : timeframeQuery(period.range, []);
  const ytd = useApi<TimeframeResponse>(ytdQuery === null ? null : `/api/timeframe-data?${ytdQuery}`);
  const allTimeStats = useApi<StatisticsResponse>('/api/statistics?all=true');
  const ytdStats = useApi<StatisticsResponse>(ytdQuery === null ? null : `/api/statistics?${ytdQuery}`);
  const curve = useApi<EquityCurveResponse>('/api/equity-curve?all=true');

  // Oldest first, left to right.
  const chronological = useMemo(() => (months.status === 'ready' ? [...months.data.months].reverse() : []), [months]);

  const header = (
    <PageHeader title="Dashboard">
      <MarketStatus />
    </PageHeader>
  );

  if (months.status === 'loading') return (<>{header}<Loading /></>);
  if (months.status === 'error') return (<>{header}<ErrorMessage error={months.error} retry={months.reload} /></>);

  if (months.data.months.length === 0) {
    return (
      <>
        {header}
        <EmptyState title="No trades yet">
          <p>Your journal fills itself from your broker's CSV exports:</p>
          <ImportSteps />
        </EmptyState>
      </>
    );
  }

  return (
    <>
      {header}
      <div className="grid-2">
        <SummaryCard title="All time" metrics={allTime.data?.data.summary} stats={allTimeStats.data?.statistics} link="/timeframe?preset=all" />
        {period && <SummaryCard title={period.title} metrics={ytd.data?.data.summary} stats={ytdStats.data?.statistics} link={period.link} />}
      </div>
      <Section title="Equity curve" actions={<Link to="/statistics?preset=all">Statistics</Link>}>
        {curve.status === 'loading' && <Loading />}
        {curve.status === 'error' && <ErrorMessage error={curve.error} retry={curve.reload} />}
        {curve.status === 'ready' && <EquityCurveChart points={curve.data.points} height={240} />}
      </Section>
      {(allTime.status === 'error' || ytd.status === 'error') && <ErrorMessage error={(allTime.error ?? ytd.error)!} retry={() => (allTime.reload(), ytd.reload())} />}
      <div className="grid-2 grid-wide-left">
        <Section title="Monthly total return">
          <Chart
            kind="bar"
            labels={chronological.map((m) => formatShortMonth(m.month))}
            series={[{ label: 'Total return', values: chronological.map((m) => m.total_return_with_dividends), colorBySign: true }]}
            description={`Bar chart of total return (trading P&L plus dividends) per month, ${chronological.length} months; green for gains, red for losses. The months list beside it has the numbers.`}
            format={formatSignedMoney}
            axisFormat={formatCompactMoney}
            onSelect={(index) => navigate(`/month/${chronological[index].month}`)}
          />
        </Section>
        <Section title="Months">
          <ul className="month-list">
            {months.data.months.map((m) => (
              <li key={m.month}>
                <Link to={`/month/${m.month}`}>{formatMonth(m.month)}</Link>
                <Pnl value={m.total_return_with_dividends} />
              </li>
            ))}
          </ul>
        </Section>
      </div>
    </>
  );
}

type Period = { title: string; range: { all: false; start: string; end: string }; link: string };

/**
 * The dashboard's second card, beside "All time" (`latestMonth`, `oldestMonth`: the newest and oldest
 * months of `/api/months`): this year to date; when this year has no activity, the whole latest year
 * with activity (not a card of zeros). When that year holds every month with activity, the card would
 * repeat "All time": it is then the latest month with activity (this month to date when that is this
 * month).
 */
export function recentPeriod(today: string, latestMonth: string | undefined, oldestMonth: string | undefined): Period {
  const year = today.slice(0, 4);
  const latestYear = latestMonth?.slice(0, 4);
  if (latestMonth !== undefined && latestYear === oldestMonth?.slice(0, 4)) {
    const thisMonth = latestMonth === monthOf(today);
    const range = thisMonth ? (presetRange('month', today) as Period['range']) : (monthRange(latestMonth) as Period['range']);
    const title = thisMonth ? `This month (${formatMonth(latestMonth)})` : `${formatMonth(latestMonth)} (your latest month with activity)`;
    return { title, range, link: `/month/${latestMonth}` };
  }
  if (latestYear === undefined || latestYear >= year) {
    return { title: `Year to date (${year})`, range: presetRange('ytd', today) as Period['range'], link: '/timeframe?preset=ytd' };
  }
  const range = { all: false as const, start: `${latestYear}-01-01`, end: `${latestYear}-12-31` };
  return { title: `${latestYear} (your latest year with activity)`, range, link: `/timeframe?start=${range.start}&end=${range.end}` };
}
