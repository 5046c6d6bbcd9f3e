import type { IsoDate } from '@app/shared/domain';
import { Decimal } from '@app/shared/domain';
import type { PositionChange } from '@app/trades/domain';
import { ROWS_PER_TURN, runSteps, type Steps } from './turns.js';

/**
 * One symbol's changes: the days, and the shares held at each one's end as exact units
 * (`Decimal.exactUnits`), a number each (shares beyond them, next to none, kept as themselves in
 * `large`). An object and a `Decimal` a change were 88 bytes of heap: a million-row history has
 * 700,000 changes, held to the end of its matching.
 */
interface SymbolChanges {
  readonly dates: IsoDate[];
  readonly units: number[];
  large?: Map<number, Decimal>;
}

/** Shares held per symbol at the end of every day on which they changed. */
export class PositionHistory {
  private readonly changes = new Map<string, SymbolChanges>();

  /** Records the shares held after a transaction on `date` (calls come in time order). */
  record(symbol: string, date: IsoDate, shares: Decimal): void {
    let history = this.changes.get(symbol);
    if (!history) this.changes.set(symbol, (history = { dates: [], units: [] }));
    const { dates } = history;
    const at = dates.length > 0 && dates[dates.length - 1] === date ? dates.length - 1 : dates.length;
    dates[at] = date;
    const units = shares.exactUnits;
    history.units[at] = units ?? Number.NaN;
    if (units === undefined) (history.large ??= new Map()).set(at, shares);
    else history.large?.delete(at);
  }

  /** Every recorded change, by symbol then date: what a read model stores to answer `sharesAt` in SQL. */
  entries(): PositionChange[] {
    return runSteps(this.entrySteps());
  }

  /**
   * `entries` as steps (turns.ts), stopping every few hundred changes: a million-row account's 700,000
   * changes took a second at a stretch.
   */
  *entrySteps(): Steps<PositionChange[]> {
    const entries: PositionChange[] = [];
    for (const symbol of this.symbols()) {
      const history = this.changes.get(symbol) as SymbolChanges;
      for (let at = 0; at < history.dates.length; at += 1) {
        if (entries.length % ROWS_PER_TURN === 0) yield;
        entries.push({ symbol, date: history.dates[at], shares: sharesAt(history, at) });
      }
    }
    return entries;
  }

  symbols(): string[] {
    return [...this.changes.keys()].sort();
  }

  /** Shares held at the end of `date` (at the end of the history when omitted). */
  sharesAt(symbol: string, date?: IsoDate): Decimal {
    const history = this.changes.get(symbol);
    if (!history) {
      return Decimal.ZERO;
    }
    const { dates } = history;
    if (date === undefined) {
      return sharesAt(history, dates.length - 1);
    }
    let low = 0;
    let high = dates.length - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (dates[middle] <= date) {
        found = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    return found < 0 ? Decimal.ZERO : sharesAt(history, found);
  }

  /** Non-zero positions at the end of `date` (or now), by symbol. */
  openPositionsAt(date?: IsoDate): { symbol: string; shares: Decimal }[] {
    return this.symbols()
      .map((symbol) => ({ symbol, shares: this.sharesAt(symbol, date) }))
      .filter((position) => !position.shares.isZero());
  }
}

/** The shares of a symbol's change at `at`. */
function sharesAt(history: SymbolChanges, at: number): Decimal {
  const units = history.units[at];
  return Number.isNaN(units) ? (history.large?.get(at) as Decimal) : Decimal.fromExactUnits(units);
}
