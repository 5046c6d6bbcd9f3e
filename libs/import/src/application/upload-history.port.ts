export type UploadStatus = 'success' | 'failed';

export interface UploadRecord {
  id?: number;
  userId: number;
  accountId: number;
  brokerageAccount: string;
  transactionFile: { name: string; size: number };
  gainsFile: { name: string; size: number };
  status: UploadStatus;
  error?: string;
  transactionsProcessed: number;
  transactionsInserted: number;
  realizedGainsLots: number;
  brokerVerifiedTrades: number;
  monthsUpdated: number;
}

export interface UploadHistoryEntry extends Required<Omit<UploadRecord, 'error'>> {
  error: string | null;
  createdAt: Date;
}

/** The record of every upload attempt, successful or not. */
export abstract class UploadHistory {
  /** An id for an upload about to be stored (raw rows point at it before the record is written). */
  abstract reserveId(): Promise<number>;
  abstract record(entry: UploadRecord): Promise<void>;
  /** Newest first. */
  abstract listForUser(userId: number): Promise<UploadHistoryEntry[]>;
}
