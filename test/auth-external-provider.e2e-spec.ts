import { Browser } from './support/browser.js';
import { freePort } from './support/free-port.js';
import { startTestProvider, type TestProvider } from './support/oidc-test-provider.js';
import { startService, type RunningService } from './support/service.js';
import { signIn, walkToCallback } from './support/sign-in.js';

const CLIENT = { OIDC_CLIENT_ID: 'trading-journal', OIDC_CLIENT_SECRET: 'a-client-secret-for-tests-only' };

/**
 * The same sign-in code path against an external OpenID Provider: a standalone oidc-provider on its
 * own loopback port, found through OIDC_ISSUER discovery, like Keycloak, Auth0 or Google would be.
 */
describe('sign-in with an external identity provider', () => {
  let providerPort: number;
  let provider: TestProvider | undefined;
  let service: RunningService;
  const publicUrl = () => service.url.replace('127.0.0.1', 'localhost');

  beforeAll(async () => {
    providerPort = await freePort();
    service = await startService({
      env: {
        OIDC_ISSUER: `http://127.0.0.1:${providerPort}`,
        ...CLIENT,
        AUTHORIZED_USERS: 'alice@example.com, unverified.bob@example.com',
        // Everything the service logs, so the leak check below sees it all.
        LOG_LEVEL: 'trace',
      },
    });
  });
  afterAll(async () => {
    await service?.stop();
    await provider?.stop();
  });

  const startProvider = async () => {
    provider = await startTestProvider(providerPort, [{ clientId: CLIENT.OIDC_CLIENT_ID, clientSecret: CLIENT.OIDC_CLIENT_SECRET, redirectUris: [`${publicUrl()}/auth/callback`] }]);
  };

  it('answers 502 while the provider cannot be reached, and recovers once it can (discovery is retried)', async () => {
    const down = await fetch(`${service.url}/login`, { redirect: 'manual' });
    expect(down.status).toBe(502);
    expect(await down.json()).toEqual({ success: false, error: expect.stringMatching(/discovery document could not be read/) });

    await startProvider();
    const up = await fetch(`${service.url}/login`, { redirect: 'manual' });
    expect(up.status).toBe(302);
    const location = new URL(up.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(`http://127.0.0.1:${providerPort}/auth`);
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('nonce')).toBeTruthy();
    expect(location.searchParams.get('prompt')).toBeNull();
  });

  it('signs in through the provider; the address comes from UserInfo when the ID token has none', async () => {
    const user = await signIn(service, 'Alice@Example.com');
    const profile = (await (await user.fetch('/auth/profile')).json()) as Record<string, any>;
    expect(profile).toMatchObject({ success: true, profile: { email: 'alice@example.com', name: 'Test alice', brokerage_account: null } });

    const tokens = provider!.tokenResponses.at(-1)!;
    expect(tokens.access_token).toEqual(expect.any(String));
    const idToken = tokens.id_token as string;
    const claims = JSON.parse(Buffer.from(idToken.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ iss: `http://127.0.0.1:${providerPort}`, aud: CLIENT.OIDC_CLIENT_ID, sub: 'alice@example.com', nonce: expect.any(String) });
    expect(claims.email).toBeUndefined();
  });

  it("never lets the provider's tokens or the authorization code reach the client or the logs", async () => {
    const browser = new Browser();
    const callback = await walkToCallback(browser, service.url, 'alice@example.com');
    const code = new URL(callback).searchParams.get('code')!;
    const response = await browser.request(callback);
    expect(response.status).toBe(302);
    const seenByClient = [JSON.stringify([...response.headers]), await response.text()];
    const profile = await browser.request(`${service.url}/auth/profile`);
    seenByClient.push(JSON.stringify([...profile.headers]), await profile.text());

    const tokens = provider!.tokenResponses.at(-1)!;
    const secrets = [tokens.access_token as string, tokens.id_token as string, code];
    // Give the service a moment to flush its log lines.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(service.output()).toContain('request completed');
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(20);
      for (const text of [...seenByClient, service.output()]) expect(text).not.toContain(secret);
    }
    // Nor are they kept: the ID token's signature part is nowhere in what the service wrote.
    expect(service.output()).not.toContain((tokens.id_token as string).split('.')[2]);
  });

  it('refuses an address the provider marks as unverified (400), and one off the allow-list (403)', async () => {
    const unverified = new Browser();
    const first = await unverified.request(await walkToCallback(unverified, service.url, 'unverified.bob@example.com'));
    expect(first.status).toBe(400);
    expect(await first.json()).toEqual({ success: false, error: 'The identity provider reports this e-mail address as unverified' });

    const stranger = new Browser();
    const second = await stranger.request(await walkToCallback(stranger, service.url, 'mallory@example.com'));
    expect(second.status).toBe(403);
    expect(await second.json()).toEqual({ success: false, error: 'Access denied. User not authorized.' });
    expect((await stranger.request(`${service.url}/auth/profile`)).status).toBe(401);
  });

  it('does not serve the built-in provider when a real one is configured', async () => {
    expect((await fetch(`${service.url}/dev-idp/.well-known/openid-configuration`)).status).toBe(404);
    const page = await (await fetch(`${service.url}/auth/login`)).text();
    expect(page).toContain(`127.0.0.1:${providerPort}`);
    expect(page).not.toMatch(/development/i);
  });

  describe('in production', () => {
    const PUBLIC_URL = 'https://journal.example.test';
    let production: RunningService;
    let productionProvider: TestProvider;

    beforeAll(async () => {
      const port = await freePort();
      productionProvider = await startTestProvider(port, [{ clientId: CLIENT.OIDC_CLIENT_ID, clientSecret: CLIENT.OIDC_CLIENT_SECRET, redirectUris: [`${PUBLIC_URL}/auth/callback`] }]);
      production = await startService({
        env: {
          NODE_ENV: 'production',
          PUBLIC_URL,
          SESSION_SECRET: 'a-production-session-secret-of-40-characters',
          OIDC_ISSUER: productionProvider.issuer,
          ...CLIENT,
          AUTHORIZED_USERS: 'alice@example.com',
        },
      });
    });
    afterAll(async () => {
      await production?.stop();
      await productionProvider?.stop();
    });

    it('marks the session cookie Secure, and serves no built-in provider', async () => {
      const browser = new Browser();
      const callback = new URL(await walkToCallback(browser, production.url, 'alice@example.com'));
      expect(`${callback.origin}${callback.pathname}`).toBe(`${PUBLIC_URL}/auth/callback`);
      // As if through the TLS-terminating proxy in front of the service.
      const response = await browser.request(`${production.url}${callback.pathname}${callback.search}`);
      expect(response.status).toBe(302);
      const setCookie = response.headers.getSetCookie().find((header) => header.startsWith('session='))!;
      expect(setCookie).toMatch(/; Secure/);
      expect(setCookie).toMatch(/; HttpOnly/);
      expect(setCookie).toMatch(/; SameSite=Lax/);
      expect((await browser.request(`${production.url}/auth/profile`)).status).toBe(200);
      expect((await fetch(`${production.url}/dev-idp/.well-known/openid-configuration`)).status).toBe(404);
    });
  });
});
