import { useState } from 'react';
import { useAccountScope } from '../accounts';
import { failure, sendJson } from '../api/client';
import type { Account, ImportedAccountEmptiedResponse } from '../api/schema';
import { Section } from '../components/common';
import { DataTable } from '../components/DataTable';

type Status = { error: boolean; text: string } | null;

/**
 * The user's accounts, each with a way to remove what the imports put into it
 * (`DELETE /api/import/accounts/{account}`: a wrong file, or files sent into the wrong account, undone)
 * and, other than the default, to delete it (`DELETE /api/accounts/{account}`).
 */
export function ImportedAccounts({ onEmptied }: { onEmptied: () => void }) {
  const { accounts } = useAccountScope();
  const [status, setStatus] = useState<Status>(null);
  if (accounts.length === 0) return null;
  const done = (next: NonNullable<Status>) => {
    setStatus(next);
    if (!next.error) onEmptied();
  };
  // Both removals answer alike (`ImportedAccountEmptiedResponse`); the message is what the page shows.
  const removal = (path: string, number: string) => async () => (await sendJson<ImportedAccountEmptiedResponse>('DELETE', `${path}/${encodeURIComponent(number)}`)).message;
  return (
    <Section title="Accounts">
      <p className="muted">
        Imported a wrong file, or into the wrong account? Remove what the imports put into that account, then import the right files. The
        account stays; the tags and notes of its trades are kept and come back with the same trades. An account you no longer want, other
        than your default, can be deleted: its imports and its trades&apos; tags and notes go with it.
      </p>
      <DataTable
        caption="Your brokerage accounts"
        columns={[
          { key: 'account', header: 'Account', cell: (a: Account) => (a.default ? `${a.account_number} (default)` : a.account_number) },
          {
            key: 'remove',
            header: 'Imported data',
            wide: true,
            cell: (a: Account) => (
              <ConfirmedAction
                offer={`Remove the imports of ${a.account_number}…`}
                confirm="Yes, remove"
                confirmDetail={` everything imported into ${a.account_number}`}
                working="Removing…"
                keep={`Keep account ${a.account_number}`}
                act={removal('/api/import/accounts', a.account_number)}
                onDone={done}
              />
            ),
          },
          {
            key: 'delete',
            header: 'Deletion',
            wide: true,
            cell: (a: Account) =>
              a.default ? (
                <span className="muted">The default account stays</span>
              ) : (
                <ConfirmedAction
                  offer={`Delete ${a.account_number}…`}
                  confirm="Yes, delete"
                  confirmDetail={` account ${a.account_number} with its imports, tags and notes`}
                  working="Deleting…"
                  keep={`Keep ${a.account_number} as it is`}
                  act={removal('/api/accounts', a.account_number)}
                  onDone={done}
                />
              ),
          },
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

interface ConfirmedActionProps {
  /** The button that asks. */
  readonly offer: string;
  /** The button that acts, and what it does in words a screen reader adds. */
  readonly confirm: string;
  readonly confirmDetail: string;
  readonly working: string;
  /** The accessible name of the button that takes the question back. */
  readonly keep: string;
  /** The action; its answer's message is shown. */
  readonly act: () => Promise<string>;
  readonly onDone: (status: NonNullable<Status>) => void;
}

/** An action on an account, asking once more first. */
function ConfirmedAction({ offer, confirm, confirmDetail, working, keep, act, onDone }: ConfirmedActionProps) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!confirming) {
    return (
      <button type="button" className="button-link danger" onClick={() => setConfirming(true)}>
        {offer}
      </button>
    );
  }
  const run = async () => {
    setBusy(true);
    try {
      onDone({ error: false, text: `${await act()}.` });
    } catch (caught) {
      onDone({ error: true, text: failure(caught) });
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };
  return (
    <span className="confirm">
      <button type="button" className="button-danger" disabled={busy} onClick={() => void run()}>
        {busy ? working : confirm}
        <span className="visually-hidden">{confirmDetail}</span>
      </button>
      <button type="button" className="button-link" disabled={busy} onClick={() => setConfirming(false)} aria-label={keep}>
        Keep
      </button>
    </span>
  );
}
