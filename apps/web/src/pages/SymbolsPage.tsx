import { useMemo } from 'react';
import type { SymbolListItem, SymbolSummaryItem } from '../api/types';
import { EmptyState, ErrorMessage, Loading, PageHeader, Pnl, Section } from '../components/common';
import { DataTable, type Column } from '../components/DataTable';
import { formatCount, formatDate, formatPercent, formatShares } from '../lib/format';
import { Link, updateSearch, useLocation } from '../lib/router';
import { useApi, useTitle } from '../lib/use-api';

type Row = SymbolSummaryItem & { name: string };

/** Symbols whose ticker or company name contains the search text (any case). */
export function filterSymbols<T extends { symbol: string; name: string }>(rows: readonly T[], query: string): T[] {
  const needle = query.trim().toLowerCase();
  if (needle === '') return [...rows];
  return rows.filter((row) => row.symbol.toLowerCase().includes(needle) || row.name.toLowerCase().includes(needle));
}

const COLUMNS: Column<Row>[] = [
  {
    key: 'symbol',
    header: 'Symbol',
    cell: (row) => (
      <span className="symbol-cell">
        <Link to={`/symbols/${encodeURIComponent(row.symbol)}`}>{row.symbol}</Link>
        {row.name && <span className="muted small">{row.name}</span>}
      </span>
    ),
    sortValue: (row) => row.symbol,
  },
  { key: 'total_return', header: 'Total return', cell: (row) => <Pnl value={row.total_return} />, sortValue: (row) => row.total_return, numeric: true },
  { key: 'pnl', header: 'Trading P&L', cell: (row) => <Pnl value={row.trading_profit_loss} />, sortValue: (row) => row.trading_profit_loss, numeric: true, minor: true },
  { key: 'dividends', header: 'Dividends', cell: (row) => <Pnl value={row.total_dividends} />, sortValue: (row) => row.total_dividends, numeric: true, minor: true },
  { key: 'trades', header: 'Trades', cell: (row) => formatCount(row.total_trades), sortValue: (row) => row.total_trades, numeric: true },
  {
    key: 'win_rate',
    header: 'Win rate',
    cell: (row) => (row.total_trades > 0 ? formatPercent(row.win_rate_percentage) : '—'),
    sortValue: (row) => (row.total_trades > 0 ? row.win_rate_percentage : null),
    numeric: true,
    minor: true,
  },
  { key: 'avg', header: 'Avg P&L', cell: (row) => (row.total_trades > 0 ? <Pnl value={row.avg_profit_loss} /> : '—'), sortValue: (row) => (row.total_trades > 0 ? row.avg_profit_loss : null), numeric: true, minor: true },
  {
    key: 'held',
    header: 'Shares held',
    cell: (row) => (row.has_open_position ? formatShares(row.current_shares_held) : '—'),
    sortValue: (row) => row.current_shares_held,
    numeric: true,
    minor: true,
  },
  { key: 'last', header: 'Last trade', cell: (row) => formatDate(row.last_trade_date), sortValue: (row) => row.last_trade_date, minor: true },
];

export function SymbolsPage() {
  useTitle('Symbols');
  const { search } = useLocation();
  const query = search.get('q') ?? '';
  const summary = useApi<{ symbols: SymbolSummaryItem[] }>('/api/symbols/summary');
  const names = useApi<{ symbols: SymbolListItem[] }>('/api/symbols');

  const rows = useMemo<Row[]>(() => {
    const byName = new Map((names.data?.symbols ?? []).map((entry) => [entry.symbol, entry.company_name]));
    return (summary.data?.symbols ?? []).map((row) => ({ ...row, name: row.company_name ?? byName.get(row.symbol) ?? '' }));
  }, [summary.data, names.data]);
  const shown = useMemo(() => filterSymbols(rows, query), [rows, query]);

  return (
    <>
      <PageHeader title="Symbols" subtitle="Every symbol you traded, received dividends from, or hold." />
      {summary.status === 'loading' && <Loading />}
      {summary.status === 'error' && <ErrorMessage error={summary.error} retry={summary.reload} />}
      {summary.status === 'ready' && rows.length === 0 && (
        <EmptyState title="No symbols yet">
          <p>Once your trades are imported, each symbol's results appear here.</p>
        </EmptyState>
      )}
      {summary.status === 'ready' && rows.length > 0 && (
        <Section title={`${shown.length} of ${rows.length} symbols`} id="symbols-table">
          <div className="filter">
            <label htmlFor="symbol-search">Search</label>
            <input
              id="symbol-search"
              type="search"
              placeholder="Ticker or company"
              value={query}
              autoComplete="off"
              onChange={(event) => updateSearch({ q: event.target.value }, { replace: true })}
            />
          </div>
          <DataTable
            caption="Results by symbol"
            columns={COLUMNS}
            rows={shown}
            rowKey={(row) => row.symbol}
            initialSort={{ key: 'total_return', direction: 'descending' }}
            empty={<p className="muted">No symbol matches “{query}”.</p>}
          />
        </Section>
      )}
    </>
  );
}
