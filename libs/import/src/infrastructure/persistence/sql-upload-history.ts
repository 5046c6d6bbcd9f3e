import { Injectable } from '@nestjs/common';
import { Database } from '@app/persistence/sql';
import { UploadHistory, type UploadHistoryEntry, type UploadRecord } from '../../application/upload-history.port.js';

interface HistoryRow {
  id: number;
  user_id: number;
  account_id: number | null;
  brokerage_account: string;
  transaction_filename: string;
  gains_filename: string;
  transaction_file_size: string;
  gains_file_size: string;
  status: 'success' | 'failed';
  error: string | null;
  transactions_processed: number;
  transactions_inserted: number;
  realized_gains_lots: number;
  broker_verified_trades: number;
  months_updated: number;
  created_at: Date;
}

@Injectable()
export class SqlUploadHistory extends UploadHistory {
  constructor(private readonly database: Database) {
    super();
  }

  async reserveId(): Promise<number> {
    const [row]: { id: string }[] = await this.database.manager.query(`SELECT nextval('upload_history_id_seq') AS id`);
    return Number(row.id);
  }

  async record(entry: UploadRecord): Promise<void> {
    const id = entry.id ?? (await this.reserveId());
    await this.database.manager.query(
      `INSERT INTO upload_history
         (id, user_id, account_id, brokerage_account, transaction_filename, gains_filename, transaction_file_size, gains_file_size,
          status, error, transactions_processed, transactions_inserted, realized_gains_lots, broker_verified_trades, months_updated)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
      [
        id,
        entry.userId,
        entry.accountId,
        entry.brokerageAccount,
        entry.transactionFile.name,
        entry.gainsFile.name,
        entry.transactionFile.size,
        entry.gainsFile.size,
        entry.status,
        entry.error ?? null,
        entry.transactionsProcessed,
        entry.transactionsInserted,
        entry.realizedGainsLots,
        entry.brokerVerifiedTrades,
        entry.monthsUpdated,
      ],
    );
  }

  async listForUser(userId: number): Promise<UploadHistoryEntry[]> {
    const rows: HistoryRow[] = await this.database.manager.query(
      `SELECT * FROM upload_history WHERE user_id = $1 ORDER BY created_at DESC, id DESC`,
      [userId],
    );
    return rows.map((row) => ({
      id: row.id,
      userId: row.user_id,
      accountId: row.account_id ?? 0,
      brokerageAccount: row.brokerage_account,
      transactionFile: { name: row.transaction_filename, size: Number(row.transaction_file_size) },
      gainsFile: { name: row.gains_filename, size: Number(row.gains_file_size) },
      status: row.status,
      error: row.error,
      transactionsProcessed: row.transactions_processed,
      transactionsInserted: row.transactions_inserted,
      realizedGainsLots: row.realized_gains_lots,
      brokerVerifiedTrades: row.broker_verified_trades,
      monthsUpdated: row.months_updated,
      createdAt: row.created_at,
    }));
  }
}
