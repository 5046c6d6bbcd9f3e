import type { BrokerTransaction } from '../domain/broker-transaction.js';
import type { RealizedLot } from '../domain/realized-lot.js';

export interface StoredRows {
  transactions: BrokerTransaction[];
  lots: RealizedLot[];
}

/**
 * Where an account's imported rows are kept (what they come to goes to the trade ledger). Called
 * inside one unit of work per import: it either all lands or none of it does.
 */
export abstract class ImportStore {
  /** Serialises imports of one account (held until the unit of work ends). */
  abstract lockAccount(accountId: number): Promise<void>;
  abstract loadRows(accountId: number): Promise<StoredRows>;
  /**
   * Stores rows the account does not hold yet (the caller leaves out stored fingerprints, under the
   * account lock; a duplicate fails the import); returns how many were written.
   */
  abstract addTransactions(accountId: number, uploadId: number, transactions: readonly BrokerTransaction[]): Promise<number>;
  abstract addLots(accountId: number, uploadId: number, lots: readonly RealizedLot[]): Promise<number>;
}
