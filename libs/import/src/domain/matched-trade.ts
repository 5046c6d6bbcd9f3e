import type { ClosedTrade, DividendPayment } from '@app/trades/domain';

/**
 * A completed trade as the matcher builds it: the ledger's `ClosedTrade` and where it came from in
 * the files (what the warnings and the tests point at). Only the ledger's fields are stored.
 */
export interface MatchedTrade extends ClosedTrade {
  /** Line of the closing transaction in the Transactions file. */
  readonly txLine: number;
  /** Line of the broker lot in the Realized Gain/Loss file (broker trades). */
  readonly lotLine: number | null;
  readonly txFingerprint: string | null;
  readonly lotFingerprint: string | null;
}

/** A dividend or distribution as read from the Transactions file, with its line. */
export interface MatchedDividend extends DividendPayment {
  readonly description: string;
  readonly line: number;
  readonly fingerprint: string | null;
}
