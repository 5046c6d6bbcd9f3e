import { useState, type FormEvent } from 'react';
import { failure, sendJson } from '../../api/client';
import type { Holding, HoldingsResponse, PortfolioSummaryResponse, RefreshPricesResponse, Snapshot } from '../../api/types';
import { ErrorMessage, Loading, PageHeader, Pnl, Section, Stat, Stats } from '../../components/common';
import { ConfirmedAction } from '../../components/ConfirmedAction';
import { DataTable, type Column } from '../../components/DataTable';
import { formatCount, formatDateTime, formatMoney, formatPrice, formatShares, formatSignedPercent, tone } from '../../lib/format';
import { useApi, useTitle } from '../../lib/use-api';
import { CsvImport } from './CsvImport';
import { FeedbackLine, type Feedback } from './feedback';
import { History } from './History';
import { HoldingForm, TYPE_LABELS } from './HoldingForm';
import { ImportedPositions } from './ImportedPositions';
import { Allocation, ValueHistory } from './Overview';

/** What the trader holds now, priced; its totals (the server's); adding, editing, importing; snapshots. */
export function PortfolioPage() {
  useTitle('Portfolio');
  const holdings = useApi<HoldingsResponse>('/api/portfolio/holdings');
  const summary = useApi<PortfolioSummaryResponse>('/api/portfolio/summary');
  const [editing, setEditing] = useState<number | null>(null);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [refreshing, setRefreshing] = useState(false);
  const [snapshotNotes, setSnapshotNotes] = useState('');
  const [snapshotBusy, setSnapshotBusy] = useState(false);
  const [historyVersion, setHistoryVersion] = useState(0);
  const list = holdings.data?.holdings ?? [];
  // The whole portfolio: manual holdings and imported positions together.
  const totals = summary.data?.totals;
  const [pricesVersion, setPricesVersion] = useState(0);
  const reloadAll = () => {
    holdings.reload();
    summary.reload();
    setPricesVersion((version) => version + 1);
  };

  const refresh = async () => {
    setRefreshing(true);
    setFeedback(null);
    try {
      const body = await sendJson<RefreshPricesResponse>('POST', '/api/portfolio/refresh-prices');
      const errors = (body.errors ?? []).map((e) => `${e.symbol}: ${e.error}`);
      setFeedback({ tone: errors.length > 0 ? 'warning' : 'ok', text: body.message, details: errors });
      reloadAll();
    } catch (caught) {
      const text = failure(caught);
      const notConfigured = /not configured/i.test(text);
      setFeedback({
        tone: 'error',
        text: notConfigured
          ? `Prices can't be refreshed: ${text}. The service gets prices from Finnhub and needs its key (FINNHUB_API_KEY) in the server's settings. Until it is set, holdings show their cost but no current value.`
          : text,
      });
    } finally {
      setRefreshing(false);
    }
  };

  const snapshot = async (event: FormEvent) => {
    event.preventDefault();
    setSnapshotBusy(true);
    try {
      const body = await sendJson<{ snapshot: Snapshot }>('POST', '/api/portfolio/snapshot', { snapshot_type: 'MANUAL', notes: snapshotNotes.trim() });
      const unpriced = body.snapshot.unpriced_count;
      const left = unpriced > 0 ? ` (${unpriced} without a price, left out)` : '';
      setFeedback({ tone: 'ok', text: `Snapshot taken: ${formatMoney(body.snapshot.total_value)} in ${body.snapshot.holdings_count} holdings${left}.` });
      setSnapshotNotes('');
      setHistoryVersion((v) => v + 1);
    } catch (caught) {
      setFeedback({ tone: 'error', text: failure(caught) });
    } finally {
      setSnapshotBusy(false);
    }
  };

  const columns: Column<Holding>[] = [
    {
      key: 'symbol',
      header: 'Symbol',
      cell: (h) => (
        <span className="symbol-cell">
          <strong>{h.symbol}</strong>
          <span className="muted small">{TYPE_LABELS[h.holding_type] ?? h.holding_type}</span>
          {h.also_imported && <span className="muted small">also in your imports, counted apart</span>}
        </span>
      ),
      sortValue: (h) => h.symbol,
    },
    { key: 'shares', header: 'Shares', cell: (h) => formatShares(h.shares), sortValue: (h) => h.shares, numeric: true },
    { key: 'avg', header: 'Avg cost', cell: (h) => formatPrice(h.average_cost), sortValue: (h) => h.average_cost, numeric: true, minor: true },
    {
      key: 'price',
      header: 'Price',
      cell: (h) => (
        <span title={h.last_updated ? `Updated ${formatDateTime(h.last_updated)}` : 'No price yet'}>
          {h.current_price === null ? <span className="muted">no price yet</span> : formatPrice(h.current_price)}
          {h.price_stale && h.current_price !== null && <span className="muted small"> (old)</span>}
        </span>
      ),
      sortValue: (h) => h.current_price,
      numeric: true,
    },
    { key: 'cost', header: 'Cost', cell: (h) => formatMoney(h.total_cost), sortValue: (h) => h.total_cost, numeric: true },
    { key: 'value', header: 'Value', cell: (h) => formatMoney(h.current_value), sortValue: (h) => h.current_value, numeric: true },
    { key: 'gain', header: 'Gain/loss', cell: (h) => <Pnl value={h.gain_loss} />, sortValue: (h) => h.gain_loss, numeric: true },
    {
      key: 'return',
      header: 'Return',
      cell: (h) => <span className={`pnl pnl-${tone(h.return_percentage)}`}>{formatSignedPercent(h.return_percentage)}</span>,
      sortValue: (h) => h.return_percentage,
      numeric: true,
    },
    {
      key: 'actions',
      header: 'Actions',
      wide: true,
      cell: (h) => (
        <span className="row-actions">
          <button type="button" className="button-link" onClick={() => setEditing(h.id)} aria-label={`Edit ${h.symbol}`}>
            Edit
          </button>
          <ConfirmedAction
            offer="Delete"
            offerLabel={`Delete ${h.symbol}`}
            confirm="Yes, delete"
            confirmDetail={` ${h.symbol}`}
            working="Deleting…"
            keep={`Keep ${h.symbol}`}
            act={async () => (await sendJson<{ message: string }>('DELETE', `/api/portfolio/holdings/${h.id}`)).message}
            onDone={(outcome) => {
              setFeedback({ tone: outcome.error ? 'error' : 'ok', text: outcome.text });
              if (editing === h.id) setEditing(null);
              reloadAll();
            }}
          />
        </span>
      ),
    },
  ];

  const editingHolding = list.find((h) => h.id === editing);

  return (
    <>
      <PageHeader title="Portfolio" subtitle="What you hold now, from your imports and by hand, priced from the market-data provider.">
        <button type="button" onClick={() => void refresh()} disabled={refreshing || (totals?.holdings_count ?? 0) === 0}>
          {refreshing ? 'Refreshing…' : 'Refresh prices'}
        </button>
      </PageHeader>
      <FeedbackLine feedback={feedback} />
      {holdings.status === 'loading' && <Loading />}
      {holdings.status === 'error' && <ErrorMessage error={holdings.error} retry={holdings.reload} />}
      {holdings.status === 'ready' && (
        <>
          {totals !== undefined && totals.holdings_count > 0 && (
            <Section title="Totals">
              <Stats label="Portfolio totals">
                <Stat
                  label="Value"
                  value={<span className="big">{formatMoney(totals.total_value)}</span>}
                  hint={totals.unpriced_count > 0 ? `${totals.unpriced_count} of ${totals.holdings_count} without a price, left out` : undefined}
                />
                <Stat label="Cost" value={formatMoney(totals.total_cost)} />
                <Stat label="Gain/loss" value={<Pnl value={totals.total_gain_loss} />} />
                <Stat label="Return" value={<span className={`pnl pnl-${tone(totals.total_return_pct)}`}>{formatSignedPercent(totals.total_return_pct)}</span>} />
                <Stat
                  label="Holdings"
                  value={formatCount(totals.holdings_count)}
                  hint={`${formatCount(summary.data?.imported.holdings_count)} from imports · ${formatCount(summary.data?.manual.holdings_count)} by hand`}
                />
              </Stats>
            </Section>
          )}
          <ImportedPositions version={pricesVersion} />
          <Allocation version={pricesVersion} />
          <ValueHistory />
          <Section title="Holdings" id="holdings">
            <p className="muted small">Kept by hand: what the imported files do not cover. A symbol held both ways is counted once for each.</p>
            {list.length === 0 ? (
              <p className="muted">
                {(summary.data?.imported.holdings_count ?? 0) > 0
                  ? 'Nothing kept by hand. Add what your broker files do not cover (other accounts) below, one by one or from a CSV file.'
                  : 'No holdings yet. Add what you own below, one by one or from a CSV file; prices and gains then appear here.'}
              </p>
            ) : (
              <DataTable caption="Your holdings" columns={columns} rows={list} rowKey={(h) => String(h.id)} initialSort={{ key: 'value', direction: 'descending' }} />
            )}
            {editingHolding && (
              <HoldingForm
                key={editingHolding.id}
                holding={editingHolding}
                onCancel={() => setEditing(null)}
                onSaved={(saved) => {
                  setEditing(null);
                  setFeedback({ tone: 'ok', text: `Saved ${saved.symbol}: ${formatShares(saved.shares)} shares at ${formatPrice(saved.average_cost)}.` });
                  reloadAll();
                }}
              />
            )}
            <h3>Add a holding</h3>
            <HoldingForm
              onSaved={(holding) => {
                setFeedback({ tone: 'ok', text: `Added ${holding.symbol}.` });
                reloadAll();
              }}
            />
            <CsvImport onImported={reloadAll} />
          </Section>
          <Section title="Snapshot">
            <form className="inline-form" onSubmit={(event) => void snapshot(event)}>
              <div className="field field-wide">
                <label htmlFor="snapshot-notes">Notes (optional)</label>
                <input id="snapshot-notes" value={snapshotNotes} onChange={(e) => setSnapshotNotes(e.target.value)} maxLength={500} />
              </div>
              <button type="submit" disabled={snapshotBusy || (totals?.holdings_count ?? 0) === 0}>
                {snapshotBusy ? 'Taking…' : 'Take snapshot'}
              </button>
            </form>
            <p className="muted small">A snapshot records the portfolio's value now, for the history below.</p>
          </Section>
          <History version={historyVersion} />
        </>
      )}
    </>
  );
}
