import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { generateTradingHistory } from '../bench/support/trading-history.mjs';
import { freePort } from './support/free-port.js';
import { startService, type RunningService } from './support/service.js';
import { signIn, type SignedIn } from './support/sign-in.js';
import { createTestDatabase, serverDatabaseUrl, type TestDatabase } from './support/test-database.js';
import { ndjson, uploadForm } from './support/uploads.js';

const TRIES = Number(process.env.CRASH_TRIES ?? 20);
const REPORTS = ['/api/months', '/api/symbols/summary', '/api/timeframe-data?all=true'];

/**
 * The service is killed (SIGKILL: no shutdown, no last words) at a random moment of a 100,000-row
 * import, then started again on the same data (issue 15). Each time the account must hold all of the
 * import or none of it: its reports equal either what they were before or what a clean import of
 * the same files gives, and the upload history shows the attempt as `failed` or not at all, never
 * half-done. Run by `npm run test:crash` (a CI step of its own: minutes, not part of `npm test`), on
 * the embedded database or, with DATABASE_URL, on that server.
 */
describe(`an import killed at a random moment, ${TRIES} times`, () => {
  const files = generateTradingHistory({ trades: 50_000, dividends: 2_000, symbols: 100, brokerLotShare: 0.2, seed: 21 });
  const upload = () =>
    uploadForm({
      transaction_history_file: { name: 'transactions.csv', content: files.transactions },
      realized_gains_file: { name: 'realized_gains.csv', content: files.gains },
    });
  let dataDir: string;
  let database: TestDatabase | undefined;
  let port: number;
  let service: RunningService | undefined;
  const env = { SESSION_SECRET: randomBytes(32).toString('hex'), AUTHORIZED_USERS: 'clean@example.com,victim@example.com' };
  const start = () => startService({ dataDir, port, env: { ...env, DATABASE_URL: database?.url } });

  const withAccount = async (trader: SignedIn, account: string) => {
    expect((await trader.json('PUT', '/auth/profile', { brokerage_account: account })).status).toBe(200);
  };
  const reportsOf = async (trader: SignedIn) => {
    const bodies: unknown[] = [];
    for (const path of REPORTS) {
      const response = await trader.fetch(path);
      expect(response.status).toBe(200);
      bodies.push(await response.json());
    }
    return JSON.stringify(bodies);
  };
  const historyOf = async (trader: SignedIn): Promise<{ status: string }[]> => {
    const response = await trader.fetch('/api/upload-history');
    expect(response.status).toBe(200);
    return ((await response.json()) as { history: { status: string }[] }).history;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'sta-crash-'));
    const adminUrl = serverDatabaseUrl();
    database = adminUrl === undefined ? undefined : await createTestDatabase(adminUrl);
    port = await freePort();
  });

  afterAll(async () => {
    await service?.stop();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('leaves the account with all of the import or none of it, and no import half-recorded', async () => {
    service = await start();
    // A trader who imports the files undisturbed: what a complete import gives.
    const clean = await signIn(service, 'clean@example.com');
    await withAccount(clean, 'XXXX-1111');
    const started = Date.now();
    const cleanImport = await clean.fetch('/api/upload-csv', { method: 'POST', headers: { origin: service.url }, body: upload() });
    const cleanText = await cleanImport.text();
    expect(ndjson(cleanText).pop()).toMatchObject({ type: 'success' });
    const importMs = Date.now() - started;
    const complete = await reportsOf(clean);

    const victim = await signIn(service, 'victim@example.com');
    await withAccount(victim, 'XXXX-2222');
    let before = await reportsOf(victim);
    const outcomes: string[] = [];
    for (let attempt = 0; attempt < TRIES; attempt += 1) {
      // Anywhere from the upload's first bytes to a little past a whole import's time.
      const killAfterMs = Math.round(Math.random() * importMs * 1.1);
      const importing = victim
        .fetch('/api/upload-csv', { method: 'POST', headers: { origin: service.url }, body: upload() })
        .then((response) => response.text())
        .catch(() => 'connection lost');
      await new Promise((resolve) => setTimeout(resolve, killAfterMs));
      await service.stop('SIGKILL');
      await importing;
      service = await start();

      const after = await reportsOf(victim);
      const held = after === before ? 'none' : after === complete ? 'all' : 'PART';
      outcomes.push(`${killAfterMs} ms: ${held}`);
      expect(held).not.toBe('PART');
      expect((await historyOf(victim)).map((entry) => entry.status).filter((status) => status !== 'success' && status !== 'failed')).toEqual([]);
      before = after;
    }
    process.stdout.write(`import killed ${TRIES} times (a whole import took ${importMs} ms): ${outcomes.join('; ')}\n`);

    // Whatever the kills left, the next import completes and gives the same reports as the clean one.
    const last = await victim.fetch('/api/upload-csv', { method: 'POST', headers: { origin: service.url }, body: upload() });
    const lastLine = ndjson(await last.text()).pop();
    expect(lastLine).toMatchObject({ type: 'success' });
    // The raw rows were all or nothing too (reports do not show them): the last import adds every row, or none.
    const cleanRows = (ndjson(cleanText).pop() as { stats: { transactions_inserted: number } }).stats.transactions_inserted;
    expect(lastLine.stats.transactions_inserted).toBe(outcomes.some((outcome) => outcome.endsWith('all')) ? 0 : cleanRows);
    expect(await reportsOf(victim)).toBe(complete);
  }, 1_800_000);
});
