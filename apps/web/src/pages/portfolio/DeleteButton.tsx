import { useState } from 'react';
import { sendJson } from '../../api/client';
import type { Holding } from '../../api/types';
import { failure } from '../../api/client';

/** Delete, asking once more first. */
export function DeleteButton({ holding, onDeleted }: { holding: Holding; onDeleted: (message: string) => void }) {
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
