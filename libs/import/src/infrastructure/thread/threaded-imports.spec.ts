import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { Logger } from '@nestjs/common';
import { Database, MIGRATIONS, TypeOrmUnitOfWork } from '@app/persistence';
import { ConflictError, loadConfig, UserChanges, type AppConfig } from '@app/shared';
import { sqlTradeLedgerOn, TradeLedgerNotices } from '@app/trades';
import { createTestDatabase, serverDatabaseUrl, type TestDatabase } from '../../../../../test/support/test-database.js';
import { IMPORT_STEPS, ImportBrokerageFiles, type ImportRequest, type UploadedFile } from '../../application/import-brokerage-files.service.js';
import { ImportFileError } from '../../domain/import.errors.js';
import { CheckedCsvArrival, CheckedCsvBytes } from '../../domain/parsers/csv-text.js';
import { readFixtureBytes, readFixtureJson } from '../../testing/fixtures.js';
import { SqlImportStore } from '../persistence/sql-import.store.js';
import { SqlUploadHistory } from '../persistence/sql-upload-history.js';
import { runImportsFrom, type ThreadImportRequest } from './import-thread.js';
import { ThreadedImports, type ImportThread } from './threaded-imports.js';

/**
 * `ThreadedImports` with both ends of the thread's channel on this thread: the specs run from the
 * sources, where the thread's program is not built (the end-to-end suites start real threads, built).
 * Everything else is as on a thread: every message cloned, the files' bytes transferred, the import
 * on its own `ThreadDatabase`, against a real database (the embedded one, or DATABASE_URL's server).
 */
class ImportsOnAChannel extends ThreadedImports {
  /** How many threads were started, and ended. */
  readonly threads = { started: 0, ended: 0 };
  /** Whether each file sent to a thread was sent as checked text (`ThreadFile.checked`). */
  readonly checked: boolean[] = [];

  protected override canStartThreads(): boolean {
    return true;
  }

  protected override startThread(): ImportThread {
    const { port1, port2 } = new MessageChannel();
    runImportsFrom(port2);
    this.threads.started += 1;
    return {
      postMessage: (message, transfer) => {
        const { kind, request } = message as { kind: string; request?: ThreadImportRequest };
        if (kind === 'run') for (const part of request?.parts ?? []) this.checked.push(part.transactions.checked, part.gains?.checked ?? false);
        port1.postMessage(message, transfer);
      },
      on: (event, listener) => port1.on(event, listener),
      once: () => undefined, // a channel has no errors or exit of its own
      terminate: async () => {
        this.threads.ended += 1;
        port1.close();
      },
    };
  }
}

/** A thread that fails as it loads (its program throws): it tells its error, then its exit, and takes no import. */
class ImportsOnAFailingThread extends ImportsOnAChannel {
  protected override startThread(): ImportThread {
    const listeners = new Map<string, (value: unknown) => void>();
    setImmediate(() => {
      listeners.get('error')?.(new Error('the program could not load'));
      listeners.get('exit')?.(1);
    });
    return {
      postMessage: () => undefined,
      on: () => undefined,
      once: (event, listener) => listeners.set(event, listener),
      terminate: async () => undefined,
    };
  }
}

describe('ThreadedImports (an import on its own thread, over a channel; real database)', () => {
  let dataDir: string;
  let serverDatabase: TestDatabase | undefined;
  let database: Database;
  let imports: ThreadedImports;
  let config: AppConfig;
  const changed: number[] = [];

  beforeAll(async () => {
    Logger.overrideLogger(false);
    dataDir = await mkdtemp(join(tmpdir(), 'sta-threaded-'));
    const adminUrl = serverDatabaseUrl();
    serverDatabase = adminUrl ? await createTestDatabase(adminUrl) : undefined;
    config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: serverDatabase?.url, IMPORT_THREAD_MIN_BYTES: '0' });
    database = new Database(config, { entities: [], migrations: MIGRATIONS });
    await database.onApplicationBootstrap();
    const changes = new UserChanges();
    changes.subscribe((userId) => changed.push(userId));
    const inProcess = new ImportBrokerageFiles(new TypeOrmUnitOfWork(database), new SqlImportStore(database), sqlTradeLedgerOn(database), new SqlUploadHistory(database));
    imports = new ImportsOnAChannel(database, inProcess, new TradeLedgerNotices(changes), config);
  }, 60000);

  afterAll(async () => {
    await database?.onApplicationShutdown();
    await serverDatabase?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const traderWithAccount = async (email: string) => {
    const [user] = await database.manager.query(`INSERT INTO users (email) VALUES ($1) RETURNING id`, [email]);
    const [account] = await database.manager.query(`INSERT INTO brokerage_accounts (user_id, account_number) VALUES ($1, 'XXXX-1234') RETURNING id`, [user.id]);
    return { userId: Number(user.id), account: { accountId: Number(account.id), accountNumber: 'XXXX-1234' } };
  };
  const schwabExample = (transactions: Buffer = readFixtureBytes('schwab-example', 'transactions.csv')): { transactions: UploadedFile; gains: UploadedFile } => ({
    transactions: { name: 'transactions.csv', content: transactions },
    gains: { name: 'realized_gains.csv', content: readFixtureBytes('schwab-example', 'realized_gains.csv') },
  });
  const tradesOf = (accountId: number) =>
    database.manager.query(
      `SELECT symbol, side, source, close_date::text, open_date::text, volume::text, cost_basis::text, proceeds::text, profit_loss::text
         FROM closed_trades WHERE account_id = $1 ORDER BY close_date, seq`,
      [accountId],
    );
  const rowsOf = async (userId: number) =>
    (await database.manager.query(`SELECT count(*)::int AS n FROM broker_transactions t JOIN brokerage_accounts a ON a.id = t.account_id WHERE a.user_id = $1`, [userId]))[0].n;

  it("imports the Schwab example with expected.json's figures, the same trades as on the main thread, every step told once", async () => {
    const threaded = await traderWithAccount('threaded@example.com');
    const steps: number[] = [];
    const outcome = await imports.run({ ...threaded, ...schwabExample() }, async (step) => void steps.push(step.percentage));
    const expected = readFixtureJson<{ stats: Record<string, number> }>('schwab-example', 'expected.json');
    expect(outcome.stats).toEqual(expected.stats);
    expect(steps).toEqual(IMPORT_STEPS.map((step) => step.percentage));
    expect(changed).toContain(threaded.userId); // the report caches here hear of it
    const [history] = await database.manager.query(`SELECT status, transactions_inserted FROM upload_history WHERE user_id = $1`, [threaded.userId]);
    expect(history).toEqual({ status: 'success', transactions_inserted: expected.stats.transactions_inserted });

    const inProcess = await traderWithAccount('in-process@example.com');
    await new ImportBrokerageFiles(new TypeOrmUnitOfWork(database), new SqlImportStore(database), sqlTradeLedgerOn(database), new SqlUploadHistory(database)).run(
      { ...inProcess, ...schwabExample() },
      async () => undefined,
    );
    const trades = await tradesOf(threaded.account.accountId);
    expect(trades.length).toBeGreaterThan(0);
    expect(trades).toEqual(await tradesOf(inProcess.account.accountId));
  }, 120000);

  it('reads files the upload checked as they arrived in pieces there, to the same trades and the same refusals', async () => {
    /** The files as a large upload's receiver leaves them: checked as they arrived, in blocks (of 1,000 bytes here), not decoded. */
    const checked = (files: ReturnType<typeof schwabExample>) => {
      for (const file of [files.transactions, files.gains]) {
        const arrival = new CheckedCsvArrival(1000);
        const bytes = file.content as Buffer;
        for (let at = 0; at < bytes.length; at += 333) arrival.add(bytes.subarray(at, at + 333));
        file.content = arrival.whole();
        expect(file.content).toBeInstanceOf(CheckedCsvBytes);
      }
      return files;
    };
    const onAChannel = imports as ImportsOnAChannel;
    const sentBefore = onAChannel.checked.length;
    const trader = await traderWithAccount('checked@example.com');
    const checkedFiles = checked(schwabExample());
    const firstPieces = [checkedFiles.transactions, checkedFiles.gains].map((file) => (file.content as CheckedCsvBytes).head);
    const outcome = await imports.run({ ...trader, ...checkedFiles }, async () => undefined);
    expect(onAChannel.checked.slice(sentBefore)).toEqual([true, true]);
    // Handed over, not copied: the blocks are the thread's now.
    expect(firstPieces.map((piece) => piece.byteLength)).toEqual([0, 0]);
    expect(outcome.stats).toEqual(readFixtureJson<{ stats: Record<string, number> }>('schwab-example', 'expected.json').stats);
    const unchecked = await traderWithAccount('unchecked@example.com');
    await imports.run({ ...unchecked, ...schwabExample() }, async () => undefined);
    expect(onAChannel.checked.slice(-2)).toEqual([false, false]);
    expect(await tradesOf(trader.account.accountId)).toEqual(await tradesOf(unchecked.account.accountId));

    const broken = Buffer.from(readFixtureBytes('schwab-example', 'transactions.csv').toString('utf8').replace(/"\$?1[0-9.,]*"/, '"not a price"'));
    const refusal = (files: ReturnType<typeof schwabExample>) => imports.run({ ...trader, ...files }, async () => undefined).catch((caught: unknown) => caught);
    const inPieces = await refusal(checked(schwabExample(Buffer.from(broken))));
    expect(inPieces).toBeInstanceOf(ImportFileError);
    expect(inPieces).toEqual(await refusal(schwabExample(Buffer.from(broken))));
  }, 120000);

  it('fails with the file error as its class and fields, writes nothing and records the failure', async () => {
    const trader = await traderWithAccount('broken@example.com');
    const broken = readFixtureBytes('schwab-example', 'transactions.csv').toString('utf8').replace(/"\$?1[0-9.,]*"/, '"not a price"');
    const error = await imports.run({ ...trader, ...schwabExample(Buffer.from(broken)) }, async () => undefined).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ImportFileError);
    expect(error).toMatchObject({ fileName: 'transactions.csv', line: expect.any(Number), code: 'VALIDATION_ERROR' });
    expect((error as Error).message).toMatch(/^transactions\.csv, line \d+: /);
    expect(await rowsOf(trader.userId)).toBe(0);
    const [history] = await database.manager.query(`SELECT status FROM upload_history WHERE user_id = $1`, [trader.userId]);
    expect(history).toEqual({ status: 'failed' });
  }, 120000);

  it('sends an upload to a thread from the threshold on (an undeclared length: never), and none where no program is built', () => {
    const at = (threshold: number) => loadConfig({ DATA_DIR: dataDir, DATABASE_URL: serverDatabase?.url, IMPORT_THREAD_MIN_BYTES: String(threshold) });
    const inProcess = new ImportBrokerageFiles(new TypeOrmUnitOfWork(database), new SqlImportStore(database), sqlTradeLedgerOn(database), new SqlUploadHistory(database));
    const notices = new TradeLedgerNotices(new UserChanges());
    const onAChannel = new ImportsOnAChannel(database, inProcess, notices, at(1_000));
    expect([999, 1_000, 50_000_000, Number.NaN].map((bytes) => onAChannel.runsOnThread(bytes))).toEqual([false, true, true, false]);
    expect(new ImportsOnAChannel(database, inProcess, notices, at(0)).runsOnThread(0)).toBe(true);
    // The specs run from the sources, where the thread's program is not built.
    expect(new ThreadedImports(database, inProcess, notices, at(0)).runsOnThread(50_000_000)).toBe(false);
  });

  it('imports on the thread started while the files arrived, and ends it; ends one the files turn out too small for', async () => {
    const at = (threshold: number) => loadConfig({ DATA_DIR: dataDir, DATABASE_URL: serverDatabase?.url, IMPORT_THREAD_MIN_BYTES: String(threshold) });
    const inProcess = new ImportBrokerageFiles(new TypeOrmUnitOfWork(database), new SqlImportStore(database), sqlTradeLedgerOn(database), new SqlUploadHistory(database));
    const notices = new TradeLedgerNotices(new UserChanges());
    const expected = readFixtureJson<{ stats: Record<string, number> }>('schwab-example', 'expected.json');

    const early = new ImportsOnAChannel(database, inProcess, notices, at(0));
    const started = early.startFor(50_000);
    expect(started).toBeDefined();
    expect(early.threads).toEqual({ started: 1, ended: 0 });
    const steps: number[] = [];
    const outcome = await early.run({ ...(await traderWithAccount('early@example.com')), ...schwabExample() }, async (step) => void steps.push(step.percentage), started);
    expect(outcome.stats).toEqual(expected.stats);
    expect(steps).toEqual(IMPORT_STEPS.map((step) => step.percentage));
    started?.end(); // as the upload's end does: once only
    expect(early.threads).toEqual({ started: 1, ended: 1 });

    // A declared length over the threshold, files under it (the length bounds them): imported here.
    const large = new ImportsOnAChannel(database, inProcess, notices, at(10_000_000));
    expect(large.startFor(9_999_999)).toBeUndefined();
    const unused = large.startFor(50_000_000);
    const here = await large.run({ ...(await traderWithAccount('too-small@example.com')), ...schwabExample() }, async () => undefined, unused);
    expect(here.stats).toEqual(expected.stats);
    expect(large.threads).toEqual({ started: 1, ended: 1 });
  }, 120000);

  it('fails the import sent to a thread that failed while the files arrived, with what ended it', async () => {
    const inProcess = new ImportBrokerageFiles(new TypeOrmUnitOfWork(database), new SqlImportStore(database), sqlTradeLedgerOn(database), new SqlUploadHistory(database));
    const failing = new ImportsOnAFailingThread(database, inProcess, new TradeLedgerNotices(new UserChanges()), config);
    const started = failing.startFor(50_000);
    await new Promise((resolve) => setImmediate(resolve)); // it fails before the files have all arrived
    const trader = await traderWithAccount('failed-thread@example.com');
    const error = await failing.run({ ...trader, ...schwabExample() }, async () => undefined, started).catch((caught: unknown) => caught);
    expect(error).toEqual(new Error('the program could not load'));
    expect(await rowsOf(trader.userId)).toBe(0);
  }, 120000);

  it("creates the upload's account in the import's unit of work: kept with the import, gone with a failed one", async () => {
    const trader = await traderWithAccount('accounts@example.com');
    const accountFor = async (number: string) => {
      const [account] = await database.manager.query(`INSERT INTO brokerage_accounts (user_id, account_number) VALUES ($1, $2) RETURNING id`, [trader.userId, number]);
      return { accountId: Number(account.id), accountNumber: number };
    };
    const accounts = async () => (await database.manager.query(`SELECT account_number FROM brokerage_accounts WHERE user_id = $1 ORDER BY id`, [trader.userId])).map((row: { account_number: string }) => row.account_number);
    // Two histories for the same new account: the first call creates it, the second is refused (a
    // conflict on this thread, made again as its class there and back).
    let calls = 0;
    const createThenRefuse = async (number: string) => {
      calls += 1;
      if (calls > 1) throw new ConflictError('the second call is refused');
      return accountFor(number);
    };
    const failing: ImportRequest = { ...trader, ...schwabExample(), accountNumber: 'NEW-0001', accountFor: createThenRefuse, also: [schwabExample()] };
    const refused = await imports.run(failing, async () => undefined).catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(ConflictError);
    expect(refused).toMatchObject({ message: 'the second call is refused', code: 'CONFLICT' });
    expect(calls).toBe(2);
    expect(await accounts()).toEqual(['XXXX-1234']);
    expect(await rowsOf(trader.userId)).toBe(0);

    const outcome = await imports.run({ ...trader, ...schwabExample(), accountNumber: 'NEW-0001', accountFor }, async () => undefined);
    expect(outcome.detected.map((file) => file.account)).toEqual(['NEW-0001', 'NEW-0001']);
    expect(await accounts()).toEqual(['XXXX-1234', 'NEW-0001']);
  }, 120000);
});
