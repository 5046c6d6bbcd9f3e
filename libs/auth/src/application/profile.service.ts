import { Injectable } from '@nestjs/common';
import { AuthenticationRequiredError } from '@app/shared';
import { parseBrokerageAccountNumber } from '../domain/brokerage-account-number.js';
import { BrokerageAccounts } from './brokerage-accounts.port.js';
import { Users } from './users.port.js';

export interface Profile {
  email: string;
  name: string | null;
  brokerageAccount: string | null;
  accountId: number | null;
  createdAt: Date;
  lastLogin: Date | null;
}

/** The signed-in user's profile: who they are and the brokerage account their imports go to. */
@Injectable()
export class ProfileService {
  constructor(
    private readonly users: Users,
    private readonly accounts: BrokerageAccounts,
  ) {}

  async profileOf(userId: number): Promise<Profile> {
    const user = await this.users.findById(userId);
    // The session references the user, so this only happens if the row went away mid-request.
    if (user === null) throw new AuthenticationRequiredError();
    const account = await this.accounts.findForUser(userId);
    return {
      email: user.email,
      name: user.name,
      brokerageAccount: account?.accountNumber ?? null,
      accountId: account?.accountId ?? null,
      createdAt: user.createdAt,
      lastLogin: user.lastLogin,
    };
  }

  async setBrokerageAccount(userId: number, raw: unknown): Promise<Profile> {
    const accountNumber = parseBrokerageAccountNumber(raw);
    await this.accounts.saveForUser(userId, accountNumber);
    return this.profileOf(userId);
  }
}
