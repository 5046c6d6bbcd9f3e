import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Browser, firstForm } from './support/browser.js';
import { freePort } from './support/free-port.js';
import { startService, type RunningService } from './support/service.js';
import { DEMO_EMAIL } from './support/sign-in.js';
import { createTestDatabase, serverDatabaseUrl, type TestDatabase } from './support/test-database.js';

/**
 * The built-in identity provider keeps its state (the interaction a login form belongs to, codes,
 * grants) in the service's database: a sign-in begun before a restart finishes after it.
 */
describe('the built-in identity provider', () => {
  let dataDir: string;
  let database: TestDatabase | undefined;
  let service: RunningService | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'sta-idp-'));
    const adminUrl = serverDatabaseUrl();
    database = adminUrl === undefined ? undefined : await createTestDatabase(adminUrl);
  });

  afterAll(async () => {
    await service?.stop();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('finishes a sign-in begun before the service restarted', async () => {
    const port = await freePort();
    // The same data directory (signing key, embedded database) or the same server database, and the same address.
    const start = () => startService({ dataDir, port, env: { DATABASE_URL: database?.url } });
    const isCallback = (next: URL) => next.pathname === '/auth/callback';
    service = await start();
    const browser = new Browser();
    const toLogin = await browser.follow(`${service.url}/login`, {}, isCallback);
    const loginPage = toLogin.hops[toLogin.hops.length - 1];
    const form = firstForm(await loginPage.response.text(), loginPage.url);
    expect(form?.fields).toHaveProperty('email');

    await service.stop();
    service = await start();

    const submitted = await browser.follow(
      form!.action,
      {
        method: form!.method,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...form!.fields, email: DEMO_EMAIL }).toString(),
      },
      isCallback,
    );
    expect(submitted.pending).toBeDefined();
    const callback = await browser.request(submitted.pending!);
    expect(callback.status).toBe(302);
    const profile = await browser.request(`${service.url}/auth/profile`);
    expect(profile.status).toBe(200);
    expect(await profile.json()).toMatchObject({ success: true, profile: { email: DEMO_EMAIL } });
  });
});
