import { readdirSync } from 'node:fs';
import path from 'node:path';
import { startService, type RunningService } from './support/service.js';
import { signIn, type SignedIn } from './support/sign-in.js';

// How the service serves the web app (no browser needed): its pages behind the sign-in, its files
// public and cached, everything else still the API's.

const WEB = path.resolve(process.cwd(), 'dist/web');
const PAGES = ['/', '/calendar', '/month/2024-05', '/symbols', '/symbols/NVDA', '/timeframe', '/statistics', '/trades', '/tags', '/import', '/portfolio'];

describe('the web app, served by the API', () => {
  let service: RunningService;
  let user: SignedIn;

  beforeAll(async () => {
    service = await startService();
    user = await signIn(service);
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('answers each page with the app for a signed-in browser', async () => {
    for (const page of PAGES) {
      const response = await user.fetch(page, { redirect: 'manual' });
      expect(`${page} ${response.status}`).toBe(`${page} 200`);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      const html = await response.text();
      expect(html).toContain('<div id="root"></div>');
      expect(html).toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js"><\/script>/);
    }
  });

  it('sends a signed-out browser to the login page from any page', async () => {
    for (const page of PAGES) {
      const response = await fetch(`${service.url}${page}`, { redirect: 'manual' });
      expect(`${page} ${response.status} ${response.headers.get('location')}`).toBe(`${page} 302 /auth/login`);
    }
  });

  it('serves the built files to anyone, cached for a year, compressed when asked', async () => {
    const script = readdirSync(path.join(WEB, 'assets')).find((name) => /^index-.*\.js$/.test(name))!;
    const plain = await fetch(`${service.url}/assets/${script}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toMatch(/^(application|text)\/javascript/);
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const body = await plain.text();
    const compressed = await fetch(`${service.url}/assets/${script}`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(compressed.headers.get('content-encoding')).toBe('br');
    expect(await compressed.text()).toBe(body); // fetch decodes it
    const icon = await fetch(`${service.url}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
  });

  it('keeps unknown paths a JSON 404, under /api, /assets and elsewhere', async () => {
    for (const missing of ['/api/nope', '/assets/nope.js', '/nope', '/calendar/2024-05', '/symbols/NVDA/trades']) {
      const response = await user.fetch(missing, { redirect: 'manual' });
      expect(`${missing} ${response.status}`).toBe(`${missing} 404`);
      expect(await response.json()).toEqual({ success: false, error: 'Not found' });
    }
  });

  it('leaves the API its paths: JSON with a 401 for a signed-out call', async () => {
    const response = await fetch(`${service.url}/api/months`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ redirect_to_login: true });
    const login = await fetch(`${service.url}/auth/login`);
    expect(await login.text()).toContain('href="/login"');
  });
});
