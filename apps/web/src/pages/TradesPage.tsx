import { useState } from 'react';
import { useAccountScope } from '../accounts';
import { downloadFile, failure } from '../api/client';
import type { ListedTrade, TradeListResponse } from '../api/types';
import { ErrorMessage, Loading, PageHeader, Pnl, Section, SourceBadge, Stat, Stats } from '../components/common';
import { DataTable, type Column } from '../components/DataTable';
import { TradeJournalCell, useTagNames } from '../components/Journal';
import { SelectionTags, useTradeSelection, withSelectBox } from '../components/SelectionTags';
import { NoTradesInSelection, RangeFilter, selectionLabel, SearchSelect, useRangeSelection } from '../components/RangeFilter';
import { formatCount, formatDate, formatPercent, formatShares, formatSignedPercent, tone } from '../lib/format';
import { Link, updateSearch, useLocation } from '../lib/router';
import { timeframeQuery } from '../lib/timeframe-presets';
import { useApi, useTitle } from '../lib/use-api';
import { SIDE_OPTIONS } from './StatisticsPage';

/** Filters of the address that `/api/trades` takes as they are. */
const PASSED_ON = ['side', 'result', 'source', 'min_holding_days', 'max_holding_days', 'tag', 'untagged'] as const;
/** The tag filter's choice for "trades without tags". */
const UNTAGGED = '\u0000untagged';
/** Changing a filter or the order starts again from the first page. */
const FIRST_PAGE = { cursor: null } as const;

const RESULT_OPTIONS = [
  { value: '', label: 'Any result' },
  { value: 'Win', label: 'Wins' },
  { value: 'Loss', label: 'Losses' },
  { value: 'Breakeven', label: 'Breakevens' },
] as const;
const SOURCE_OPTIONS = [
  { value: '', label: 'Any source' },
  { value: 'broker', label: 'Broker-verified' },
  { value: 'fifo', label: 'FIFO estimate' },
] as const;
const SORT_OPTIONS = [
  { value: '', label: 'Close date' },
  { value: 'open_date', label: 'Open date' },
  { value: 'symbol', label: 'Symbol' },
  { value: 'profit_loss', label: 'Profit/loss' },
  { value: 'return_percentage', label: 'Return' },
  { value: 'holding_days', label: 'Days held' },
  { value: 'volume', label: 'Shares' },
] as const;
const ORDER_OPTIONS = [
  { value: '', label: 'Descending' },
  { value: 'asc', label: 'Ascending' },
] as const;

/** The query of `/api/trades/export.csv` (the filters) and of `/api/trades` (plus order and page) for an address. */
export function tradeListQueries(base: string, search: URLSearchParams): { filters: string; page: string } {
  const filters = new URLSearchParams(base);
  for (const name of PASSED_ON) {
    const value = search.get(name);
    if (value) filters.set(name, value);
  }
  const page = new URLSearchParams(filters);
  for (const name of ['sort', 'order', 'cursor']) {
    const value = search.get(name);
    if (value) page.set(name, value);
  }
  return { filters: filters.toString(), page: page.toString() };
}

/** One select for the journal's filters: a tag (`tag`), or trades without any (`untagged=true`). */
function TagFilter({ names }: { names: readonly string[] }) {
  const { search } = useLocation();
  const tag = search.get('tag');
  const value = search.get('untagged') === 'true' ? UNTAGGED : (tag ?? '');
  const options = tag !== null && !names.some((name) => name.toLowerCase() === tag.toLowerCase()) ? [...names, tag] : names;
  return (
    <div className="field">
      <label htmlFor="filter-tag">Tag</label>
      <select
        id="filter-tag"
        value={value}
        onChange={(event) => {
          const chosen = event.target.value;
          updateSearch({ tag: chosen === '' || chosen === UNTAGGED ? null : chosen, untagged: chosen === UNTAGGED ? 'true' : null, ...FIRST_PAGE });
        }}
      >
        <option value="">Any tag</option>
        <option value={UNTAGGED}>No tags</option>
        {options.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </div>
  );
}

const COLUMNS: Column<ListedTrade>[] = [
  {
    key: 'close',
    header: 'Closed',
    cell: (trade) => (
      <Link className="nowrap" to={`/calendar?month=${trade.close_date.slice(0, 7)}&date=${trade.close_date}`}>
        {formatDate(trade.close_date)}
      </Link>
    ),
  },
  { key: 'symbol', header: 'Symbol', cell: (trade) => <Link to={`/symbols/${encodeURIComponent(trade.symbol)}`}>{trade.symbol}</Link> },
  { key: 'side', header: 'Side', cell: (trade) => (trade.side === 'short' ? <span className="badge badge-short">Short</span> : 'Long') },
  { key: 'open', header: 'Opened', cell: (trade) => <span className="nowrap">{formatDate(trade.open_date)}</span> },
  { key: 'volume', header: 'Shares', cell: (trade) => formatShares(trade.volume), numeric: true },
  { key: 'pnl', header: 'Profit/loss', cell: (trade) => <Pnl value={trade.total_profit_loss} />, numeric: true },
  {
    key: 'return',
    header: 'Return',
    cell: (trade) => <span className={`pnl pnl-${tone(trade.return_percentage)}`}>{formatSignedPercent(trade.return_percentage)}</span>,
    numeric: true,
  },
  { key: 'days', header: 'Days held', cell: (trade) => String(trade.holding_days), numeric: true, minor: true },
  { key: 'source', header: 'Source', cell: (trade) => <SourceBadge source={trade.source} />, minor: true },
];

export function TradesPage() {
  useTitle('Trades');
  const selection = useRangeSelection();
  const { range, symbols } = selection;
  const { search } = useLocation();
  const queries = tradeListQueries(timeframeQuery(range, symbols), search);
  const list = useApi<TradeListResponse>(`/api/trades?${queries.page}`);
  // The cursors of the pages before this one, for "Previous"; a new filter starts a new list.
  const [previous, setPrevious] = useState<{ filters: string; cursors: (string | null)[] }>({ filters: queries.filters, cursors: [] });
  const earlier = previous.filters === queries.filters ? previous.cursors : [];
  const [download, setDownload] = useState<{ error: boolean; text: string } | null>(null);
  const { scoped } = useAccountScope();
  const data = list.data;
  const tags = useTagNames();
  const picked = useTradeSelection(queries.page);
  const columns: Column<ListedTrade>[] = [
    withSelectBox(COLUMNS[0], picked, (trade) => trade),
    ...COLUMNS.slice(1),
    { key: 'journal', header: 'Tags & note', wide: true, cell: (trade) => <TradeJournalCell trade={trade} suggestions={tags.names} onSaved={tags.reload} /> },
  ];

  const next = () => {
    if (!data?.next_cursor) return;
    setPrevious({ filters: queries.filters, cursors: [...earlier, search.get('cursor')] });
    updateSearch({ cursor: data.next_cursor });
  };
  const back = () => {
    setPrevious({ filters: queries.filters, cursors: earlier.slice(0, -1) });
    updateSearch({ cursor: earlier.at(-1) ?? null });
  };
  const exportCsv = async () => {
    setDownload(null);
    try {
      setDownload({ error: false, text: `Downloaded ${await downloadFile(scoped(`/api/trades/export.csv?${queries.filters}`), 'trades.csv')}` });
    } catch (error) {
      setDownload({ error: true, text: failure(error) });
    }
  };

  return (
    <>
      <PageHeader title="Trades" subtitle={`Trades closed ${selectionLabel(selection)}`}>
        <Link to={`/statistics?${new URLSearchParams([...search].filter(([name]) => !['sort', 'order', 'cursor', 'result', 'source'].includes(name))).toString()}`} className="button-secondary">
          Statistics of these trades
        </Link>
        <button type="button" className="button-secondary" onClick={() => void exportCsv()}>
          Download CSV
        </button>
      </PageHeader>
      <p className={download?.error ? 'form-error' : 'muted small'} role="status" aria-live="polite">
        {download?.text ?? ''}
      </p>
      <RangeFilter selection={selection} reset={FIRST_PAGE}>
        <SearchSelect name="side" label="Side" options={SIDE_OPTIONS} reset={FIRST_PAGE} />
        <SearchSelect name="result" label="Result" options={RESULT_OPTIONS} reset={FIRST_PAGE} />
        <SearchSelect name="source" label="Source" options={SOURCE_OPTIONS} reset={FIRST_PAGE} />
        <TagFilter names={tags.names} />
        <SearchSelect name="sort" label="Sort by" options={SORT_OPTIONS} reset={FIRST_PAGE} />
        <SearchSelect name="order" label="Order" options={ORDER_OPTIONS} reset={FIRST_PAGE} />
      </RangeFilter>

      {list.status === 'loading' && <Loading />}
      {list.status === 'error' && <ErrorMessage error={list.error} retry={list.reload} />}
      {data &&
        (data.total_count === 0 ? (
          <NoTradesInSelection />
        ) : (
          <>
            <Section title="Summary">
              <Stats label="Summary of the filtered trades">
                <Stat label="Trades" value={formatCount(data.summary.total_trades)} />
                <Stat label="Net P&L" value={<Pnl value={data.summary.net_profit_loss} className="big" />} />
                <Stat label="Win rate" value={formatPercent(data.summary.win_rate)} />
              </Stats>
            </Section>
            <Section title={`${formatCount(data.total_count)} trades`} id="trade-list">
              <SelectionTags
                key={queries.page}
                trades={data.trades}
                selection={picked}
                suggestions={tags.names}
                onChanged={() => {
                  list.reload();
                  tags.reload();
                }}
              />
              <DataTable caption="The filtered trades, in the chosen order" columns={columns} rows={data.trades} rowKey={(trade) => trade.id} cardTitle="symbol" />
              <div className="button-row pager">
                <span className="muted small">{search.get('cursor') && earlier.length === 0 ? 'A later page' : `Page ${earlier.length + 1}`}</span>
                <button type="button" className="button-secondary" disabled={earlier.length === 0} onClick={back}>
                  Previous
                </button>
                <button type="button" className="button-secondary" disabled={!data.next_cursor} onClick={next}>
                  Next
                </button>
              </div>
            </Section>
          </>
        ))}
    </>
  );
}
