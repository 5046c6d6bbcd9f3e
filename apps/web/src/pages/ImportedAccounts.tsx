import { useState } from 'react';
import { useAccountScope } from '../accounts';
import { failure, sendJson } from '../api/client';
import type { Account, ImportedAccountEmptiedResponse } from '../api/schema';
import { Section } from '../components/common';
import { DataTable } from '../components/DataTable';

type Status = { error: boolean; text: string } | null;

/**
 * The user's accounts, each with a way to remove what the imports put into it
 * (`DELETE /api/import/accounts/{account}`): a wrong file, or files sent into the wrong account, undone.
 */
export function ImportedAccounts({ onEmptied }: { onEmptied: () => void }) {
  const { accounts } = useAccountScope();
  const [status, setStatus] = useState<Status>(null);
  if (accounts.length === 0) return null;
  const done = (next: NonNullable<Status>) => {
    setStatus(next);
    if (!next.error) onEmptied();
  };
  return (
    <Section title="Accounts">
      <p className="muted">
        Imported a wrong file, or into the wrong account? Remove what the imports put into that account, then import the right files. The
        account stays; the tags and notes of its trades are kept and come back with the same trades.
      </p>
      <DataTable
        caption="Your brokerage accounts"
        columns={[
          { key: 'account', header: 'Account', cell: (a: Account) => (a.default ? `${a.account_number} (default)` : a.account_number) },
          { key: 'remove', header: 'Imported data', cell: (a: Account) => <EmptyAccountButton account={a} onDone={done} /> },
        ]}
        rows={accounts}
        rowKey={(a) => String(a.account_id)}
      />
      <p className={status?.error ? 'form-error' : 'form-ok'} role="status" aria-live="polite">
        {status?.text ?? ''}
      </p>
    </Section>
  );
}

/** Remove, asking once more first. */
function EmptyAccountButton({ account, onDone }: { account: Account; onDone: (status: NonNullable<Status>) => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const number = account.account_number;
  if (!confirming) {
    return (
      <button type="button" className="button-link danger" onClick={() => setConfirming(true)}>
        Remove the imports of {number}…
      </button>
    );
  }
  const remove = async () => {
    setBusy(true);
    try {
      const body = await sendJson<ImportedAccountEmptiedResponse>('DELETE', `/api/import/accounts/${encodeURIComponent(number)}`);
      onDone({ error: false, text: `${body.message}.` });
    } catch (caught) {
      onDone({ error: true, text: failure(caught) });
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };
  return (
    <span className="confirm">
      <button type="button" className="button-danger" disabled={busy} onClick={() => void remove()}>
        {busy ? 'Removing…' : 'Yes, remove'}
        <span className="visually-hidden"> everything imported into {number}</span>
      </button>
      <button type="button" className="button-link" disabled={busy} onClick={() => setConfirming(false)} aria-label={`Keep account ${number}`}>
        Keep
      </button>
    </span>
  );
}
