import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { freePort } from './support/free-port.js';
import { startService, waitUntil, type RunningService } from './support/service.js';
import { TcpProxy } from './support/tcp-proxy.js';
import { signIn } from './support/sign-in.js';
import { createTestDatabase, serverDatabaseUrl, withClient, type TestDatabase } from './support/test-database.js';
import { exampleFiles, ndjson, uploadForm, uploadWithFaultAtRowWrite } from './support/uploads.js';
import { generateTradingHistory } from '../bench/support/trading-history.mjs';

/**
 * The service talks to its database through a proxy the test can cut: the database "goes away"
 * and "comes back" while the service keeps running.
 */
describe('when the database goes away and comes back', () => {
  let target: { host: string; port: number; database: string };
  let serverDatabase: TestDatabase | undefined;
  let embedded: { db: PGlite; server: PGLiteSocketServer } | undefined;

  beforeAll(async () => {
    const adminUrl = serverDatabaseUrl();
    if (adminUrl) {
      serverDatabase = await createTestDatabase(adminUrl);
      const url = new URL(serverDatabase.url);
      target = { host: url.hostname, port: Number(url.port || 5432), database: url.pathname.slice(1) };
    } else {
      // No server configured: a real PostgreSQL (PGlite) on a loopback socket plays the server.
      const db = await PGlite.create();
      const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 100 });
      await server.start();
      embedded = { db, server };
      target = { host: '127.0.0.1', port: Number(server.getServerConn().split(':').pop()), database: 'postgres' };
    }
  });

  afterAll(async () => {
    await serverDatabase?.drop();
    await embedded?.server.stop();
    await embedded?.db.close();
  });

  const databaseUrlThrough = (proxy: TcpProxy) => {
    const user = serverDatabase ? new URL(serverDatabase.url).username || 'postgres' : 'postgres';
    return `postgres://${user}@127.0.0.1:${proxy.port}/${target.database}`;
  };
  const status = async (service: RunningService, path: string) => (await fetch(`${service.url}${path}`)).status;

  it('reports 503 on readiness and detail while it is down, and recovers without a restart', async () => {
    const proxy = await TcpProxy.open(await freePort(), target);
    const service = await startService({ env: { DATABASE_URL: databaseUrlThrough(proxy) } });
    try {
      expect(await status(service, '/health/ready')).toBe(200);
      const trader = await signIn(service);

      await proxy.cut();
      // The contract's answer while the database is away; the probe says why without the driver's words.
      const months = await trader.fetch('/api/months');
      expect([months.status, await months.json()]).toEqual([500, { success: false, error: 'Database connection failed' }]);
      const ready = (await (await fetch(`${service.url}/health/ready`)).json()) as { reason: string };
      expect(ready.reason).toMatch(/^database (unavailable|not answering in time)$/);
      const detailed = await fetch(`${service.url}/health/detailed`);
      expect(detailed.status).toBe(503);
      const body = (await detailed.json()) as { status: string; checks: Record<string, { status: string; message: string }> };
      expect(body.status).toBe('degraded');
      expect(body.checks.database.status).toBe('unhealthy');
      expect(body.checks.database.message).toMatch(/Database connection failed/);
      expect(await status(service, '/health/ready')).toBe(503);
      expect(await status(service, '/health/live')).toBe(200);

      await proxy.resume();
      await waitUntil(async () => (await status(service, '/health/ready')) === 200, 20000);
      expect(await status(service, '/health/detailed')).toBe(200);
    } finally {
      await service.stop();
      await proxy.cut();
    }
  });

  /**
   * A PostgreSQL server restarting under an import and reads, as the service sees it: every connection
   * drops, new ones are refused, then accepted again. Only with a server: the embedded stand-in (PGlite
   * behind a socket server) cannot take the import's COPY, and the embedded engine itself has no
   * connection to lose.
   */
  (serverDatabaseUrl() ? it : it.skip)('fails an import caught by a restart as a whole, answers reads with 500 meanwhile, and takes the next import', async () => {
    const proxy = await TcpProxy.open(await freePort(), target);
    const service = await startService({ env: { DATABASE_URL: databaseUrlThrough(proxy) } });
    try {
      const trader = await signIn(service);
      expect((await trader.json('PUT', '/auth/profile', { brokerage_account: 'XXXX-1234' })).status).toBe(200);
      const history = generateTradingHistory({ trades: 20_000, dividends: 500, symbols: 40, brokerLotShare: 0.2, seed: 9 });
      // The database "restarts" once the import writes its rows: every connection drops, new ones are refused.
      const { text } = await uploadWithFaultAtRowWrite(trader, service.url, history, () => proxy.cut());
      const last = ndjson(text).pop();
      expect(last.type).toBe('error');

      // While it is down: reads answer the contract's 500, readiness 503, liveness 200.
      const months = await trader.fetch('/api/months');
      expect([months.status, await months.json()]).toEqual([500, { success: false, error: 'Database connection failed' }]);
      expect(await status(service, '/health/ready')).toBe(503);
      expect(await status(service, '/health/live')).toBe(200);

      // Back up: ready again without a restart of the service, and nothing of the import was kept.
      await proxy.resume();
      await waitUntil(async () => (await status(service, '/health/ready')) === 200, 20000);
      expect(((await (await trader.fetch('/api/months')).json()) as { months: unknown[] }).months).toEqual([]);
      const uploads = (await (await trader.fetch('/api/upload-history')).json()) as { history: { status: string }[] };
      expect(uploads.history.map((upload) => upload.status)).not.toContain('processing');
      expect(uploads.history.map((upload) => upload.status)).not.toContain('completed');
      expect(service.output()).not.toContain('unhandled promise rejection');

      const after = await trader.fetch('/api/upload-csv', { method: 'POST', headers: { origin: service.url }, body: uploadForm(exampleFiles()) });
      const outcome = ndjson(await after.text()).pop();
      expect(outcome).toMatchObject({ type: 'success', stats: { transactions_inserted: 75 } });
      expect(((await (await trader.fetch('/api/months')).json()) as { months: unknown[] }).months.length).toBeGreaterThan(0);
    } finally {
      await service.stop();
      await proxy.cut();
    }
  }, 180_000);

  it('starts live but not ready when the database is unreachable, and becomes ready when it appears', async () => {
    const proxy = await TcpProxy.open(await freePort(), target);
    const url = databaseUrlThrough(proxy);
    await proxy.cut();
    const service = await startService({ env: { DATABASE_URL: url }, waitFor: 'live' });
    try {
      expect(await status(service, '/health/ready')).toBe(503);
      await proxy.resume();
      await waitUntil(async () => (await status(service, '/health/ready')) === 200, 20000);
    } finally {
      await service.stop();
      await proxy.cut();
    }
  });

  (serverDatabaseUrl() ? it : it.skip)('answers “Database connection failed” when its database is dropped or refuses connections', async () => {
    const database = await createTestDatabase(serverDatabaseUrl()!);
    const name = new URL(database.url).pathname.slice(1);
    const service = await startService({ env: { DATABASE_URL: database.url } });
    const admin = serverDatabaseUrl()!;
    try {
      const trader = await signIn(service);
      // 55000: the server no longer accepts connections to it.
      await withClient(admin, (client) => client.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`));
      await withClient(admin, (client) => client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]));
      const refused = await trader.fetch('/api/months');
      expect([refused.status, await refused.json()]).toEqual([500, { success: false, error: 'Database connection failed' }]);
      // 3D000: the database is gone.
      await database.drop();
      const gone = await trader.fetch('/api/months');
      expect([gone.status, await gone.json()]).toEqual([500, { success: false, error: 'Database connection failed' }]);
      const ready = await fetch(`${service.url}/health/ready`);
      const body = await ready.text();
      expect(ready.status).toBe(503);
      expect(JSON.parse(body).reason).toBe('database unavailable');
      expect(body).not.toContain(name);
      expect(await status(service, '/health/live')).toBe(200);
    } finally {
      await service.stop();
      await database.drop();
    }
  });
});
