import { Browser, firstForm } from './browser.js';

export const DEMO_EMAIL = 'demo@example.com';

export interface SignedIn {
  /** The `Cookie` header value that carries the session: `session=…`. */
  cookie: string;
  /** `fetch` against the service with the session cookie added (redirects followed as fetch does). */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /**
   * A JSON request (`body`, when given, sent as JSON) with the Origin the CSRF check wants on
   * state-changing methods: the answer's status and parsed body.
   */
  json(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** The browser that signed in (its jar also holds the identity provider's cookies). */
  browser: Browser;
}

/**
 * Signs in through the real flow over HTTP, as a browser would: GET /login → the identity
 * provider's login page (the built-in one, or any provider whose page has an `email` field) →
 * submit the address → the provider's redirects → /auth/callback → the session cookie.
 * Works with a plain `startService()`: the built-in provider admits demo@example.com when
 * AUTHORIZED_USERS is empty. Throws with the callback's answer when the sign-in is refused.
 */
export async function signIn(service: { url: string }, email = DEMO_EMAIL): Promise<SignedIn> {
  const browser = new Browser();
  const callbackUrl = await walkToCallback(browser, service.url, email);
  const response = await browser.request(callbackUrl);
  const body = await response.text();
  if (response.status !== 302 || response.headers.get('location') !== '/') {
    throw new Error(`sign-in as ${email} refused: ${response.status} ${body}`);
  }
  const value = browser.cookie('session');
  if (value === undefined) throw new Error('sign-in set no session cookie');
  const cookie = `session=${value}`;
  const withCookie: SignedIn['fetch'] = (path, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set('cookie', cookie);
    return fetch(`${service.url}${path}`, { ...init, headers });
  };
  return {
    cookie,
    browser,
    fetch: withCookie,
    json: async (method, path, body) => {
      const headers: Record<string, string> = { origin: service.url, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
      const response = await withCookie(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      return { status: response.status, body: (await response.json()) as any };
    },
  };
}

/**
 * The browser side of the flow up to, not including, the request to /auth/callback: returns that
 * address (with `code` and `state`). The browser keeps the cookies /login set.
 */
export async function walkToCallback(browser: Browser, serviceUrl: string, email: string): Promise<string> {
  const isCallback = (next: URL) => next.pathname === '/auth/callback';
  let result = await browser.follow(`${serviceUrl}/login`, {}, isCallback);
  // The provider's pages: the login form (and any further form, e.g. consent) until it sends the browser back.
  for (let page = 0; page < 5 && result.pending === undefined; page += 1) {
    const last = result.hops[result.hops.length - 1];
    const html = await last.response.text();
    const form = firstForm(html, last.url);
    if (last.response.status !== 200 || form === undefined) {
      throw new Error(`sign-in stopped at ${last.url}: ${last.response.status} ${html.slice(0, 300)}`);
    }
    const fields = { ...form.fields, ...('email' in form.fields ? { email } : {}) };
    result = await browser.follow(
      form.action,
      { method: form.method, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() },
      isCallback,
    );
  }
  if (result.pending === undefined) throw new Error('the identity provider never sent the browser back to /auth/callback');
  return result.pending;
}
