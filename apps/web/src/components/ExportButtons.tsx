import { useState } from 'react';
import { useAccountScope } from '../accounts';
import { downloadFile, failure } from '../api/client';

const FORMATS = [
  { format: 'csv', label: 'CSV', extension: 'csv' },
  { format: 'excel', label: 'Excel', extension: 'xlsx' },
  { format: 'pdf', label: 'PDF', extension: 'pdf' },
] as const;

/**
 * CSV / Excel / PDF downloads of a day (`/api/calendar/export/<format>?date=`) or a month
 * (`/api/monthly/export/<format>?month=`). Errors (nothing to export) are shown, not saved as files.
 */
export function ExportButtons({ kind, value, label }: { kind: 'day' | 'month'; value: string; label: string }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [status, setStatus] = useState<{ error: boolean; text: string } | null>(null);
  const { scoped } = useAccountScope();

  const download = async (format: string, extension: string) => {
    const path = scoped(kind === 'day' ? `/api/calendar/export/${format}?date=${value}` : `/api/monthly/export/${format}?month=${value}`);
    setBusy(format);
    setStatus(null);
    try {
      const name = await downloadFile(path, `trading-${value}.${extension}`);
      setStatus({ error: false, text: `Downloaded ${name}` });
    } catch (error) {
      setStatus({ error: true, text: failure(error) });
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="exports">
      <div role="group" aria-label={`Export ${label}`} className="button-row">
        <span className="exports-label" aria-hidden="true">
          Export
        </span>
        {FORMATS.map(({ format, label: name, extension }) => (
          <button
            key={format}
            type="button"
            className="button-secondary"
            disabled={busy !== null}
            aria-label={`Export ${label} as ${name}`}
            onClick={() => void download(format, extension)}
          >
            {busy === format ? `${name}…` : name}
          </button>
        ))}
      </div>
      <p className={status?.error ? 'form-error' : 'muted small'} role="status" aria-live="polite">
        {status?.text ?? ''}
      </p>
    </div>
  );
}
