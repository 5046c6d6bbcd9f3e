import { generateTradingHistory } from '../bench/support/trading-history.mjs';
import { startService, type RunningService } from './support/service.js';
import { signIn } from './support/sign-in.js';
import { createTestDatabase, serverDatabaseUrl, withClient, type TestDatabase } from './support/test-database.js';
import { exampleFiles, ndjson, uploadForm, uploadWithFaultAtRowWrite } from './support/uploads.js';

type Session = Awaited<ReturnType<typeof signIn>>;

const TRIES = 10;

/**
 * The database connection dies while an import streams its rows (issue 14): the import fails alone
 * (an error line, a `failed` history row, nothing kept), the service stays up, and the next import
 * works. The import's backend is terminated with `pg_terminate_backend` while its COPY runs. This is
 * a server's fault: the embedded engine is a child process the service talks to over IPC, with no
 * connection to drop; its failing statements mid-COPY are covered by libs/persistence's
 * database-copy.spec.ts, so without DATABASE_URL this suite is skipped.
 */
const describeOnServer = serverDatabaseUrl() ? describe : describe.skip;

describeOnServer.each([
  { where: 'on the main thread', env: {} },
  { where: 'on a thread of its own', env: { IMPORT_THREAD_MIN_BYTES: '0' } },
])('a database connection dropped in the middle of an import $where', ({ env }) => {
  let serverDatabase: TestDatabase;
  let service: RunningService;
  let trader: Session;
  const history = generateTradingHistory({ trades: 20_000, dividends: 500, symbols: 40, brokerLotShare: 0.2, seed: 5 });

  beforeAll(async () => {
    serverDatabase = await createTestDatabase(serverDatabaseUrl()!);
    service = await startService({ env: { ...env, DATABASE_URL: serverDatabase.url } });
    trader = await signIn(service);
    expect((await trader.json('PUT', '/auth/profile', { brokerage_account: 'XXXX-1234' })).status).toBe(200);
  }, 180_000);

  afterAll(async () => {
    await service?.stop();
    await serverDatabase?.drop();
  });

  /**
   * Terminates the import's backend: while it runs a COPY when it is caught in one within a few seconds
   * (the rows are keyed before the first COPY: on a loaded machine that took longer than twenty polls),
   * else anywhere in its transaction. Resolves with what it hit.
   */
  async function dropConnection(): Promise<string> {
    const database = new URL(serverDatabase.url).pathname.slice(1);
    const started = Date.now();
    while (Date.now() - started < 30_000) {
      const hit = await withClient(serverDatabase.url, async (client) => {
        const { rows } = await client.query<{ copy: boolean }>(
          `SELECT query ILIKE 'COPY%' AS copy, pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = $1 AND pid <> pg_backend_pid() AND xact_start IS NOT NULL
              AND (query ILIKE 'COPY%' OR $2)
            ORDER BY (query ILIKE 'COPY%') DESC LIMIT 1`,
          [database, Date.now() - started > 5_000],
        );
        return rows[0];
      });
      if (hit !== undefined) return hit.copy ? 'COPY' : 'transaction';
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return 'nothing';
  }

  it(`fails the import alone, ${TRIES} times in a row, and the next import works`, async () => {
    const hits: string[] = [];
    for (let attempt = 0; attempt < TRIES; attempt += 1) {
      // Drop the connection once the rows are being written.
      const { text, acted } = await uploadWithFaultAtRowWrite(trader, service.url, history, dropConnection);
      hits.push(acted ?? 'never reached');
      const last = ndjson(text).pop();
      expect([attempt, last.type]).toEqual([attempt, 'error']);
      expect(last.message).toMatch(/Database connection failed|connection/i);

      expect((await fetch(`${service.url}/health/live`)).status).toBe(200);
      const uploads = (await (await trader.fetch('/api/upload-history')).json()) as { history: { status: string }[] };
      expect(uploads.history[0].status).toBe('failed');
      expect(((await (await trader.fetch('/api/months')).json()) as { months: unknown[] }).months).toEqual([]);
    }
    // Most tries hit the COPY itself (a few may find it already done and hit nothing).
    expect(hits.filter((hit) => hit === 'COPY').length).toBeGreaterThanOrEqual(TRIES / 2);
    // Every failure was handled where it happened, none left to the process's last-resort handler.
    expect(service.output()).not.toContain('unhandled promise rejection');

    const after = await trader.fetch('/api/upload-csv', { method: 'POST', headers: { origin: service.url }, body: uploadForm(exampleFiles()) });
    expect(ndjson(await after.text()).pop()).toMatchObject({ type: 'success', stats: { transactions_inserted: 75 } });
  }, 300_000);
});
