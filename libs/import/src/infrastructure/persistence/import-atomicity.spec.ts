import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { Database, MIGRATIONS, TypeOrmUnitOfWork } from '@app/persistence';
import { loadConfig } from '@app/shared';
import { migrateAgain } from '../../../../../test/support/migrations.js';
import { createTestDatabase, serverDatabaseUrl, type TestDatabase } from '../../../../../test/support/test-database.js';
import { ImportBrokerageFiles, type ImportRequest, type UploadedFile } from '../../application/import-brokerage-files.service.js';
import { sqlTradeLedgerOn, TradeLedger, type AccountLedger, type LedgerAppend, type LedgerChange, type LedgerInMaking, type OpenBooks, type StoredOpenLots, type WantedBook } from '@app/trades';
import { withLotFingerprints, withTransactionFingerprints } from '../../domain/fingerprint.js';
import { parseRealizedLotsFile, parseTransactionsFile } from '../../domain/parsers/format-registry.js';
import { readFixtureBytes } from '../../testing/fixtures.js';
import { brokerLot, TransactionsBuilder } from '../../testing/transaction-builders.js';
import { SqlImportStore } from './sql-import.store.js';
import { SqlUploadHistory } from './sql-upload-history.js';

/** The real ledger, noting which write each import called. */
class RecordingLedger extends TradeLedger {
  readonly writes: string[] = [];

  constructor(private readonly ledger: TradeLedger) {
    super();
  }

  replaceAccount(userId: number, accountId: number, ledger: AccountLedger | LedgerInMaking): Promise<LedgerChange> {
    this.writes.push('replaceAccount');
    return this.ledger.replaceAccount(userId, accountId, ledger);
  }

  openBooks(userId: number, accountId: number, symbols: readonly string[]): Promise<OpenBooks> {
    return this.ledger.openBooks(userId, accountId, symbols);
  }

  openLots(accountId: number, wanted: readonly WantedBook[]): Promise<StoredOpenLots> {
    return this.ledger.openLots(accountId, wanted);
  }

  appendToAccount(userId: number, accountId: number, append: LedgerAppend): Promise<LedgerChange> {
    this.writes.push('appendToAccount');
    return this.ledger.appendToAccount(userId, accountId, append);
  }
}

/** A ledger whose write fails once it is done: everything the import wrote before must be undone. */
class FailingAfterWritesLedger extends RecordingLedger {
  override async replaceAccount(userId: number, accountId: number, ledger: AccountLedger | LedgerInMaking): Promise<LedgerChange> {
    await super.replaceAccount(userId, accountId, ledger);
    throw new Error('injected failure after every write of the import');
  }

  override async appendToAccount(userId: number, accountId: number, append: LedgerAppend): Promise<LedgerChange> {
    await super.appendToAccount(userId, accountId, append);
    throw new Error('injected failure after every write of the import');
  }
}

/**
 * The import against a real database (the embedded one, or the server when DATABASE_URL is set):
 * all or nothing, even when it fails after writing everything.
 */
describe('import atomicity (real database)', () => {
  let dataDir: string;
  let serverDatabase: TestDatabase | undefined;
  let database: Database;
  let accountId: number;
  let userId: number;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    dataDir = await mkdtemp(join(tmpdir(), 'sta-import-'));
    const adminUrl = serverDatabaseUrl();
    serverDatabase = adminUrl ? await createTestDatabase(adminUrl) : undefined;
    const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: serverDatabase?.url });
    database = new Database(config, { entities: [], migrations: MIGRATIONS });
    await database.onApplicationBootstrap();
    const [user] = await database.manager.query(`INSERT INTO users (email) VALUES ('atomic@example.com') RETURNING id`);
    userId = user.id;
    const [account] = await database.manager.query(
      `INSERT INTO brokerage_accounts (user_id, account_number) VALUES ($1, 'XXXX-1234') RETURNING id`,
      [userId],
    );
    accountId = account.id;
  }, 60000);

  afterAll(async () => {
    await database?.onApplicationShutdown();
    await serverDatabase?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const request = (transactions: Buffer | string): ImportRequest => ({
    userId,
    account: { accountId, accountNumber: 'XXXX-1234' },
    transactions: { name: 'transactions.csv', content: Buffer.from(transactions) },
    gains: { name: 'realized_gains.csv', content: readFixtureBytes('schwab-example', 'realized_gains.csv') },
  });
  const noProgress = async () => undefined;

  /** A new user with accounts of these numbers, each as an import request's `userId` and `account`. */
  const traderWith = async (email: string, ...numbers: string[]) => {
    const [user] = await database.manager.query(`INSERT INTO users (email) VALUES ($1) RETURNING id`, [email]);
    const accounts: { userId: number; account: { accountId: number; accountNumber: string } }[] = [];
    for (const number of numbers) {
      const [account] = await database.manager.query(`INSERT INTO brokerage_accounts (user_id, account_number) VALUES ($1, $2) RETURNING id`, [user.id, number]);
      accounts.push({ userId: Number(user.id), account: { accountId: Number(account.id), accountNumber: number } });
    }
    return accounts;
  };
  /** The Schwab example's transactions without its June rows (its gains file still reaches into June). */
  const untilMay = (full: string) =>
    full
      .split(/\r?\n/)
      .filter((line) => !/^"06\/\d\d\/2024/.test(line))
      .join('\r\n');

  async function snapshot(): Promise<Record<string, unknown>> {
    const tables = ['broker_transactions', 'realized_lots', 'closed_trades', 'dividends', 'position_history', 'securities', 'open_lots'];
    const result: Record<string, unknown> = {};
    for (const table of tables) {
      const [row] = await database.manager.query(
        `SELECT count(*)::int AS rows, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest
           FROM (SELECT * FROM ${table}) t`,
      );
      result[table] = row;
    }
    return result;
  }

  /** An account's trades as the reports show them (not whose they are, nor their ids). */
  const trades = (account: number) =>
    database.manager.query(
      `SELECT symbol, side, source, close_date::text, open_date::text, volume::text, cost_basis::text, proceeds::text, profit_loss::text
         FROM closed_trades WHERE account_id = $1 ORDER BY close_date, seq`,
      [account],
    );
  /** Every other table the reports read, rollups included, for one user: not whose rows they are. */
  const derived = async (user: number) => {
    const tables: Record<string, string> = {
      dividends: 'transaction_date, symbol, action, amount',
      position_history: 'symbol, as_of, shares',
      open_lots: 'symbol, side, open_date, shares, cost, price, source',
      securities: 'symbol, company_name',
      daily_symbol_totals: 'symbol, day, trade_count, winning_trades, trading_pnl, dividend_count, dividends',
      daily_totals: 'day, trade_count, winning_trades, trading_pnl, dividend_count, dividends',
      symbol_totals: 'symbol, company_name, trade_count, winning_trades, trading_pnl, min_pnl, max_pnl, sum_return_pct, first_trade_date, last_trade_date, first_open_date, dividends, has_positions, current_shares, broker_trades, fifo_long, fifo_short',
      trade_statistic_groups: 'grouping, key, side, total_trades, winning_trades, losing_trades, gross_profit, gross_loss, winners_holding_days, losers_holding_days, max_pnl, min_pnl',
    };
    const rows: Record<string, unknown> = {};
    for (const [table, columns] of Object.entries(tables)) {
      rows[table] = await database.manager.query(`SELECT ${columns} FROM ${table} WHERE user_id = $1 ORDER BY ${columns}`, [user]);
    }
    return rows;
  };

  it('a failure after every write leaves the earlier import exactly as it was, and records the failure', async () => {
    const history = new SqlUploadHistory(database);
    const unitOfWork = new TypeOrmUnitOfWork(database);
    const importer = new ImportBrokerageFiles(unitOfWork, new SqlImportStore(database), sqlTradeLedgerOn(database), history);
    const original = readFixtureBytes('schwab-example', 'transactions.csv').toString('utf8');

    const { stats } = await importer.run(request(original), noProgress);
    expect(stats).toEqual({ transactions_inserted: 75, realized_gains_lots: 24, broker_verified_trades: 18 });
    const before = await snapshot();
    expect(before.closed_trades).toMatchObject({ rows: 28 });

    // The same export with one more (newer) purchase at the top: new rows to write, new trades to derive.
    const withExtraRow = original.replace(
      /("Date","Action".*\r?\n)/,
      (header) => `${header}"06/28/2024","Buy","NVDA","NVIDIA CORP","3","$120.00","$0.00","-$360.00"\r\n`,
    );
    expect(withExtraRow).not.toBe(original);
    const failingLedger = new FailingAfterWritesLedger(sqlTradeLedgerOn(database));
    const failing = new ImportBrokerageFiles(unitOfWork, new SqlImportStore(database), failingLedger, history);
    await expect(failing.run(request(withExtraRow), noProgress)).rejects.toThrow('injected failure');
    // A row on the last stored day may change the stored trades: everything is matched again.
    expect(failingLedger.writes).toEqual(['replaceAccount']);

    expect(await snapshot()).toEqual(before);
    const [latest] = await history.listForUser(userId);
    expect(latest).toMatchObject({ status: 'failed', error: 'injected failure after every write of the import', transactionsInserted: 0 });

    // The same upload without the fault goes through and adds exactly the one new row.
    const retried = await importer.run(request(withExtraRow), noProgress);
    expect(retried.stats.transactions_inserted).toBe(1);

    // A row after the last stored day is added to the stored books (appendToAccount): as much all or nothing.
    const afterRetry = await snapshot();
    const withLaterRow = withExtraRow.replace(
      /("Date","Action".*\r?\n)/,
      (header) => `${header}"07/01/2024","Sell","NVDA","NVIDIA CORP","3","$125.00","$0.00","$375.00"\r\n`,
    );
    await expect(failing.run(request(withLaterRow), noProgress)).rejects.toThrow('injected failure');
    expect(failingLedger.writes).toEqual(['replaceAccount', 'appendToAccount']);
    expect(await snapshot()).toEqual(afterRetry);
    const appended = await importer.run(request(withLaterRow), noProgress);
    expect(appended.stats).toEqual({ transactions_inserted: 1, realized_gains_lots: 24, broker_verified_trades: 18 });
    // What matching everything in one go gives, in another user's account.
    const [whole] = await traderWith('whole@example.com', 'W-1');
    await importer.run({ ...request(withLaterRow), ...whole }, noProgress);
    const appendedTrades = await trades(accountId);
    expect(appendedTrades).toEqual(await trades(whole.account.accountId));
    expect(appendedTrades.filter((trade: { close_date: string }) => trade.close_date === '2024-07-01')).toHaveLength(1);
    // And every other table the reports read, rollups included, but for whose rows they are.
    expect(await derived(userId)).toEqual(await derived(whole.userId));
  }, 60000);

  it('an export that reaches past the stored days takes the stored lots of those days into its trades', async () => {
    const ledger = new RecordingLedger(sqlTradeLedgerOn(database));
    const importer = new ImportBrokerageFiles(new TypeOrmUnitOfWork(database), new SqlImportStore(database), ledger, new SqlUploadHistory(database));
    const [whole] = await traderWith('reach-whole@example.com', 'R-1');
    const [pieces] = await traderWith('reach-pieces@example.com', 'R-1');
    const full = readFixtureBytes('schwab-example', 'transactions.csv').toString('utf8');
    // The transactions up to May, with the gains file of the whole period (lots closed in June too).
    expect(untilMay(full).length).toBeLessThan(full.length);
    await importer.run({ ...request(full), ...whole }, noProgress);
    await importer.run({ ...request(untilMay(full)), ...pieces }, noProgress);
    const [june] = await database.manager.query(`SELECT count(*)::int AS lots FROM realized_lots WHERE account_id = $1 AND closed_date >= '2024-06-01'`, [pieces.account.accountId]);
    expect(june.lots).toBeGreaterThan(0);
    const { stats } = await importer.run({ ...request(full), ...pieces }, noProgress);
    expect(ledger.writes).toEqual(['replaceAccount', 'replaceAccount', 'appendToAccount']);
    expect(stats).toEqual({ transactions_inserted: expect.any(Number), realized_gains_lots: 24, broker_verified_trades: 18 });
    expect(await trades(pieces.account.accountId)).toEqual(await trades(whole.account.accountId));
    expect(await derived(pieces.userId)).toEqual(await derived(whole.userId));
  }, 60000);

  it('the same files again add nothing and change nothing: no ledger write, the report version as it was', async () => {
    const ledger = new RecordingLedger(sqlTradeLedgerOn(database));
    const importer = new ImportBrokerageFiles(new TypeOrmUnitOfWork(database), new SqlImportStore(database), ledger, new SqlUploadHistory(database));
    const [again] = await traderWith('again@example.com', 'A-1');
    const full = readFixtureBytes('schwab-example', 'transactions.csv').toString('utf8');
    const first = await importer.run({ ...request(full), ...again }, noProgress);
    const version = () => database.manager.query(`SELECT version FROM report_versions WHERE user_id = $1`, [again.userId]);
    const [before, tables] = [await version(), await derived(again.userId)];
    const { stats } = await importer.run({ ...request(full), ...again }, noProgress);
    expect(ledger.writes).toEqual(['replaceAccount']);
    expect(stats).toEqual({ ...first.stats, transactions_inserted: 0 });
    expect(await version()).toEqual(before);
    expect(await derived(again.userId)).toEqual(tables);
  }, 60000);

  it("starts a first import's write before reading its files, the lots file first, and reads an account's files before writing into it", async () => {
    // The import lets go of a file's bytes once it has read it: whether each file was still unread when the write began.
    const unreadAtWrite: { transactions: boolean; lots: boolean }[] = [];
    // And the order the import took the files in (each file's bytes are taken, and let go, as it is read).
    const taken: string[] = [];
    const watched = (label: string, { name, content }: UploadedFile): UploadedFile => {
      let bytes = content;
      return {
        name,
        get content() {
          return bytes;
        },
        set content(value: UploadedFile['content']) {
          if (value.length === 0 && bytes.length > 0) taken.push(label);
          bytes = value;
        },
      };
    };
    let upload: ImportRequest | undefined;
    class WatchedStore extends SqlImportStore {
      override addRows(...args: Parameters<SqlImportStore['addRows']>): ReturnType<SqlImportStore['addRows']> {
        unreadAtWrite.push({ transactions: (upload?.transactions.content.length ?? 0) > 0, lots: (upload?.gains?.content.length ?? 0) > 0 });
        return super.addRows(...args);
      }
    }
    const importer = new ImportBrokerageFiles(new TypeOrmUnitOfWork(database), new WatchedStore(database), sqlTradeLedgerOn(database), new SqlUploadHistory(database));
    const full = readFixtureBytes('schwab-example', 'transactions.csv').toString('utf8');
    const [trader] = await traderWith('lots-while-writing@example.com', 'W-1');
    for (const transactions of [untilMay(full), full]) {
      const files = request(transactions);
      upload = { ...files, transactions: watched('transactions', files.transactions), gains: files.gains && watched('lots', files.gains), ...trader };
      await importer.run(upload, noProgress);
    }
    // Schwab's transactions name no account: a first import reads them under the account lock, as it writes them.
    expect(unreadAtWrite).toEqual([
      { transactions: true, lots: true },
      { transactions: false, lots: false },
    ]);
    // The larger file's bytes do not wait beside the rows of the other: the lots are read (and written) first.
    expect(taken).toEqual(['lots', 'transactions', 'lots', 'transactions']);
    const [whole] = await traderWith('lots-read-first@example.com', 'W-2');
    await importer.run({ ...request(full), ...whole }, noProgress);
    expect(await derived(trader.userId)).toEqual(await derived(whole.userId));
  }, 60000);

  it('a first import writes its rows in batches as they are keyed, with the keys a stretch gives them, the days seen in another account read too', async () => {
    const given: { transactions: boolean; lots: boolean }[] = [];
    class WatchedStore extends SqlImportStore {
      override addRows(...args: Parameters<SqlImportStore['addRows']>): ReturnType<SqlImportStore['addRows']> {
        const [, , rows] = args;
        given.push({ transactions: Symbol.asyncIterator in rows.transactions, lots: Symbol.asyncIterator in rows.lots });
        return super.addRows(...args);
      }
    }
    const importer = new ImportBrokerageFiles(new TypeOrmUnitOfWork(database), new WatchedStore(database), sqlTradeLedgerOn(database), new SqlUploadHistory(database));
    const full = readFixtureBytes('schwab-example', 'transactions.csv').toString('utf8');
    const gains = readFixtureBytes('schwab-example', 'realized_gains.csv');
    const [earlier, first] = await traderWith('keyed-as-read@example.com', 'S-1', 'S-2');
    // The user's imports read May's days into S-1: S-2's first import puts their rows aside, then reads them.
    await importer.run({ ...request(untilMay(full)), ...earlier }, noProgress);
    await importer.run({ ...request(full), ...first }, noProgress);
    await importer.run({ ...request(full), ...earlier }, noProgress);
    // Batches for the first imports, all of each for the one into an account holding transactions.
    expect(given).toEqual([
      { transactions: true, lots: true },
      { transactions: true, lots: true },
      { transactions: false, lots: false },
    ]);
    const account = String(first.account.accountId);
    const keysByLine = (rows: readonly { line: number; fingerprint?: string }[]) => rows.map((row) => `${row.line} ${row.fingerprint}`).sort();
    const stored = async (table: string) =>
      ((await database.manager.query(`SELECT line, translate(fingerprint::text, '-', '') AS fingerprint FROM ${table} WHERE account_id = $1`, [first.account.accountId])) as {
        line: number;
        fingerprint: string;
      }[]).map((row) => `${row.line} ${row.fingerprint}`).sort();
    expect(await stored('broker_transactions')).toEqual(keysByLine(withTransactionFingerprints(account, parseTransactionsFile('transactions.csv', full).transactions)));
    expect(await stored('realized_lots')).toEqual(keysByLine(withLotFingerprints(account, parseRealizedLotsFile('realized_gains.csv', gains).lots)));
    expect(await trades(first.account.accountId)).toEqual(await trades(earlier.account.accountId));
  }, 60000);

  it('a first import whose transactions or lots file fails after some of its rows were written leaves nothing, and says which line', async () => {
    const importer = new ImportBrokerageFiles(new TypeOrmUnitOfWork(database), new SqlImportStore(database), sqlTradeLedgerOn(database), new SqlUploadHistory(database));
    /** The example file with thousands of copies of its first data row (written as they are read, a first import's), then one whose fifth cell is no number. */
    const failingLate = (file: string, header: string) => {
      const example = readFixtureBytes('schwab-example', file).toString('utf8').split(/\r?\n/);
      const headerAt = example.findIndex((line) => line.startsWith(header));
      const row = example[headerAt + 1];
      const lines = [...example.slice(0, headerAt + 1), ...Array.from({ length: 2_500 }, () => row), row.replace(/^("[^"]*",){4}"[^"]*"/, (cells) => cells.replace(/"[^"]*"$/, '"abc"'))];
      return { name: file, content: Buffer.from(lines.join('\r\n')), lines: lines.length };
    };
    for (const bad of ['transactions', 'gains'] as const) {
      const [failing] = await traderWith(`late-bad-${bad}@example.com`, 'F-1');
      const file = bad === 'transactions' ? failingLate('transactions.csv', '"Date"') : failingLate('realized_gains.csv', '"Symbol"');
      const upload = { ...request(readFixtureBytes('schwab-example', 'transactions.csv')), ...failing, [bad]: file };
      await expect(importer.run(upload, noProgress)).rejects.toThrow(new RegExp(`${file.name}, line ${file.lines}\\b`));
      const [held] = await database.manager.query(
        `SELECT (SELECT count(*)::int FROM broker_transactions WHERE account_id = $1) AS transactions, (SELECT count(*)::int FROM realized_lots WHERE account_id = $1) AS lots,
                (SELECT count(*)::int FROM closed_trades WHERE account_id = $1) AS trades`,
        [failing.account.accountId],
      );
      expect(held).toEqual({ transactions: 0, lots: 0, trades: 0 });
    }
  }, 60000);

  it('an append into one of a user’s accounts adds into rollups the other account shares', async () => {
    const ledger = new RecordingLedger(sqlTradeLedgerOn(database));
    const importer = new ImportBrokerageFiles(new TypeOrmUnitOfWork(database), new SqlImportStore(database), ledger, new SqlUploadHistory(database));
    const full = readFixtureBytes('schwab-example', 'transactions.csv').toString('utf8');
    const [wholeFirst, wholeSecond] = await traderWith('two-whole@example.com', 'T-1', 'T-2');
    await importer.run({ ...request(full), ...wholeFirst }, noProgress);
    await importer.run({ ...request(full), ...wholeSecond }, noProgress);
    const [first, second] = await traderWith('two-pieces@example.com', 'T-1', 'T-2');
    await importer.run({ ...request(full), ...first }, noProgress);
    await importer.run({ ...request(untilMay(full)), ...second }, noProgress);
    ledger.writes.length = 0;
    await importer.run({ ...request(full), ...second }, noProgress);
    expect(ledger.writes).toEqual(['appendToAccount']);
    expect(await derived(second.userId)).toEqual(await derived(wholeSecond.userId));
  }, 60000);

  it('an upload naming a new account that fails after every write leaves no account behind, and records the failure under its number', async () => {
    const history = new SqlUploadHistory(database);
    // As the auth context's findOrCreate does: through the unit of work's connection.
    const accountFor = async (number: string) => {
      const [row] = await database.manager.query(`INSERT INTO brokerage_accounts (user_id, account_number) VALUES ($1, $2) RETURNING id`, [userId, number]);
      return { accountId: Number(row.id), accountNumber: number };
    };
    const accountNumbers = async () =>
      ((await database.manager.query(`SELECT account_number FROM brokerage_accounts WHERE user_id = $1 ORDER BY id`, [userId])) as { account_number: string }[]).map((row) => row.account_number);
    const failing = new ImportBrokerageFiles(new TypeOrmUnitOfWork(database), new SqlImportStore(database), new FailingAfterWritesLedger(sqlTradeLedgerOn(database)), history);
    const before = await snapshot();
    const robinhood = { name: 'activity.csv', content: readFileSync(join(process.cwd(), 'test/fixtures/robinhood/activity.csv')) };
    const upload: ImportRequest = {
      ...request(''),
      transactions: robinhood,
      gains: null,
      accountNumber: 'RH-NEW',
      accountFor,
    };
    const size = robinhood.content.length;
    await expect(failing.run(upload, noProgress)).rejects.toThrow('injected failure');
    expect(await accountNumbers()).toEqual(['XXXX-1234']);
    expect(await snapshot()).toEqual(before);
    const [latest] = await history.listForUser(userId);
    // The import let go of the file once read; the record keeps its size.
    expect(robinhood.content.length).toBe(0);
    expect(latest).toMatchObject({ status: 'failed', brokerageAccount: 'RH-NEW', transactionFile: { name: 'activity.csv', size } });
  }, 60000);

  it('lists the first 100 warnings of an import and counts the rest in a last one', async () => {
    const [seller] = await traderWith('seller@example.com', 'S-1');
    // 150 sales of shares bought before the file's period: one warning each.
    const sales = Array.from({ length: 150 }, (_, index) => {
      const day = new Date(Date.UTC(2024, 0, 2) + index * 86_400_000).toISOString().slice(0, 10);
      const [year, month, date] = day.split('-');
      return `"${month}/${date}/${year}","Sell","ZZZ","ZZZ CORP","1","$10.00","","$10.00"`;
    });
    const file = ['"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"', ...sales.reverse()].join('\r\n');
    const importer = new ImportBrokerageFiles(new TypeOrmUnitOfWork(database), new SqlImportStore(database), sqlTradeLedgerOn(database), new SqlUploadHistory(database));
    const { stats, warnings } = await importer.run({ ...request(file), ...seller }, noProgress);
    expect(stats.transactions_inserted).toBe(150);
    expect(warnings).toHaveLength(101);
    expect(warnings[0]).toMatch(/^line \d+: Sell of 1 ZZZ on 2024-\d\d-\d\d: only 0 shares held/);
    expect(warnings[100]).toBe('… and 50 more warnings not listed (150 in all)');
  }, 60000);

  it('writes an export larger than one statement batch completely, rows and trades alike', async () => {
    const importer = new ImportBrokerageFiles(new TypeOrmUnitOfWork(database), new SqlImportStore(database), sqlTradeLedgerOn(database), new SqlUploadHistory(database));
    const [batches] = await traderWith('batches@example.com', 'B-1');
    const roundTrips = 6001;
    const lines: string[] = [];
    for (let i = roundTrips - 1; i >= 0; i -= 1) {
      const symbol = `B${i}`;
      lines.push(`"06/03/2024","Sell","${symbol}","${symbol} CORP","1","$11.00","","$11.00"`);
      lines.push(`"06/03/2024","Buy","${symbol}","${symbol} CORP","1","$10.00","","-$10.00"`);
    }
    const transactions = `"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"\n${lines.join('\n')}\n`;
    const { stats } = await importer.run(
      { ...request(transactions), ...batches },
      noProgress,
    );
    expect(stats.transactions_inserted).toBe(2 * roundTrips);
    const [stored] = await database.manager.query(`SELECT count(*)::int AS n FROM broker_transactions WHERE account_id = $1`, [batches.account.accountId]);
    const [trades] = await database.manager.query(
      `SELECT count(*)::int AS n, sum(profit_loss)::text AS total FROM closed_trades WHERE account_id = $1`,
      [batches.account.accountId],
    );
    expect(stored.n).toBe(2 * roundTrips);
    expect(trades).toEqual({ n: roundTrips, total: expect.stringMatching(/^6001(\.0+)?$/) });
  }, 120000);

  it('stores text with tabs, backslashes, quotes and line breaks exactly as the file has it', async () => {
    const importer = new ImportBrokerageFiles(new TypeOrmUnitOfWork(database), new SqlImportStore(database), sqlTradeLedgerOn(database), new SqlUploadHistory(database));
    const [odd] = await traderWith('text@example.com', 'T-1');
    const description = 'ODD\tNAME \\N "Q" C:\\DIR\nSECOND LINE ünï';
    const cell = `"${description.replace(/"/g, '""')}"`;
    const transactions = [
      '"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"',
      `"06/04/2024","Sell","ODD",${cell},"1","$11.00","","$11.00"`,
      `"06/03/2024","Buy","ODD",${cell},"1","$10.00","","-$10.00"`,
      '',
    ].join('\r\n');
    await importer.run({ ...request(transactions), ...odd }, noProgress);
    const rows: { description: string; cells: string }[] = await database.manager.query(
      `SELECT description, cells FROM broker_transactions WHERE account_id = $1 ORDER BY line`,
      [odd.account.accountId],
    );
    expect(rows.map((row) => row.description)).toEqual([description, description]);
    expect(rows.map((row) => (JSON.parse(row.cells) as string[])[3])).toEqual([description, description]);
    // The cells' column back to `json` and to `text` again (RawRowCellsAsText1763940000000): the same text.
    await migrateAgain(database, 'RawRowCellsAsText1763940000000');
    const migrated: { cells: string }[] = await database.manager.query(`SELECT cells FROM broker_transactions WHERE account_id = $1 ORDER BY line`, [odd.account.accountId]);
    expect(migrated.map((row) => row.cells)).toEqual(rows.map((row) => row.cells));
  }, 60000);

  it("writes each row's cells and lets go of them: the rows the import keeps hold '[]', as read back", async () => {
    const [holder] = await traderWith('cells@example.com', 'C-1');
    const transactions = new TransactionsBuilder().add('2024-03-04', 'Sell', 'CEL', '1', '11', '11').add('2024-03-01', 'Buy', 'CEL', '1', '10', '-10').build();
    const lots = [brokerLot('CEL', '2024-03-01', '2024-03-04', '1', '10', '11', { cellsJson: '["CEL","1","$11.00"]' })];
    const cells = [...transactions, ...lots].map((row) => row.cellsJson);
    withTransactionFingerprints('C-1', transactions);
    withLotFingerprints('C-1', lots);
    const written = await new TypeOrmUnitOfWork(database).run(() => new SqlImportStore(database).addRows(holder.account.accountId, 1, { transactions, lots }));
    expect(written).toEqual([2, 1]);
    expect([...transactions, ...lots].map((row) => row.cellsJson)).toEqual(['[]', '[]', '[]']);
    const stored: { cells: string }[] = await database.manager.query(
      `SELECT cells FROM (SELECT line, cells, 0 AS kind FROM broker_transactions WHERE account_id = $1 UNION ALL SELECT line, cells, 1 FROM realized_lots WHERE account_id = $1) AS raw ORDER BY kind, line`,
      [holder.account.accountId],
    );
    expect(stored.map((row) => row.cells)).toEqual(cells);
  });

  it("refuses a raw row whose natural key its account holds, and takes the key in another account", async () => {
    const [first, second] = await traderWith('keys@example.com', 'K-1', 'K-2');
    const key = '00112233445566778899aabbccddeeff';
    const insertTransaction = (account: number) =>
      database.manager.query(
        `INSERT INTO broker_transactions (account_id, upload_id, line, fingerprint, trade_date, action, symbol, description, cells)
         VALUES ($1, 1, 2, $2, '2024-03-01', 'Buy', 'ABC', 'ABC INC', '[]')`,
        [account, key],
      );
    const insertLot = (account: number) =>
      database.manager.query(
        `INSERT INTO realized_lots (account_id, upload_id, line, fingerprint, symbol, name, closed_date, opened_date, quantity, proceeds, cost_basis, gain_loss, wash_sale, cells)
         VALUES ($1, 1, 2, $2, 'ABC', 'ABC INC', '2024-03-01', '2024-02-01', 1, 2, 1, 1, false, '[]')`,
        [account, key],
      );
    for (const insert of [insertTransaction, insertLot]) {
      await insert(first.account.accountId);
      await expect(insert(first.account.accountId)).rejects.toThrow(/natural_key/);
      await insert(second.account.accountId);
    }
    const [held] = await database.manager.query(
      `SELECT (SELECT count(*)::int FROM broker_transactions WHERE fingerprint = $1) AS transactions, (SELECT count(*)::int FROM realized_lots WHERE fingerprint = $1) AS lots`,
      [key],
    );
    expect(held).toEqual({ transactions: 2, lots: 2 });
  });

  it('deleting a user deletes everything imported for them, and nothing of anyone else', async () => {
    const importer = new ImportBrokerageFiles(new TypeOrmUnitOfWork(database), new SqlImportStore(database), sqlTradeLedgerOn(database), new SqlUploadHistory(database));
    const [leaving] = await traderWith('leaving@example.com', 'L-1');
    await importer.run(
      { ...request(readFixtureBytes('schwab-example', 'transactions.csv')), ...leaving },
      noProgress,
    );
    // Each table with the column that says whose a row is.
    const owners: [string, string, number][] = [
      ['broker_transactions', 'account_id', leaving.account.accountId],
      ['realized_lots', 'account_id', leaving.account.accountId],
      ['closed_trades', 'account_id', leaving.account.accountId],
      ['dividends', 'account_id', leaving.account.accountId],
      ['position_history', 'account_id', leaving.account.accountId],
      ['open_lots', 'account_id', leaving.account.accountId],
      ['securities', 'account_id', leaving.account.accountId],
      ['symbol_totals', 'account_id', leaving.account.accountId],
      ['daily_totals', 'user_id', leaving.userId],
      ['daily_symbol_totals', 'user_id', leaving.userId],
      ['trade_statistic_groups', 'user_id', leaving.userId],
    ];
    const counts = async () => {
      const result: Record<string, { theirs: number; others: number }> = {};
      for (const [table, column, id] of owners) {
        const [row] = await database.manager.query(
          `SELECT count(*) FILTER (WHERE ${column} = $1)::int AS theirs, count(*) FILTER (WHERE ${column} <> $1)::int AS others FROM ${table}`,
          [id],
        );
        result[table] = row;
      }
      return result;
    };
    // The tables filled by the ten thousand rows have no foreign keys (their checks ran per row): the
    // account's and the user's triggers delete their rows. The last such migration is undone and done
    // again over stored rows first.
    await migrateAgain(database, 'AccountRowsCleanedByStatement1763960000000');
    const [keyed] = await database.manager.query(
      `SELECT count(*)::int AS keys FROM pg_constraint WHERE contype = 'f' AND conrelid::regclass::text = ANY($1)`,
      [owners.map(([table]) => table)],
    );
    expect(keyed).toEqual({ keys: 0 });
    const before = await counts();
    for (const [table] of owners) {
      expect(before[table].theirs).toBeGreaterThan(0);
      expect(before[table].others).toBeGreaterThan(0);
    }

    await database.manager.query(`DELETE FROM users WHERE id = $1`, [leaving.userId]);

    const after = await counts();
    for (const [table] of owners) expect(after[table]).toEqual({ theirs: 0, others: before[table].others });
  }, 60000);
});
