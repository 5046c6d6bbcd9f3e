import { useEffect } from 'react';
import type { Position, PositionsResponse } from '../../api/types';
import { ErrorMessage, Loading, Pnl, Section, Stat, Stats } from '../../components/common';
import { DataTable, type Column } from '../../components/DataTable';
import { formatCount, formatDateTime, formatMoney, formatPercent, formatPrice, formatShares, formatSignedPercent, priceDecimals, tone } from '../../lib/format';
import { Link } from '../../lib/router';
import { useApi } from '../../lib/use-api';

/** How long to wait before asking again while prices are still being fetched (the provider's budget spreads them). */
const PENDING_RELOAD_MS = 5_000;

const PRICE_NOTES: Record<Position['price_status'], string | null> = {
  current: null,
  stale: 'old price, refreshing',
  pending: 'fetching…',
  unavailable: 'no price',
};

/** The positions the imports leave open, priced; polls while some prices are still on their way. */
export function ImportedPositions({ version }: { version: number }) {
  const positions = useApi<PositionsResponse>('/api/positions');
  const { reload } = positions;
  const pending = positions.data?.pending_prices ?? 0;
  useEffect(() => {
    if (version > 0) reload();
  }, [version, reload]);
  useEffect(() => {
    if (pending === 0) return undefined;
    const timer = setTimeout(reload, PENDING_RELOAD_MS);
    return () => clearTimeout(timer);
  }, [pending, positions.data, reload]);

  const list = positions.data?.positions ?? [];
  const costPlaces = priceDecimals(list.map((p) => p.average_cost));
  const pricePlaces = priceDecimals(list.map((p) => p.last_price));
  const columns: Column<Position>[] = [
    {
      key: 'symbol',
      header: 'Symbol',
      cell: (p) => (
        <span className="symbol-cell">
          <Link to={`/symbols/${encodeURIComponent(p.symbol)}`}>{p.symbol}</Link>
          {p.side === 'short' && <span className="badge badge-short">Short</span>}
          {p.also_manual && <span className="muted small">also held by hand</span>}
        </span>
      ),
      sortValue: (p) => p.symbol,
    },
    { key: 'shares', header: 'Shares', cell: (p) => formatShares(p.shares), sortValue: (p) => p.shares, numeric: true },
    { key: 'avg', header: 'Avg cost', cell: (p) => formatPrice(p.average_cost, costPlaces), sortValue: (p) => p.average_cost, numeric: true, minor: true },
    { key: 'cost', header: 'Cost basis', cell: (p) => formatMoney(p.cost_basis), sortValue: (p) => p.cost_basis, numeric: true },
    {
      key: 'price',
      header: 'Price',
      cell: (p) => (
        <span title={p.price_time ? `Price of ${formatDateTime(p.price_time)}` : undefined}>
          {p.last_price === null ? <span className="muted">{PRICE_NOTES[p.price_status]}</span> : formatPrice(p.last_price, pricePlaces)}
          {p.last_price !== null && PRICE_NOTES[p.price_status] && <span className="muted small block">{PRICE_NOTES[p.price_status]}</span>}
        </span>
      ),
      sortValue: (p) => p.last_price,
      numeric: true,
    },
    { key: 'value', header: 'Value', cell: (p) => formatMoney(p.market_value), sortValue: (p) => p.market_value, numeric: true },
    { key: 'unrealized', header: 'Unrealized', cell: (p) => <Pnl value={p.unrealized_profit_loss} />, sortValue: (p) => p.unrealized_profit_loss, numeric: true },
    {
      key: 'return',
      header: 'Return',
      cell: (p) => <span className={`pnl pnl-${tone(p.unrealized_return_percentage)}`}>{formatSignedPercent(p.unrealized_return_percentage)}</span>,
      sortValue: (p) => p.unrealized_return_percentage,
      numeric: true,
    },
    { key: 'day', header: 'Today', cell: (p) => <Pnl value={p.day_change} />, sortValue: (p) => p.day_change, numeric: true, minor: true },
    { key: 'weight', header: 'Weight', cell: (p) => formatPercent(p.weight), sortValue: (p) => p.weight, numeric: true, minor: true },
  ];

  return (
    <Section title={`From your imports (${formatCount(list.length)})`} id="positions">
      {positions.status === 'loading' && <Loading />}
      {positions.status === 'error' && <ErrorMessage error={positions.error} retry={positions.reload} />}
      {positions.data &&
        (list.length === 0 ? (
          <p className="muted">
            No open positions from your imports. <Link to="/import">Import your broker's files</Link> and what you still hold appears here.
          </p>
        ) : (
          <>
            <Stats label="Totals of the imported positions">
              <Stat
                label="Value"
                value={<span className="big">{formatMoney(positions.data.totals.market_value)}</span>}
                hint={positions.data.unpriced_count > 0 ? `${positions.data.unpriced_count} without a price, left out` : undefined}
              />
              <Stat label="Cost basis" value={formatMoney(positions.data.totals.cost_basis)} />
              <Stat label="Unrealized" value={<Pnl value={positions.data.totals.unrealized_profit_loss} />} />
              <Stat label="Today" value={<Pnl value={positions.data.totals.day_change} />} />
            </Stats>
            {pending > 0 && (
              <p className="muted small" role="status">
                Fetching {formatCount(pending)} more {pending === 1 ? 'price' : 'prices'} within the provider's budget; this list updates by itself.
              </p>
            )}
            <DataTable caption="Open positions from your imports" columns={columns} rows={list} rowKey={(p) => `${p.symbol}-${p.side}`} initialSort={{ key: 'value', direction: 'descending' }} />
          </>
        ))}
    </Section>
  );
}
