import { Decimal, type IsoDate } from '@app/shared/domain';
import { random } from '../../../../../test/support/random.js';
import type { LedgerOpenLot, StoredOpenLots } from '../../application/trade-ledger.port.js';
import { openLotChanges } from './sql-trade-ledger.js';

/** Whole numbers below a bound, from the specs' seeded generator, so a failing case can be replayed. */
function generator(seed: number) {
  const next = random(seed);
  return (below: number) => Math.floor(next() * below);
}

const lot = (symbol: string, side: 'long' | 'short', day: number, shares: number, source: 'broker' | 'fifo' = 'broker'): LedgerOpenLot => ({
  symbol,
  side,
  openDate: `2025-01-${String(day).padStart(2, '0')}` as IsoDate,
  shares: Decimal.parse(String(shares)),
  cost: Decimal.parse(String(shares * 10)),
  price: day % 3 === 0 ? null : Decimal.parse('10'),
  source,
});
const text = (each: LedgerOpenLot) => `${each.symbol} ${each.side} ${each.openDate} ${each.shares.toString()} ${each.cost.toString()} ${each.price?.toString() ?? '-'} ${each.source}`;
/** Each symbol's side as a list, in order: what matching reads back. */
const booksOf = (lots: readonly LedgerOpenLot[]) => {
  const books = new Map<string, string[]>();
  for (const each of lots) books.set(`${each.symbol} ${each.side}`, [...(books.get(`${each.symbol} ${each.side}`) ?? []), text(each)]);
  return Object.fromEntries([...books].sort(([a], [b]) => a.localeCompare(b)));
};

/**
 * Stores `stored` under increasing keys, applies the changes an append makes from the lots `read` of
 * them (all by default) to `now`, and reads the rows back as matching does: by open date, then key.
 */
function applied(stored: readonly LedgerOpenLot[], now: readonly LedgerOpenLot[], read: (lot: LedgerOpenLot) => boolean = () => true) {
  const keys = stored.map((_, index) => 10 * index + 3);
  const given = stored.map((lot, index) => ({ lot, key: keys[index] })).filter(({ lot }) => read(lot));
  const from: StoredOpenLots = { openLots: given.map(({ lot }) => lot), openLotKeys: given.map(({ key }) => key), heldElsewhere: [] };
  const changes = openLotChanges(from, now);
  const rows = new Map(stored.map((each, index) => [keys[index], each]));
  for (const key of changes.deleted) expect(given.some((each) => each.key === key) && rows.delete(key)).toBe(true);
  for (const { key, lot: revised } of changes.rewritten) {
    expect(given.some((each) => each.key === key)).toBe(true);
    rows.set(key, revised);
  }
  let next = 10 * stored.length + 3;
  for (const added of changes.added) rows.set(next++, added);
  const inOrder = [...rows].sort(([a, lotA], [b, lotB]) => lotA.openDate.localeCompare(lotB.openDate) || a - b);
  return { changes, read: inOrder.map(([, each]) => each) };
}

describe('openLotChanges', () => {
  it('writes what a day of sales and purchases changes, and leaves the rest of the books as they were', () => {
    const stored = [lot('KO', 'long', 2, 10), lot('KO', 'long', 3, 5), lot('KO', 'long', 6, 7), lot('AAPL', 'long', 7, 1), lot('KO', 'short', 8, 4)];
    const now = [lot('KO', 'long', 3, 3), lot('KO', 'long', 6, 7), lot('KO', 'long', 20, 2), lot('KO', 'short', 8, 4), lot('AAPL', 'long', 7, 1), lot('MSFT', 'long', 21, 1)];
    const { changes, read } = applied(stored, now);
    expect(changes.deleted).toEqual([3]);
    expect(changes.rewritten.map(({ key, lot: each }) => [key, text(each)])).toEqual([[13, text(lot('KO', 'long', 3, 3))]]);
    expect(changes.added.map(text)).toEqual([text(lot('KO', 'long', 20, 2)), text(lot('MSFT', 'long', 21, 1))]);
    expect(booksOf(read)).toEqual(booksOf(now));
  });

  it('deletes the lots a sale took out of a run bought the same day, rewriting none of the others', () => {
    const stored = [1, 2, 3, 4, 5].map((shares) => lot('KO', 'long', 5, shares));
    const now = [1, 4, 5].map((shares) => lot('KO', 'long', 5, shares));
    const { changes, read } = applied(stored, now);
    expect([changes.deleted, changes.rewritten, changes.added]).toEqual([[13, 23], [], []]);
    expect(booksOf(read)).toEqual(booksOf(now));
  });

  it('rewrites every lot a split changes, and a lot whose source changed', () => {
    const stored = [lot('KO', 'long', 2, 10), lot('KO', 'long', 3, 5, 'fifo')];
    const now = [lot('KO', 'long', 2, 20), lot('KO', 'long', 3, 10, 'broker')];
    const { changes, read } = applied(stored, now);
    expect([changes.deleted, changes.rewritten.map(({ key }) => key), changes.added]).toEqual([[], [3, 13], []]);
    expect(booksOf(read)).toEqual(booksOf(now));
  });

  it('gives back, read by open date, exactly the books now, whatever changed of the lots read (random books)', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const random = generator(seed);
      const symbols = ['A', 'B', 'C'].slice(0, 1 + random(3));
      // Each book oldest first, as matching leaves it; the append reads some of its open dates (all, for half the cases).
      const stored = Array.from({ length: random(14) }, () => lot(symbols[random(symbols.length)], random(4) === 0 ? 'short' : 'long', 1 + random(9), 1 + random(5))).sort((a, b) =>
        a.openDate.localeCompare(b.openDate),
      );
      const readDays = new Set(Array.from({ length: 9 }, (_, day) => day + 1).filter(() => seed % 2 === 0 || random(2) === 0));
      const isRead = (each: LedgerOpenLot) => readDays.has(Number(each.openDate.slice(-2)));
      // Now: each lot read kept, gone, or changed (shares, source, figures), in order, and new ones after them; the lots not read as they were.
      const now: LedgerOpenLot[] = [];
      for (const each of stored) {
        const fate = isRead(each) ? random(6) : 5;
        if (fate === 0) continue;
        if (fate === 1) now.push({ ...each, shares: each.shares.add(1) });
        else if (fate === 2) now.push({ ...each, source: each.source === 'fifo' ? 'broker' : 'fifo' });
        else if (fate === 3) now.push(lot(each.symbol, each.side, Number(each.openDate.slice(-2)), 1 + random(5)));
        else now.push(each);
      }
      const opened = Array.from({ length: random(4) }, () => lot(['A', 'B', 'D'][random(3)], random(2) === 0 ? 'short' : 'long', 10 + random(9), 1 + random(5)));
      now.push(...opened.sort((a, b) => a.openDate.localeCompare(b.openDate)));
      // Books are compared as the matcher reads them: each symbol's side in order.
      const books = booksOf(now);
      const { read } = applied(
        stored,
        now.filter((each) => Number(each.openDate.slice(-2)) >= 10 || isRead(each)),
        isRead,
      );
      expect({ seed, books: booksOf(read) }).toEqual({ seed, books });
    }
  });
});
