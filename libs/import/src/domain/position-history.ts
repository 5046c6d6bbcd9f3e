import type { IsoDate } from '@app/shared/domain';
import { Decimal } from '@app/shared/domain';
import type { PositionChange } from '@app/trades/domain';
import { ROWS_PER_TURN, runSteps, type Steps } from './turns.js';

interface SharesOnDay {
  readonly date: IsoDate;
  readonly shares: Decimal;
}

/** Shares held per symbol at the end of every day on which they changed. */
export class PositionHistory {
  private readonly changes = new Map<string, SharesOnDay[]>();

  /** Records the shares held after a transaction on `date` (calls come in time order). */
  record(symbol: string, date: IsoDate, shares: Decimal): void {
    const history = this.changes.get(symbol);
    if (!history) {
      this.changes.set(symbol, [{ date, shares }]);
      return;
    }
    const last = history[history.length - 1];
    if (last.date === date) {
      history[history.length - 1] = { date, shares };
    } else {
      history.push({ date, shares });
    }
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
      for (const change of this.changes.get(symbol) ?? []) {
        if (entries.length % ROWS_PER_TURN === 0) yield;
        entries.push({ symbol, date: change.date, shares: change.shares });
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
    if (date === undefined) {
      return history[history.length - 1].shares;
    }
    let low = 0;
    let high = history.length - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (history[middle].date <= date) {
        found = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    return found < 0 ? Decimal.ZERO : history[found].shares;
  }

  /** Non-zero positions at the end of `date` (or now), by symbol. */
  openPositionsAt(date?: IsoDate): { symbol: string; shares: Decimal }[] {
    return this.symbols()
      .map((symbol) => ({ symbol, shares: this.sharesAt(symbol, date) }))
      .filter((position) => !position.shares.isZero());
  }
}
