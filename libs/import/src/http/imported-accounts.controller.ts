import { Controller, Delete, Param } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { BrokerageAccounts } from '@app/auth';
import { ConflictError, CurrentUser, unknownAccount, type AuthenticatedUser } from '@app/shared';
import { ApiFailures, ApiJson, ApiSignedIn, string } from '@app/shared/openapi';
import { EmptyBrokerageAccount, type EmptiedAccount } from '../application/empty-brokerage-account.service.js';

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
    const found = await accountNamed(this.accounts, user.id, account);
    const emptied = await this.emptyAccount.run(user.id, found.accountId).catch(goneMeanwhile(found.accountNumber));
    return removal(found.accountNumber, emptied, `Removed what the imports put into account ${found.accountNumber}: ${rowsOf(emptied)}`);
  }
}

/** An account of the user deleted, with what the imports put into it and its trades' journal. */
@ApiTags('Data import')
@ApiSignedIn()
@Controller('api/accounts')
export class AccountDeletionController {
  constructor(
    private readonly accounts: BrokerageAccounts,
    private readonly emptyAccount: EmptyBrokerageAccount,
  ) {}

  @Delete(':account')
  @ApiOperation({
    summary: "Delete one of the user's accounts other than the default, with what the imports put into it and its trades' tags and notes",
    description:
      'All or nothing, as removing its imports is, and then the account itself: it is no longer listed, and its trades\' tags and notes are gone. ' +
      'The default account (the profile\'s) cannot be deleted: 409. Waits for an import of the account that is running; an import waiting for it imports nothing (its progress ends with an error line).',
  })
  @accountParam
  @ApiJson('ImportedAccountEmptiedResponse', 'The account is gone, with what the imports put into it.')
  @ApiFailures(404, 409)
  async delete(@CurrentUser() user: AuthenticatedUser, @Param('account') account: string) {
    const found = await accountNamed(this.accounts, user.id, account);
    if (found.isDefault) {
      throw new ConflictError(`${found.accountNumber} is your default account (the profile's) and cannot be deleted: remove its imports instead, or change its number in the profile`);
    }
    const emptied = await this.emptyAccount.delete(user.id, found.accountId).catch(goneMeanwhile(found.accountNumber));
    return removal(found.accountNumber, emptied, `Deleted account ${found.accountNumber} with ${rowsOf(emptied)}`);
  }
}

/** The user's account with this number (the path's, trimmed); 404 for a number they have none with. */
async function accountNamed(accounts: BrokerageAccounts, userId: number, account: string) {
  const number = account.trim();
  const found = (await accounts.listForUser(userId)).find((candidate) => candidate.accountNumber === number);
  if (found === undefined) throw unknownAccount(number);
  return found;
}

/** An account deleted by another request while this one waited for its lock (`lockAccount`'s 409) is a 404 here. */
function goneMeanwhile(number: string): (error: unknown) => never {
  return (error) => {
    throw error instanceof ConflictError ? unknownAccount(number) : error;
  };
}

/** The answer of both removals (`ImportedAccountEmptiedResponse`). */
function removal(account: string, emptied: EmptiedAccount, message: string) {
  return { success: true, account, transactions_removed: emptied.transactions, lots_removed: emptied.lots, months_updated: emptied.monthsChanged, message };
}

/** `75 transactions and 24 lots`. */
function rowsOf(emptied: EmptiedAccount): string {
  return `${plural(emptied.transactions, 'transaction')} and ${plural(emptied.lots, 'lot')}`;
}

function plural(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;
}
