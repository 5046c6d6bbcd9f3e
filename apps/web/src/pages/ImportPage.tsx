import { useEffect, useState, type FormEvent } from 'react';
import { ApiError, failure } from '../api/client';
import { uploadTradeFiles } from '../api/ndjson';
import type { ImportStats, UploadHistoryEntry, UploadMessage } from '../api/types';
import { ErrorMessage, Loading, PageHeader, Section, Stat, Stats } from '../components/common';
import { DataTable } from '../components/DataTable';
import { formatBytes, formatCount, formatDateTime } from '../lib/format';
import { Link } from '../lib/router';
import { useApi, useTitle } from '../lib/use-api';
import { useProfile } from '../profile';

function AccountForm() {
  const { profile, saveAccount } = useProfile();
  const [value, setValue] = useState('');
  const [status, setStatus] = useState<{ error: boolean; text: string } | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (profile) setValue(profile.brokerage_account ?? '');
  }, [profile]);

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
            onChange={(event) => setValue(event.target.value)}
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

type UploadState =
  | { phase: 'idle' }
  | { phase: 'running'; percentage: number; message: string }
  | { phase: 'done'; stats: ImportStats; warnings: string[]; message: string }
  | { phase: 'failed'; message: string; percentage: number };

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
  const [state, setState] = useState<UploadState>({ phase: 'idle' });
  const accountMissing = profile !== null && !profile.brokerage_account;
  const running = state.phase === 'running';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    if (!files.transactions || !files.gains) return;
    setState({ phase: 'running', percentage: 0, message: 'Sending the files…' });
    try {
      let percentage = 0;
      await uploadTradeFiles(files.transactions, files.gains, (message: UploadMessage) => {
        if (message.type === 'progress') {
          percentage = message.percentage;
          setState({ phase: 'running', percentage, message: message.message });
        } else if (message.type === 'success') {
          setState({ phase: 'done', stats: message.stats, warnings: message.warnings ?? [], message: message.message });
          // Imported: the chosen files are cleared, so the form is ready for the next pair.
          form.reset();
          setFiles({});
        } else {
          setState({ phase: 'failed', message: message.message, percentage });
        }
      });
    } catch (error) {
      setState({ phase: 'failed', message: error instanceof ApiError || error instanceof Error ? error.message : String(error), percentage: 0 });
    }
    onFinished();
  };

  const percentage = state.phase === 'done' ? 100 : state.phase === 'running' || state.phase === 'failed' ? state.percentage : 0;
  const label = state.phase === 'running' ? state.message : state.phase === 'done' ? 'Finished' : state.phase === 'failed' ? 'Failed' : 'Not started';

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
    </Section>
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
                  <span>
                    {h.gains_filename} <span className="muted small">({formatBytes(h.gains_file_size)})</span>
                  </span>
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
            { key: 'rows', header: 'Rows read', cell: (h) => formatCount(h.transactions_processed), sortValue: (h) => h.transactions_processed, numeric: true, minor: true },
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
  return (
    <>
      <PageHeader title="Import" subtitle="Bring your broker's exports into the journal." />
      <AccountForm />
      <UploadForm onFinished={() => setVersion((v) => v + 1)} />
      <UploadHistory version={version} />
    </>
  );
}
