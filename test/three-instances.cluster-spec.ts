import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeFinnhub, type FakeFinnhub } from './support/fake-finnhub.js';
import { freePort } from './support/free-port.js';
import { startService, waitUntil, type RunningService } from './support/service.js';
import { signIn, type SignedIn } from './support/sign-in.js';
import { createTestDatabase, serverDatabaseUrl, type TestDatabase } from './support/test-database.js';
import { exampleFiles, ndjson, uploadForm } from './support/uploads.js';

const REQUESTS_PER_MINUTE = 60;
const HOLDINGS = 150;
const LOAD_CONNECTIONS = 64;

/**
 * Three instances of the service on one PostgreSQL database and one Redis, behind HAProxy (Debian's
 * package), all on loopback ports, as in production behind a load balancer (issue 15). Run by
 * `npm run test:cluster` with DATABASE_URL (a CI step of its own: it takes a few minutes, mostly
 * waiting for the market-data budget's minute and the end-of-day job's next run).
 */
const onServer = serverDatabaseUrl() ? describe : describe.skip;

onServer('three instances behind a load balancer', () => {
  let database: TestDatabase;
  let finnhub: FakeFinnhub;
  let dataDir: string;
  let balancer: ChildProcess;
  let lbUrl: string;
  const instances: RunningService[] = [];

  /** The signed-in trader's cookie sent to one instance directly, bypassing the balancer. */
  const at = (instance: RunningService, trader: SignedIn, path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('cookie', trader.cookie);
    headers.set('origin', lbUrl);
    return fetch(`${instance.url}${path}`, { ...init, headers });
  };

  beforeAll(async () => {
    database = await createTestDatabase(serverDatabaseUrl()!);
    finnhub = await startFakeFinnhub();
    for (let index = 0; index < HOLDINGS; index += 1) finnhub.setQuote(`S${index}`, { c: 10 + index });
    finnhub.setQuote('AAPL', { c: 190.5 });
    // One data directory for the three: the built-in provider's signing key must be the same everywhere.
    dataDir = await mkdtemp(join(tmpdir(), 'sta-cluster-'));
    const lbPort = await freePort();
    lbUrl = `http://127.0.0.1:${lbPort}`;
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      PUBLIC_URL: lbUrl,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      AUTHORIZED_USERS: 'trader@example.com,holder@example.com',
      FINNHUB_API_KEY: finnhub.token,
      FINNHUB_BASE_URL: finnhub.url,
      MARKET_DATA_REQUESTS_PER_MINUTE: String(REQUESTS_PER_MINUTE),
      // The end-of-day snapshot is due only outside market hours: the instances' clocks read 03:00 in
      // New York (08:00 UTC) of today, before the open, whenever the suite runs.
      TEST_CLOCK_OFFSET_MINUTES: String(Math.round((Date.parse(`${new Date().toISOString().slice(0, 10)}T08:00:00Z`) - Date.now()) / 60_000)),
    };
    for (let index = 0; index < 3; index += 1) instances.push(await startService({ dataDir, env }));

    const config = join(dataDir, 'haproxy.cfg');
    await writeFile(
      config,
      [
        'defaults',
        '  mode http',
        '  timeout connect 1s',
        '  timeout client 120s',
        '  timeout server 120s',
        '  timeout check 2s',
        // A server that refuses or drops a connection: try another (idempotent requests only).
        '  retries 3',
        '  option redispatch 1',
        '  retry-on conn-failure empty-response',
        'frontend web',
        `  bind 127.0.0.1:${lbPort}`,
        '  default_backend services',
        'backend services',
        '  balance roundrobin',
        '  option httpchk GET /health/ready',
        '  default-server inter 500ms fall 2 rise 2',
        ...instances.map((instance, index) => `  server s${index} ${new URL(instance.url).host} check`),
        '',
      ].join('\n'),
    );
    balancer = spawn('haproxy', ['-f', config, '-db'], { stdio: ['ignore', 'ignore', 'inherit'] });
    await waitUntil(async () => (await fetch(`${lbUrl}/health/ready`).catch(() => null))?.status === 200, 30_000);
  });

  afterAll(async () => {
    balancer?.kill('SIGKILL');
    for (const instance of instances) await instance.stop();
    await database?.drop();
    await finnhub?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('signs in through the balancer, imports through one instance, reads through another; a sign-out on one is honoured by all within 1 s', async () => {
    const trader = await signIn({ url: lbUrl }, 'trader@example.com');
    const [first, second, third] = instances;
    const account = await at(first, trader, '/auth/profile', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ brokerage_account: 'XXXX-1111' }),
    });
    expect(account.status).toBe(200);
    const imported = await at(second, trader, '/api/upload-csv', { method: 'POST', body: uploadForm(exampleFiles()) });
    expect(ndjson(await imported.text()).pop()).toMatchObject({ type: 'success', stats: { transactions_inserted: 75 } });
    const months = await at(third, trader, '/api/months');
    expect(months.status).toBe(200);
    const body = (await months.json()) as { months: unknown[] };
    expect(body.months.length).toBeGreaterThan(0);
    expect(await (await at(first, trader, '/api/months')).json()).toEqual(body);

    expect((await at(first, trader, '/logout', { method: 'POST', redirect: 'manual' })).status).toBe(302);
    const signedOut = Date.now();
    await waitUntil(async () => {
      const answers = await Promise.all([second, third].map((instance) => at(instance, trader, '/api/months')));
      return answers.every((answer) => answer.status === 401);
    }, 1000);
    process.stdout.write(`sign-out honoured by the other two instances after ${Date.now() - signedOut} ms\n`);
  });

  it('takes the end-of-day snapshot once, whichever instance runs the job', async () => {
    const holder = await signIn({ url: lbUrl }, 'holder@example.com');
    const created = await holder.fetch('/api/portfolio/holdings', {
      method: 'POST',
      headers: { origin: lbUrl, 'content-type': 'application/json' },
      body: JSON.stringify({ symbol: 'AAPL', holding_type: 'stock', shares: 2, average_cost: 150 }),
    });
    expect(created.status).toBe(201);
    // Every instance runs the job at second 30 of each minute; on their clocks (03:00 in New York, see
    // TEST_CLOCK_OFFSET_MINUTES) the last trading day has closed and the next has not opened.
    const endOfDay = async () => {
      const body = (await (await holder.fetch('/api/portfolio/history')).json()) as { history: { snapshot_type: string }[] };
      return body.history.filter((snapshot) => snapshot.snapshot_type === 'EOD');
    };
    await waitUntil(async () => (await endOfDay()).length > 0, 90_000);
    await new Promise((resolve) => setTimeout(resolve, 61_000)); // one more run of the job everywhere
    expect(await endOfDay()).toHaveLength(1);
  });

  it(`shares one market-data budget: ${HOLDINGS} holdings re-priced through all three stay within ${REQUESTS_PER_MINUTE} calls a minute`, async () => {
    const trader = await signIn({ url: lbUrl }, 'trader@example.com');
    const csv = ['symbol,shares,average_cost', ...Array.from({ length: HOLDINGS }, (_, index) => `S${index},1,10`)].join('\n');
    const form = new FormData();
    form.append('csv_file', new Blob([csv], { type: 'text/csv' }), 'holdings.csv');
    expect((await trader.fetch('/api/portfolio/upload-csv', { method: 'POST', headers: { origin: lbUrl }, body: form })).status).toBe(200);

    finnhub.reset();
    const stop = new AbortController();
    const refreshes = instances.map((instance) =>
      at(instance, trader, '/api/portfolio/refresh-prices', { method: 'POST', signal: stop.signal }).catch(() => null),
    );
    await new Promise((resolve) => setTimeout(resolve, 65_000));
    stop.abort();
    await Promise.all(refreshes);
    const quotes = finnhub.requestsFor('/quote');
    const busiestMinute = finnhub.maxInAnyWindow(60_000);
    process.stdout.write(`market data: ${quotes.length} provider calls in 65 s across three instances, at most ${busiestMinute} in any minute\n`);
    expect(busiestMinute).toBeLessThanOrEqual(REQUESTS_PER_MINUTE);
    expect(busiestMinute).toBeGreaterThanOrEqual(REQUESTS_PER_MINUTE * 0.6);
  });

  it(`routes around an instance killed under ${LOAD_CONNECTIONS}-connection load: only requests in flight on it fail`, async () => {
    const trader = await signIn({ url: lbUrl }, 'trader@example.com');
    let running = true;
    let answered = 0;
    const failures: { status: number; afterKill: number }[] = [];
    let killedAt = 0;
    const loop = async () => {
      while (running) {
        const response = await trader.fetch('/api/months').catch(() => null);
        if (response !== null) await response.arrayBuffer();
        if (response?.status === 200) answered += 1;
        else failures.push({ status: response?.status ?? 0, afterKill: killedAt === 0 ? -1 : Date.now() - killedAt });
      }
    };
    const load = Array.from({ length: LOAD_CONNECTIONS }, loop);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const victim = instances.splice(1, 1)[0];
    killedAt = Date.now();
    await victim.stop('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 4000));
    const answeredAfterKill = answered;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    running = false;
    await Promise.all(load);

    process.stdout.write(
      `killed one of three instances under ${LOAD_CONNECTIONS} connections: ${answered} requests answered, ` +
        `${failures.length} failed (${JSON.stringify(failures.slice(0, 10))})\n`,
    );
    // Each connection had at most one request in flight when the instance died; none failed before it.
    expect(failures.length).toBeLessThanOrEqual(LOAD_CONNECTIONS);
    expect(failures.every((failure) => failure.afterKill >= 0)).toBe(true);
    // And the balancer goes on with the other two: requests kept being answered after the kill.
    expect(answered).toBeGreaterThan(answeredAfterKill);
  });
});
