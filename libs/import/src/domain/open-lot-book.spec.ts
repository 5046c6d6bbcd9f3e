import { Decimal } from '@app/shared/domain';
import { random } from '../../../../test/support/random.js';
import { LOT_QUANTITY_TOLERANCE } from './lot-allocation.js';
import { OpenLotQueue, type LotPiece } from './open-lot-book.js';

/** The queue's rules in their plainest form: every lot in one list, each taking a walk through all of them. */
class PlainQueue {
  readonly lots: { line: number; openDate: string; quantity: Decimal }[] = [];

  takeFifo(quantity: Decimal): string[] {
    const pieces: string[] = [];
    let remaining = quantity;
    for (const lot of this.lots) {
      if (!remaining.isPositive()) break;
      if (!lot.quantity.isPositive()) continue;
      const taken = Decimal.min(remaining, lot.quantity);
      lot.quantity = lot.quantity.sub(taken);
      remaining = remaining.sub(taken);
      pieces.push(`${lot.line}:${taken.toString()}`);
    }
    return pieces;
  }

  takeOpenedOn(openDate: string, quantity: Decimal): string[] {
    const pieces: string[] = [];
    let remaining = quantity;
    for (const lot of this.lots) {
      if (!remaining.isPositive()) break;
      if (lot.openDate !== openDate || !lot.quantity.isPositive()) continue;
      const taken = lot.quantity.sub(remaining).lte(LOT_QUANTITY_TOLERANCE) ? lot.quantity : remaining;
      lot.quantity = lot.quantity.sub(taken);
      remaining = remaining.sub(taken);
      pieces.push(`${lot.line}:${taken.toString()}`);
    }
    return pieces;
  }

  split(newTotal: Decimal): void {
    const open = this.lots.filter((lot) => lot.quantity.isPositive());
    const oldTotal = Decimal.sum(open.map((lot) => lot.quantity));
    let assigned = Decimal.ZERO;
    open.forEach((lot, index) => {
      lot.quantity = index === open.length - 1 ? newTotal.sub(assigned) : lot.quantity.mulDiv(newTotal, oldTotal);
      assigned = assigned.add(lot.quantity);
    });
  }

  open(): string[] {
    return this.lots.filter((lot) => lot.quantity.isPositive()).map((lot) => `${lot.line}:${lot.quantity.toString()}`);
  }
}

const described = (pieces: LotPiece[]) => pieces.map((piece) => `${piece.line}:${piece.quantity.toString()}`);

describe('OpenLotQueue', () => {
  it("takes a date's lots, first in first out and in any mix with splits, as a walk through every lot does", () => {
    for (const seed of [1, 2]) {
      const next = random(seed);
      const queue = new OpenLotQueue();
      const plain = new PlainQueue();
      const day = (index: number) => `2024-${String(1 + (index % 12)).padStart(2, '0')}-${String(1 + (index % 28)).padStart(2, '0')}`;
      let line = 0;
      // Thousands of lots (the queue cuts the used ones from its front past 1,024), a few hundred open dates.
      for (let step = 0; step < 4_000; step += 1) {
        const roll = next();
        if (roll < 0.5 || queue.total.isZero()) {
          line += 1;
          const quantity = Decimal.parse(String(1 + Math.floor(next() * 5)));
          const openDate = day(Math.floor(next() * 300));
          queue.open({ symbol: 'AAA', side: 'long', openDate, line, quantity, amount: quantity.mul(Decimal.parse('10')), txPrice: null });
          plain.lots.push({ line, openDate, quantity });
        } else if (roll < 0.8) {
          // A sale by tax lot: most often one of the newest lots' dates.
          const newest = plain.lots.slice(-20).filter((lot) => lot.quantity.isPositive());
          const openDate = newest.length === 0 ? day(0) : newest[Math.floor(next() * newest.length)].openDate;
          const quantity = Decimal.parse(String(1 + Math.floor(next() * 6)));
          expect(described(queue.takeOpenedOn(openDate, quantity))).toEqual(plain.takeOpenedOn(openDate, quantity));
        } else if (roll < 0.995) {
          const quantity = Decimal.parse(String(1 + Math.floor(next() * 8)));
          expect(described(queue.takeFifo(quantity))).toEqual(plain.takeFifo(quantity));
        } else {
          // A 3-for-1 reverse split, rounding some lots to nothing.
          const newTotal = queue.total.div(Decimal.parse('3'));
          if (newTotal.isPositive()) {
            queue.split(newTotal);
            plain.split(newTotal);
          }
        }
        if (step % 100 === 0) expect(queue.total).toEqual(Decimal.sum(plain.lots.map((lot) => lot.quantity)));
      }
      expect([...queue.eachOpenLot()].map((lot) => `${lot.line}:${lot.quantity.toString()}`)).toEqual(plain.open());
    }
  });

  it('takes nothing for a date with no open lot', () => {
    const queue = new OpenLotQueue();
    queue.open({ symbol: 'AAA', side: 'long', openDate: '2024-01-02', line: 2, quantity: Decimal.ONE, amount: Decimal.ONE, txPrice: null });
    expect(queue.takeOpenedOn('2024-01-03', Decimal.ONE)).toEqual([]);
    expect(described(queue.takeOpenedOn('2024-01-02', Decimal.ONE))).toEqual(['2:1']);
    expect(queue.takeOpenedOn('2024-01-02', Decimal.ONE)).toEqual([]);
  });
});
