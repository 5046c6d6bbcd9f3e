import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import type { SymbolListItem } from '../api/types';
import { EmptyState } from './common';
import { isDay, localToday } from '../lib/dates';
import { formatDate } from '../lib/format';
import { Link, updateSearch, useLocation } from '../lib/router';
import { PRESETS, presetRange, type PresetId, type Range } from '../lib/timeframe-presets';
import { useApi } from '../lib/use-api';

/** The date range and symbols a page shows, as its address holds them (`preset`, or `start`/`end`; `symbols`). */
export interface RangeSelection {
  preset: PresetId | 'custom';
  range: Range;
  symbols: string[];
}

export function useRangeSelection(): RangeSelection {
  const { search } = useLocation();
  const today = localToday();
  const requested = search.get('preset');
  const custom = isDay(search.get('start')) && isDay(search.get('end'));
  const preset: PresetId | 'custom' = custom && requested !== 'all' ? 'custom' : PRESETS.some((p) => p.id === requested) ? (requested as PresetId) : 'all';
  const range: Range = preset === 'custom' ? { all: false, start: search.get('start')!, end: search.get('end')! } : presetRange(preset, today);
  const symbolsText = search.get('symbols') ?? '';
  const symbols = useMemo(
    () =>
      symbolsText
        .split(',')
        .map((s) => s.trim().toUpperCase())
        .filter(Boolean),
    [symbolsText],
  );
  return { preset, range, symbols };
}

/** What a selection covers, for a page's subtitle: "all time, NVDA only". */
export function selectionLabel({ range, symbols }: Pick<RangeSelection, 'range' | 'symbols'>): string {
  const span = range.all ? 'all time' : `${formatDate(range.start)} – ${formatDate(range.end)}`;
  return symbols.length > 0 ? `${span}, ${symbols.join(', ')} only` : span;
}

/** What a list of a selection's trades says when it is empty. */
export function NoTradesInSelection() {
  return (
    <EmptyState title="No trades in this selection" importLink={false}>
      <p>
        Try another range or fewer filters, or <Link to="/import">import more trades</Link>.
      </p>
    </EmptyState>
  );
}

/** Choosing a preset, another range or other symbols starts over (`reset` names what else to clear, a page's cursor). */
export function RangeFilter({ selection, reset = {}, children }: { selection: RangeSelection; reset?: Record<string, null>; children?: ReactNode }) {
  const [showCustom, setShowCustom] = useState(selection.preset === 'custom');
  const choose = (id: PresetId) => {
    setShowCustom(false);
    updateSearch({ preset: id, start: null, end: null, ...reset });
  };
  return (
    <>
      <div className="toolbar">
        <div className="button-row" role="group" aria-label="Date range">
          {PRESETS.map((p) => (
            <button key={p.id} type="button" className="button-secondary" aria-pressed={selection.preset === p.id} onClick={() => choose(p.id)}>
              {p.label}
            </button>
          ))}
          <button
            type="button"
            className="button-secondary"
            aria-pressed={selection.preset === 'custom' || showCustom}
            aria-expanded={showCustom}
            onClick={() => setShowCustom((on) => !on)}
          >
            Custom…
          </button>
        </div>
        <SymbolFilter selected={selection.symbols} onChange={(next) => updateSearch({ symbols: next.join(','), ...reset })} />
        {children}
      </div>
      {showCustom && <CustomRange range={selection.range} onApply={(start, end) => updateSearch({ preset: null, start, end, ...reset })} />}
    </>
  );
}

function SymbolFilter({ selected, onChange }: { selected: string[]; onChange: (symbols: string[]) => void }) {
  const symbols = useApi<{ symbols: SymbolListItem[] }>('/api/symbols');
  const all = symbols.data?.symbols ?? [];
  const toggle = (symbol: string, on: boolean) => onChange(on ? [...selected, symbol].sort() : selected.filter((s) => s !== symbol));
  return (
    <details className="symbol-filter">
      <summary>Symbols: {selected.length === 0 ? 'all' : selected.join(', ')}</summary>
      <fieldset>
        <legend className="visually-hidden">Only these symbols</legend>
        {all.length === 0 && <p className="muted small">No symbols yet.</p>}
        {all.map((entry) => (
          <label key={entry.symbol} className="check">
            <input type="checkbox" checked={selected.includes(entry.symbol)} onChange={(event) => toggle(entry.symbol, event.target.checked)} />
            {entry.symbol}
            <span className="muted small">{entry.company_name}</span>
          </label>
        ))}
        {selected.length > 0 && (
          <button type="button" className="button-link" onClick={() => onChange([])}>
            Show all symbols
          </button>
        )}
      </fieldset>
    </details>
  );
}

function CustomRange({ range, onApply }: { range: Range; onApply: (start: string, end: string) => void }) {
  const today = localToday();
  const [start, setStart] = useState(range.all ? `${today.slice(0, 4)}-01-01` : range.start);
  const [end, setEnd] = useState(range.all ? today : range.end);
  const invalid = !isDay(start) || !isDay(end) || start > end;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!invalid) onApply(start, end);
  };
  return (
    <form className="range-form" onSubmit={submit}>
      <div className="field">
        <label htmlFor="range-start">From</label>
        <input id="range-start" type="date" value={start} max={end || undefined} onChange={(event) => setStart(event.target.value)} required />
      </div>
      <div className="field">
        <label htmlFor="range-end">To</label>
        <input id="range-end" type="date" value={end} min={start || undefined} onChange={(event) => setEnd(event.target.value)} required />
      </div>
      <button type="submit" disabled={invalid}>
        Show
      </button>
      {start > end && isDay(start) && isDay(end) && <p className="form-error">The start must not be after the end.</p>}
    </form>
  );
}

/** A select that writes its value to the address (empty: the parameter is removed). */
export function SearchSelect({
  name,
  label,
  options,
  reset = {},
}: {
  name: string;
  label: string;
  options: readonly { value: string; label: string }[];
  reset?: Record<string, null>;
}) {
  const { search } = useLocation();
  const id = `filter-${name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={search.get(name) ?? ''} onChange={(event) => updateSearch({ [name]: event.target.value || null, ...reset })}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
