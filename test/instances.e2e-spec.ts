import { randomBytes } from 'node:crypto';
import { startService, waitUntil, type RunningService } from './support/service.js';
import { signIn, DEMO_EMAIL, type SignedIn } from './support/sign-in.js';
import { withClient } from './support/test-database.js';
import { exampleFiles, ndjson, uploadForm } from './support/uploads.js';

const UNAUTHENTICATED = { success: false, error: 'Authentication required', redirect_to_login: true };
/** How long another instance may take to hear of a change (a notification arrives within milliseconds). */
const PROMPTLY_MS = 2000;

/**
 * Two instances of the service on one PostgreSQL database, as behind a load balancer. Each keeps
 * in-process copies of sessions and report versions; the database's notifications keep them
 * correct: what one instance (or SQL) changes, the other honours promptly. Server database only.
 */
const onServer = process.env.DATABASE_URL ? describe : describe.skip;

onServer('several instances on one database', () => {
  let first: RunningService;
  let second: RunningService;
  const env = { SESSION_SECRET: randomBytes(32).toString('hex'), AUTHORIZED_USERS: `${DEMO_EMAIL},bob@example.com` };

  beforeAll(async () => {
    first = await startService({ env });
    second = await startService({ env: { ...env, DATABASE_URL: first.databaseUrl } });
  });

  afterAll(async () => {
    // The first service owns (and drops) the database.
    await second?.stop();
    await first?.stop();
  });

  const sql = (text: string, params?: unknown[]) => withClient(first.databaseUrl!, async (client) => (await client.query(text, params)).rows);
  const get = (service: RunningService, user: SignedIn, path = '/api/months') => fetch(`${service.url}${path}`, { headers: { cookie: user.cookie } });
  /** Requests on both instances until each has the session in its copy. */
  const warm = async (user: SignedIn) => {
    for (const service of [first, second]) for (let i = 0; i < 3; i += 1) expect((await get(service, user)).status).toBe(200);
  };
  const refusedOn = async (service: RunningService, user: SignedIn) => {
    await waitUntil(async () => (await get(service, user)).status === 401, PROMPTLY_MS);
    const response = await get(service, user);
    expect({ status: response.status, body: await response.json() }).toEqual({ status: 401, body: UNAUTHENTICATED });
  };

  it('a sign-out on one instance ends the session on the other', async () => {
    const user = await signIn(first);
    await warm(user);
    expect((await user.fetch('/logout', { redirect: 'manual' })).status).toBe(302);
    expect((await get(first, user)).status).toBe(401);
    await refusedOn(second, user);
  });

  it('a session deleted or expired in the database is refused by every instance', async () => {
    const revoked = await signIn(second, 'bob@example.com');
    const expired = await signIn(first);
    await warm(revoked);
    await warm(expired);
    await sql(`DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE email = 'bob@example.com')`);
    await sql(`UPDATE sessions SET last_seen_at = now() - interval '3 hours', expires_at = now() - interval '1 hour'`);
    for (const service of [first, second]) {
      await refusedOn(service, revoked);
      await refusedOn(service, expired);
    }
  });

  it('an import through one instance shows in the other’s reports', async () => {
    const user = await signIn(first);
    await warm(user);
    const before = await (await get(second, user)).json();
    expect(before.months).toEqual([]);
    expect((await user.json('PUT', '/auth/profile', { brokerage_account: 'XXXX-1234' })).status).toBe(200);
    const upload = await user.fetch('/api/upload-csv', { method: 'POST', body: uploadForm(exampleFiles()) });
    expect(ndjson(await upload.text()).at(-1)).toMatchObject({ type: 'success' });
    // The instance that imported answers with the new data at once; the other within moments.
    const onFirst = await (await get(first, user)).json();
    expect(onFirst.months.length).toBeGreaterThan(0);
    await waitUntil(async () => (await (await get(second, user)).json()).months.length > 0, PROMPTLY_MS);
    expect(await (await get(second, user)).json()).toEqual(onFirst);
  });

  it('while notifications are down, sessions are read from the database; a change made meanwhile is not missed', async () => {
    const user = await signIn(first);
    await warm(user);
    const database = new URL(first.databaseUrl!).pathname.slice(1);
    // Cut both instances' notification connections, then end the session while nobody listens.
    await sql(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'notifications' AND datname = $1`, [database]);
    await sql(`DELETE FROM sessions`);
    for (const service of [first, second]) {
      const response = await get(service, user);
      expect(response.status).toBe(401);
    }
    await waitUntil(async () => (await sql(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'notifications' AND datname = $1`, [database]))[0].n === 2, 10_000);
    for (const service of [first, second]) expect((await get(service, user)).status).toBe(401);
    expect(second.output()).toMatch(/database notifications lost/);

    // Listening again: copies are made and kept correct once more.
    const again = await signIn(second);
    await warm(again);
    expect((await again.fetch('/logout', { redirect: 'manual' })).status).toBe(302);
    await refusedOn(first, again);
  });
});
