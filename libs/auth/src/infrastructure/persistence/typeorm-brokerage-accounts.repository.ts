import { Injectable } from '@nestjs/common';
import { Database } from '@app/persistence';
import { accountNumberTaken, BrokerageAccounts } from '../../application/brokerage-accounts.port.js';
import type { BrokerageAccount } from '../../domain/user.js';

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';

@Injectable()
export class TypeOrmBrokerageAccounts extends BrokerageAccounts {
  constructor(private readonly database: Database) {
    super();
  }

  async findForUser(userId: number): Promise<BrokerageAccount | null> {
    const rows: { id: number; account_number: string }[] = await this.database.manager.query(
      'SELECT id, account_number FROM brokerage_accounts WHERE user_id = $1 AND is_default',
      [userId],
    );
    return rows.length === 0 ? null : { accountId: rows[0].id, accountNumber: rows[0].account_number };
  }

  async saveForUser(userId: number, accountNumber: string): Promise<BrokerageAccount> {
    try {
      const rows: { id: number; account_number: string }[] = await this.database.manager.query(
        `INSERT INTO brokerage_accounts (user_id, account_number, is_default) VALUES ($1, $2, true)
         ON CONFLICT (user_id) WHERE is_default DO UPDATE SET account_number = EXCLUDED.account_number, updated_at = now()
         RETURNING id, account_number`,
        [userId, accountNumber],
      );
      return { accountId: rows[0].id, accountNumber: rows[0].account_number };
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
        throw accountNumberTaken(accountNumber);
      }
      throw error;
    }
  }

  async findOrCreate(userId: number, accountNumber: string, attempt = 1): Promise<BrokerageAccount> {
    // An insert that finds the number taken returns nothing; the select then sees the existing row
    // (unless another import created it after this statement began: then once more).
    const rows: { id: number; account_number: string }[] = await this.database.manager.query(
      `WITH created AS (
         INSERT INTO brokerage_accounts (user_id, account_number, is_default) VALUES ($1, $2, false)
         ON CONFLICT (user_id, account_number) DO NOTHING RETURNING id, account_number)
       SELECT id, account_number FROM created
       UNION ALL SELECT id, account_number FROM brokerage_accounts WHERE user_id = $1 AND account_number = $2`,
      [userId, accountNumber],
    );
    if (rows.length === 0 && attempt === 1) return this.findOrCreate(userId, accountNumber, 2);
    return { accountId: rows[0].id, accountNumber: rows[0].account_number };
  }

  async remove(userId: number, accountId: number): Promise<boolean> {
    const rows: unknown[] = await this.database.manager.query('DELETE FROM brokerage_accounts WHERE id = $1 AND user_id = $2 AND NOT is_default RETURNING id', [
      accountId,
      userId,
    ]);
    return rows.length > 0;
  }

  async listForUser(userId: number): Promise<(BrokerageAccount & { isDefault: boolean })[]> {
    const rows: { id: number; account_number: string; is_default: boolean }[] = await this.database.manager.query(
      'SELECT id, account_number, is_default FROM brokerage_accounts WHERE user_id = $1 ORDER BY is_default DESC, account_number',
      [userId],
    );
    return rows.map((row) => ({ accountId: row.id, accountNumber: row.account_number, isDefault: row.is_default }));
  }
}
