import { useMemo } from 'react';
import { ApiError } from '../api/client';
import type { SymbolDetailResponse } from '../api/types';
import { Chart } from '../components/Chart';
import { ACCENT, GAIN } from '../components/chart-types';
import { ErrorMessage, Loading, PageHeader, Pnl, Section, Stat, Stats } from '../components/common';
import { DividendsTable, TradesTable } from '../components/TradeTables';
import { cumulativeSeries } from '../lib/cumulative';
import { formatCompactMoney, formatCount, formatDate, formatMoney, formatPercent, formatShares, formatSignedMoney, formatSignedPercent } from '../lib/format';
import { Link } from '../lib/router';
import { useApi, useTitle } from '../lib/use-api';

export function SymbolPage({ params }: { params: Record<string, string> }) {
  const symbol = params.symbol.toUpperCase();
  useTitle(symbol);
  const detail = useApi<SymbolDetailResponse>(`/api/symbols/${encodeURIComponent(symbol)}`);
  const series = useMemo(() => (detail.data ? cumulativeSeries(detail.data.data.trades, detail.data.data.dividends) : []), [detail.data]);
  const names = useApi<{ symbols: { symbol: string; company_name: string }[] }>('/api/symbols');
  const company = detail.data?.data.company_name ?? names.data?.symbols.find((entry) => entry.symbol === symbol)?.company_name;

  const header = (
    <PageHeader title={symbol} subtitle={company}>
      <Link className="button button-secondary" to="/symbols">
        All symbols
      </Link>
      <Link className="button button-secondary" to={`/timeframe?preset=all&symbols=${encodeURIComponent(symbol)}`}>
        Timeframe
      </Link>
      <Link className="button button-secondary" to={`/statistics?preset=all&symbols=${encodeURIComponent(symbol)}`}>
        Statistics
      </Link>
    </PageHeader>
  );

  if (detail.status === 'loading') return (<>{header}<Loading /></>);
  if (detail.status === 'error') {
    if (detail.error instanceof ApiError && detail.error.status === 404) {
      return (
        <>
          {header}
          <p className="notice">
            You have no trades, dividends or shares of {symbol}. <Link to="/symbols">See your symbols</Link>.
          </p>
        </>
      );
    }
    return (<>{header}<ErrorMessage error={detail.error} retry={detail.reload} /></>);
  }

  const { summary, trades, dividends } = detail.data.data;
  return (
    <>
      {header}
      <Section title="Summary">
        <Stats label={`Summary of ${symbol}`}>
          <Stat label="Total return" value={<Pnl value={summary.total_return} className="big" />} />
          <Stat label="Trading P&L" value={<Pnl value={summary.trading_profit_loss} />} />
          <Stat label="Dividends" value={<Pnl value={summary.total_dividends} />} hint={`${formatCount(summary.total_dividend_payments)} payments`} />
          <Stat label="Win rate" value={summary.total_trades > 0 ? formatPercent(summary.win_rate_percentage) : '—'} hint={`${formatCount(summary.winning_trades)} of ${formatCount(summary.total_trades)} trades`} />
          <Stat label="Average trade" value={summary.total_trades > 0 ? <Pnl value={summary.avg_profit_loss} /> : '—'} hint={summary.total_trades > 0 ? formatSignedPercent(summary.avg_return_pct) : undefined} />
          <Stat label="Best / worst" value={summary.total_trades > 0 ? <><Pnl value={summary.max_profit_loss} /> / <Pnl value={summary.min_profit_loss} /></> : '—'} />
          <Stat label="Avg days held" value={summary.total_trades > 0 ? formatShares(Math.round(summary.avg_holding_days * 10) / 10) : '—'} />
          <Stat label="Shares held now" value={formatShares(summary.current_shares_held)} hint={summary.total_cost_basis ? `${formatMoney(summary.total_cost_basis)} traded` : undefined} />
          <Stat label="First / last trade" value={summary.total_trades > 0 ? `${formatDate(summary.first_trade_date)} – ${formatDate(summary.last_trade_date)}` : '—'} />
        </Stats>
      </Section>
      <Section title="Cumulative profit and loss">
        {series.length === 0 ? (
          <p className="muted">No closed trades or dividends yet.</p>
        ) : (
          <Chart
            kind="line"
            timeAxis
            labels={series.map((point) => point.date)}
            series={[
              { label: 'Trading P&L', values: series.map((point) => point.trading), color: ACCENT, fill: true, stepped: true },
              { label: 'With dividends', values: series.map((point) => point.total), color: GAIN, stepped: true },
            ]}
            description={`Stepped line chart of ${symbol}'s running profit and loss from ${formatDate(series[0].date)} to ${formatDate(series[series.length - 1].date)}, ending at ${formatSignedMoney(series[series.length - 1].total)} with dividends. The trades and dividends tables below have every amount.`}
            format={formatSignedMoney}
            axisFormat={formatCompactMoney}
          />
        )}
      </Section>
      <Section
        title={`Trades (${trades.length})`}
        id="trades"
        actions={trades.length > 0 ? <Link to={`/trades?symbols=${encodeURIComponent(symbol)}&sort=close_date&order=asc`}>Tag or annotate these trades</Link> : undefined}
      >
        <TradesTable trades={trades.map((trade) => ({ ...trade, symbol: trade.symbol ?? symbol }))} caption={`Trades of ${symbol}`} showSymbol={false} onJournalChanged={detail.reload} />
      </Section>
      <Section title={`Dividends (${dividends.length})`} id="dividends">
        <DividendsTable dividends={dividends} caption={`Dividends of ${symbol}`} showSymbol={false} />
      </Section>
    </>
  );
}
