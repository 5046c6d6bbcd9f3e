import { useEffect, useId, useState, type FormEvent } from 'react';
import { failure, sendJson } from '../api/client';
import type { TagSelectionResponse } from '../api/types';
import { formatCount } from '../lib/format';
import type { Column } from './DataTable';
import type { JournalTrade } from './Journal';

// Tagging several trades at once (docs/api.md "Journal", `POST /api/trades/tags`): the trade list's
// rows get a checkbox, and one form adds a tag to every selected trade and takes another off. The
// selection belongs to the page shown: another page or other filters start with none selected, so a
// change never reaches trades out of sight.

/** The trades selected on the page shown (`page`: what identifies it; a new one clears the selection). */
export function useTradeSelection(page: string) {
  const [selection, setSelection] = useState<{ page: string; ids: ReadonlySet<string> }>({ page, ids: new Set() });
  const ids = selection.page === page ? selection.ids : new Set<string>();
  const set = (next: ReadonlySet<string>) => setSelection({ page, ids: next });
  return {
    ids,
    toggle: (id: string, on: boolean) => {
      const next = new Set(ids);
      if (on) next.add(id);
      else next.delete(id);
      set(next);
    },
    setAll: (all: readonly string[]) => set(new Set(all)),
    clear: () => set(new Set()),
  };
}

export type TradeSelection = ReturnType<typeof useTradeSelection>;

/**
 * The column with a checkbox before each cell that selects the row's trade (rows `trade` finds no
 * stored trade in get none): given the first column, a row starts with its checkbox without a column
 * of its own, for which a day's table at 1280 px has no width to spare.
 */
export function withSelectBox<Row>(column: Column<Row>, selection: TradeSelection, trade: (row: Row) => Pick<JournalTrade, 'id' | 'symbol' | 'close_date'> | null): Column<Row> {
  return {
    ...column,
    cell: (row) => {
      const stored = trade(row);
      const own = column.cell(row);
      if (stored === null) return own;
      return (
        <span className="select-cell">
          <input
            type="checkbox"
            checked={selection.ids.has(stored.id)}
            aria-label={`Select ${stored.symbol} closed ${stored.close_date}`}
            onChange={(event) => selection.toggle(stored.id, event.target.checked)}
          />
          {own}
        </span>
      );
    },
  };
}

/**
 * Select all of the page, and a tag to add to the selected trades and one to take off them (either may
 * be left empty). After a change the list is read again (`onChanged`) and the selection cleared. Keyed
 * by the page shown, it starts afresh on another (what it said of the last one gone).
 */
export function SelectionTags({
  trades,
  selection,
  suggestions,
  onChanged,
}: {
  trades: readonly JournalTrade[];
  selection: TradeSelection;
  suggestions: readonly string[];
  onChanged: () => void;
}) {
  const [add, setAdd] = useState('');
  const [remove, setRemove] = useState('');
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<{ error: boolean; text: string } | null>(null);
  const selected = trades.filter((trade) => selection.ids.has(trade.id));
  const count = selected.length;
  const allSelected = count > 0 && count === trades.length;
  // "Select all" shows a mixed state when some rows are selected.
  const [all, setAllRef] = useState<HTMLInputElement | null>(null);
  useEffect(() => {
    if (all) all.indeterminate = count > 0 && !allSelected;
  }, [all, count, allSelected]);
  const carried = [...new Map(selected.flatMap((trade) => trade.tags).map((tag) => [tag.toLowerCase(), tag])).values()].sort((a, b) => a.localeCompare(b));

  const apply = async (event: FormEvent) => {
    event.preventDefault();
    const [adding, removing] = [add.trim(), remove.trim()];
    if (count === 0 || (adding === '' && removing === '')) {
      setStatus({ error: true, text: count === 0 ? 'Select the trades to change first.' : 'Write a tag to add or one to remove.' });
      return;
    }
    setBusy(true);
    setStatus(null);
    try {
      const answer = await sendJson<TagSelectionResponse>('POST', '/api/trades/tags', {
        trade_ids: selected.map((trade) => trade.id),
        ...(adding === '' ? {} : { add: [adding] }),
        ...(removing === '' ? {} : { remove: [removing] }),
      });
      setStatus({ error: false, text: answer.message });
      setAdd('');
      setRemove('');
      selection.clear();
      onChanged();
    } catch (problem) {
      setStatus({ error: true, text: failure(problem) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="selection-tags" aria-label="Tag the selected trades" onSubmit={(event) => void apply(event)}>
      <label className="check">
        <input ref={setAllRef} type="checkbox" checked={allSelected} onChange={(event) => selection.setAll(event.target.checked ? trades.map((trade) => trade.id) : [])} />
        Select all on this page
      </label>
      <TagField label="Tag to add" value={add} onChange={setAdd} suggestions={suggestions} />
      <TagField label="Tag to remove" value={remove} onChange={setRemove} suggestions={carried} />
      <button type="submit" disabled={busy}>
        {busy ? 'Applying…' : count === 0 ? 'Apply to the selected trades' : `Apply to ${formatCount(count)} selected trade${count === 1 ? '' : 's'}`}
      </button>
      <p className={status?.error ? 'form-error' : 'muted small'} role="status" aria-live="polite">
        {status?.text ?? ''}
      </p>
    </form>
  );
}

/** A field for one tag, suggesting `suggestions` as it is typed. */
function TagField({ label, value, onChange, suggestions }: { label: string; value: string; onChange: (value: string) => void; suggestions: readonly string[] }) {
  const list = useId();
  return (
    <div className="field">
      <label htmlFor={`${list}-input`}>{label}</label>
      <input id={`${list}-input`} type="text" value={value} maxLength={40} list={list} onChange={(event) => onChange(event.target.value)} />
      <datalist id={list}>
        {suggestions.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
    </div>
  );
}
