import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { failure, getJson, sendJson } from '../api/client';
import type { DayNoteResponse, TagsResponse, TradeNoteResponse, TradeTagsResponse } from '../api/types';
import { useApi } from '../lib/use-api';

// The journal in the trade tables and on the calendar's day (docs/api.md "Journal"): tags as chips,
// added with the user's own tags as suggestions and removed with one click; a note per trade and per
// day, edited in place. Notes are shown as text (React escapes them): Markdown stays as written.

/** A trade as the journal needs it. */
export interface JournalTrade {
  id: string;
  symbol: string;
  close_date: string;
  tags: string[];
  has_note: boolean;
}

/** The user's tag names, for suggestions and the tag filter (one request per page; `reload` after a change). */
export function useTagNames(enabled = true): { names: string[]; reload: () => void } {
  const tags = useApi<TagsResponse>(enabled ? '/api/tags' : null);
  return { names: tags.data?.tags.map((tag) => tag.name) ?? [], reload: tags.reload };
}

/** A trade's tags as chips (each removable), and a field to add one; saves at once. */
export function TradeTags({ trade, suggestions, onSaved }: { trade: JournalTrade; suggestions: readonly string[]; onSaved?: () => void }) {
  const [tags, setTags] = useState<string[]>(trade.tags);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const listId = useId();
  useEffect(() => setTags(trade.tags), [trade.id, trade.tags]);

  const save = async (next: string[]) => {
    setBusy(true);
    setError(null);
    try {
      const answer = await sendJson<TradeTagsResponse>('PUT', `/api/trades/${trade.id}/tags`, { tags: next });
      setTags(answer.tags);
      onSaved?.();
      return true;
    } catch (problem) {
      setError(failure(problem));
      return false;
    } finally {
      setBusy(false);
    }
  };
  const add = async (event: FormEvent) => {
    event.preventDefault();
    const name = draft.trim();
    if (name === '') return;
    if (await save([...tags, name])) setDraft('');
  };
  const label = `${trade.symbol} closed ${trade.close_date}`;

  return (
    <div className="tag-editor">
      <ul className="chips" aria-label={`Tags of ${label}`}>
        {tags.map((tag) => (
          <li key={tag} className="chip">
            {tag}
            <button type="button" className="chip-remove" aria-label={`Remove tag ${tag} from ${label}`} disabled={busy} onClick={() => void save(tags.filter((own) => own !== tag))}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <form className="tag-add" onSubmit={(event) => void add(event)}>
        <input
          type="text"
          value={draft}
          maxLength={40}
          list={listId}
          placeholder="Add tag"
          aria-label={`Add a tag to ${label}`}
          onChange={(event) => setDraft(event.target.value)}
        />
        <datalist id={listId}>
          {suggestions
            .filter((name) => !tags.some((tag) => tag.toLowerCase() === name.toLowerCase()))
            .map((name) => (
              <option key={name} value={name} />
            ))}
        </datalist>
      </form>
      {error && (
        <p className="form-error small" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** A button that opens the trade's note in a dialog: read, write, delete, without leaving the page. */
export function TradeNote({ trade, onSaved }: { trade: JournalTrade; onSaved?: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [hasNote, setHasNote] = useState(trade.has_note);
  const [text, setText] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const [status, setStatus] = useState<{ error: boolean; text: string } | null>(null);
  // The note is read when the dialog opens: until it has arrived the text cannot be edited (what was
  // typed meanwhile would be replaced by it).
  const [loaded, setLoaded] = useState(false);
  const titleId = useId();
  useEffect(() => setHasNote(trade.has_note), [trade.id, trade.has_note]);

  const open = async () => {
    setStatus(null);
    setLoaded(false);
    dialog.current?.showModal();
    try {
      const answer = await getJson<TradeNoteResponse>(`/api/trades/${trade.id}/note`);
      setSaved(answer.note);
      setText(answer.note ?? '');
    } catch (problem) {
      setStatus({ error: true, text: failure(problem) });
    } finally {
      setLoaded(true);
    }
  };
  const save = async (note: string) => {
    setStatus(null);
    try {
      const answer = await sendJson<TradeNoteResponse>('PUT', `/api/trades/${trade.id}/note`, { note });
      setSaved(answer.note);
      setText(answer.note ?? '');
      setHasNote(answer.note !== null);
      setStatus({ error: false, text: answer.note === null ? 'Note deleted.' : 'Note saved.' });
      onSaved?.();
    } catch (problem) {
      setStatus({ error: true, text: failure(problem) });
    }
  };
  const label = `${trade.symbol} closed ${trade.close_date}`;

  return (
    <>
      <button type="button" className="button-link small" aria-label={`${hasNote ? 'Note' : 'Add a note'} for ${label}`} onClick={() => void open()}>
        {hasNote ? '📝 Note' : '+ Note'}
      </button>
      <dialog ref={dialog} className="note-dialog" aria-labelledby={titleId}>
        <h2 id={titleId}>Note: {label}</h2>
        {saved !== null && (
          <div className="note-text" aria-label="Saved note">
            {saved}
          </div>
        )}
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void save(text);
          }}
        >
          <label className="field">
            <span>Why you took it, what happened (plain text or Markdown)</span>
            <textarea value={text} rows={8} maxLength={20000} disabled={!loaded} onChange={(event) => setText(event.target.value)} />
          </label>
          <p className={status?.error ? 'form-error' : 'muted small'} role="status" aria-live="polite">
            {status?.text ?? ''}
          </p>
          <div className="button-row">
            <button type="submit" disabled={!loaded}>
              Save note
            </button>
            {saved !== null && (
              <button type="button" className="button-secondary" onClick={() => void save('')}>
                Delete note
              </button>
            )}
            <button type="button" className="button-secondary" onClick={() => dialog.current?.close()}>
              Close
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}

/** The tags and the note of a trade, side by side: one table cell. */
export function TradeJournalCell({ trade, suggestions, onSaved }: { trade: JournalTrade; suggestions: readonly string[]; onSaved?: () => void }) {
  return (
    <div className="journal-cell">
      <TradeTags trade={trade} suggestions={suggestions} onSaved={onSaved} />
      <TradeNote trade={trade} onSaved={onSaved} />
    </div>
  );
}

/** The calendar day's note: shown as text, edited in place. */
export function DayNote({ date }: { date: string }) {
  const note = useApi<DayNoteResponse>(`/api/journal/${date}`);
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState('');
  const [status, setStatus] = useState<{ error: boolean; text: string } | null>(null);
  useEffect(() => {
    setEditing(false);
    setStatus(null);
  }, [date]);

  const saved = note.data?.note ?? null;
  const save = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const answer = await sendJson<DayNoteResponse>('PUT', `/api/journal/${date}`, { note: text });
      setStatus({ error: false, text: answer.note === null ? 'Note deleted.' : 'Note saved.' });
      setEditing(false);
      note.reload();
    } catch (problem) {
      setStatus({ error: true, text: failure(problem) });
    }
  };

  return (
    <div className="day-note">
      <h3>Day note</h3>
      {note.status === 'error' && <p className="form-error">{note.error.message}</p>}
      {!editing && (
        <>
          {saved === null ? <p className="muted small">No note for this day.</p> : <div className="note-text">{saved}</div>}
          <button
            type="button"
            className="button-secondary"
            onClick={() => {
              setText(saved ?? '');
              setEditing(true);
            }}
          >
            {saved === null ? 'Write a note' : 'Edit note'}
          </button>
        </>
      )}
      {editing && (
        <form onSubmit={(event) => void save(event)}>
          <label className="field">
            <span>Note for {date}</span>
            <textarea value={text} rows={6} maxLength={20000} onChange={(event) => setText(event.target.value)} />
          </label>
          <div className="button-row">
            <button type="submit">Save note</button>
            <button type="button" className="button-secondary" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      <p className={status?.error ? 'form-error' : 'muted small'} role="status" aria-live="polite">
        {status?.text ?? ''}
      </p>
    </div>
  );
}
