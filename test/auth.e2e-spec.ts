import { randomBytes } from 'node:crypto';
import { Browser } from './support/browser.js';
import { startService, type RunningService } from './support/service.js';
import { DEMO_EMAIL, signIn, walkToCallback } from './support/sign-in.js';

const UNAUTHENTICATED = { success: false, error: 'Authentication required', redirect_to_login: true };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The built-in development identity provider (a real OpenID Provider served by the service itself). */
describe('sign-in with the built-in identity provider', () => {
  let service: RunningService;

  beforeAll(async () => {
    service = await startService();
  });
  afterAll(async () => {
    await service?.stop();
  });

  const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as Record<string, any> });
  const get = (path: string, init?: RequestInit) => fetch(`${service.url}${path}`, { redirect: 'manual', ...init });
  const withCookie = (cookie: string, path: string, init: RequestInit = {}) =>
    get(path, { ...init, headers: { ...(init.headers as Record<string, string>), cookie } });
  const publicUrl = () => service.url.replace('127.0.0.1', 'localhost');

  describe('without a session', () => {
    it('API paths answer 401 with the contract body', async () => {
      expect(await json(await get('/auth/profile'))).toEqual({ status: 401, body: UNAUTHENTICATED });
      expect(await json(await get('/api/trading-calendar/holidays?year=2025'))).toEqual({ status: 401, body: UNAUTHENTICATED });
      expect(await json(await get('/auth/profile', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"brokerage_account":"1"}' }))).toEqual({
        status: 401,
        body: UNAUTHENTICATED,
      });
    });

    it('page paths redirect to the login page', async () => {
      const response = await get('/');
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('/auth/login');
    });

    it('health and the market metrics stay public', async () => {
      expect((await get('/health')).status).toBe(200);
      expect((await get('/api/trading-calendar/metrics')).status).toBe(200);
    });

    it('the login page explains the development provider and what to type', async () => {
      const response = await get('/auth/login');
      const html = await response.text();
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(html).toContain('href="/login"');
      expect(html).toMatch(/development provider/i);
      expect(html).toContain(DEMO_EMAIL);
    });

    it('a garbage, forged or tampered cookie is no session: 401', async () => {
      const forged = `${randomBytes(64).toString('base64')};${randomBytes(24).toString('base64')}`;
      const { cookie } = await signIn(service);
      const value = decodeURIComponent(cookie.slice('session='.length));
      const tampered = `${value.slice(0, 10)}${value[10] === 'A' ? 'B' : 'A'}${value.slice(11)}`;
      for (const bad of ['session=garbage', `session=${encodeURIComponent(forged)}`, `session=${encodeURIComponent(tampered)}`]) {
        expect(await json(await withCookie(bad, '/auth/profile'))).toEqual({ status: 401, body: UNAUTHENTICATED });
      }
    });
  });

  describe('/login', () => {
    it('redirects to the provider with state, nonce and a PKCE challenge, and keeps the state in the encrypted cookie', async () => {
      const browser = new Browser();
      const response = await browser.request(`${service.url}/login`);
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(`${publicUrl()}/dev-idp/auth`);
      const params = location.searchParams;
      expect(params.get('response_type')).toBe('code');
      expect(params.get('redirect_uri')).toBe(`${publicUrl()}/auth/callback`);
      expect(params.get('scope')).toBe('openid email profile');
      expect(params.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(params.get('nonce')).toBeTruthy();
      expect(params.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(params.get('code_challenge_method')).toBe('S256');
      const cookie = browser.cookie('session')!;
      expect(cookie).toBeDefined();
      expect(decodeURIComponent(cookie)).not.toContain(params.get('state'));
    });
  });

  describe('a full sign-in', () => {
    it('ends in a session cookie (HttpOnly, SameSite=Lax, not Secure outside production) and 302 to /', async () => {
      const browser = new Browser();
      const callback = await walkToCallback(browser, service.url, DEMO_EMAIL);
      const beforeSignIn = browser.cookie('session');
      const response = await browser.request(callback);
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('/');
      const setCookie = response.headers.getSetCookie().find((header) => header.startsWith('session='))!;
      expect(setCookie).toMatch(/; HttpOnly/);
      expect(setCookie).toMatch(/; SameSite=Lax/);
      expect(setCookie).toMatch(/; Path=\//);
      expect(setCookie).not.toMatch(/; Secure/i);
      expect(browser.cookie('session')).not.toBe(beforeSignIn);

      const home = await browser.request(`${service.url}/`);
      expect(home.status).toBe(200);
      // `/` is the web app (apps/web, served by apps/api/src/web) for a signed-in browser.
      expect(home.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await home.text()).toContain('<title>Trading journal</title>');
      const login = await browser.request(`${service.url}/auth/login`);
      expect(login.status).toBe(302);
      expect(login.headers.get('location')).toBe('/');
    });

    it('signing in again gives a new session and ends the old one (no fixation)', async () => {
      const first = await signIn(service);
      const callback = await walkToCallback(first.browser, service.url, DEMO_EMAIL);
      expect((await first.browser.request(callback)).status).toBe(302);
      const second = `session=${first.browser.cookie('session')}`;
      expect(second).not.toBe(first.cookie);
      expect((await withCookie(first.cookie, '/auth/profile')).status).toBe(401);
      expect((await withCookie(second, '/auth/profile')).status).toBe(200);
    });
  });

  describe('the profile', () => {
    // Runs before anything sets the demo user's account (tests run in file order).
    it('shows who is signed in, and the brokerage account round-trips', async () => {
      const user = await signIn(service, 'Demo@Example.COM');
      const before = await json(await user.fetch('/auth/profile'));
      expect(before).toEqual({
        status: 200,
        body: {
          success: true,
          profile: {
            email: DEMO_EMAIL,
            name: 'demo',
            brokerage_account: null,
            account_id: null,
            created_at: expect.stringMatching(ISO),
            last_login: expect.stringMatching(ISO),
          },
        },
      });

      const put = (body: unknown, headers: Record<string, string> = {}) =>
        user.fetch('/auth/profile', { method: 'PUT', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      const set = await json(await put({ brokerage_account: '  1234-5678 ' }));
      expect(set.status).toBe(200);
      expect(set.body.profile).toMatchObject({ email: DEMO_EMAIL, brokerage_account: '1234-5678', account_id: expect.any(Number) });
      const accountId = set.body.profile.account_id as number;
      expect((await json(await user.fetch('/auth/profile'))).body.profile).toMatchObject({ brokerage_account: '1234-5678', account_id: accountId });

      const changed = await json(await put({ brokerage_account: 'XXXX-9876' }, { origin: publicUrl() }));
      expect(changed.body.profile).toMatchObject({ brokerage_account: 'XXXX-9876', account_id: accountId });
    });

    it.each([
      [{ brokerage_account: '' }, /^brokerage_account must not be empty$/],
      [{ brokerage_account: '   ' }, /^brokerage_account must not be empty$/],
      [{ brokerage_account: 'x'.repeat(33) }, /^brokerage_account must be at most 32 characters/],
      [{ brokerage_account: '12<script>' }, /^brokerage_account may contain only/],
      [{ brokerage_account: 12345678 }, /^brokerage_account is required, as a string$/],
      [{}, /^brokerage_account is required, as a string$/],
      [{ brokerage_account: '1', admin: true }, /admin should not exist/],
    ])('PUT %j is a 400 naming the field', async (body, message) => {
      const user = await signIn(service);
      const response = await json(await user.fetch('/auth/profile', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
      expect(response.status).toBe(400);
      expect(response.body.success).toBe(false);
      expect(response.body.error).toMatch(message);
    });
  });

  describe('cross-site requests', () => {
    it('a PUT from another origin is refused with 403 and changes nothing', async () => {
      const user = await signIn(service);
      const put = (headers: Record<string, string>) =>
        user.fetch('/auth/profile', { method: 'PUT', headers: { 'content-type': 'application/json', ...headers }, body: '{"brokerage_account":"EVIL-1"}' });
      const crossSite: Record<string, string>[] = [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site', origin: 'http://localhost:1' }];
      for (const headers of crossSite) {
        const refused = await json(await put(headers));
        expect(refused.status).toBe(403);
        expect(refused.body).toEqual({ success: false, error: expect.stringMatching(/^Cross-origin request detected/) });
      }
      expect((await json(await user.fetch('/auth/profile'))).body.profile.brokerage_account).not.toBe('EVIL-1');
      // The same page's own requests pass: same-origin fetch metadata, or an Origin equal to PUBLIC_URL.
      expect((await put({ 'sec-fetch-site': 'same-origin' })).status).toBe(200);
      expect((await put({ origin: publicUrl() })).status).toBe(200);
    });

    it('a cross-site POST /logout is refused and the session survives', async () => {
      const user = await signIn(service);
      expect((await user.fetch('/logout', { method: 'POST', headers: { origin: 'https://evil.example' }, redirect: 'manual' })).status).toBe(403);
      expect((await user.fetch('/auth/profile')).status).toBe(200);
    });
  });

  describe('the callback refuses', () => {
    const callbackOf = async (email = DEMO_EMAIL) => {
      const browser = new Browser();
      const url = new URL(await walkToCallback(browser, service.url, email));
      return { browser, url };
    };
    const expectNoSession = async (browser: Browser) => {
      expect((await browser.request(`${service.url}/auth/profile`)).status).toBe(401);
    };

    it('a missing state: 400, no session', async () => {
      const { browser, url } = await callbackOf();
      url.searchParams.delete('state');
      const response = await json(await browser.request(url.toString()));
      expect(response).toEqual({ status: 400, body: { success: false, error: expect.stringMatching(/state is missing/) } });
      await expectNoSession(browser);
    });

    it('a missing code: 400, no session', async () => {
      const { browser, url } = await callbackOf();
      url.searchParams.delete('code');
      const response = await json(await browser.request(url.toString()));
      expect(response).toEqual({ status: 400, body: { success: false, error: expect.stringMatching(/authorization code is missing/) } });
      await expectNoSession(browser);
    });

    it('a tampered state: 400, no session', async () => {
      const { browser, url } = await callbackOf();
      const state = url.searchParams.get('state')!;
      url.searchParams.set('state', `${state.slice(0, -1)}${state.endsWith('A') ? 'B' : 'A'}`);
      const response = await json(await browser.request(url.toString()));
      expect(response).toEqual({ status: 400, body: { success: false, error: expect.stringMatching(/state is unknown or already used/) } });
      await expectNoSession(browser);
    });

    it('a replayed callback: the first one signs in, the replay is a 400', async () => {
      const { browser, url } = await callbackOf();
      expect((await browser.request(url.toString())).status).toBe(302);
      const replay = new Browser();
      expect(await json(await replay.request(url.toString()))).toEqual({ status: 400, body: { success: false, error: expect.stringMatching(/unknown or already used/) } });
      expect(await json(await browser.request(url.toString()))).toEqual({ status: 400, body: { success: false, error: expect.stringMatching(/unknown or already used/) } });
      await expectNoSession(replay);
    });

    it("another browser's callback (login CSRF): 400, and that state is spent", async () => {
      const { browser: attacker, url } = await callbackOf();
      const victim = new Browser();
      await victim.request(`${service.url}/login`);
      expect(await json(await victim.request(url.toString()))).toEqual({ status: 400, body: { success: false, error: expect.stringMatching(/does not belong to this browser/) } });
      await expectNoSession(victim);
      expect((await attacker.request(url.toString())).status).toBe(400);
    });

    it("the provider's error (the user cancelled): 400, no session", async () => {
      const browser = new Browser();
      const login = await browser.request(`${service.url}/login`);
      const state = new URL(login.headers.get('location')!).searchParams.get('state')!;
      const response = await json(await browser.request(`${service.url}/auth/callback?error=access_denied&error_description=cancelled&state=${state}`));
      expect(response).toEqual({ status: 400, body: { success: false, error: 'Sign-in refused: cancelled' } });
      await expectNoSession(browser);
    });

    it('an address off the allow-list, in a browser: 403 with a page that names the address and offers another sign-in', async () => {
      const { browser, url } = await callbackOf('intruder@example.com');
      const response = await browser.request(url.toString(), { headers: { accept: 'text/html,application/xhtml+xml' } });
      expect(response.status).toBe(403);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const page = await response.text();
      expect(page).toContain('The address <strong>intruder@example.com</strong> is not allowed to use this service.');
      expect(page).toContain('<a class="button" href="/login">Sign in with another address</a>');
      await expectNoSession(browser);
    });

    it('an address off the allow-list: 403 with the contract body, no session', async () => {
      const { browser, url } = await callbackOf('intruder@example.com');
      const response = await browser.request(url.toString());
      expect(await json(response)).toEqual({ status: 403, body: { success: false, error: 'Access denied. User not authorized.' } });
      expect(response.headers.getSetCookie().join('\n')).not.toMatch(/session=[^;]{200,}/);
      await expectNoSession(browser);
    });
  });

  describe('logout', () => {
    it.each(['GET', 'POST'])('%s /logout deletes the server-side session: the old cookie no longer works', async (method) => {
      const user = await signIn(service);
      expect((await user.fetch('/auth/profile')).status).toBe(200);
      const response = await user.fetch('/logout', { method, redirect: 'manual' });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('/auth/login');
      expect(response.headers.getSetCookie().find((header) => header.startsWith('session='))).toMatch(/^session=;.*Max-Age=0/);
      expect(await json(await user.fetch('/auth/profile'))).toEqual({ status: 401, body: UNAUTHENTICATED });
    });

    it('the login page after a sign-out says so, once', async () => {
      const user = await signIn(service);
      const response = await user.fetch('/logout', { redirect: 'manual' });
      const flag = response.headers.getSetCookie().find((header) => header.startsWith('signed_out='));
      expect(flag).toBe('signed_out=1; Path=/auth/login; Max-Age=60; HttpOnly; SameSite=Lax');
      const page = await fetch(`${service.url}/auth/login`, { headers: { cookie: 'signed_out=1' } });
      expect(await page.text()).toContain('You are signed out.');
      expect(page.headers.getSetCookie()).toContain('signed_out=; Path=/auth/login; Max-Age=0; HttpOnly; SameSite=Lax');
      expect(await (await fetch(`${service.url}/auth/login`)).text()).not.toContain('You are signed out.');
    });

    it('without a session it just shows the login page', async () => {
      const response = await get('/logout');
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('/auth/login');
    });
  });

  it('the helper signs in as the demo user by default', async () => {
    const user = await signIn(service);
    expect(user.cookie).toMatch(/^session=/);
    expect((await json(await user.fetch('/auth/profile'))).body.profile.email).toBe(DEMO_EMAIL);
  });
});
