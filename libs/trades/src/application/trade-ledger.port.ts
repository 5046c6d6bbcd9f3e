import type { Decimal, IsoDate } from '@app/shared/domain';
import type { ClosedTrade, DividendPayment, PositionChange, TradeSide, TradeSource } from '../domain/closed-trade.js';
import type { BookHeldElsewhere, WantedBook } from '../domain/wanted-book.js';

export type { WantedBook };

/** A trade to store, and the natural key of its closing transaction when the import knows it (the journal's closing fill). */
export interface LedgerTrade extends ClosedTrade {
  readonly txFingerprint?: string | null;
}

/** Shares bought (long) or sold short and not closed yet: the portfolio's imported positions. */
export interface LedgerOpenLot {
  readonly symbol: string;
  readonly side: TradeSide;
  readonly openDate: IsoDate;
  /** Shares still open, after splits. */
  readonly shares: Decimal;
  /** What those shares cost, fees included (long), or what their short sale brought in (short). */
  readonly cost: Decimal;
  /** The opening execution's price per share, split-adjusted, when the row gave one. */
  readonly price: Decimal | null;
  /** `fifo` when the lots left open are FIFO's estimate, `broker` when the broker's lot details (or no sale) decide them. */
  readonly source: TradeSource;
}

/** Everything an account's imported rows come to: what the reports show of it. */
export interface AccountLedger {
  /** Completed trades, in the order they were closed (their order within the account is kept). */
  readonly trades: readonly LedgerTrade[];
  /** Dividends in time order. */
  readonly dividends: readonly DividendPayment[];
  /** The shares held after each day on which they changed, by symbol then date. */
  readonly positions: readonly PositionChange[];
  /** Symbol → company name. */
  readonly companyNames: ReadonlyMap<string, string>;
  /** The lots open after the last transaction, per symbol oldest first. */
  readonly openLots: readonly LedgerOpenLot[];
}

/** An account's ledger but its trades. */
export type LedgerRest = Omit<AccountLedger, 'trades'>;

/**
 * An account's ledger while the import still works it out: its trades come in batches, in their final
 * order, as matching makes them (`trades`: in closing order, their closing days never going back), and
 * `rest` is the rest of the ledger once matching has ended. The trades are nowhere else: once written
 * they are let go of, so a million-row history's trades are never all in memory at once. A failed
 * matching fails both.
 */
export interface LedgerInMaking {
  readonly trades: AsyncIterable<readonly LedgerTrade[]>;
  readonly rest: Promise<LedgerRest>;
}

/**
 * What an import adds to an account whose stored rows all come before `after`'s end: the trades,
 * dividends and position changes dated after it, and the open lots and company names of `symbols`
 * (the symbols the new rows touch), which replace the ones stored.
 */
export interface LedgerAppend extends AccountLedger {
  /** The account's last stored transaction date: everything added is dated after it. */
  readonly after: IsoDate;
  /** The symbols whose open lots, company names and totals the append replaces. */
  readonly symbols: readonly string[];
  /**
   * The lots the match went on from (`openLots`' answer): `openLots` replaces them, and the books'
   * other lots stay as they are; those it leaves as they were are not written again (a book of 80,000
   * lots, rewritten whole, took a second of a day's upload).
   */
  readonly from: StoredOpenLots;
}

/** The open lots an account's books hold of what was wanted (`WantedBook`). */
export interface StoredOpenLots {
  /** Each symbol's side oldest first (by open date, then as stored), as matching takes them. */
  readonly openLots: readonly LedgerOpenLot[];
  /** Where each of `openLots` is stored (the adapter's key for it), for an append that goes on from them. */
  readonly openLotKeys: readonly number[];
  /** The shares each book wanted, but not whole, holds in its other lots. */
  readonly heldElsewhere: readonly BookHeldElsewhere[];
}

/** What an account's ledger holds for the symbols a later import touches: where matching goes on from, but the lots. */
export interface OpenBooks {
  /** The (symbol, side) pairs with a FIFO trade: their open lots stay FIFO's estimate. */
  readonly fifoSides: readonly { readonly symbol: string; readonly side: TradeSide }[];
  /** The account's broker-lot trades, all symbols. */
  readonly brokerTrades: number;
  /**
   * Whether the journal holds notes or tags of trades the account no longer has (orphans, which an
   * import moves to the trades of their closing fill): only a full rewrite (`replaceAccount`) does that.
   */
  readonly orphanedJournal: boolean;
}

export interface LedgerChange {
  /** Months (`YYYY-MM`, ascending) whose trades or dividends differ from what the account held before. */
  readonly monthsChanged: string[];
}

/**
 * The trades context's write side: the only way into the tables the reports read. Called inside the
 * caller's unit of work; everything lands with it, or nothing does.
 */
export abstract class TradeLedger {
  /**
   * Replaces an account's trades, dividends, positions, open lots and company names with `ledger`, moves the
   * journal of trades it no longer holds to the trades of their closing fill, rebuilds the user's report
   * rollups, and raises the user's report version once the unit of work has committed. A ledger in
   * making has its trades written as they come, while the rest of it is worked out (unless the journal
   * has trades to carry over, which needs every new trade first).
   */
  abstract replaceAccount(userId: number, accountId: number, ledger: AccountLedger | LedgerInMaking): Promise<LedgerChange>;

  /** What the account holds of `symbols` (keys as the trades store them) for a match that goes on from it, but the lots. */
  abstract openBooks(userId: number, accountId: number, symbols: readonly string[]): Promise<OpenBooks>;

  /** The open lots of the account's books that a match going on from them wants (each book oldest first). */
  abstract openLots(accountId: number, wanted: readonly WantedBook[]): Promise<StoredOpenLots>;

  /**
   * Adds to an account what an import found after its last stored day (`append.after`): the result is
   * what `replaceAccount` would write for the whole history matched again. The new trades and dividends
   * come after the stored ones in the account's order; the touched symbols' open lots and names are
   * replaced; the user's rollups take in the new rows alone, and the report version is raised.
   */
  abstract appendToAccount(userId: number, accountId: number, append: LedgerAppend): Promise<LedgerChange>;
}
