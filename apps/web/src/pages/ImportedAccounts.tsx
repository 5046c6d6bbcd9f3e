import { useState } from 'react';
import { useAccountScope } from '../accounts';
import { sendJson } from '../api/client';
import type { Account, ImportedAccountEmptiedResponse } from '../api/schema';
import { Section } from '../components/common';
import { ConfirmedAction, type ActionOutcome } from '../components/ConfirmedAction';
import { DataTable } from '../components/DataTable';

/**
 * The user's accounts, each with a way to remove what the imports put into it
 * (`DELETE /api/import/accounts/{account}`: a wrong file, or files sent into the wrong account, undone)
 * and, other than the default, to delete it (`DELETE /api/accounts/{account}`).
 */
export function ImportedAccounts({ onEmptied }: { onEmptied: () => void }) {
  const { accounts } = useAccountScope();
  const [status, setStatus] = useState<ActionOutcome | null>(null);
  if (accounts.length === 0) return null;
  const done = (next: ActionOutcome) => {
    setStatus(next);
    if (!next.error) onEmptied();
  };
  // Both removals answer alike (`ImportedAccountEmptiedResponse`); the message is what the page shows.
  const removal = (path: string, number: string) => async () =>
    `${(await sendJson<ImportedAccountEmptiedResponse>('DELETE', `${path}/${encodeURIComponent(number)}`)).message}.`;
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
