import type { IsoDate } from '@app/shared/domain';
import type { BrokerTransaction } from '../domain/broker-transaction.js';
import type { SeenDays } from '../domain/parsers/file-days.js';
import type { RealizedLot } from '../domain/realized-lot.js';

/** The first and last day of some rows (inclusive). */
export interface RowDays {
  from: IsoDate;
  to: IsoDate;
}

export interface StoredRows {
  transactions: BrokerTransaction[];
  lots: RealizedLot[];
}

/** Rows to add: all of them, or batches of them as they are keyed (a first import's, written while its files are read). */
export type RowsComing<T> = readonly T[] | AsyncIterable<readonly T[]>;

/** Rows for `ImportStore.addRows`. */
export interface RowsToAdd {
  transactions: RowsComing<BrokerTransaction>;
  lots: RowsComing<RealizedLot>;
}

/**
 * Where an account's imported rows are kept (what they come to goes to the trade ledger). Called
 * inside one unit of work per import: it either all lands or none of it does.
 */
export abstract class ImportStore {
  /** Serialises imports of one account (held until the unit of work ends). */
  abstract lockAccount(accountId: number): Promise<void>;
  abstract loadRows(accountId: number): Promise<StoredRows>;
  /** The date of the account's last stored transaction; null when it holds none. */
  abstract lastTransactionDate(accountId: number): Promise<IsoDate | null>;
  /**
   * The natural keys of the account's stored transactions dated within `days.transactions` and of its
   * lots closed within `days.lots` (none for a null range): every stored row an upload of those days
   * may hold again.
   */
  abstract storedKeysIn(accountId: number, days: { transactions: RowDays | null; lots: RowDays | null }): Promise<{ transactions: Set<string>; lots: Set<string> }>;
  /** The days the user's imports read, by layout, in any of the user's accounts (file-days.ts). */
  abstract seenDays(userId: number): Promise<SeenDays>;
  /** Of the days and digests given (one layout's), the days whose digest the account holds: days an import into it read byte for byte. */
  abstract knownDays(accountId: number, layout: string, digests: ReadonlyMap<IsoDate, string>): Promise<Set<IsoDate>>;
  /** Records the digests of the days an import into the account read (one layout's). */
  abstract recordDays(accountId: number, layout: string, digests: ReadonlyMap<IsoDate, string>): Promise<void>;
  /** The account's stored lots closed after `date`, in the order `loadRows` gives them. */
  abstract lotsClosedAfter(accountId: number, date: IsoDate): Promise<RealizedLot[]>;
  /**
   * Stores rows the account does not hold yet (the caller leaves out stored fingerprints, under the
   * account lock; a duplicate fails the import); resolves with how many transactions and lots were
   * written. The write goes on while the caller does other work: the unit of work waits for it before
   * it ends and fails with it, so the promise may be left behind if that other work fails first. Rows
   * may come in batches, each written as it comes (the lots first, then the transactions); a failure
   * of their source fails the write.
   */
  abstract addRows(accountId: number, uploadId: number, rows: RowsToAdd): Promise<number[]>;
  /**
   * Deletes every row the account's imports stored and the days they read (so that the same files,
   * sent again, are read and stored again); resolves with how many transactions and lots there were.
   */
  abstract removeRows(accountId: number): Promise<RemovedRows>;
}

/** What `ImportStore.removeRows` deleted. */
export interface RemovedRows {
  readonly transactions: number;
  readonly lots: number;
}
