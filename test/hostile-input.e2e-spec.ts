import { request as httpRequest } from 'node:http';
import { startService, type RunningService } from './support/service.js';
import { Browser } from './support/browser.js';
import { signIn } from './support/sign-in.js';
import { exampleFiles, ndjson, uploadForm } from './support/uploads.js';

type Session = Awaited<ReturnType<typeof signIn>>;

/**
 * Inputs that once reached a 500 or the framework's own error body: each answers a 4xx in the
 * contract's `{success:false, error}` shape with a message that names what was wrong.
 */
describe('hostile input answers a 4xx that names the problem', () => {
  let service: RunningService;
  let trader: Session;

  const json = async (method: string, path: string, body?: unknown, raw?: string) => {
    const headers: Record<string, string> = { origin: service.url };
    if (body !== undefined || raw !== undefined) headers['content-type'] = 'application/json';
    const response = await trader.fetch(path, { method, headers, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)) });
    const text = await response.text();
    return { status: response.status, body: JSON.parse(text) as any };
  };

  /** A request written byte for byte (fetch would normalise the path). */
  const rawGet = (path: string) =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      const { port } = new URL(service.url);
      const req = httpRequest({ host: '127.0.0.1', port, path, method: 'GET', headers: { cookie: trader.cookie } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.end();
    });

  const multipart = async (path: string, contentType: string, body: string) => {
    const response = await trader.fetch(path, { method: 'POST', headers: { origin: service.url, 'content-type': contentType }, body });
    return { status: response.status, body: JSON.parse(await response.text()) as any };
  };

  /** The contract's error body; `POST /api/upload-csv` answers its stream's error line instead. */
  const refused = (answer: { status: number; body: any }, status: number, message: RegExp) => {
    if (answer.body.type === 'error') {
      expect(answer.status).toBe(status);
      expect(answer.body.message).toMatch(message);
      return;
    }
    expect({ status: answer.status, success: answer.body.success }).toEqual({ status, success: false });
    expect(answer.body.error).toMatch(message);
  };

  beforeAll(async () => {
    service = await startService();
    trader = await signIn(service);
    const profile = await json('PUT', '/auth/profile', { brokerage_account: 'XXXX-1234' });
    expect(profile.status).toBe(200);
  });
  afterAll(async () => {
    await service?.stop();
  });

  describe('holdings and snapshots', () => {
    const holding = { symbol: 'AAPL', holding_type: 'stock', shares: 10, average_cost: 150 };
    let id: number;
    beforeAll(async () => {
      const created = await json('POST', '/api/portfolio/holdings', holding);
      expect(created.status).toBe(201);
      id = created.body.holding.id;
    });

    it.each([
      ['shares', 1e-7],
      ['shares', 5e-324],
      ['average_cost', 1e-7],
      ['average_cost', 5e-324],
    ])('%s of %p', async (field, value) => {
      refused(await json('POST', '/api/portfolio/holdings', { ...holding, [field]: value }), 400, new RegExp(`^${field}`));
      refused(await json('PUT', `/api/portfolio/holdings/${id}`, { [field]: value }), 400, new RegExp(`^${field}`));
    });

    it.each(['2024-02-30', '2023-02-29', '0000-01-01', '1899-12-31', '2200-01-01', '2024-13-01'])('purchase_date %s', async (date) => {
      refused(await json('POST', '/api/portfolio/holdings', { ...holding, purchase_date: date }), 400, /^purchase_date/);
      refused(await json('PUT', `/api/portfolio/holdings/${id}`, { purchase_date: date }), 400, /^purchase_date/);
    });

    it('a real leap day is a date', async () => {
      const answer = await json('PUT', `/api/portfolio/holdings/${id}`, { purchase_date: '2024-02-29' });
      expect(answer.status).toBe(200);
    });

    it('notes: null, a NUL byte, control characters', async () => {
      refused(await json('PUT', `/api/portfolio/holdings/${id}`, { notes: null }), 400, /^notes/);
      refused(await json('PUT', `/api/portfolio/holdings/${id}`, { notes: 'a\u0000b' }), 400, /^notes/);
      refused(await json('POST', '/api/portfolio/holdings', { ...holding, notes: 'x\u0007' }), 400, /^notes/);
      refused(await json('POST', '/api/portfolio/snapshot', { notes: 'a\u0000b' }), 400, /^notes/);
      // Line breaks and tabs are text.
      const ok = await json('PUT', `/api/portfolio/holdings/${id}`, { notes: 'line one\nline\ttwo' });
      expect(ok.status).toBe(200);
    });

    it('deeply nested or oversized JSON is refused before it is parsed', async () => {
      const deep = '['.repeat(100_000) + ']'.repeat(100_000);
      refused(await json('POST', '/api/portfolio/holdings', undefined, deep), 413, /too large|too deeply nested/);
      const nested = '{"notes":' + '['.repeat(50) + ']'.repeat(50) + '}';
      refused(await json('POST', '/api/portfolio/snapshot', undefined, nested), 400, /nested/);
      const big = JSON.stringify({ ...holding, notes: 'x'.repeat(200_000) });
      refused(await json('POST', '/api/portfolio/holdings', undefined, big), 413, /too large/);
      expect((await json('GET', '/api/portfolio/holdings')).status).toBe(200);
    });
  });

  describe('months and dates outside 1900–2199', () => {
    it.each([
      '/api/month/9999-12',
      '/api/month/1899-12',
      '/api/trade-details/9999-12',
      '/api/monthly/export/csv?month=9999-12',
      '/api/monthly/export/excel?month=9999-12',
      '/api/calendar-data?year=9999&month=12',
      '/api/day-details?date=9999-12-31',
      '/api/timeframe-data?start=2024-01-01&end=9999-12-31',
      '/api/timeframe-data?start=0001-01-01&end=2024-01-01',
      '/api/timeframe?start_date=1899-12-31&end_date=2024-01-01',
    ])('%s', async (path) => {
      // The trading calendar covers fewer years (1998–2100) and says so.
      refused(await json('GET', path), 400, /1900|2199|covers/);
    });

    it('the import refuses a row dated outside it, naming the file, line and column', async () => {
      const files = exampleFiles();
      const text = files.transaction_history_file.content.toString('utf8').replace('"06/28/2024","Buy","SNOW"', '"06/28/9999","Buy","SNOW"');
      const response = await trader.fetch('/api/upload-csv', {
        method: 'POST',
        headers: { origin: service.url },
        body: uploadForm({ ...files, transaction_history_file: { name: 'transactions.csv', content: text } }),
      });
      const lines = ndjson(await response.text());
      const last = lines[lines.length - 1];
      expect(last.type).toBe('error');
      expect(last.message).toMatch(/line 3.*Date.*1900.*2199|line 3.*1900.*2199/);
      expect((await json('GET', '/api/months')).body.months ?? []).toEqual([]);
    });
  });

  describe('multipart bodies', () => {
    const part = 'Content-Disposition: form-data; name="csv_file"; filename="h.csv"\r\nContent-Type: text/csv\r\n\r\nsymbol,shares\r\n';
    it.each(['/api/upload-csv', '/api/portfolio/upload-csv'])('%s: missing, wrong or truncated boundary', async (path) => {
      refused(await multipart(path, 'multipart/form-data', `--b\r\n${part}--b--\r\n`), 400, /multipart|boundary/i);
      refused(await multipart(path, 'multipart/form-data; boundary=other', `--b\r\n${part}--b--\r\n`), 400, /multipart|boundary|file/i);
      refused(await multipart(path, 'multipart/form-data; boundary=b', `--b\r\n${part}`), 400, /multipart|boundary|truncated|file/i);
    });
  });

  describe('memory held by uploads', () => {
    /** An upload whose body is still arriving: the headers and the first bytes, then nothing. */
    const heldUpload = (declaredBytes: number) =>
      new Promise<{ abort(): void }>((resolve, reject) => {
        const { port } = new URL(service.url);
        const req = httpRequest({
          host: '127.0.0.1',
          port,
          path: '/api/upload-csv',
          method: 'POST',
          headers: { cookie: trader.cookie, origin: service.url, 'content-type': 'multipart/form-data; boundary=held', 'content-length': declaredBytes },
        });
        req.on('error', () => undefined); // aborted below
        req.on('response', () => reject(new Error('the held upload was answered')));
        req.write('--held\r\nContent-Disposition: form-data; name="transaction_history_file"; filename="t.csv"\r\n\r\n', () =>
          // Give the service a moment to route it and reserve its room.
          setTimeout(() => resolve({ abort: () => req.destroy() }), 300),
        );
      });

    /** Headers declaring a body that never comes: the answer must not wait for it. */
    const declaredOnly = (declaredBytes: number) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const { port } = new URL(service.url);
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            path: '/api/upload-csv',
            method: 'POST',
            headers: { cookie: trader.cookie, origin: service.url, 'content-type': 'multipart/form-data; boundary=x', 'content-length': declaredBytes },
          },
          (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString()));
            res.on('end', () => {
              req.destroy();
              resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
            });
          },
        );
        req.on('error', reject);
        req.flushHeaders();
      });

    it('refuses a declared length past the limit at once (413), and a second large upload of the same user while one is arriving (429)', async () => {
      const tooLarge = await declaredOnly(120 * 1024 * 1024);
      refused(tooLarge, 413, /larger than the limit of 50 MB per file/);

      // Two files of the largest size and their framing: all one user may have in flight.
      const held = await heldUpload(100 * 1024 * 1024 + 64 * 1024);
      try {
        const second = await trader.fetch('/api/upload-csv', { method: 'POST', headers: { origin: service.url }, body: uploadForm(exampleFiles()) });
        refused({ status: second.status, body: await second.json() }, 429, /Another upload of yours is still being received/);
      } finally {
        held.abort();
      }
      // Its room is given back when the held request ends.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const after = await trader.fetch('/api/upload-csv', { method: 'POST', headers: { origin: service.url }, body: uploadForm(exampleFiles()) });
      expect(after.status).toBe(200);
      expect(ndjson(await after.text()).pop().type).toBe('success');
    });
  });

  describe('path parameters', () => {
    it('a NUL byte', async () => {
      refused(await rawGet('/api/symbols/A%00B'), 400, /NUL/);
      refused(await rawGet('/api/day-details?date=2024-01-01%00'), 400, /NUL/);
    });
    it('a bad percent-encoding', async () => {
      refused(await rawGet('/api/symbols/%C0%80'), 400, /percent-encoding/);
      refused(await rawGet('/api/month/%E0%A4%A'), 400, /percent-encoding/);
    });
  });

  it('the sign-in pages and the built-in provider’s pages carry the security headers', async () => {
    const { hops } = await new Browser().follow(`${service.url}/login`);
    const pages = hops.filter((hop) => hop.response.headers.get('content-type')?.startsWith('text/html'));
    expect(hops.some((hop) => new URL(hop.url).pathname.startsWith('/dev-idp/'))).toBe(true);
    expect(pages.length).toBeGreaterThan(0);
    for (const hop of hops) {
      const headers = hop.response.headers;
      expect([hop.url, headers.get('x-frame-options'), headers.get('x-content-type-options'), headers.get('referrer-policy')]).toEqual([
        hop.url,
        'DENY',
        'nosniff',
        'same-origin',
      ]);
      expect(headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
  });

  it('the service answered all of it and still works', async () => {
    const response = await trader.fetch('/api/months');
    expect(response.status).toBe(200);
  });
});
