import type { BrokerageAccount } from '../domain/user.js';

/**
 * Each user's brokerage account (one per user). Other contexts read it through `findForUser`: the
 * import needs the account before it accepts files.
 */
export abstract class BrokerageAccounts {
  abstract findForUser(userId: number): Promise<BrokerageAccount | null>;
  /** Sets the account number; the `accountId` stays the same when the number changes. */
  abstract saveForUser(userId: number, accountNumber: string): Promise<BrokerageAccount>;
}
