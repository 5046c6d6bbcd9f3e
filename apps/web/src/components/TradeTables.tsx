import type { Dividend, Trade } from '../api/types';
import { formatDate, formatMoney, formatPrice, formatShares, formatSignedPercent, priceDecimals, tone } from '../lib/format';
import { Link } from '../lib/router';
import { Pnl, SourceBadge } from './common';
import { DataTable, type Column } from './DataTable';
import { TradeJournalCell, useTagNames, type JournalTrade } from './Journal';
import { SelectionTags, useTradeSelection, withSelectBox } from './SelectionTags';

// A long opens with its buy and closes with its sale; a short opens with its sale and closes with the
// buy that covers it. The columns show (and sort by) those dates, whatever the side.
const closeDate = (trade: Trade) => trade.close_date ?? (trade.side === 'short' ? trade.buy_date : trade.sell_date);
const openDate = (trade: Trade) => trade.open_date ?? (trade.side === 'short' ? trade.sell_date : trade.buy_date);

/** A stored trade (one that carries its id) as the journal needs it. */
const journalTrade = (trade: Trade & { id: string }): JournalTrade => ({
  id: trade.id,
  symbol: trade.symbol,
  close_date: closeDate(trade),
  tags: trade.tags ?? [],
  has_note: trade.has_note ?? false,
});

/**
 * Completed trades. Stored ones (a day's, a symbol's) carry their id: they get the journal's column,
 * and, given `onJournalChanged` (which reads them again), checkboxes and a tag for the selected ones.
 */
export function TradesTable({
  trades,
  caption,
  showSymbol = true,
  onJournalChanged,
}: {
  trades: readonly Trade[];
  caption: string;
  showSymbol?: boolean;
  onJournalChanged?: () => void;
}) {
  const stored = trades.flatMap((trade) => (trade.id === undefined ? [] : [journalTrade({ ...trade, id: trade.id })]));
  const journaled = stored.length > 0;
  const tags = useTagNames(journaled);
  // The selection belongs to the table shown (its caption names the day or the symbol).
  const picked = useTradeSelection(caption);
  const selectable = journaled && onJournalChanged !== undefined;
  const journalColumn: Column<Trade> = {
    key: 'journal',
    header: 'Tags & note',
    wide: true,
    cell: (trade) => (trade.id === undefined ? null : <TradeJournalCell trade={journalTrade({ ...trade, id: trade.id })} suggestions={tags.names} onSaved={tags.reload} />),
  };
  const buyPlaces = priceDecimals(trades.map((trade) => trade.buy_price));
  const sellPlaces = priceDecimals(trades.map((trade) => trade.sell_price));
  const listed: Column<Trade>[] = [
    ...(showSymbol
      ? [
          {
            key: 'symbol',
            header: 'Symbol',
            cell: (trade: Trade) => (trade.symbol ? <Link to={`/symbols/${encodeURIComponent(trade.symbol)}`}>{trade.symbol}</Link> : '—'),
            sortValue: (trade: Trade) => trade.symbol,
          },
        ]
      : []),
    {
      key: 'side',
      header: 'Side',
      cell: (trade) =>
        trade.side === 'short' ? (
          <span className="badge badge-short" title="A short sale: sold first, bought back (covered) to close">
            Short
          </span>
        ) : (
          'Long'
        ),
      sortValue: (trade) => trade.side,
    },
    { key: 'opened', header: 'Opened', cell: (trade) => <span className="nowrap">{formatDate(openDate(trade))}</span>, sortValue: openDate },
    { key: 'closed', header: 'Closed', cell: (trade) => <span className="nowrap">{formatDate(closeDate(trade))}</span>, sortValue: closeDate },
    { key: 'volume', header: 'Shares', cell: (trade) => formatShares(trade.volume), sortValue: (trade) => trade.volume, numeric: true },
    { key: 'buy_price', header: 'Buy price', cell: (trade) => formatPrice(trade.buy_price, buyPlaces), sortValue: (trade) => trade.buy_price, numeric: true, minor: true },
    { key: 'sell_price', header: 'Sell price', cell: (trade) => formatPrice(trade.sell_price, sellPlaces), sortValue: (trade) => trade.sell_price, numeric: true, minor: true },
    {
      key: 'pnl',
      header: 'Profit/loss',
      cell: (trade) => <Pnl value={trade.total_profit_loss} />,
      sortValue: (trade) => trade.total_profit_loss,
      numeric: true,
    },
    {
      key: 'return',
      header: 'Return',
      cell: (trade) => <span className={`pnl pnl-${tone(trade.return_percentage)}`}>{formatSignedPercent(trade.return_percentage)}</span>,
      sortValue: (trade) => trade.return_percentage,
      numeric: true,
    },
    {
      key: 'days',
      header: 'Days held',
      cell: (trade) => (trade.holding_days ?? '—').toString(),
      sortValue: (trade) => trade.holding_days,
      numeric: true,
      minor: true,
    },
    { key: 'source', header: 'Source', cell: (trade) => <SourceBadge source={trade.source} />, sortValue: (trade) => trade.source, minor: true },
    ...(journaled ? [journalColumn] : []),
  ];
  const storedTrade = (trade: Trade) => (trade.id === undefined ? null : { id: trade.id, symbol: trade.symbol, close_date: closeDate(trade) });
  const columns = selectable ? [withSelectBox(listed[0], picked, storedTrade), ...listed.slice(1)] : listed;
  const table = (
    <DataTable
      caption={caption}
      columns={columns}
      rows={trades}
      rowKey={(trade, index) => trade.id ?? `${trade.symbol}-${trade.buy_date}-${trade.sell_date}-${index}`}
      initialSort={{ key: 'closed', direction: 'ascending' }}
      cardTitle={showSymbol ? 'symbol' : 'closed'}
      empty={<p className="muted">No completed trades.</p>}
    />
  );
  if (!selectable) return table;
  return (
    <>
      <SelectionTags
        key={caption}
        trades={stored}
        selection={picked}
        suggestions={tags.names}
        onChanged={() => {
          onJournalChanged();
          tags.reload();
        }}
      />
      {table}
    </>
  );
}

export function DividendsTable({ dividends, caption, showSymbol = true }: { dividends: readonly Dividend[]; caption: string; showSymbol?: boolean }) {
  const columns: Column<Dividend>[] = [
    { key: 'date', header: 'Date', cell: (d) => <span className="nowrap">{formatDate(d.transaction_date)}</span>, sortValue: (d) => d.transaction_date },
    ...(showSymbol
      ? [
          {
            key: 'symbol',
            header: 'Symbol',
            cell: (d: Dividend) => (d.symbol ? <Link to={`/symbols/${encodeURIComponent(d.symbol)}`}>{d.symbol}</Link> : '—'),
            sortValue: (d: Dividend) => d.symbol,
          },
        ]
      : []),
    { key: 'action', header: 'Type', cell: (d) => d.action, sortValue: (d) => d.action },
    { key: 'amount', header: 'Amount', cell: (d) => <span className={`pnl pnl-${tone(d.amount)}`}>{formatMoney(d.amount)}</span>, sortValue: (d) => d.amount, numeric: true },
  ];
  return (
    <DataTable
      caption={caption}
      columns={columns}
      rows={dividends}
      rowKey={(d, index) => `${d.symbol}-${d.transaction_date}-${index}`}
      initialSort={{ key: 'date', direction: 'ascending' }}
      empty={<p className="muted">No dividends.</p>}
    />
  );
}
