import { Controller, Delete, Param } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { BrokerageAccounts } from '@app/auth';
import { CurrentUser, NotFoundError, type AuthenticatedUser } from '@app/shared';
import { ApiFailures, ApiJson, ApiSignedIn, string } from '@app/shared/openapi';
import { EmptyBrokerageAccount } from '../application/empty-brokerage-account.service.js';

const accountParam = ApiParam({ name: 'account', schema: string({ maxLength: 32 }), description: 'The account\'s number, as `GET /api/accounts` lists it (URL-encoded).' });

/** What the imports put into an account, removed: a wrong file or a file sent to the wrong account, undone. */
@ApiTags('Data import')
@ApiSignedIn()
@Controller('api/import/accounts')
export class ImportedAccountsController {
  constructor(
    private readonly accounts: BrokerageAccounts,
    private readonly emptyAccount: EmptyBrokerageAccount,
  ) {}

  @Delete(':account')
  @ApiOperation({
    summary: "Remove what the imports put into one of the user's accounts: its stored rows, trades, dividends and positions",
    description:
      'All or nothing; the account stays (listed, empty), and the same files can be imported into it again. The trades\' tags and notes are kept as orphans ' +
      '(`GET /api/journal/orphans`) and are the trades\' again when an import derives the same trades. Waits for an import of the account that is running.',
  })
  @accountParam
  @ApiJson('ImportedAccountEmptiedResponse', 'The account holds nothing imported now.')
  @ApiFailures(404)
  async empty(@CurrentUser() user: AuthenticatedUser, @Param('account') account: string) {
    const number = account.trim();
    const found = (await this.accounts.listForUser(user.id)).find((candidate) => candidate.accountNumber === number);
    if (found === undefined) throw new NotFoundError(`You have no brokerage account numbered ${JSON.stringify(number.slice(0, 40))}`);
    const emptied = await this.emptyAccount.run(user.id, found.accountId);
    return {
      success: true,
      account: found.accountNumber,
      transactions_removed: emptied.transactions,
      lots_removed: emptied.lots,
      months_updated: emptied.monthsChanged,
      message: `Removed what the imports put into account ${found.accountNumber}: ${plural(emptied.transactions, 'transaction')} and ${plural(emptied.lots, 'lot')}`,
    };
  }
}

function plural(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;
}
