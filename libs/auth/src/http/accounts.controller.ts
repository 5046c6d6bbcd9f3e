import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type AuthenticatedUser } from '@app/shared';
import { ApiJson, ApiSignedIn } from '@app/shared/openapi';
import { BrokerageAccounts } from '../application/brokerage-accounts.port.js';

export interface AccountsResponse {
  success: true;
  accounts: { account_id: number; account_number: string; default: boolean }[];
}

/** The signed-in user's brokerage accounts: the profile's (the default) and those imports named. */
@ApiTags('Sign-in and session')
@ApiSignedIn()
@Controller('api/accounts')
export class AccountsController {
  constructor(private readonly accounts: BrokerageAccounts) {}

  @Get()
  @ApiOperation({ summary: "The user's brokerage accounts, the default (the profile's) first; reports take one as `account`" })
  @ApiJson('AccountsResponse', 'The accounts.')
  async list(@CurrentUser() user: AuthenticatedUser): Promise<AccountsResponse> {
    const accounts = await this.accounts.listForUser(user.id);
    return {
      success: true,
      accounts: accounts.map((account) => ({ account_id: account.accountId, account_number: account.accountNumber, default: account.isDefault })),
    };
  }
}
