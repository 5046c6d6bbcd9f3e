import type { Decimal, IsoDate } from '@app/shared/domain';
import type { TradeSide } from './closed-trade.js';

/**
 * What a match going on from an account's books needs of one of them (a symbol's side its new rows
 * touch): all its lots, or its oldest and those of some open dates. The lots a day's sales take are few
 * of a book that holds years of purchases: reading all of them cost more than the rest of a day's
 * upload (docs/imports.md "A day's upload reads the lots its sales can take").
 */
export interface WantedBook {
  readonly symbol: string;
  readonly side: TradeSide;
  /** All its lots: a split of the symbol changes every one, as does the side's first FIFO sale (they become FIFO's estimate). */
  readonly whole: boolean;
  /**
   * Its oldest lots, whole open dates of them, until they hold more than this many shares (zero: none):
   * as many as its sales take in all, so that FIFO never reaches past them.
   */
  readonly oldestShares: Decimal;
  /** The open dates its sales' broker lots name: all the lots of each. */
  readonly openDates: readonly IsoDate[];
}

/** The shares a book wanted, but not whole, holds in the lots not read of it: positions count them. */
export interface BookHeldElsewhere {
  readonly symbol: string;
  readonly side: TradeSide;
  readonly shares: Decimal;
}
