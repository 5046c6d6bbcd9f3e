import type { MonthResponse, StatisticsResponse } from '../api/types';
import { ErrorMessage, Loading, PageHeader, Pnl, Section, Stat, Stats } from '../components/common';
import { ExportButtons } from '../components/ExportButtons';
import { JudgementStats } from '../components/JudgementStats';
import { DividendsTable, TradesTable } from '../components/TradeTables';
import { addMonths, isMonth, lastDayOfMonth } from '../lib/dates';
import { formatCount, formatMonth, formatPercent } from '../lib/format';
import { Link } from '../lib/router';
import { useApi, useTitle } from '../lib/use-api';

export function MonthPage({ params }: { params: Record<string, string> }) {
  const month = params.month;
  const valid = isMonth(month);
  useTitle(valid ? formatMonth(month) : 'Month');
  const report = useApi<MonthResponse>(valid ? `/api/month/${month}` : null);
  // The same trades judged (profit factor, expectancy, max drawdown), as the dashboard's cards are.
  const statistics = useApi<StatisticsResponse>(valid ? `/api/statistics?start=${month}-01&end=${lastDayOfMonth(month)}` : null);

  if (!valid) {
    return (
      <>
        <PageHeader title="Month not found" />
        <p>
          “{month}” is not a month (use YYYY-MM, for example 2024-05). <Link to="/">Back to the dashboard</Link>.
        </p>
      </>
    );
  }

  const nav = (
    <nav className="button-row" aria-label="Other months">
      <Link className="button button-secondary" to={`/month/${addMonths(month, -1)}`}>
        <span aria-hidden="true">← </span>
        {formatMonth(addMonths(month, -1))}
      </Link>
      <Link className="button button-secondary" to={`/month/${addMonths(month, 1)}`}>
        {formatMonth(addMonths(month, 1))}
        <span aria-hidden="true"> →</span>
      </Link>
      <Link className="button button-secondary" to={`/calendar?month=${month}`}>
        Calendar
      </Link>
    </nav>
  );

  return (
    <>
      <PageHeader title={formatMonth(month)}>{nav}</PageHeader>
      {report.status === 'loading' && <Loading />}
      {report.status === 'error' && <ErrorMessage error={report.error} retry={report.reload} />}
      {report.status === 'ready' && (
        <>
          <Section
            title="Summary"
            actions={
              report.data.trades.length > 0 ? <Link to={`/statistics?start=${month}-01&end=${lastDayOfMonth(month)}`}>Statistics of this month</Link> : undefined
            }
          >
            <Stats label={`Summary of ${formatMonth(month)}`}>
              <Stat label="Total return" value={<Pnl value={report.data.summary.total_return_with_dividends} className="big" />} />
              <Stat label="Trading P&L" value={<Pnl value={report.data.summary.trading_profit_loss} />} />
              <Stat label="Dividends" value={<Pnl value={report.data.summary.total_dividends} />} />
              <Stat
                label="Win rate"
                value={formatPercent(report.data.summary.win_rate)}
                hint={`${formatCount(report.data.summary.winning_trades)} of ${formatCount(report.data.summary.total_trades)} won`}
              />
              <JudgementStats stats={statistics.data?.statistics} />
              <Stat label="Trades" value={formatCount(report.data.summary.total_trades)} />
            </Stats>
            {report.data.trades.length + report.data.dividends.length > 0 ? (
              <ExportButtons kind="month" value={month} label={formatMonth(month)} />
            ) : (
              <p className="muted">
                No trades or dividends in {formatMonth(month)}. <Link to="/">See the months with activity</Link>.
              </p>
            )}
          </Section>
          <Section
            title={`Trades (${report.data.trades.length})`}
            id="trades"
            actions={
              report.data.trades.length > 0 ? (
                <Link to={`/trades?start=${month}-01&end=${lastDayOfMonth(month)}&sort=close_date&order=asc`}>Tag or annotate these trades</Link>
              ) : undefined
            }
          >
            <TradesTable trades={report.data.trades} caption={`Trades closed in ${formatMonth(month)}`} />
          </Section>
          <Section title={`Dividends (${report.data.dividends.length})`} id="dividends">
            <DividendsTable dividends={report.data.dividends} caption={`Dividends in ${formatMonth(month)}`} />
          </Section>
        </>
      )}
    </>
  );
}
