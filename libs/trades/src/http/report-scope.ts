import { Injectable } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { unknownAccount, ValidationError } from '@app/shared';
import { string } from '@app/shared/openapi';
import { TradeReports, type ReportScope } from '../application/trade-reports.port.js';

/** The reports' `account` filter, for the OpenAPI document. */
export const ApiAccountFilter = () =>
  ApiQuery({
    name: 'account',
    required: false,
    schema: string({ maxLength: 32 }),
    description: 'One brokerage account (its number, as `GET /api/accounts` lists it); all of the user\'s accounts when absent.',
  });

/** Whose figures a report shows: the user's accounts, or the one `account` names (404 for a number they do not have). */
@Injectable()
export class ReportScopes {
  constructor(private readonly reports: TradeReports) {}

  async of(userId: number, account: unknown): Promise<ReportScope> {
    if (account === undefined || account === '') return { userId, accountId: null };
    if (typeof account !== 'string') throw new ValidationError('account must be one account number');
    const accountId = await this.reports.accountNamed(userId, account.trim());
    if (accountId === null) throw unknownAccount(account);
    return { userId, accountId };
  }
}
