import { ConflictError } from '@app/shared';
import type { BrokerageAccount } from '../domain/user.js';

/** The refusal of a default account number another of the user's accounts has (both stores give it). */
export function accountNumberTaken(accountNumber: string): ConflictError {
  return new ConflictError(`You already have an account numbered ${accountNumber} (from an import); choose another number for the default account`);
}

/**
 * Each user's brokerage accounts. The default one is the profile's (`brokerage_account`): the account
 * the Schwab endpoint imports into. Others are named by imports (the number a file carries, or the
 * upload's `account` field). Other contexts read them through this port.
 */
export abstract class BrokerageAccounts {
  /** The default account, or null before the profile names one. */
  abstract findForUser(userId: number): Promise<BrokerageAccount | null>;
  /**
   * Sets the default account's number; the `accountId` stays the same when the number changes. A
   * number another of the user's accounts has is a ConflictError.
   */
  abstract saveForUser(userId: number, accountNumber: string): Promise<BrokerageAccount>;
  /** The user's account with this number, created (not the default) when there is none. */
  abstract findOrCreate(userId: number, accountNumber: string): Promise<BrokerageAccount>;
  /** Every account of the user, the default first, then by number. */
  abstract listForUser(userId: number): Promise<(BrokerageAccount & { isDefault: boolean })[]>;
  /**
   * Deletes one of the user's accounts other than the default, with everything keyed to it (its rows,
   * trades and journal entries go with it: the tables' keys and triggers); false when the user has no
   * such account.
   */
  abstract remove(userId: number, accountId: number): Promise<boolean>;
}
