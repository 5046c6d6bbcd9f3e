import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Logger } from '@nestjs/common';
import { ConflictError, errorClasses, loadConfig } from '@app/shared';
import { createTestDatabase, serverDatabaseUrl, type TestDatabase } from '../../../test/support/test-database.js';
import { COPY_PIECE_BYTES, rowsOf, type CopyTarget } from './bulk-copy.js';
import { Database } from './database.js';
import { ThreadDatabase } from './thread-database.js';
import { serveThreadDatabase, type ThreadDatabaseHost } from './thread-database.host.js';

const NOTES: CopyTarget = { table: 'thread_notes', columns: ['id', 'note'] };

/**
 * `ThreadDatabase` and `serveThreadDatabase` over a real channel (the two ends of a MessageChannel:
 * every message is cloned and every piece of COPY text transferred as between two threads) on a
 * real database (the embedded one, or the server when DATABASE_URL is set): the thread's units of
 * work are the host's transactions, with their copies, calls and rollbacks.
 */
describe('ThreadDatabase served by serveThreadDatabase (real database)', () => {
  let dataDir: string;
  let serverDatabase: TestDatabase | undefined;
  let database: Database;
  let ports: MessagePort[] = [];
  let host: ThreadDatabaseHost;
  let thread: ThreadDatabase;
  const told: unknown[][] = [];

  beforeAll(async () => {
    Logger.overrideLogger(false);
    dataDir = await mkdtemp(join(tmpdir(), 'sta-thread-db-'));
    const adminUrl = serverDatabaseUrl();
    serverDatabase = adminUrl ? await createTestDatabase(adminUrl) : undefined;
    database = new Database(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: serverDatabase?.url }), { entities: [], migrations: [] });
    await database.onApplicationBootstrap();
    await database.manager.query(`CREATE TABLE thread_notes (id INTEGER PRIMARY KEY, note TEXT)`);
  }, 60000);

  beforeEach(() => {
    const channel = new MessageChannel();
    ports = [channel.port1, channel.port2];
    host = serveThreadDatabase(channel.port1, database, {
      calls: {
        countNotes: async () => (await database.manager.query(`SELECT count(*)::int AS n FROM thread_notes`))[0].n,
        refuse: async () => {
          throw new ConflictError('refused on the host');
        },
      },
      tells: { note: (...args: never[]) => void told.push(args) },
    });
    thread = new ThreadDatabase(channel.port2, errorClasses(ConflictError));
  });

  afterEach(async () => {
    await database.manager.query(`DELETE FROM thread_notes`);
    for (const port of ports) port.close();
  });

  afterAll(async () => {
    await database?.onApplicationShutdown();
    await serverDatabase?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const count = async (): Promise<number> => (await database.manager.query(`SELECT count(*)::int AS n FROM thread_notes`))[0].n;

  it("commits a unit of work's statements and copies together; its calls run inside it and see them", async () => {
    const ids = Array.from({ length: 100_000 }, (_, index) => index + 1); // ~40 pieces: more than the thread may send ahead
    const announced: string[] = [];
    // Each piece's buffer comes back to the thread once the host has written it, to be filled again.
    const givenBack: number[] = [];
    ports[1].on('message', (message: { kind: string; bytes?: ArrayBuffer }) => void (message.kind === 'written' && givenBack.push(message.bytes?.byteLength ?? 0)));
    const seen = await thread.inTransaction(async () => {
      await thread.manager.query(`INSERT INTO thread_notes (id, note) VALUES ($1, $2)`, [0, 'by statement']);
      const copied = await thread.copyRows({ target: NOTES, rows: rowsOf(ids, (id) => [id, id === 7 ? 'tab\there' : `note ${id}`]) });
      expect(copied).toEqual([100_000]);
      thread.afterCommit(() => announced.push('after the commit'));
      return thread.call<number>('countNotes');
    });
    expect(seen).toBe(100_001);
    expect(announced).toEqual(['after the commit']);
    expect(givenBack.length).toBeGreaterThan(30);
    expect(givenBack.every((bytes) => bytes >= COPY_PIECE_BYTES)).toBe(true);
    expect(await count()).toBe(100_001);
    expect((await thread.manager.query<{ note: string }[]>(`SELECT note FROM thread_notes WHERE id = 7`))[0].note).toBe('tab\there');
  }, 60000);

  it('rolls the unit of work back when its work fails, a copy it left running included, and tells the work its error', async () => {
    const failure = new Error('the work failed');
    const announced: string[] = [];
    await expect(
      thread.inTransaction(async () => {
        void thread.copyRows({ target: NOTES, rows: rowsOf([1, 2, 3], (id) => [id, 'left running']) }).catch(() => undefined);
        await thread.manager.query(`INSERT INTO thread_notes (id, note) VALUES (10, 'by statement')`);
        thread.afterCommit(() => announced.push('never'));
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(announced).toEqual([]);
    expect(await count()).toBe(0);
  }, 60000);

  it("fails a copy whose rows break a constraint, with the database's error and code, and the unit of work with it", async () => {
    const attempt = thread.inTransaction(() => thread.copyRows({ target: NOTES, rows: rowsOf([1, 2, 1], (id) => [id, 'twice']) }));
    const error = (await attempt.catch((caught: unknown) => caught)) as Error & { code?: string; driverError?: { code?: string } };
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(/duplicate key/);
    expect(error.code ?? error.driverError?.code).toBe('23505');
    expect(await count()).toBe(0);
    // The channel is still usable afterwards.
    await thread.inTransaction(() => thread.copyRows({ target: NOTES, rows: rowsOf([1], (id) => [id, 'once']) }));
    expect(await count()).toBe(1);
  }, 60000);

  it('fails a copy whose rows cannot be made on the thread, and rolls back', async () => {
    const rows = rowsOf([1, 2], (id) => {
      if (id === 2) throw new Error('no row for 2');
      return [id, 'made'];
    });
    await expect(thread.inTransaction(() => thread.copyRows({ target: NOTES, rows }))).rejects.toThrow('no row for 2');
    expect(await count()).toBe(0);
  }, 60000);

  it('makes the errors of calls and statements again as the classes the thread knows, with their fields', async () => {
    const refused = await thread.call('refuse').catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(ConflictError);
    expect(refused).toMatchObject({ message: 'refused on the host', code: 'CONFLICT' });
    const unknown = (await thread.manager.query('SELECT * FROM no_such_table').catch((caught: unknown) => caught)) as Error & { code?: string; driverError?: { code?: string } };
    expect(unknown.message).toMatch(/no_such_table/);
    expect(unknown.code ?? unknown.driverError?.code).toBe('42P01');
  }, 60000);

  it('tells the host what it is told, and passes values through as clones', async () => {
    told.length = 0;
    thread.tell('note', 1, { deep: ['value'] });
    await thread.call('countNotes'); // answered after the notice before it
    expect(told).toEqual([[1, { deep: ['value'] }]]);
  }, 60000);

  it('rolls back a unit of work a thread leaves open when it ends (close), and refuses what comes after', async () => {
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    const abandoned = thread.inTransaction(async () => {
      await thread.manager.query(`INSERT INTO thread_notes (id, note) VALUES (1, 'abandoned')`);
      inside();
      return new Promise<never>(() => undefined); // a thread that never ends its work
    });
    void abandoned;
    await entered;
    await host.close(new Error('the thread ended'));
    expect(await count()).toBe(0);
    await expect(thread.inTransaction(async () => undefined)).rejects.toThrow('the thread ended');
  }, 60000);
});
