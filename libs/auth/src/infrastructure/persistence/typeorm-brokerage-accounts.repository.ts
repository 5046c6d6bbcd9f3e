import { Injectable } from '@nestjs/common';
import { Database } from '@app/persistence';
import { BrokerageAccounts } from '../../application/brokerage-accounts.port.js';
import type { BrokerageAccount } from '../../domain/user.js';
import { BrokerageAccountOrmEntity } from './brokerage-account.orm-entity.js';

@Injectable()
export class TypeOrmBrokerageAccounts extends BrokerageAccounts {
  constructor(private readonly database: Database) {
    super();
  }

  async findForUser(userId: number): Promise<BrokerageAccount | null> {
    const entity = await this.database.manager.findOneBy(BrokerageAccountOrmEntity, { userId });
    return entity === null ? null : { accountId: entity.id, accountNumber: entity.accountNumber };
  }

  async saveForUser(userId: number, accountNumber: string): Promise<BrokerageAccount> {
    const rows: { id: number; account_number: string }[] = await this.database.manager.query(
      `INSERT INTO brokerage_accounts (user_id, account_number) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET account_number = EXCLUDED.account_number, updated_at = now()
       RETURNING id, account_number`,
      [userId, accountNumber],
    );
    return { accountId: rows[0].id, accountNumber: rows[0].account_number };
  }
}
