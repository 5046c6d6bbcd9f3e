import { Injectable, Logger } from '@nestjs/common';
import { BrokerageAccounts } from '@app/auth';
import { UnitOfWork } from '@app/persistence/sql';
import { TradeLedger, type AccountLedger } from '@app/trades/ledger';
import { ImportStore, type RemovedRows } from './import-store.port.js';

/** What an account holds once its imports are removed: nothing. */
const EMPTY_LEDGER: AccountLedger = { trades: [], dividends: [], positions: [], companyNames: new Map(), openLots: [] };

export interface EmptiedAccount extends RemovedRows {
  /** Months whose trades or dividends the account no longer holds. */
  readonly monthsChanged: number;
}

/**
 * Removes what the imports put into one of the user's accounts, all or nothing: its stored rows and the
 * days its imports read (the same files sent again are read again), its trades, dividends, positions and
 * open lots; the user's report rollups are rebuilt. The account stays, and so does the journal: its
 * trades' tags and notes become orphans (`GET /api/journal/orphans`), theirs again when an import derives
 * the same trades. It waits for an import of the account that is running, as imports wait for each other.
 * `delete` does the same and then deletes the account, its journal entries with it.
 */
@Injectable()
export class EmptyBrokerageAccount {
  private readonly logger = new Logger(EmptyBrokerageAccount.name);

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly store: ImportStore,
    private readonly ledger: TradeLedger,
    private readonly accounts: BrokerageAccounts,
  ) {}

  async run(userId: number, accountId: number): Promise<EmptiedAccount> {
    const started = Date.now();
    const emptied = await this.unitOfWork.run(() => this.empty(userId, accountId));
    this.logger.log({ msg: 'account emptied', user: userId, account: accountId, ...emptied, ms: Date.now() - started });
    return emptied;
  }

  /**
   * Empties the account and deletes it (not the default: the caller refuses that one). An import that
   * was waiting for the account's lock then finds it gone and imports nothing (`lockAccount`'s 409).
   */
  async delete(userId: number, accountId: number): Promise<EmptiedAccount> {
    const started = Date.now();
    const emptied = await this.unitOfWork.run(async () => {
      const removed = await this.empty(userId, accountId);
      if (!(await this.accounts.remove(userId, accountId))) throw new Error(`account ${accountId} of user ${userId} is not there to delete`);
      return removed;
    });
    this.logger.log({ msg: 'account deleted', user: userId, account: accountId, ...emptied, ms: Date.now() - started });
    return emptied;
  }

  private async empty(userId: number, accountId: number): Promise<EmptiedAccount> {
    await this.store.lockAccount(accountId);
    const removed = await this.store.removeRows(accountId);
    const { monthsChanged } = await this.ledger.replaceAccount(userId, accountId, EMPTY_LEDGER);
    return { ...removed, monthsChanged: monthsChanged.length };
  }
}
