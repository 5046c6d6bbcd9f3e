import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { ApiError, sendForm, sendJson } from '../api/client';
import type { Holding, HoldingsResponse, HoldingsUploadResponse, HoldingType, RefreshPricesResponse, Snapshot, SnapshotType } from '../api/types';
import { Chart } from '../components/Chart';
import { ACCENT, MUTED } from '../components/chart-types';
import { ErrorMessage, Loading, PageHeader, Pnl, Section, Stat, Stats } from '../components/common';
import { DataTable, type Column } from '../components/DataTable';
import { formatCompactMoney, formatCount, formatDateTime, formatMoney, formatPrice, formatShares, formatSignedPercent, tone } from '../lib/format';
import { useApi, useTitle } from '../lib/use-api';

const TYPE_LABELS: Record<HoldingType, string> = { stock: 'Stock', etf: 'ETF', mutual_fund: 'Mutual fund' };

type Feedback = { tone: 'ok' | 'error' | 'warning'; text: string; details?: string[] } | null;

function FeedbackLine({ feedback }: { feedback: Feedback }) {
  return (
    <div role="status" aria-live="polite">
      {feedback && (
        <div className={`notice notice-${feedback.tone === 'ok' ? 'success' : feedback.tone}`}>
          <p>{feedback.text}</p>
          {feedback.details && feedback.details.length > 0 && (
            <ul>
              {feedback.details.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}

const failure = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function parseAmount(text: string): number | null {
  const value = Number(text.replace(/[$,\s]/g, ''));
  return text.trim() !== '' && Number.isFinite(value) ? value : null;
}

/** The shares and average cost typed into a holding form, or what is wrong with them. */
function holdingAmounts(shares: string, cost: string): { shares: number; cost: number } | { error: string } {
  const sharesValue = parseAmount(shares);
  const costValue = parseAmount(cost);
  if (sharesValue === null || sharesValue <= 0) return { error: 'Shares must be a number greater than 0.' };
  if (costValue === null || costValue < 0) return { error: 'Average cost must be a number, 0 or more.' };
  return { shares: sharesValue, cost: costValue };
}

function AddHolding({ onAdded }: { onAdded: (holding: Holding) => void }) {
  const [symbol, setSymbol] = useState('');
  const [type, setType] = useState<HoldingType>('stock');
  const [shares, setShares] = useState('');
  const [cost, setCost] = useState('');
  const [notes, setNotes] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const amounts = holdingAmounts(shares, cost);
    if ('error' in amounts) return setError(amounts.error);
    const { shares: sharesValue, cost: costValue } = amounts;
    setSaving(true);
    setError(null);
    try {
      const body = await sendJson<{ holding: Holding }>('POST', '/api/portfolio/holdings', {
        symbol: symbol.trim().toUpperCase(),
        holding_type: type,
        shares: sharesValue,
        average_cost: costValue,
        ...(notes.trim() ? { notes: notes.trim() } : {}),
      });
      onAdded(body.holding);
      setSymbol('');
      setShares('');
      setCost('');
      setNotes('');
    } catch (caught) {
      setError(caught instanceof ApiError && caught.status === 409 ? `You already hold ${symbol.toUpperCase()}: edit that holding instead.` : failure(caught));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="holding-form" onSubmit={(event) => void submit(event)} aria-label="Add a holding">
      <div className="field">
        <label htmlFor="new-symbol">Symbol</label>
        <input id="new-symbol" value={symbol} onChange={(e) => setSymbol(e.target.value)} required maxLength={20} autoComplete="off" placeholder="VTI" />
      </div>
      <div className="field">
        <label htmlFor="new-type">Type</label>
        <select id="new-type" value={type} onChange={(e) => setType(e.target.value as HoldingType)}>
          {Object.entries(TYPE_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="new-shares">Shares</label>
        <input id="new-shares" inputMode="decimal" value={shares} onChange={(e) => setShares(e.target.value)} required placeholder="10" />
      </div>
      <div className="field">
        <label htmlFor="new-cost">Average cost per share ($)</label>
        <input id="new-cost" inputMode="decimal" value={cost} onChange={(e) => setCost(e.target.value)} required placeholder="250.00" />
      </div>
      <div className="field field-wide">
        <label htmlFor="new-notes">Notes (optional)</label>
        <input id="new-notes" value={notes} onChange={(e) => setNotes(e.target.value)} maxLength={1000} />
      </div>
      <button type="submit" disabled={saving}>
        {saving ? 'Adding…' : 'Add holding'}
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

function EditHolding({ holding, onSaved, onCancel }: { holding: Holding; onSaved: (holding: Holding) => void; onCancel: () => void }) {
  const [shares, setShares] = useState(String(holding.shares));
  const [cost, setCost] = useState(String(holding.average_cost));
  const [notes, setNotes] = useState(holding.notes ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const amounts = holdingAmounts(shares, cost);
    if ('error' in amounts) return setError(amounts.error);
    const { shares: sharesValue, cost: costValue } = amounts;
    setSaving(true);
    setError(null);
    try {
      const body = await sendJson<{ holding: Holding }>('PUT', `/api/portfolio/holdings/${holding.id}`, { shares: sharesValue, average_cost: costValue, notes });
      onSaved(body.holding);
    } catch (caught) {
      setError(failure(caught));
      setSaving(false);
    }
  };

  return (
    <form className="holding-form holding-edit" onSubmit={(event) => void submit(event)} aria-label={`Edit ${holding.symbol}`}>
      <p className="holding-edit-title">
        Edit <strong>{holding.symbol}</strong>
      </p>
      <div className="field">
        <label htmlFor={`edit-shares-${holding.id}`}>Shares</label>
        <input id={`edit-shares-${holding.id}`} inputMode="decimal" value={shares} onChange={(e) => setShares(e.target.value)} required />
      </div>
      <div className="field">
        <label htmlFor={`edit-cost-${holding.id}`}>Average cost per share ($)</label>
        <input id={`edit-cost-${holding.id}`} inputMode="decimal" value={cost} onChange={(e) => setCost(e.target.value)} required />
      </div>
      <div className="field field-wide">
        <label htmlFor={`edit-notes-${holding.id}`}>Notes</label>
        <input id={`edit-notes-${holding.id}`} value={notes} onChange={(e) => setNotes(e.target.value)} maxLength={1000} />
      </div>
      <div className="button-row">
        <button type="submit" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="button-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

function DeleteButton({ holding, onDeleted }: { holding: Holding; onDeleted: (message: string) => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!confirming) {
    return (
      <button type="button" className="button-link danger" onClick={() => setConfirming(true)} aria-label={`Delete ${holding.symbol}`}>
        Delete
      </button>
    );
  }
  const remove = async () => {
    setBusy(true);
    try {
      const body = await sendJson<{ message?: string }>('DELETE', `/api/portfolio/holdings/${holding.id}`);
      onDeleted(body.message ?? `Deleted ${holding.symbol}`);
    } catch (caught) {
      onDeleted(failure(caught));
      setBusy(false);
      setConfirming(false);
    }
  };
  return (
    <span className="confirm">
      <button type="button" className="button-danger" disabled={busy} onClick={() => void remove()} aria-label={`Yes, delete ${holding.symbol}`}>
        Yes, delete
      </button>
      <button type="button" className="button-link" onClick={() => setConfirming(false)} aria-label={`Keep ${holding.symbol}`}>
        Keep
      </button>
    </span>
  );
}

function CsvImport({ onImported }: { onImported: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | undefined>();
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    setBusy(true);
    setFeedback(null);
    const form = new FormData();
    form.append('csv_file', file, file.name);
    try {
      const body = await sendForm<HoldingsUploadResponse>('/api/portfolio/upload-csv', form);
      setFeedback({
        tone: body.errors.length > 0 ? 'warning' : 'ok',
        text: `Added ${formatCount(body.imported)}, updated ${formatCount(body.updated)}${body.errors.length > 0 ? `; ${body.errors.length} row${body.errors.length === 1 ? '' : 's'} skipped:` : '.'}`,
        details: body.errors,
      });
      onImported();
      if (input.current) input.current.value = '';
      setFile(undefined);
    } catch (caught) {
      const body = caught instanceof ApiError ? (caught.body as Partial<HoldingsUploadResponse> | null) : null;
      setFeedback({ tone: 'error', text: failure(caught), details: body?.errors });
    } finally {
      setBusy(false);
    }
  };

  return (
    <details className="csv-import">
      <summary>Import holdings from a CSV file</summary>
      <p className="muted small">
        Columns: <code>symbol</code>, <code>shares</code> (required); <code>average_cost</code> or <code>cost_basis</code> (total), <code>type</code> (stock, ETF,
        mutual fund), <code>notes</code>. A symbol you already hold is updated. Rows with problems are listed and skipped; the others are imported.
      </p>
      <form className="inline-form" onSubmit={(event) => void submit(event)}>
        <div className="field">
          <label htmlFor="holdings-csv">Holdings CSV</label>
          <input id="holdings-csv" ref={input} type="file" accept=".csv,text/csv" required onChange={(e) => setFile(e.target.files?.[0])} />
        </div>
        <button type="submit" disabled={busy || !file}>
          {busy ? 'Importing…' : 'Import CSV'}
        </button>
      </form>
      <FeedbackLine feedback={feedback} />
    </details>
  );
}

const DAY_CHOICES = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: '0', label: 'All' },
];

function History({ version }: { version: number }) {
  const [days, setDays] = useState('30');
  const [type, setType] = useState<'' | SnapshotType>('');
  const query = new URLSearchParams({ days, ...(type ? { type } : {}) }).toString();
  const history = useApi<{ history: Snapshot[] }>(`/api/portfolio/history?${query}`);
  const { reload } = history;
  useEffect(() => {
    if (version > 0) reload();
  }, [version, reload]);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const points = useMemo(() => [...(history.data?.history ?? [])].reverse(), [history.data]);

  const remove = async (snapshot: Snapshot) => {
    try {
      const body = await sendJson<{ message: string }>('DELETE', `/api/portfolio/snapshot/${snapshot.id}`);
      setFeedback({ tone: 'ok', text: body.message });
      history.reload();
    } catch (caught) {
      setFeedback({ tone: 'error', text: failure(caught) });
    }
  };

  const columns: Column<Snapshot>[] = [
    { key: 'time', header: 'Taken', cell: (s) => formatDateTime(s.snapshot_time), sortValue: (s) => s.snapshot_time },
    { key: 'type', header: 'Type', cell: (s) => s.snapshot_type ?? '—', sortValue: (s) => s.snapshot_type, minor: true },
    { key: 'value', header: 'Value', cell: (s) => formatMoney(s.total_value), sortValue: (s) => s.total_value, numeric: true },
    { key: 'gain', header: 'Gain/loss', cell: (s) => <Pnl value={s.total_gain_loss} />, sortValue: (s) => s.total_gain_loss, numeric: true },
    { key: 'return', header: 'Return', cell: (s) => <span className={`pnl pnl-${tone(s.total_return_pct)}`}>{formatSignedPercent(s.total_return_pct)}</span>, sortValue: (s) => s.total_return_pct, numeric: true, minor: true },
    { key: 'notes', header: 'Notes', cell: (s) => s.notes || '', minor: true },
    {
      key: 'actions',
      header: 'Actions',
      cell: (s) => (
        <button type="button" className="button-link danger" onClick={() => void remove(s)} aria-label={`Delete the snapshot of ${formatDateTime(s.snapshot_time)}`}>
          Delete
        </button>
      ),
    },
  ];

  return (
    <Section title="Value over time" id="history">
      <div className="toolbar">
        <div className="field">
          <label htmlFor="history-days">Period</label>
          <select id="history-days" value={days} onChange={(e) => setDays(e.target.value)}>
            {DAY_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="history-type">Snapshots</label>
          <select id="history-type" value={type} onChange={(e) => setType(e.target.value as '' | SnapshotType)}>
            <option value="">All kinds</option>
            <option value="MANUAL">Taken by hand</option>
            <option value="EOD">End of day</option>
            <option value="AUTOMATIC">Automatic</option>
          </select>
        </div>
      </div>
      {history.status === 'loading' && <Loading />}
      {history.status === 'error' && <ErrorMessage error={history.error} retry={history.reload} />}
      {history.status === 'ready' &&
        (points.length === 0 ? (
          <p className="muted">No snapshots in this period. Take one above; an end-of-day snapshot is also taken after each trading day's close.</p>
        ) : (
          <>
            {points.length === 1 && <p className="muted small">The chart appears from the second snapshot on.</p>}
            {points.length > 1 && <Chart
              kind="line"
              labels={points.map((s) => formatDateTime(s.snapshot_time))}
              series={[
                { label: 'Value', values: points.map((s) => s.total_value), color: ACCENT, fill: true },
                { label: 'Cost', values: points.map((s) => s.total_cost), color: MUTED },
              ]}
              description={`Line chart of the portfolio's value and cost at ${points.length} snapshots; the table below lists them.`}
              format={formatMoney}
              axisFormat={(v) => formatCompactMoney(v).replace('+', '')}
            />}
            <DataTable caption="Snapshots, newest first" columns={columns} rows={history.data.history} rowKey={(s) => String(s.id)} />
          </>
        ))}
      <FeedbackLine feedback={feedback} />
    </Section>
  );
}

export function PortfolioPage() {
  useTitle('Portfolio');
  const holdings = useApi<HoldingsResponse>('/api/portfolio/holdings');
  const [editing, setEditing] = useState<number | null>(null);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [refreshing, setRefreshing] = useState(false);
  const [snapshotNotes, setSnapshotNotes] = useState('');
  const [snapshotBusy, setSnapshotBusy] = useState(false);
  const [historyVersion, setHistoryVersion] = useState(0);
  const list = holdings.data?.holdings ?? [];
  const totals = holdings.data?.totals;

  const refresh = async () => {
    setRefreshing(true);
    setFeedback(null);
    try {
      const body = await sendJson<RefreshPricesResponse>('POST', '/api/portfolio/refresh-prices');
      const errors = (body.errors ?? []).map((e) => `${e.symbol}: ${e.error}`);
      setFeedback({ tone: errors.length > 0 ? 'warning' : 'ok', text: body.message, details: errors });
      holdings.reload();
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
      setFeedback({ tone: 'ok', text: `Snapshot taken: ${formatMoney(body.snapshot.total_value)} in ${body.snapshot.holdings_count} holdings.` });
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
        </span>
      ),
      sortValue: (h) => h.symbol,
    },
    { key: 'shares', header: 'Shares', cell: (h) => formatShares(h.shares), sortValue: (h) => h.shares, numeric: true, minor: true },
    { key: 'avg', header: 'Avg cost', cell: (h) => formatPrice(h.average_cost), sortValue: (h) => h.average_cost, numeric: true, minor: true },
    {
      key: 'price',
      header: 'Price',
      cell: (h) => (
        <span title={h.last_updated ? `Updated ${formatDateTime(h.last_updated)}` : 'No price yet'}>
          {formatPrice(h.current_price)}
          {h.price_stale && <span className="muted small"> (old)</span>}
        </span>
      ),
      sortValue: (h) => h.current_price,
      numeric: true,
      minor: true,
    },
    { key: 'cost', header: 'Cost', cell: (h) => formatMoney(h.total_cost), sortValue: (h) => h.total_cost, numeric: true, minor: true },
    { key: 'value', header: 'Value', cell: (h) => formatMoney(h.current_value), sortValue: (h) => h.current_value, numeric: true },
    { key: 'gain', header: 'Gain/loss', cell: (h) => <Pnl value={h.gain_loss} />, sortValue: (h) => h.gain_loss, numeric: true },
    {
      key: 'return',
      header: 'Return',
      cell: (h) => <span className={`pnl pnl-${tone(h.return_percentage)}`}>{formatSignedPercent(h.return_percentage)}</span>,
      sortValue: (h) => h.return_percentage,
      numeric: true,
      minor: true,
    },
    {
      key: 'actions',
      header: 'Actions',
      cell: (h) => (
        <span className="row-actions">
          <button type="button" className="button-link" onClick={() => setEditing(h.id)} aria-label={`Edit ${h.symbol}`}>
            Edit
          </button>
          <DeleteButton
            holding={h}
            onDeleted={(message) => {
              setFeedback({ tone: 'ok', text: message });
              if (editing === h.id) setEditing(null);
              holdings.reload();
            }}
          />
        </span>
      ),
    },
  ];

  const editingHolding = list.find((h) => h.id === editing);

  return (
    <>
      <PageHeader title="Portfolio" subtitle="What you hold now, priced from the market-data provider.">
        <button type="button" onClick={() => void refresh()} disabled={refreshing || list.length === 0}>
          {refreshing ? 'Refreshing…' : 'Refresh prices'}
        </button>
      </PageHeader>
      <FeedbackLine feedback={feedback} />
      {holdings.status === 'loading' && <Loading />}
      {holdings.status === 'error' && <ErrorMessage error={holdings.error} retry={holdings.reload} />}
      {holdings.status === 'ready' && (
        <>
          {list.length > 0 && totals !== undefined && (
            <Section title="Totals">
              <Stats label="Portfolio totals">
                <Stat
                  label="Value"
                  value={<span className="big">{formatMoney(totals.total_value)}</span>}
                  hint={totals.unpriced_count > 0 ? `${totals.unpriced_count} of ${list.length} without a price, counted at cost` : undefined}
                />
                <Stat label="Cost" value={formatMoney(totals.total_cost)} />
                <Stat label="Gain/loss" value={<Pnl value={totals.total_gain_loss} />} />
                <Stat label="Return" value={<span className={`pnl pnl-${tone(totals.total_return_pct)}`}>{formatSignedPercent(totals.total_return_pct)}</span>} />
                <Stat label="Holdings" value={formatCount(list.length)} />
              </Stats>
            </Section>
          )}
          <Section title="Holdings" id="holdings">
            {list.length === 0 ? (
              <p className="muted">No holdings yet. Add what you own below, one by one or from a CSV file; prices and gains then appear here.</p>
            ) : (
              <DataTable caption="Your holdings" columns={columns} rows={list} rowKey={(h) => String(h.id)} initialSort={{ key: 'value', direction: 'descending' }} />
            )}
            {editingHolding && (
              <EditHolding
                key={editingHolding.id}
                holding={editingHolding}
                onCancel={() => setEditing(null)}
                onSaved={(saved) => {
                  setEditing(null);
                  setFeedback({ tone: 'ok', text: `Saved ${saved.symbol}: ${formatShares(saved.shares)} shares at ${formatPrice(saved.average_cost)}.` });
                  holdings.reload();
                }}
              />
            )}
            <h3>Add a holding</h3>
            <AddHolding
              onAdded={(holding) => {
                setFeedback({ tone: 'ok', text: `Added ${holding.symbol}.` });
                holdings.reload();
              }}
            />
            <CsvImport onImported={holdings.reload} />
          </Section>
          <Section title="Snapshot">
            <form className="inline-form" onSubmit={(event) => void snapshot(event)}>
              <div className="field field-wide">
                <label htmlFor="snapshot-notes">Notes (optional)</label>
                <input id="snapshot-notes" value={snapshotNotes} onChange={(e) => setSnapshotNotes(e.target.value)} maxLength={500} />
              </div>
              <button type="submit" disabled={snapshotBusy || list.length === 0}>
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
