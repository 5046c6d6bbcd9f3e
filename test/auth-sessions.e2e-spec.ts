import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Browser } from './support/browser.js';
import { runUntilExit, startService, type RunningService } from './support/service.js';
import { withServiceDatabase } from './support/service-database.js';
import { DEMO_EMAIL, signIn, walkToCallback } from './support/sign-in.js';

const DENIED = { success: false, error: 'Access denied. User not authorized.' };
const UNAUTHENTICATED = { success: false, error: 'Authentication required', redirect_to_login: true };

/**
 * What outlives one process: sessions across restarts, the allow-list changing under a signed-in
 * user, and idle expiry (moved into the past through SQL rather than waited for).
 */
describe('sessions over time', () => {
  const dataDirs: string[] = [];
  const running: RunningService[] = [];

  /** Starts the service on `dataDir` with `env`; on a server database, every start shares the first one's database. */
  const starter = (dataDir: string, env: Record<string, string | undefined>, databaseUrl?: string) => async () => {
    const service = await startService({ dataDir, env: databaseUrl === undefined ? env : { ...env, DATABASE_URL: databaseUrl } });
    running.push(service);
    return service;
  };
  const newDataDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sta-auth-'));
    dataDirs.push(dir);
    return dir;
  };
  const status = async (service: RunningService, cookie: string, path = '/auth/profile') =>
    fetch(`${service.url}${path}`, { headers: { cookie }, redirect: 'manual' });

  afterAll(async () => {
    // Last started first: on a server database the first service owns (and drops) the database.
    for (const service of running.reverse()) await service.stop();
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  });

  it('keeps sessions across a restart, and a removed address is refused at once with 403', async () => {
    const dataDir = await newDataDir();
    const first = await starter(dataDir, { AUTHORIZED_USERS: `${DEMO_EMAIL},bob@example.com` })();
    const demo = await signIn(first, DEMO_EMAIL);
    const bob = await signIn(first, 'bob@example.com');
    expect((await status(first, bob.cookie)).status).toBe(200);

    // The secrets behind the cookie and the built-in provider's key live in DATA_DIR, readable by the owner only.
    expect((await stat(join(dataDir, 'session-secret'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(dataDir, 'dev-idp-signing-key.pem'))).mode & 0o777).toBe(0o600);

    const restart = starter(dataDir, { AUTHORIZED_USERS: DEMO_EMAIL }, first.databaseUrl);
    if (first.databaseUrl === undefined) await first.stop();
    const second = await restart();

    expect((await status(second, demo.cookie)).status).toBe(200);
    for (const path of ['/auth/profile', '/api/trading-calendar/holidays']) {
      const refused = await status(second, bob.cookie, path);
      expect({ status: refused.status, body: await refused.json() }).toEqual({ status: 403, body: DENIED });
    }
    expect((await status(second, bob.cookie, '/')).status).toBe(403);
    await expect(signIn(second, 'bob@example.com')).rejects.toThrow(/403/);
  });

  it('ends a session after the idle time, slides an active one, and refuses a sign-in that took too long', async () => {
    const dataDir = await newDataDir();
    const env = { SESSION_IDLE_MINUTES: '1' };
    const first = await starter(dataDir, env)();
    const restart = starter(dataDir, env, first.databaseUrl);
    const idle = await signIn(first);
    const active = await signIn(first);
    const slow = new Browser();
    const pendingCallback = new URL(await walkToCallback(slow, first.url, DEMO_EMAIL));

    // Two sessions of the demo user, newest last; and the one pending sign-in.
    const moved = await withServiceDatabase(first, restart, async (query) => {
      const sessions = await query('SELECT id FROM sessions ORDER BY created_at');
      expect(sessions).toHaveLength(2);
      await query(`UPDATE sessions SET last_seen_at = now() - interval '2 minutes', expires_at = now() - interval '1 minute' WHERE id = $1`, [sessions[0].id]);
      await query(`UPDATE sessions SET last_seen_at = now() - interval '30 seconds', expires_at = now() + interval '30 seconds' WHERE id = $1`, [sessions[1].id]);
      await query(`UPDATE sign_in_attempts SET expires_at = now() - interval '1 second'`);
      return sessions.map((row) => row.id as string);
    });
    const service = moved.service;
    const [idleId, activeId] = moved.result;

    const expired = await status(service, idle.cookie);
    expect({ status: expired.status, body: await expired.json() }).toEqual({ status: 401, body: UNAUTHENTICATED });
    expect((await status(service, idle.cookie, '/')).headers.get('location')).toBe('/auth/login');

    const slid = await status(service, active.cookie);
    expect(slid.status).toBe(200);
    // The cookie is re-sent with a fresh lifetime along with the server-side expiry.
    expect(slid.headers.getSetCookie().find((header) => header.startsWith('session='))).toMatch(/Max-Age=6\d/);

    const late = await slow.request(`${service.url}${pendingCallback.pathname}${pendingCallback.search}`);
    expect({ status: late.status, body: await late.json() }).toEqual({ status: 400, body: { success: false, error: expect.stringMatching(/took too long and expired/) } });

    const after = await withServiceDatabase(service, restart, (query) =>
      query(`SELECT id, extract(epoch FROM expires_at - now()) AS seconds_left FROM sessions WHERE id = ANY($1)`, [[idleId, activeId]]),
    );
    expect(after.result).toHaveLength(1);
    expect(after.result[0].id).toBe(activeId);
    expect(Number(after.result[0].seconds_left)).toBeGreaterThan(40);
  });

  it('production refuses to start without an identity provider, and so never runs the built-in one', async () => {
    const { code, output } = await runUntilExit({ NODE_ENV: 'production', PUBLIC_URL: 'https://journal.example.com', SESSION_SECRET: 'x'.repeat(40) });
    expect(code).not.toBe(0);
    expect(output.trim()).toBe('Invalid configuration: OIDC_ISSUER is required in production (the built-in development identity provider is refused there)');
  });

  it('production refuses an identity provider reached without TLS', async () => {
    const { code, output } = await runUntilExit({
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://journal.example.com',
      SESSION_SECRET: 'x'.repeat(40),
      OIDC_ISSUER: 'http://idp.example.com',
      OIDC_CLIENT_ID: 'journal',
      OIDC_CLIENT_SECRET: 'secret',
    });
    expect(code).not.toBe(0);
    expect(output).toMatch(/Invalid configuration: OIDC_ISSUER must be an https:\/\/ address in production/);
  });
});
