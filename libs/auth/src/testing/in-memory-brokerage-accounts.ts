import { accountNumberTaken, BrokerageAccounts } from '../application/brokerage-accounts.port.js';
import type { BrokerageAccount } from '../domain/user.js';

type Stored = BrokerageAccount & { userId: number; isDefault: boolean };

/** Also what other contexts' tests can use for the auth context's `BrokerageAccounts` port. */
export class InMemoryBrokerageAccounts extends BrokerageAccounts {
  private readonly accounts: Stored[] = [];
  private nextId = 1;

  async findForUser(userId: number): Promise<BrokerageAccount | null> {
    const account = this.accounts.find((candidate) => candidate.userId === userId && candidate.isDefault);
    return account === undefined ? null : { accountId: account.accountId, accountNumber: account.accountNumber };
  }

  async saveForUser(userId: number, accountNumber: string): Promise<BrokerageAccount> {
    const current = this.accounts.find((candidate) => candidate.userId === userId && candidate.isDefault);
    if (this.accounts.some((candidate) => candidate.userId === userId && candidate !== current && candidate.accountNumber === accountNumber)) {
      throw accountNumberTaken(accountNumber);
    }
    if (current === undefined) {
      this.accounts.push({ userId, accountId: this.nextId++, accountNumber, isDefault: true });
    } else {
      current.accountNumber = accountNumber;
    }
    return (await this.findForUser(userId)) as BrokerageAccount;
  }

  async findOrCreate(userId: number, accountNumber: string): Promise<BrokerageAccount> {
    let account = this.accounts.find((candidate) => candidate.userId === userId && candidate.accountNumber === accountNumber);
    if (account === undefined) {
      account = { userId, accountId: this.nextId++, accountNumber, isDefault: false };
      this.accounts.push(account);
    }
    return { accountId: account.accountId, accountNumber: account.accountNumber };
  }

  async remove(userId: number, accountId: number): Promise<boolean> {
    const index = this.accounts.findIndex((candidate) => candidate.userId === userId && candidate.accountId === accountId && !candidate.isDefault);
    if (index >= 0) this.accounts.splice(index, 1);
    return index >= 0;
  }

  async listForUser(userId: number): Promise<(BrokerageAccount & { isDefault: boolean })[]> {
    return this.accounts
      .filter((candidate) => candidate.userId === userId)
      .sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.accountNumber.localeCompare(b.accountNumber))
      .map(({ accountId, accountNumber, isDefault }) => ({ accountId, accountNumber, isDefault }));
  }
}
