import { useState, type FormEvent } from 'react';
import { ApiError, sendJson } from '../../api/client';
import type { Holding, HoldingType } from '../../api/types';
import { failure } from '../../api/client';

export const TYPE_LABELS: Record<HoldingType, string> = { stock: 'Stock', etf: 'ETF', mutual_fund: 'Mutual fund' };

function parseAmount(text: string): number | null {
  const value = Number(text.replace(/[$,\s]/g, ''));
  return text.trim() !== '' && Number.isFinite(value) ? value : null;
}

/** The shares and average cost typed into a holding form, or what is wrong with them. */
export function holdingAmounts(shares: string, cost: string): { shares: number; cost: number } | { error: string } {
  const sharesValue = parseAmount(shares);
  const costValue = parseAmount(cost);
  if (sharesValue === null || sharesValue <= 0) return { error: 'Shares must be a number greater than 0.' };
  if (costValue === null || costValue < 0) return { error: 'Average cost must be a number, 0 or more.' };
  return { shares: sharesValue, cost: costValue };
}

type Props =
  /** A new holding: symbol and type too; the form empties itself once it is added. */
  | { holding?: undefined; onSaved: (holding: Holding) => void; onCancel?: undefined }
  /** A held one: shares, cost and notes. */
  | { holding: Holding; onSaved: (holding: Holding) => void; onCancel: () => void };

/** The one form for a holding: adding a new one, or changing one held. */
export function HoldingForm({ holding, onSaved, onCancel }: Props) {
  const editing = holding !== undefined;
  const ids = editing ? `edit-%s-${holding.id}` : 'new-%s';
  const id = (field: string) => ids.replace('%s', field);
  const [symbol, setSymbol] = useState('');
  const [type, setType] = useState<HoldingType>('stock');
  const [shares, setShares] = useState(editing ? String(holding.shares) : '');
  const [cost, setCost] = useState(editing ? String(holding.average_cost) : '');
  const [notes, setNotes] = useState(editing ? (holding.notes ?? '') : '');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const amounts = holdingAmounts(shares, cost);
    if ('error' in amounts) return setError(amounts.error);
    setSaving(true);
    setError(null);
    try {
      const body = editing
        ? await sendJson<{ holding: Holding }>('PUT', `/api/portfolio/holdings/${holding.id}`, { shares: amounts.shares, average_cost: amounts.cost, notes })
        : await sendJson<{ holding: Holding }>('POST', '/api/portfolio/holdings', {
            symbol: symbol.trim().toUpperCase(),
            holding_type: type,
            shares: amounts.shares,
            average_cost: amounts.cost,
            ...(notes.trim() ? { notes: notes.trim() } : {}),
          });
      onSaved(body.holding);
      if (!editing) {
        setSymbol('');
        setShares('');
        setCost('');
        setNotes('');
      }
    } catch (caught) {
      setError(!editing && caught instanceof ApiError && caught.status === 409 ? `You already hold ${symbol.toUpperCase()}: edit that holding instead.` : failure(caught));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className={editing ? 'holding-form holding-edit' : 'holding-form'} onSubmit={(event) => void submit(event)} aria-label={editing ? `Edit ${holding.symbol}` : 'Add a holding'}>
      {editing ? (
        <p className="holding-edit-title">
          Edit <strong>{holding.symbol}</strong>
        </p>
      ) : (
        <>
          <div className="field">
            <label htmlFor={id('symbol')}>Symbol</label>
            <input id={id('symbol')} value={symbol} onChange={(e) => setSymbol(e.target.value)} required maxLength={20} autoComplete="off" placeholder="VTI" />
          </div>
          <div className="field">
            <label htmlFor={id('type')}>Type</label>
            <select id={id('type')} value={type} onChange={(e) => setType(e.target.value as HoldingType)}>
              {Object.entries(TYPE_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
        </>
      )}
      <div className="field">
        <label htmlFor={id('shares')}>Shares</label>
        <input id={id('shares')} inputMode="decimal" value={shares} onChange={(e) => setShares(e.target.value)} required placeholder={editing ? undefined : '10'} />
      </div>
      <div className="field">
        <label htmlFor={id('cost')}>Average cost per share ($)</label>
        <input id={id('cost')} inputMode="decimal" value={cost} onChange={(e) => setCost(e.target.value)} required placeholder={editing ? undefined : '250.00'} />
      </div>
      <div className="field field-wide">
        <label htmlFor={id('notes')}>{editing ? 'Notes' : 'Notes (optional)'}</label>
        <input id={id('notes')} value={notes} onChange={(e) => setNotes(e.target.value)} maxLength={1000} />
      </div>
      {editing ? (
        <div className="button-row">
          <button type="submit" disabled={saving}>
            {saving ? 'Saving…' : 'Save'}
          </button>
          <button type="button" className="button-secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      ) : (
        <button type="submit" disabled={saving}>
          {saving ? 'Adding…' : 'Add holding'}
        </button>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
