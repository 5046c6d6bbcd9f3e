import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** Finnhub's `/quote` body. */
export interface FinnhubQuoteBody {
  c: number;
  d: number | null;
  dp: number | null;
  h: number;
  l: number;
  o: number;
  pc: number;
  t: number;
}

export interface RecordedRequest {
  path: string;
  symbol: string | null;
  /** `Date.now()` when the request arrived. */
  at: number;
  status: number;
}

export interface FakeFinnhubOptions {
  /** The only token accepted (header `X-Finnhub-Token` or query `token`); others get 401. */
  token?: string;
  quotes?: Record<string, Partial<FinnhubQuoteBody> & { c: number }>;
  profiles?: Record<string, { name: string; ticker?: string }>;
  /** Like Finnhub: more than `requests` in the last `windowMs` → 429. */
  limit?: { requests: number; windowMs: number };
}

export interface FakeFinnhub {
  /** Base URL to use as FINNHUB_BASE_URL (ends in `/api/v1`). */
  readonly url: string;
  readonly token: string;
  readonly requests: RecordedRequest[];
  setQuote(symbol: string, quote: Partial<FinnhubQuoteBody> & { c: number }): void;
  /** Answers for `symbol` are held back this long (to test timeouts and collapsing). */
  setDelay(symbol: string, ms: number): void;
  /** The next `count` requests get a 429, whatever the budget. */
  rateLimitNext(count: number, resetInSeconds?: number): void;
  /** Requests for one path (`/quote`, `/stock/profile2`), optionally one symbol. */
  requestsFor(path: string, symbol?: string): RecordedRequest[];
  /** The most requests that arrived within any `windowMs` (sliding). */
  maxInAnyWindow(windowMs: number): number;
  reset(): void;
  close(): Promise<void>;
}

/**
 * A local HTTP server that answers like Finnhub's REST API (https://finnhub.io/docs/api): `/quote` with
 * `{c,d,dp,h,l,o,pc,t}` (an unknown symbol is all zeros), `/stock/profile2` (unknown: `{}`), 401
 * `{"error":"Invalid API key."}` on a bad token, 429 with `X-Ratelimit-*` headers over the limit.
 */
export async function startFakeFinnhub(options: FakeFinnhubOptions = {}): Promise<FakeFinnhub> {
  const token = options.token ?? 'test-finnhub-token';
  const quotes = new Map(Object.entries(options.quotes ?? {}));
  const profiles = new Map(Object.entries(options.profiles ?? {}));
  const delays = new Map<string, number>();
  const requests: RecordedRequest[] = [];
  let forced429 = 0;
  let forcedReset = 1;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const path = url.pathname.replace(/^\/api\/v1/, '');
    const symbol = url.searchParams.get('symbol');
    const record: RecordedRequest = { path, symbol, at: Date.now(), status: 200 };
    requests.push(record);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      response.end(JSON.stringify(body));
    };

    const given = request.headers['x-finnhub-token'] ?? url.searchParams.get('token');
    if (given !== token) return send(401, { error: 'Invalid API key.' });

    const limit = options.limit;
    if (forced429 > 0 || (limit && requests.filter((r) => r.status !== 401 && r.at > record.at - limit.windowMs).length > limit.requests)) {
      const forced = forced429 > 0;
      if (forced) forced429 -= 1;
      const reset = Math.ceil(Date.now() / 1000) + (forced ? forcedReset : 1);
      return send(429, { error: 'API limit reached. Please try again later. Remaining Limit: 0' }, {
        'x-ratelimit-limit': String(limit?.requests ?? 60),
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(reset),
      });
    }

    const delay = symbol ? (delays.get(symbol.toUpperCase()) ?? 0) : 0;
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    if (response.destroyed) return;

    if (path === '/quote') {
      const quote = symbol ? quotes.get(symbol.toUpperCase()) : undefined;
      if (!quote) return send(200, { c: 0, d: null, dp: null, h: 0, l: 0, o: 0, pc: 0, t: 0 });
      const pc = quote.pc ?? quote.c;
      const d = quote.d ?? Number((quote.c - pc).toFixed(4));
      return send(200, {
        c: quote.c,
        d,
        dp: quote.dp ?? (pc === 0 ? 0 : Number(((d / pc) * 100).toFixed(4))),
        h: quote.h ?? quote.c,
        l: quote.l ?? quote.c,
        o: quote.o ?? pc,
        pc,
        t: quote.t ?? Math.floor(Date.now() / 1000),
      });
    }
    if (path === '/stock/profile2') {
      const profile = symbol ? profiles.get(symbol.toUpperCase()) : undefined;
      if (!profile) return send(200, {});
      return send(200, { country: 'US', currency: 'USD', exchange: 'NASDAQ NMS - GLOBAL MARKET', ticker: symbol?.toUpperCase(), ...profile });
    }
    return send(404, { error: 'Not found' });
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;

  return {
    url: `http://127.0.0.1:${port}/api/v1`,
    token,
    requests,
    setQuote: (symbol, quote) => void quotes.set(symbol.toUpperCase(), quote),
    setDelay: (symbol, ms) => void delays.set(symbol.toUpperCase(), ms),
    rateLimitNext: (count, resetInSeconds = 1) => {
      forced429 = count;
      forcedReset = resetInSeconds;
    },
    requestsFor: (path, symbol) => requests.filter((r) => r.path === path && (symbol === undefined || r.symbol === symbol)),
    maxInAnyWindow: (windowMs) => {
      const times = requests.filter((r) => r.status !== 401).map((r) => r.at).sort((a, b) => a - b);
      let most = 0;
      for (let start = 0, end = 0; end < times.length; end += 1) {
        while (times[end] - times[start] >= windowMs) start += 1;
        most = Math.max(most, end - start + 1);
      }
      return most;
    },
    reset: () => {
      requests.length = 0;
      delays.clear();
      forced429 = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
