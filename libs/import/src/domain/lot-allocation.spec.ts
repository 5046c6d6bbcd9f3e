import { Decimal } from '@app/shared/domain';
import { random } from '../../../../test/support/random.js';
import { allocateLots, LOT_QUANTITY_TOLERANCE, searchedAllocation } from './lot-allocation.js';

const d = (values: string[]): Decimal[] => values.map((value) => Decimal.parse(value));

describe('allocateLots', () => {
  it('gives a single sale all the lots when they add up', () => {
    expect(allocateLots(d(['45']), d(['23', '20.56', '1.44']))).toEqual([[0, 1, 2]]);
  });

  it('accepts a difference within 0.0001 share, not more', () => {
    expect(allocateLots(d(['10']), d(['9.99995']))).toEqual([[0]]);
    expect(allocateLots(d(['10']), d(['9.9998']))).toEqual([null]);
  });

  it('leaves a sale whose lots do not add up unmet', () => {
    expect(allocateLots(d(['119']), d(['102.5']))).toEqual([null]);
  });

  it('picks the subset that meets a sale when the day has extra lots', () => {
    expect(allocateLots(d(['15']), d(['7', '10', '5']))).toEqual([[1, 2]]);
  });

  it('shares lots among several sales of the day so each is met exactly', () => {
    // The first fit for the 10-share sale (6 + 4) would leave the 6 and the 4 unmet: it takes the 10 instead.
    expect(allocateLots(d(['10', '6', '4']), d(['6', '4', '10']))).toEqual([[2], [0], [1]]);
    expect(allocateLots(d(['5', '15']), d(['5', '5', '10']))).toEqual([[0], [1, 2]]);
  });

  it('backtracks when the first fit would leave a later sale unmet', () => {
    // For 3 shares, 1 + 2 fits first, but then the 1-share sale has nothing: 3 it is.
    expect(allocateLots(d(['3', '1']), d(['1', '2', '3']))).toEqual([[2], [0]]);
  });

  it('meets as many sales as possible when not all can be met', () => {
    expect(allocateLots(d(['10', '3']), d(['3', '4']))).toEqual([null, [0]]);
  });

  it('stays fast on a day with many lots that cannot add up', () => {
    const started = Date.now();
    const lots = d(Array.from({ length: 40 }, (_, index) => String(index * 2 + 2)));
    expect(allocateLots(d(['1']), lots)).toEqual([null]);
    expect(allocateLots(d(['100000.5']), lots)).toEqual([null]);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('gives what the search gives, when the lots follow the sales in file order and when they do not', () => {
    const next = random(7);
    for (let day = 0; day < 500; day += 1) {
      const sells = Array.from({ length: 1 + Math.floor(next() * 6) }, () => 1 + Math.floor(next() * 5));
      // Each sale's shares in one to three lots, listed after the previous sale's …
      const lots = sells.flatMap((shares) => (shares > 1 && next() < 0.5 ? [1, shares - 1] : [shares]));
      // … or not: shuffled, or with a lot more.
      if (next() < 0.4) lots.sort(() => next() - 0.5);
      if (next() < 0.3) lots.push(1 + Math.floor(next() * 5));
      const units = (shares: number[]) => d(shares.map(String));
      expect(allocateLots(units(sells), units(lots))).toEqual(
        searchedAllocation(
          units(sells).map((shares) => shares.rawUnits),
          units(lots).map((shares) => shares.rawUnits),
          LOT_QUANTITY_TOLERANCE.rawUnits,
        ),
      );
    }
  });

  it('shares out a day of thousands of sales (the search recursed a call per sale, past the call stack)', () => {
    const sells = Array.from({ length: 10_000 }, (_, index) => String(1 + (index % 7)));
    const inOrder = allocateLots(d(sells), d(sells));
    expect(inOrder.every((lotIndexes, index) => lotIndexes !== null && lotIndexes.length === 1 && lotIndexes[0] === index)).toBe(true);
    // Lots listed the other way round: each sale gets a lot of its quantity, the first unused one.
    const reversed = allocateLots(d(sells), d([...sells].reverse()));
    const lots = [...sells].reverse();
    expect(reversed.every((lotIndexes, index) => lotIndexes !== null && lotIndexes.length === 1 && lots[lotIndexes[0]] === sells[index])).toBe(true);
    expect(new Set(reversed.map((lotIndexes) => lotIndexes?.[0])).size).toBe(10_000);
    // A sale whose quantity no lot has is left to FIFO; the others are met.
    const odd = allocateLots(d([...sells, '8']), d(lots));
    expect(odd.slice(0, -1).every((lotIndexes) => lotIndexes !== null)).toBe(true);
    expect(odd.at(-1)).toBeNull();
  });
});
