import { useCallback, useEffect, useState, type DragEvent, type FormEvent } from 'react';
import { useAccountScope } from '../accounts';
import { ApiError, failure, sendForm } from '../api/client';
import { uploadBrokerFiles, uploadTradeFiles } from '../api/ndjson';
import type { ImportPreview, ImportStats, UploadHistoryEntry, UploadMessage } from '../api/types';
import { ErrorMessage, Loading, PageHeader, Section, Stat, Stats } from '../components/common';
import { DataTable } from '../components/DataTable';
import { formatBytes, formatCount, formatDateTime } from '../lib/format';
import { Link } from '../lib/router';
import { useApi, useTitle } from '../lib/use-api';
import { useProfile } from '../profile';
import { ImportedAccounts } from './ImportedAccounts';

export function AccountForm() {
  const { profile, saveAccount } = useProfile();
  // What the trader typed wins over a profile that arrives after they started typing. The field shows the
  // saved account until then, derived on each render: an effect copying the profile in could run after a
  // keystroke it had not seen (the profile arriving just before it) and wipe it.
  const [typed, setTyped] = useState<string | null>(null);
  const value = typed ?? profile?.brokerage_account ?? '';
  const [status, setStatus] = useState<{ error: boolean; text: string } | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setStatus(null);
    try {
      const saved = await saveAccount(value);
      setStatus({ error: false, text: `Saved: your uploads go to account ${saved.brokerage_account}.` });
    } catch (error) {
      setStatus({ error: true, text: failure(error) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Section title="Brokerage account">
      {profile && !profile.brokerage_account && (
        <p className="notice notice-warning" id="account-missing">
          <strong>Set your account number first.</strong> Imported trades belong to a brokerage account: enter the number shown on your
          statements (for example XXXX-1234). You only do this once.
        </p>
      )}
      <form className="inline-form" onSubmit={(event) => void submit(event)}>
        <div className="field">
          <label htmlFor="brokerage-account">Account number</label>
          <p className="muted small" id="brokerage-account-hint">
            Letters, digits, spaces, “.”, “-” and “_”; up to 32 characters.
          </p>
          <input
            id="brokerage-account"
            name="brokerage_account"
            value={value}
            onChange={(event) => setTyped(event.target.value)}
            maxLength={32}
            required
            autoComplete="off"
            aria-describedby="brokerage-account-hint"
          />
        </div>
        <button type="submit" disabled={saving || value.trim() === '' || value === (profile?.brokerage_account ?? '')}>
          {saving ? 'Saving…' : 'Save'}
        </button>
      </form>
      <p className={status?.error ? 'form-error' : 'form-ok'} role="status" aria-live="polite">
        {status?.text ?? ''}
      </p>
    </Section>
  );
}

type Detected = NonNullable<Extract<UploadMessage, { type: 'success' }>['detected']>;

type UploadState =
  | { phase: 'idle' }
  | { phase: 'running'; percentage: number; message: string }
  | { phase: 'done'; stats: ImportStats; warnings: string[]; message: string; detected: Detected }
  | { phase: 'failed'; message: string; percentage: number };

/**
 * An upload's state as its stream reports it; `run` sends one (`send` calls back with each message)
 * and answers whether it succeeded.
 */
function useUpload(onFinished: () => void) {
  const [state, setState] = useState<UploadState>({ phase: 'idle' });
  const run = useCallback(
    async (send: (onMessage: (message: UploadMessage) => void) => Promise<unknown>): Promise<boolean> => {
      setState({ phase: 'running', percentage: 0, message: 'Sending the files…' });
      let succeeded = false;
      try {
        let percentage = 0;
        await send((message: UploadMessage) => {
          if (message.type === 'progress') {
            percentage = message.percentage;
            setState({ phase: 'running', percentage, message: message.message });
          } else if (message.type === 'success') {
            succeeded = true;
            setState({ phase: 'done', stats: message.stats, warnings: message.warnings ?? [], message: message.message, detected: message.detected ?? [] });
          } else {
            setState({ phase: 'failed', message: message.message, percentage });
          }
        });
      } catch (error) {
        setState({ phase: 'failed', message: error instanceof ApiError || error instanceof Error ? error.message : String(error), percentage: 0 });
      }
      onFinished();
      return succeeded;
    },
    [onFinished],
  );
  return { state, run };
}

function ProgressBar({ percentage, label, failed }: { percentage: number; label: string; failed: boolean }) {
  return (
    <div className="progress" role="progressbar" aria-label="Import progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percentage} aria-valuetext={`${percentage}%: ${label}`}>
      {/* A failed import fills the bar in red: nothing of it was kept, whatever step it reached. */}
      <div className={failed ? 'progress-fill progress-failed' : 'progress-fill'} style={{ width: failed ? '100%' : `${percentage}%` }} />
    </div>
  );
}

function UploadForm({ onFinished }: { onFinished: () => void }) {
  const { profile } = useProfile();
  const [files, setFiles] = useState<{ transactions?: File; gains?: File }>({});
  const { state, run } = useUpload(onFinished);
  const accountMissing = profile !== null && !profile.brokerage_account;
  const running = state.phase === 'running';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const { transactions, gains } = files;
    if (!transactions || !gains) return;
    if (await run((onMessage) => uploadTradeFiles(transactions, gains, onMessage))) {
      // Imported: the chosen files are cleared, so the form is ready for the next pair.
      form.reset();
      setFiles({});
    }
  };

  return (
    <Section title="Upload trades">
      <p>
        Upload two CSV exports of the same Schwab account: <strong>Transactions</strong> (History → Transactions → Export) and{' '}
        <strong>Realized Gain/Loss – Lot Details</strong> (Realized Gain/Loss → Export, “Lot Details”). Overlapping or repeated uploads are
        safe: nothing is counted twice.
      </p>
      {accountMissing && (
        <p className="notice notice-warning" role="note">
          Uploading needs your brokerage account number: set it in the form above.
        </p>
      )}
      <form className="upload-form" onSubmit={(event) => void submit(event)} aria-describedby={accountMissing ? 'account-missing' : undefined}>
        <div className="field">
          <label htmlFor="transactions-file">Transactions CSV</label>
          <input
            id="transactions-file"
            type="file"
            accept=".csv,text/csv"
            required
            disabled={running}
            onChange={(event) => setFiles((current) => ({ ...current, transactions: event.target.files?.[0] }))}
          />
        </div>
        <div className="field">
          <label htmlFor="gains-file">Realized gain/loss (lot details) CSV</label>
          <input
            id="gains-file"
            type="file"
            accept=".csv,text/csv"
            required
            disabled={running}
            onChange={(event) => setFiles((current) => ({ ...current, gains: event.target.files?.[0] }))}
          />
        </div>
        <button type="submit" disabled={running || accountMissing || !files.transactions || !files.gains}>
          {running ? 'Importing…' : 'Import'}
        </button>
      </form>
      <UploadResult state={state} />
    </Section>
  );
}

/** Files an any-broker upload takes at once (the service's limit). */
const MAX_BROKER_FILES = 6;

type PreviewState = { phase: 'none' } | { phase: 'reading' } | { phase: 'ready'; preview: ImportPreview } | { phase: 'failed'; message: string };

/** What the service would read in the chosen files (`POST /api/import/preview`), read again whenever they change. */
function usePreview(files: readonly File[]): PreviewState {
  const [state, setState] = useState<PreviewState>({ phase: 'none' });
  useEffect(() => {
    if (files.length === 0) {
      setState({ phase: 'none' });
      return;
    }
    let current = true;
    setState({ phase: 'reading' });
    const form = new FormData();
    for (const file of files) form.append('files', file, file.name);
    sendForm<ImportPreview>('/api/import/preview', form).then(
      (preview) => current && setState({ phase: 'ready', preview }),
      (error: unknown) => current && setState({ phase: 'failed', message: failure(error) }),
    );
    return () => {
      current = false;
    };
  }, [files]);
  return state;
}

/** Any broker's exports, dropped or chosen: the service detects each file's broker and kind. */
function BrokerUploadForm({ onFinished }: { onFinished: () => void }) {
  const { profile } = useProfile();
  const [files, setFiles] = useState<File[]>([]);
  const [account, setAccount] = useState('');
  const [dragging, setDragging] = useState(false);
  const { state, run } = useUpload(onFinished);
  const preview = usePreview(files);
  const accountMissing = profile !== null && !profile.brokerage_account;
  const running = state.phase === 'running';
  const refused = preview.phase === 'failed' || (preview.phase === 'ready' && (preview.preview.problem !== null || preview.preview.files.some((file) => file.error !== null)));
  const destination = (carried: string | null) => carried ?? (account.trim() || profile?.brokerage_account || '—');

  const add = (chosen: FileList | null) => {
    const added = Array.from(chosen ?? []);
    // The same name twice is the same file chosen again.
    setFiles((current) => [...current.filter((file) => !added.some((other) => other.name === file.name)), ...added].slice(0, MAX_BROKER_FILES));
  };
  const drop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!running) add(event.dataTransfer.files);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (files.length === 0) return;
    if (await run((onMessage) => uploadBrokerFiles(files, account, onMessage))) setFiles([]);
  };

  return (
    <Section title="Upload from any broker">
      <p>
        Fidelity, Interactive Brokers, Robinhood, E*TRADE, Webull, Tastytrade, Vanguard, TD Ameritrade, Firstrade, thinkorswim, Merrill Edge, Lightspeed,
        moomoo, TradeZero or Schwab: drop the CSV files your broker exports (a transaction history, and its realized gain/loss lots where the broker gives them; several
        accounts at once are fine). Each file&apos;s broker is recognised from its content. Another broker&apos;s executions go in as a CSV file with
        the columns Date, Time, Symbol, Side (B, S, SS or BC), Quantity, Price and Fees. Moving over from another journal: TradeNote&apos;s import
        template, Tradervue&apos;s trades export and Ghostfolio&apos;s export (its JSON, or its activities CSV) are read as they are.
      </p>
      <form className="upload-form" onSubmit={(event) => void submit(event)} aria-describedby={accountMissing ? 'account-missing' : undefined}>
        <div
          className={dragging ? 'drop-zone drop-zone-active' : 'drop-zone'}
          data-testid="drop-zone"
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={drop}
        >
          <p>Drop CSV files here, or</p>
          <label htmlFor="broker-files">Choose files</label>
          <input
            id="broker-files"
            type="file"
            accept=".csv,text/csv,.json,application/json"
            multiple
            disabled={running}
            onChange={(event) => {
              add(event.target.files);
              // The list below shows what is chosen; the picker is ready for more.
              event.target.value = '';
            }}
          />
        </div>
        {files.length > 0 && (
          <ul className="chosen-files" aria-label="Files to import">
            {files.map((file) => (
              <li key={file.name}>
                {file.name} <span className="muted small">({formatBytes(file.size)})</span>{' '}
                <button type="button" className="link-button" disabled={running} onClick={() => setFiles((current) => current.filter((other) => other !== file))}>
                  Remove<span className="visually-hidden"> {file.name}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        {preview.phase === 'reading' && <p className="muted">Reading the files…</p>}
        {preview.phase === 'failed' && (
          <p className="form-error" role="alert">
            {preview.message}
          </p>
        )}
        {preview.phase === 'ready' && (
          <>
            <DataTable
              caption="Before importing: what each file is and where it goes"
              columns={[
                { key: 'file', header: 'File', cell: (f) => f.file },
                { key: 'broker', header: 'Layout', cell: (f) => f.label ?? '—' },
                { key: 'kind', header: 'Kind', cell: (f) => (f.kind === null ? '—' : f.kind === 'transactions' ? 'Transactions' : 'Realized lots') },
                { key: 'rows', header: 'Rows', cell: (f) => (f.rows === null ? '—' : formatCount(f.rows)), numeric: true },
                {
                  key: 'account',
                  header: 'Account',
                  cell: (f) => (f.error !== null ? '—' : f.kind === 'realized-lots' ? 'with its history' : `${destination(f.account)}${f.account === null ? '' : ' (from the file)'}`),
                },
                { key: 'error', header: 'Problem', cell: (f) => (f.error === null ? '' : <span className="form-error">{f.error}</span>), wide: true },
              ]}
              rows={preview.preview.files}
              rowKey={(f) => f.file}
            />
            {preview.preview.problem !== null && (
              <p className="form-error" role="alert">
                {preview.preview.problem}
              </p>
            )}
          </>
        )}
        <div className="field">
          <label htmlFor="import-account">Account (optional)</label>
          <p className="muted small" id="import-account-hint">
            For files that do not name their account; your profile&apos;s account ({profile?.brokerage_account ?? 'not set'}) when empty.
          </p>
          <input
            id="import-account"
            name="account"
            value={account}
            onChange={(event) => setAccount(event.target.value)}
            maxLength={32}
            autoComplete="off"
            aria-describedby="import-account-hint"
          />
        </div>
        <button type="submit" disabled={running || accountMissing || files.length === 0 || refused || preview.phase === 'reading'}>
          {running ? 'Importing…' : files.length === 0 ? 'Import files' : `Import ${files.length === 1 ? '1 file' : `${files.length} files`}`}
        </button>
      </form>
      <UploadResult state={state} />
    </Section>
  );
}

function UploadResult({ state }: { state: UploadState }) {
  const percentage = state.phase === 'done' ? 100 : state.phase === 'running' || state.phase === 'failed' ? state.percentage : 0;
  const label = state.phase === 'running' ? state.message : state.phase === 'done' ? 'Finished' : state.phase === 'failed' ? 'Failed' : 'Not started';
  return (
    <>
      {state.phase !== 'idle' && (
        <div className="upload-status">
          <ProgressBar percentage={percentage} label={label} failed={state.phase === 'failed'} />
          <p className="progress-label" aria-live="polite">
            <strong>{percentage}%</strong> {label}
          </p>
        </div>
      )}
      {state.phase === 'done' && (
        <div className="notice notice-success" role="status">
          <p>
            <strong>{state.message}.</strong> <Link to="/">See your dashboard</Link> or <Link to="/calendar">the calendar</Link>.
          </p>
          <Stats label="Import statistics">
            <Stat label="New transactions" value={formatCount(state.stats.transactions_inserted)} />
            <Stat label="Realized-gain lots read" value={formatCount(state.stats.realized_gains_lots)} />
            <Stat label="Broker-verified trades" value={formatCount(state.stats.broker_verified_trades)} />
          </Stats>
          {state.detected.length > 0 && (
            <DataTable
              caption="What each file was"
              columns={[
                { key: 'file', header: 'File', cell: (d) => d.file },
                { key: 'broker', header: 'Broker', cell: (d) => d.broker },
                { key: 'kind', header: 'Kind', cell: (d) => (d.kind === 'transactions' ? 'Transactions' : 'Realized lots') },
                { key: 'rows', header: 'Rows', cell: (d) => formatCount(d.rows), numeric: true },
                { key: 'account', header: 'Account', cell: (d) => d.account },
              ]}
              rows={state.detected}
              rowKey={(d) => d.file}
            />
          )}
          {state.stats.transactions_inserted === 0 && <p className="muted">These files held nothing new: everything in them was imported before.</p>}
          {state.warnings.length > 0 && (
            <details>
              <summary>
                {state.warnings.length} note{state.warnings.length === 1 ? '' : 's'} from the matching
              </summary>
              <ul>
                {state.warnings.map((warning) => (
                  <li key={warning}>{warning}</li>
                ))}
              </ul>
            </details>
          )}
        </div>
      )}
      {state.phase === 'failed' && (
        <div className="notice notice-error" role="alert">
          <p>
            <strong>The import failed; nothing was changed.</strong> {state.message}
          </p>
        </div>
      )}
    </>
  );
}

function UploadHistory({ version }: { version: number }) {
  const history = useApi<{ history: UploadHistoryEntry[] }>('/api/upload-history');
  const { reload } = history;
  useEffect(() => {
    if (version > 0) reload();
  }, [version, reload]);
  return (
    <Section title="Upload history">
      {history.status === 'loading' && <Loading />}
      {history.status === 'error' && <ErrorMessage error={history.error} retry={history.reload} />}
      {history.status === 'ready' && (
        <DataTable
          caption="Earlier uploads, newest first"
          columns={[
            { key: 'time', header: 'When', cell: (h) => formatDateTime(h.timestamp), sortValue: (h) => h.timestamp },
            {
              key: 'files',
              header: 'Files',
              cell: (h) => (
                <span className="files">
                  <span>
                    {h.transaction_filename} <span className="muted small">({formatBytes(h.transaction_file_size)})</span>
                  </span>
                  {h.gains_filename !== '' && (
                    <span>
                      {h.gains_filename} <span className="muted small">({formatBytes(h.gains_file_size)})</span>
                    </span>
                  )}
                </span>
              ),
            },
            {
              key: 'status',
              header: 'Result',
              cell: (h) =>
                h.status === 'success' ? (
                  h.transactions_inserted === 0 ? (
                    <span className="badge">Nothing new</span>
                  ) : (
                    <span className="badge badge-verified">Imported</span>
                  )
                ) : (
                  <span className="status-failed">
                    <span className="badge badge-failed">Failed</span>
                    {h.error && <span className="small">{h.error}</span>}
                  </span>
                ),
              sortValue: (h) => h.status,
            },
            { key: 'rows', header: 'Transactions read', cell: (h) => formatCount(h.transactions_processed), sortValue: (h) => h.transactions_processed, numeric: true, minor: true },
            { key: 'months', header: 'Months updated', cell: (h) => formatCount(h.months_updated), sortValue: (h) => h.months_updated, numeric: true },
            { key: 'account', header: 'Account', cell: (h) => h.brokerage_account, minor: true },
          ]}
          rows={history.data.history}
          rowKey={(h, index) => `${h.timestamp}-${index}`}
          empty={<p className="muted">No uploads yet.</p>}
        />
      )}
    </Section>
  );
}

export function ImportPage() {
  useTitle('Import');
  const [version, setVersion] = useState(0);
  const { refresh: refreshAccounts } = useAccountScope();
  // An upload may have added an account (one its files name): the top bar's choice lists it.
  const finished = useCallback(() => {
    setVersion((v) => v + 1);
    refreshAccounts();
  }, [refreshAccounts]);
  return (
    <>
      <PageHeader title="Import" subtitle="Bring your broker's exports into the journal." />
      <AccountForm />
      <UploadForm onFinished={finished} />
      <BrokerUploadForm onFinished={finished} />
      <UploadHistory version={version} />
      <ImportedAccounts onEmptied={finished} />
    </>
  );
}
