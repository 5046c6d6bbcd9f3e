import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { ReportVersions } from '../application/report-versions.port.js';
import { acceptedEncodings } from './report-cache.interceptor.js';
import { MAX_ENTRY_BYTES, ReportResponseCache } from './report-response-cache.js';

class SettableVersions extends ReportVersions {
  readonly versions = new Map<number, number>();
  reads = 0;

  current(userId: number): Promise<number> {
    this.reads += 1;
    return Promise.resolve(this.versions.get(userId) ?? 0);
  }
}

describe('the report response cache', () => {
  let versions: SettableVersions;
  let cache: ReportResponseCache;
  let computed: number;
  const compute = (value: unknown) => () => {
    computed += 1;
    return Promise.resolve(value);
  };

  beforeEach(() => {
    versions = new SettableVersions();
    cache = new ReportResponseCache(versions);
    computed = 0;
  });

  it('serves the serialised body again while the user’s version is unchanged', async () => {
    expect(await cache.body(1, '/api/months', compute({ months: [1] }))).toBe('{"months":[1]}');
    expect(await cache.body(1, '/api/months', compute({ months: [2] }))).toBe('{"months":[1]}');
    expect(computed).toBe(1);
    expect(versions.reads).toBe(2);
  });

  it('recomputes once the version moves (a new import)', async () => {
    await cache.body(1, '/api/months', compute({ months: [1] }));
    versions.versions.set(1, 1);
    expect(await cache.body(1, '/api/months', compute({ months: [1, 2] }))).toBe('{"months":[1,2]}');
    expect(await cache.body(1, '/api/months', compute({ months: [3] }))).toBe('{"months":[1,2]}');
    expect(cache.size).toBe(1);
  });

  it('keeps users and addresses apart', async () => {
    await cache.body(1, '/api/months', compute('alice'));
    await cache.body(2, '/api/months', compute('bob'));
    await cache.body(1, '/api/month/2024-05', compute('alice May'));
    expect(await cache.body(2, '/api/months', compute('?'))).toBe('"bob"');
    expect(await cache.body(1, '/api/months', compute('?'))).toBe('"alice"');
    versions.versions.set(2, 5);
    expect(await cache.body(1, '/api/months', compute('?'))).toBe('"alice"');
    expect(await cache.body(2, '/api/months', compute('bob again'))).toBe('"bob again"');
  });

  it('keeps a body of several megabytes (a very busy month), and none over its limit', async () => {
    const large = { trades: 'x'.repeat(8 * 1024 * 1024) };
    await cache.body(1, '/api/month/2024-06', compute(large));
    await cache.body(1, '/api/month/2024-06', compute(large));
    expect(computed).toBe(1);

    const tooLarge = { trades: 'x'.repeat(MAX_ENTRY_BYTES) };
    await cache.body(1, '/api/month/2024-07', compute(tooLarge));
    await cache.body(1, '/api/month/2024-07', compute(tooLarge));
    expect(computed).toBe(3);
  });

  it('computes a body once for concurrent requests', async () => {
    let release: (value: unknown) => void = () => undefined;
    const slow = () => {
      computed += 1;
      return new Promise((resolve) => (release = resolve));
    };
    const pending = [cache.body(1, '/x', slow), cache.body(1, '/x', slow), cache.body(1, '/x', slow)];
    await new Promise((resolve) => setImmediate(resolve));
    release({ done: true });
    expect(await Promise.all(pending)).toEqual(['{"done":true}', '{"done":true}', '{"done":true}']);
    expect(computed).toBe(1);
  });

  it('never caches a failure', async () => {
    const failing = () => Promise.reject(new Error('Invalid month'));
    await expect(cache.body(1, '/api/month/2024-13', failing)).rejects.toThrow('Invalid month');
    expect(await cache.body(1, '/api/month/2024-13', compute('ok'))).toBe('"ok"');
  });

  it('does not let a body computed under an older version replace a newer one', async () => {
    let release: (value: unknown) => void = () => undefined;
    const old = cache.body(1, '/x', () => new Promise((resolve) => (release = resolve)));
    await new Promise((resolve) => setImmediate(resolve));
    versions.versions.set(1, 1);
    expect(await cache.body(1, '/x', compute('new'))).toBe('"new"');
    release('old');
    expect(await old).toBe('"old"');
    expect(await cache.body(1, '/x', compute('?'))).toBe('"new"');
  });

  it('keeps the JSON bytes, and makes their gzip form once, for bodies worth compressing', async () => {
    const months = Array.from({ length: 200 }, (_, index) => ({ month: `2024-${index}`, total_return_with_dividends: index }));
    const report = await cache.response(1, '/api/months', compute({ months }));
    expect(report.compressible).toBe(true);
    const gzipped = report.gzipped();
    expect(report.gzipped()).toBe(gzipped);
    expect(gzipped.length).toBeLessThan(report.json.length / 3);
    expect(JSON.parse(gunzipSync(gzipped).toString('utf8'))).toEqual({ months });
    expect(cache.bytes).toBe(report.json.length + gzipped.length);
    expect((await cache.response(1, '/tiny', compute({ ok: true }))).compressible).toBe(false);
  });

  it('gzips a body of megabytes faster, to the same JSON', async () => {
    const trades = Array.from({ length: 20_000 }, (_, index) => ({ symbol: `S${index % 997}`, total_profit_loss: (index * 7.31) % 1000, close_date: '2024-01-02' }));
    const report = await cache.response(1, '/api/month/2024-01', compute({ trades }));
    expect(report.json.length).toBeGreaterThan(1024 * 1024);
    const gzipped = report.gzipped();
    expect(JSON.parse(gunzipSync(gzipped).toString('utf8'))).toEqual({ trades });
    // Level 1 (level 6 would make it smaller still).
    expect(gzipped.length).toBeGreaterThan(gzipSync(report.json, { level: 6 }).length);
  });

  it('makes the Brotli form once, in the background: none at first, then a smaller body than gzip', async () => {
    const months = Array.from({ length: 500 }, (_, index) => ({ month: `2024-${index}`, total_return_with_dividends: index * 1.5 }));
    const report = await cache.response(1, '/api/months', compute({ months }));
    expect(report.brotli()).toBeUndefined();
    await waitFor(() => report.brotli() !== undefined);
    const brotli = report.brotli()!;
    expect(report.brotli()).toBe(brotli);
    expect(brotli.length).toBeLessThan(report.gzipped().length);
    expect(JSON.parse(brotliDecompressSync(brotli).toString('utf8'))).toEqual({ months });
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('Accept-Encoding', () => {
  it.each([
    ['gzip, deflate, br', ['br', 'gzip']],
    ['gzip, deflate, br, zstd', ['br', 'gzip']],
    ['br;q=1.0, gzip;q=0.8', ['br', 'gzip']],
    ['*', ['br', 'gzip']],
    ['*, br;q=0', ['gzip']],
    ['GZIP', ['gzip']],
    [['deflate', 'gzip'], ['gzip']],
    ['gzip;q=0', []],
    ['identity', []],
    ['br, deflate', ['br']],
    [undefined, []],
  ])('%p: the service may send %p', (header, codings) => {
    expect([...acceptedEncodings(header as string | string[] | undefined)].sort()).toEqual(codings);
  });

  it('reads each header for itself when headers alternate (the last answer is kept)', () => {
    const answers = ['br', 'gzip', 'br', 'br', 'identity', 'gzip, br'].map((header) => [...acceptedEncodings(header)].sort());
    expect(answers).toEqual([['br'], ['gzip'], ['br'], ['br'], [], ['br', 'gzip']]);
  });
});
