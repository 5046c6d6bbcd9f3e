import type { Decimal, IsoDate } from '@app/shared/domain';
import type { ClosedTrade, DividendPayment, PositionChange, TradeSide, TradeSource } from '../domain/closed-trade.js';

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
   * rollups, and raises the user's report version once the unit of work has committed.
   */
  abstract replaceAccount(userId: number, accountId: number, ledger: AccountLedger): Promise<LedgerChange>;
}
