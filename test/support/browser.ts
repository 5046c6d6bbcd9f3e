/**
 * Just enough of a browser for the sign-in flow over real HTTP: a cookie jar (by name and path;
 * hosts and ports are ignored, as the service, its built-in provider and a test provider all run on
 * loopback), redirects followed one hop at a time, and HTML forms submitted.
 */
interface StoredCookie {
  name: string;
  value: string;
  path: string;
}

export interface Hop {
  url: string;
  response: Response;
}

export class Browser {
  private readonly jar = new Map<string, StoredCookie>();
  /** Every Set-Cookie header received, raw, in order (for attribute checks). */
  readonly setCookieHeaders: string[] = [];

  /** One request, no redirect following; cookies sent and stored. */
  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.cookieHeaderFor(url);
    if (cookie !== '' && !headers.has('cookie')) headers.set('cookie', cookie);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const header of response.headers.getSetCookie()) this.store(header);
    return response;
  }

  /**
   * Follows redirects from `url` until a response that is not one, or until the next address
   * satisfies `stopBefore` (then that address is returned unrequested, as `pending`).
   */
  async follow(url: string, init: RequestInit = {}, stopBefore?: (next: URL) => boolean): Promise<{ hops: Hop[]; pending?: string }> {
    const hops: Hop[] = [];
    let current = url;
    let request = init;
    for (let hop = 0; hop < 20; hop += 1) {
      const response = await this.request(current, request);
      hops.push({ url: current, response });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || location === null) return { hops };
      await response.arrayBuffer();
      const next = new URL(location, current);
      if (stopBefore?.(next)) return { hops, pending: next.toString() };
      current = next.toString();
      // 303 (and, as browsers do, 301/302 after a POST) continue as GET without a body.
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && (request.method ?? 'GET') === 'POST')) request = {};
    }
    throw new Error(`more than 20 redirects from ${url}`);
  }

  cookie(name: string): string | undefined {
    return [...this.jar.values()].find((cookie) => cookie.name === name)?.value;
  }

  setCookie(name: string, value: string, path = '/'): void {
    this.jar.set(`${name};${path}`, { name, value, path });
  }

  cookieHeaderFor(url: string): string {
    const path = new URL(url).pathname;
    return [...this.jar.values()]
      .filter((cookie) => path === cookie.path || path.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`))
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join('; ');
  }

  private store(header: string): void {
    const [pair, ...attributes] = header.split(';').map((part) => part.trim());
    const separator = pair.indexOf('=');
    const name = pair.slice(0, separator);
    const value = pair.slice(separator + 1);
    let path = '/';
    let expired = false;
    for (const attribute of attributes) {
      const [key, raw = ''] = attribute.split('=');
      const lower = key.toLowerCase();
      if (lower === 'path' && raw.startsWith('/')) path = raw;
      if (lower === 'max-age' && Number(raw) <= 0) expired = true;
      if (lower === 'expires' && Date.parse(raw) <= Date.now()) expired = true;
    }
    this.setCookieHeaders.push(header);
    if (expired) this.jar.delete(`${name};${path}`);
    else this.jar.set(`${name};${path}`, { name, value, path });
  }
}

/** The first `<form>` of an HTML page: where it posts, and its named inputs with their values. */
export function firstForm(html: string, pageUrl: string): { action: string; method: string; fields: Record<string, string> } | undefined {
  const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html);
  if (form === null) return undefined;
  const attribute = (source: string, name: string) => new RegExp(`\\b${name}\\s*=\\s*"([^"]*)"`, 'i').exec(source)?.[1];
  const action = new URL(decodeEntities(attribute(form[1], 'action') ?? pageUrl), pageUrl).toString();
  const method = (attribute(form[1], 'method') ?? 'get').toUpperCase();
  const fields: Record<string, string> = {};
  for (const input of form[2].matchAll(/<input\b([^>]*)>/gi)) {
    const name = attribute(input[1], 'name');
    if (name !== undefined) fields[name] = decodeEntities(attribute(input[1], 'value') ?? '');
  }
  return { action, method, fields };
}

function decodeEntities(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}
