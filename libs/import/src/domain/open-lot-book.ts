import type { IsoDate } from '@app/shared/domain';
import { Decimal } from '@app/shared/domain';
import type { TradeSide, TradeSource } from '@app/trades/domain';
import { LOT_QUANTITY_TOLERANCE } from './lot-allocation.js';

/** Shares opened by one transaction and not closed yet. */
export interface OpenLot {
  readonly symbol: string;
  readonly side: TradeSide;
  readonly openDate: IsoDate;
  /** Line of the opening transaction. */
  readonly line: number;
  /** Shares still open (after splits). */
  readonly quantity: Decimal;
  /** What those shares cost (long) or brought in (short), fees included. */
  readonly amount: Decimal;
  /** Raw execution price per share, split-adjusted. */
  readonly txPrice: Decimal | null;
}

/**
 * A lot still open after the last transaction. `source` says how sure we are which lots those are:
 * `fifo` once a sale of the symbol (on that side) was matched first in, first out, so the remaining
 * lots are FIFO's estimate; `broker` when every such sale came with the broker's lot details (or none
 * took from the lots at all).
 */
export interface RemainingLot extends OpenLot {
  readonly source: TradeSource;
}

type MutableLot = { -readonly [K in keyof OpenLot]: OpenLot[K] };

/** The place of a lot used up (no share open: every reading of the queue passes it by). Frozen: nothing changes it. */
const USED_UP = Object.freeze({ symbol: '', side: 'long', openDate: '', line: 0, quantity: Decimal.ZERO, amount: Decimal.ZERO, txPrice: null }) as MutableLot;

/**
 * A copy of `lot`, its fields written out: every lot a queue holds then has one shape, where a
 * spread's copy (`{ ...lot }`) took the shape of whatever object it was given, and cost V8's generic
 * copying for each of a book's lots (bench/shapes.mjs `many-symbols`, `one-symbol`).
 */
function copyOfLot(lot: OpenLot): MutableLot {
  return { symbol: lot.symbol, side: lot.side, openDate: lot.openDate, line: lot.line, quantity: lot.quantity, amount: lot.amount, txPrice: lot.txPrice };
}

/** `lot` as a remaining lot of `source` (`eachOpenLot`), in one shape. */
function remainingLot(lot: OpenLot, source: TradeSource): RemainingLot {
  return { symbol: lot.symbol, side: lot.side, openDate: lot.openDate, line: lot.line, quantity: lot.quantity, amount: lot.amount, txPrice: lot.txPrice, source };
}

/**
 * Part of an open lot taken by a closing transaction, with what a trade made of it reads of the lot
 * (each piece held a copy of the whole lot before).
 */
export interface LotPiece {
  readonly openDate: IsoDate;
  /** Line of the lot's opening transaction. */
  readonly line: number;
  /** The lot's raw execution price per share, split-adjusted. */
  readonly txPrice: Decimal | null;
  readonly quantity: Decimal;
  /** The piece's share of the lot's amount (pro rata by quantity). */
  readonly amount: Decimal;
}

/** One side (long or short) of one symbol's open lots, oldest first. */
export class OpenLotQueue {
  private readonly lots: MutableLot[] = [];
  private head = 0;
  /** Lots cut from the front of `lots` so far (`compact`): a lot's place is its index plus this. */
  private dropped = 0;
  /**
   * The places of each open date's lots, oldest first, and the first of them not used up (both ways of
   * taking use a date's lots oldest first): `takeOpenedOn` goes to them instead of through every open
   * lot, which made a sale by tax lot (newest first, say) cost as much as the lots open before it.
   */
  private readonly byOpenDate = new Map<IsoDate, { places: number[]; next: number }>();
  private totalQuantity = Decimal.ZERO;
  private takenFifo = false;

  get total(): Decimal {
    return this.totalQuantity;
  }

  /**
   * Marks the queue as one a sale has taken from first in, first out (the lots it holds from now on
   * are FIFO's estimate): how a queue resumed from stored open lots carries what its history did.
   */
  markTakenFifo(): void {
    this.takenFifo = true;
  }

  /**
   * Counts `shares` held in lots the queue is not given: a match resumed from a book read in part
   * (the lots its sales may take) still holds the rest, which positions and later totals count.
   */
  holdsAlso(shares: Decimal): void {
    this.totalQuantity = this.totalQuantity.add(shares);
  }

  open(lot: OpenLot): void {
    const place = this.dropped + this.lots.length;
    this.lots.push(copyOfLot(lot));
    const sameDay = this.byOpenDate.get(lot.openDate);
    if (sameDay === undefined) this.byOpenDate.set(lot.openDate, { places: [place], next: 0 });
    else sameDay.places.push(place);
    this.totalQuantity = this.totalQuantity.add(lot.quantity);
  }

  /**
   * Open lots, oldest first (snapshots), one at a time: a symbol bought for years and sold by the lot
   * holds tens of thousands, whose copies made at once held the event loop 35-60 ms at the end of
   * an import's matching (bench/shapes.mjs `one-symbol`).
   */
  *eachOpenLot(): Generator<RemainingLot> {
    const source: TradeSource = this.takenFifo ? 'fifo' : 'broker';
    for (let index = this.head; index < this.lots.length; index += 1) {
      const lot = this.lots[index];
      if (lot.quantity.isPositive()) yield remainingLot(lot, source);
    }
  }

  /** Takes up to `quantity` shares, oldest lots first. */
  takeFifo(quantity: Decimal): LotPiece[] {
    const pieces: LotPiece[] = [];
    let remaining = quantity;
    for (let index = this.head; index < this.lots.length && remaining.isPositive(); index += 1) {
      const lot = this.lots[index];
      if (lot.quantity.isPositive()) {
        const piece = this.take(index, Decimal.min(remaining, lot.quantity));
        pieces.push(piece);
        remaining = remaining.sub(piece.quantity);
      }
    }
    if (pieces.length > 0) this.takenFifo = true;
    this.compact();
    return pieces;
  }

  /**
   * Takes up to `quantity` shares from the lots opened on `openDate`, oldest first. A lot left with
   * less than the tolerance is taken whole, so rounding in the broker's quantities leaves no dust.
   */
  takeOpenedOn(openDate: IsoDate, quantity: Decimal): LotPiece[] {
    const pieces: LotPiece[] = [];
    const sameDay = this.byOpenDate.get(openDate);
    if (sameDay === undefined) return pieces;
    let remaining = quantity;
    for (let at = sameDay.next; at < sameDay.places.length && remaining.isPositive(); at += 1) {
      const lot = this.openLotAt(sameDay.places[at]);
      if (lot === undefined) continue;
      const leftOver = lot.quantity.sub(remaining);
      const wanted = leftOver.lte(LOT_QUANTITY_TOLERANCE) ? lot.quantity : remaining;
      const piece = this.take(sameDay.places[at] - this.dropped, wanted);
      pieces.push(piece);
      remaining = remaining.sub(piece.quantity);
    }
    this.compact();
    return pieces;
  }

  /** The date's first lot not used up (the ones before it are, or have been cut from `lots`), or its entry gone when none is left. */
  private forgetUsedUp(openDate: IsoDate): void {
    const sameDay = this.byOpenDate.get(openDate);
    if (sameDay === undefined) return;
    while (sameDay.next < sameDay.places.length) {
      if (this.openLotAt(sameDay.places[sameDay.next]) !== undefined) return;
      sameDay.next += 1;
    }
    this.byOpenDate.delete(openDate);
  }

  /** The lot at `place` while shares of it are open; undefined once used up (a split may round a lot to nothing). */
  private openLotAt(place: number): MutableLot | undefined {
    const index = place - this.dropped;
    if (index < this.head) return undefined;
    const lot = this.lots[index];
    return lot.quantity.isPositive() ? lot : undefined;
  }

  /** A split: the open lots hold `newTotal` shares in all, same total cost, per-share prices scaled. */
  split(newTotal: Decimal): void {
    const oldTotal = this.totalQuantity;
    const open = this.lots.slice(this.head).filter((lot) => lot.quantity.isPositive());
    let assigned = Decimal.ZERO;
    open.forEach((lot, index) => {
      const quantity = index === open.length - 1 ? newTotal.sub(assigned) : lot.quantity.mulDiv(newTotal, oldTotal);
      assigned = assigned.add(quantity);
      lot.quantity = quantity;
      lot.txPrice = lot.txPrice ? lot.txPrice.mulDiv(oldTotal, newTotal) : null;
    });
    this.totalQuantity = newTotal;
  }

  /**
   * Takes `quantity` shares of the lot at `index` of `lots`. A lot used up is let go of, its place
   * holding `USED_UP`: lots are cut from the front of `lots` only (`compact`), and a symbol's sales
   * by tax lot use them up in any order (a million-row history kept 90 MB of used-up lots to the end
   * of its matching).
   */
  private take(index: number, quantity: Decimal): LotPiece {
    const lot = this.lots[index];
    const whole = quantity.gte(lot.quantity);
    const taken = whole ? lot.quantity : quantity;
    const amount = whole ? lot.amount : lot.amount.mulDiv(taken, lot.quantity);
    const piece: LotPiece = { openDate: lot.openDate, line: lot.line, txPrice: lot.txPrice, quantity: taken, amount };
    lot.quantity = lot.quantity.sub(taken);
    lot.amount = lot.amount.sub(amount);
    this.totalQuantity = this.totalQuantity.sub(taken);
    if (!lot.quantity.isPositive()) {
      this.lots[index] = USED_UP;
      this.forgetUsedUp(lot.openDate);
    }
    return piece;
  }

  private compact(): void {
    while (this.head < this.lots.length && !this.lots[this.head].quantity.isPositive()) {
      this.head += 1;
    }
    if (this.head > 1024 && this.head * 2 > this.lots.length) {
      this.lots.splice(0, this.head);
      this.dropped += this.head;
      this.head = 0;
    }
  }
}

/** The open long and short lots of one symbol. */
export class SymbolBook {
  readonly long = new OpenLotQueue();
  readonly short = new OpenLotQueue();

  /** Net shares held: long minus short. */
  shares(): Decimal {
    return this.long.total.sub(this.short.total);
  }
}
