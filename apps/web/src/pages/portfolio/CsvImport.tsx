import { useRef, useState, type FormEvent } from 'react';
import { ApiError, sendForm } from '../../api/client';
import type { HoldingsUploadResponse } from '../../api/types';
import { formatCount } from '../../lib/format';
import { failure } from '../../api/client';
import { FeedbackLine, type Feedback } from './feedback';

/** Holdings from a CSV file: rows with problems are listed and skipped. */
export function CsvImport({ onImported }: { onImported: () => void }) {
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
