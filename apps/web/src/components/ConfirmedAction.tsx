import { useEffect, useRef, useState } from 'react';
import { failure } from '../api/client';

/** What an action came to: its answer's message, or why it failed, in words to show. */
export interface ActionOutcome {
  readonly error: boolean;
  readonly text: string;
}

export interface ConfirmedActionProps {
  /** The button that asks, and its accessible name where its text alone would not say what it acts on. */
  readonly offer: string;
  readonly offerLabel?: string;
  /** The button that acts, and what it acts on in words a screen reader adds to it. */
  readonly confirm: string;
  readonly confirmDetail: string;
  /** The acting button's text while the action runs. */
  readonly working: string;
  /** The accessible name of the button that takes the question back (its text is "Keep"). */
  readonly keep: string;
  /** The action; what it resolves to is the text shown. */
  readonly act: () => Promise<string>;
  readonly onDone: (outcome: ActionOutcome) => void;
  readonly small?: boolean;
}

/**
 * A destructive action that asks once more first, in the page rather than in the browser's own dialog:
 * the question says what goes, "Keep" takes it back, and a failure (another tab deleted it first, the
 * network dropped) is reported as an error, with the offer back in place.
 */
export function ConfirmedAction({ offer, offerLabel, confirm, confirmDetail, working, keep, act, onDone, small = false }: ConfirmedActionProps) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  // The button pressed goes away: focus moves to the question's answer, and back to the offer after
  // Keep, so that a keyboard user stays where they were (not on the page's top).
  const offerButton = useRef<HTMLButtonElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const moved = useRef(false);
  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    (confirming ? confirmButton : offerButton).current?.focus();
  }, [confirming]);
  const ask = (next: boolean) => {
    moved.current = true;
    setConfirming(next);
  };
  const size = small ? ' small' : '';
  if (!confirming) {
    return (
      <button ref={offerButton} type="button" className={`button-link danger${size}`} onClick={() => ask(true)} aria-label={offerLabel}>
        {offer}
      </button>
    );
  }
  const run = async () => {
    setBusy(true);
    let outcome: ActionOutcome;
    try {
      outcome = { error: false, text: await act() };
    } catch (caught) {
      outcome = { error: true, text: failure(caught) };
    }
    // Back to the offer before the outcome is reported: the report may remove this row (and this button) at once.
    setBusy(false);
    ask(false);
    onDone(outcome);
  };
  return (
    <span className="confirm">
      <button ref={confirmButton} type="button" className={`button-danger${size}`} disabled={busy} onClick={() => void run()}>
        {busy ? working : confirm}
        <span className="visually-hidden">{confirmDetail}</span>
      </button>
      <button type="button" className={`button-link${size}`} disabled={busy} onClick={() => ask(false)} aria-label={keep}>
        Keep
      </button>
    </span>
  );
}
