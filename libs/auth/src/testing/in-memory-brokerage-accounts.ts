import { BrokerageAccounts } from '../application/brokerage-accounts.port.js';
import type { BrokerageAccount } from '../domain/user.js';

/** Also what other contexts' tests can use for the auth context's `BrokerageAccounts` port. */
export class InMemoryBrokerageAccounts extends BrokerageAccounts {
  private readonly byUser = new Map<number, BrokerageAccount>();
  private nextId = 1;

  async findForUser(userId: number): Promise<BrokerageAccount | null> {
    const account = this.byUser.get(userId);
    return account === undefined ? null : { ...account };
  }

  async saveForUser(userId: number, accountNumber: string): Promise<BrokerageAccount> {
    const account = { accountId: this.byUser.get(userId)?.accountId ?? this.nextId++, accountNumber };
    this.byUser.set(userId, account);
    return { ...account };
  }
}
