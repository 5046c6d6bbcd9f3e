import type { ReactNode } from 'react';
import { ApiError } from '../api/client';
import { formatSignedMoney, tone } from '../lib/format';
import { Link } from '../lib/router';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}

export function ErrorMessage({ error, retry }: { error: Error; retry?: () => void }) {
  const notFound = error instanceof ApiError && error.status === 404;
  return (
    <div className="notice notice-error" role="alert">
      <p>
        <strong>{notFound ? 'Not found.' : 'Something went wrong.'}</strong> {error.message}
      </p>
      {retry && !notFound && (
        <button type="button" className="button-secondary" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** What a page shows with no data: what it would show, and how to get some. */
export function EmptyState({ title, children, importLink = true }: { title: string; children?: ReactNode; importLink?: boolean }) {
  return (
    <div className="empty">
      <h2>{title}</h2>
      {children}
      {importLink && (
        <p>
          <Link className="button" to="/import">
            Import your trades
          </Link>
        </p>
      )}
    </div>
  );
}

/** How a new user fills the journal: the three steps of the import page. */
export function ImportSteps() {
  return (
    <ol className="steps">
      <li>
        In Schwab, export <strong>Transactions</strong> and <strong>Realized Gain/Loss – Lot Details</strong> as CSV files for the same account.
      </li>
      <li>
        On the <Link to="/import">Import</Link> page, enter your brokerage account number once.
      </li>
      <li>Choose both files and upload them. Uploading the same files again never counts a trade twice.</li>
    </ol>
  );
}

/** A profit-or-loss amount, coloured and signed. */
export function Pnl({ value, className = '' }: { value: number | null | undefined; className?: string }) {
  return <span className={`pnl pnl-${tone(value)} ${className}`.trim()}>{formatSignedMoney(value)}</span>;
}

export function Stat({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd>
        {value}
        {hint !== undefined && <span className="stat-hint">{hint}</span>}
      </dd>
    </div>
  );
}

export function Stats({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <dl className="stats" aria-label={label}>
      {children}
    </dl>
  );
}

export function PageHeader({ title, children, subtitle }: { title: string; children?: ReactNode; subtitle?: ReactNode }) {
  return (
    <div className="page-header">
      <div>
        <h1 tabIndex={-1} id="page-title">
          {title}
        </h1>
        {subtitle && <p className="subtitle">{subtitle}</p>}
      </div>
      {children && <div className="page-actions">{children}</div>}
    </div>
  );
}

export function SourceBadge({ source }: { source?: string }) {
  if (source === 'broker') {
    return (
      <span className="badge badge-verified" title="Cost basis and gain/loss taken from the broker's realized-gains lots">
        Broker-verified
      </span>
    );
  }
  if (source === 'fifo') {
    return (
      <span className="badge badge-estimate" title="Matched first-in, first-out by this journal: no broker lot matched this sale">
        FIFO estimate
      </span>
    );
  }
  return null;
}

export function Section({ title, children, actions, id }: { title: string; children: ReactNode; actions?: ReactNode; id?: string }) {
  const headingId = id ?? `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section className="card" aria-labelledby={headingId}>
      <div className="card-header">
        <h2 id={headingId}>{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}
