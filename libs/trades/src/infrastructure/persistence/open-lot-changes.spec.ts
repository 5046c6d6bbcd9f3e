import { Decimal, type IsoDate } from '@app/shared/domain';
import type { LedgerOpenLot, OpenBooks } from '../../application/trade-ledger.port.js';
import { openLotChanges } from './sql-trade-ledger.js';

/** mulberry32: a small seeded generator, so a failing case can be replayed. */
function generator(seed: number) {
  let state = seed >>> 0;
  return (below: number) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * below);
  };
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

/** Stores `stored` under increasing keys, applies the changes, and reads the rows back in key order. */
function applied(stored: readonly LedgerOpenLot[], now: readonly LedgerOpenLot[]) {
  const keys = stored.map((_, index) => 10 * index + 3);
  const from: OpenBooks = { openLots: stored, openLotKeys: keys, fifoSides: [], brokerTrades: 0, orphanedJournal: false };
  const changes = openLotChanges(from, now);
  const rows = new Map(stored.map((each, index) => [keys[index], each]));
  for (const key of changes.deleted) expect(rows.delete(key)).toBe(true);
  for (const { key, lot: revised } of changes.rewritten) {
    expect(rows.has(key)).toBe(true);
    rows.set(key, revised);
  }
  let next = 10 * stored.length + 3;
  for (const added of changes.added) rows.set(next++, added);
  return { changes, read: [...rows].sort(([a], [b]) => a - b).map(([, each]) => each) };
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

  it('gives back, read in stored order, exactly the books now, whatever changed (random books)', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const random = generator(seed);
      const symbols = ['A', 'B', 'C'].slice(0, 1 + random(3));
      const stored = Array.from({ length: random(12) }, () => lot(symbols[random(symbols.length)], random(4) === 0 ? 'short' : 'long', 1 + random(9), 1 + random(5)));
      // Now: each stored lot kept, gone, or changed (shares, source, date), some new ones among and after them, the order kept within each book.
      const now: LedgerOpenLot[] = [];
      for (const each of stored) {
        const fate = random(6);
        if (fate === 0) continue;
        if (fate === 1) now.push({ ...each, shares: each.shares.add(1) });
        else if (fate === 2) now.push({ ...each, source: each.source === 'fifo' ? 'broker' : 'fifo' });
        else if (fate === 3) now.push(lot(each.symbol, each.side, 1 + random(9), 1 + random(5)));
        else now.push(each);
        if (random(5) === 0) now.push(lot(symbols[random(symbols.length)], 'long', 10 + random(9), 1 + random(5)));
      }
      for (let extra = random(3); extra > 0; extra--) now.push(lot(['A', 'B', 'D'][random(3)], random(2) === 0 ? 'short' : 'long', 10 + random(9), 1 + random(5)));
      // Books are compared as the matcher reads them: each symbol's side in order.
      const books = booksOf(now);
      const { read } = applied(stored, now);
      expect({ seed, books: booksOf(read) }).toEqual({ seed, books });
    }
  });
});
