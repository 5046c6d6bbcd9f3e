import { startFakeFinnhub, type FakeFinnhub } from './support/fake-finnhub.js';
import { startService, type RunningService } from './support/service.js';
import { signIn } from './support/sign-in.js';
import { exampleFiles, ndjson, uploadForm } from './support/uploads.js';
import { random } from './support/random.js';

type Session = Awaited<ReturnType<typeof signIn>>;

/**
 * Generated hostile input against the running service: broken and random CSV uploads, then random
 * paths, query strings and JSON bodies on every route. Deterministic for a seed (FUZZ_SEED; FUZZ_CASES
 * sets how many requests, default 2,000): a failure names its case, and the same seed replays it.
 * Every answer must be below 500, the service must stay up, and a refused upload must leave the
 * reports exactly as they were.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const CASES = Number(process.env.FUZZ_CASES ?? 2000);
const UPLOAD_SHARE = 0.1;

/** The specs' seeded generator (`random`), with the picks the cases are made of. */
function generator(seed: number) {
  const next = random(seed);
  const int = (below: number) => Math.floor(next() * below);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  const bytes = (length: number) => Buffer.from(Array.from({ length }, () => int(256)));
  const text = (length: number) => Array.from({ length }, () => String.fromCodePoint(pick([int(0x80), 0x20 + int(0x5f), int(0xd7ff), 0x1f600 + int(80)]))).join('');
  return { next, int, pick, bytes, text };
}
type Random = ReturnType<typeof generator>;

const NASTY_CELLS = [
  '', ' ', '--', '$', '-', '()', '($)', '0', '-0', '0.0000001', '1e309', '-1e309', '5e-324', 'NaN', 'Infinity', '9'.repeat(309),
  `$${'1'.repeat(31)}`, '($1,2,3)', '$1,234.56.78', '12/31/9999', '02/30/2024', '00/00/0000', '1/1/1', '2024-02-29', 'as of',
  '06/28/2024 as of 13/45/2024', '<script>alert(1)</script>', '../../etc/passwd', 'A'.repeat(10_000), '"', '""', "'", '\\',
  'Buy', 'Sell', 'Sell Short', 'Buy to Cover', 'Stock Split', 'Reverse Split', 'Cash Dividend', 'Buy to Open', 'BRK.B',
  '\u0000', '\u202e', '🙂', '١٢٣', '１２３', '%', '50%', '-15.002388237575%', 'Yes', 'No', 'Maybe', 'Short Term', 'TOTAL',
];

function cellValue(random: Random): string {
  switch (random.int(4)) {
    case 0:
      return random.text(random.int(30));
    case 1:
      return String((random.next() - 0.5) * 10 ** random.int(25));
    default:
      return random.pick(NASTY_CELLS);
  }
}

/** One broken or random variant of a broker file. */
function mutateFile(random: Random, original: Buffer): Buffer {
  const lines = original.toString('utf8').split('\n');
  switch (random.int(9)) {
    case 0: // truncated anywhere
      return original.subarray(0, random.int(original.length));
    case 1: // random bytes
      return random.bytes(random.int(3000));
    case 2: // UTF-16 with a BOM, or single-byte text
      return random.next() < 0.5
        ? Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(original.toString('utf8'), 'utf16le')])
        : Buffer.from(original.toString('utf8').replace(/[^\x20-\x7e\n,"]/g, 'é'), 'latin1');
    case 3: // a row repeated, dropped or moved
      {
        const at = 1 + random.int(lines.length - 1);
        const choice = random.int(3);
        if (choice === 0) lines.splice(at, 0, lines[at]);
        else if (choice === 1) lines.splice(at, 1);
        else lines.splice(random.int(lines.length), 0, ...lines.splice(at, 1));
      }
      return Buffer.from(lines.join('\n'));
    case 4: // a stray quote or separator inside a row
      {
        const at = 1 + random.int(lines.length - 1);
        const line = lines[at] ?? '';
        const cut = random.int(line.length + 1);
        lines[at] = line.slice(0, cut) + random.pick(['"', ',', ';', '\t', '\r', '""', '"x"']) + line.slice(cut);
      }
      return Buffer.from(lines.join('\n'));
    default: {
      // One to three cells replaced in data rows (sometimes in the header).
      for (let changes = 1 + random.int(3); changes > 0; changes -= 1) {
        const at = random.next() < 0.1 ? random.int(3) : 2 + random.int(Math.max(1, lines.length - 2));
        const cells = (lines[at] ?? '').match(/"([^"]*)"/g)?.map((cell) => cell.slice(1, -1));
        if (!cells || cells.length === 0) continue;
        cells[random.int(cells.length)] = cellValue(random).replace(/"/g, '""');
        lines[at] = cells.map((cell) => `"${cell}"`).join(',');
      }
      return Buffer.from(lines.join('\n'));
    }
  }
}

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const PATH_VALUES = [
  '2024-06', '2024-6', '9999-12', '1899-01', '0000-00', '2024-13', 'AAPL', 'aapl', 'BRK.B', 'NVDA', '..', '.', '%2e%2e', '%20', '%C0%80', '%E2%80%AE',
  '%F0%9F%99%82', '1', '0', '-1', '99999999999999999999', '1e3', 'null', 'undefined', 'csv', 'excel', 'pdf', 'xlsx', 'A'.repeat(300),
  '%3Cscript%3E', "'%20OR%201=1--", '$', '~', '__proto__', 'constructor',
];
const QUERY_KEYS = [
  'year', 'month', 'date', 'start', 'end', 'all', 'symbols', 'days', 'type', 'start_date', 'end_date', 'paper', 'format', 'x', '__proto__',
  'symbol', 'side', 'result', 'source', 'sort', 'order', 'limit', 'cursor', 'min_holding_days', 'max_holding_days',
];
const QUERY_VALUES = [
  '', '2024', '6', '2024-06', '2024-06-28', '2024-02-30', '9999-12-31', '0001-01-01', 'true', 'false', 'TRUE', '1', '-1', '0', '99999',
  'AAPL,NVDA', ',,,', 'A'.repeat(500), 'letter', 'a4', '%C0%80', '%ZZ', '%E2%80%AE', '[]', '{}', 'null', '1e309', 'MANUAL', 'eod',
  'long', 'short', 'Win', 'broker', 'profit_loss', 'symbol', 'asc', 'desc', '500', '501',
  'WyJwcm9maXRfbG9zcyIsImRlc2MiLCIxMCIsMSwxXQ', 'WyJwcm9maXRfbG9zcyIsImRlc2MiLCJ4IiwxLDFd', 'WyJjbG9zZV9kYXRlIiwiZGVzYyIsIjk5OTktOTktOTkiLDEsMV0',
];
const FIELDS = ['symbol', 'holding_type', 'shares', 'average_cost', 'notes', 'purchase_date', 'snapshot_type', 'brokerage_account', 'name', 'x'];

function jsonValue(random: Random, depth = 0): unknown {
  switch (random.int(depth > 3 ? 6 : 9)) {
    case 0:
      return null;
    case 1:
      return random.next() < 0.5;
    case 2:
      return random.pick([0, -0, 1, -1, 1e-7, 5e-324, 1e21, 1e308, Number.MAX_SAFE_INTEGER + 2, 0.1 + 0.2, 150.25, 10, 1e9, 1e9 + 1]);
    case 3:
      return random.pick(['', ' ', 'AAPL', 'stock', 'etf', 'crypto', 'MANUAL', 'EOD', '2024-02-29', '2024-02-30', '0000-01-01', 'XXXX-1234', '\u0000', 'x'.repeat(2000)]);
    case 4:
      return random.text(random.int(40));
    case 5:
      return String(random.int(1000));
    case 6:
      return Array.from({ length: random.int(4) }, () => jsonValue(random, depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: random.int(5) }, () => [random.pick(FIELDS), jsonValue(random, depth + 1)]));
  }
}

function jsonBody(random: Random): string {
  switch (random.int(10)) {
    case 0:
      return random.text(random.int(50)); // not JSON at all
    case 1:
      return '['.repeat(random.int(60)) + ']'.repeat(random.int(60));
    case 2:
      return JSON.stringify(jsonValue(random));
    default: {
      const body: Record<string, unknown> = {};
      for (const field of FIELDS) if (random.next() < 0.5) body[field] = random.next() < 0.6 ? jsonValue(random, 3) : jsonValue(random);
      return JSON.stringify(body);
    }
  }
}

/** Every route but sign-out (it would end the fuzzing session) and the uploads (fuzzed above). */
const ROUTES: [string, string][] = [
  ['GET', '/api/months'], ['GET', '/api/month/:v'], ['GET', '/api/trade-details/:v'], ['GET', '/api/symbols'], ['GET', '/api/symbols/summary'],
  ['GET', '/api/symbols/:v'], ['GET', '/api/timeframe-data'], ['GET', '/api/timeframe'], ['GET', '/api/calendar-data'], ['GET', '/api/day-details'],
  ['GET', '/api/trading-calendar/metrics'], ['GET', '/api/trading-calendar/holidays'], ['GET', '/api/calendar/export/:v'], ['GET', '/api/monthly/export/:v'],
  ['GET', '/api/upload-history'], ['GET', '/api/portfolio/holdings'], ['POST', '/api/portfolio/holdings'], ['PUT', '/api/portfolio/holdings/:v'],
  ['DELETE', '/api/portfolio/holdings/:v'], ['POST', '/api/portfolio/snapshot'], ['GET', '/api/portfolio/history'], ['DELETE', '/api/portfolio/snapshot/:v'],
  ['POST', '/api/portfolio/refresh-prices'], ['GET', '/api/portfolio/validate-symbol/:v'], ['GET', '/api/portfolio/price/:v'], ['GET', '/auth/profile'],
  ['PUT', '/auth/profile'], ['GET', '/auth/callback'], ['GET', '/health'], ['GET', '/health/detailed'], ['GET', '/health/ready'], ['GET', '/'],
  ['GET', '/calendar'], ['GET', '/api/:v'], ['PATCH', '/api/portfolio/holdings/:v'],
  ['GET', '/api/statistics'], ['GET', '/api/equity-curve'], ['GET', '/api/trades'], ['GET', '/api/trades/export.csv'],
  ['DELETE', '/api/import/accounts/:v'],
  ['DELETE', '/api/accounts/:v'],
];

function apiRequest(random: Random, origin: string): FuzzRequest {
  const [method, template] = random.pick(ROUTES);
  const path = template.replace(':v', () => (random.next() < 0.8 ? random.pick(PATH_VALUES) : encodeURIComponent(random.text(1 + random.int(12)))));
  const query = Array.from({ length: random.int(4) }, () => `${random.pick(QUERY_KEYS)}=${random.next() < 0.8 ? random.pick(QUERY_VALUES) : encodeURIComponent(random.text(random.int(20)))}`);
  const headers: Record<string, string> = { origin };
  let body: string | undefined;
  if (method !== 'GET' && method !== 'DELETE') {
    body = jsonBody(random);
    headers['content-type'] = random.pick(['application/json', 'application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded']);
  }
  return { method, path: query.length > 0 ? `${path}?${query.join('&')}` : path, headers, body };
}

describe(`fuzzing (seed ${SEED}, ${CASES} cases)`, () => {
  let finnhub: FakeFinnhub;
  let service: RunningService;
  let trader: Session;

  beforeAll(async () => {
    finnhub = await startFakeFinnhub({ quotes: { AAPL: { c: 175.5 }, NVDA: { c: 120.25 } }, profiles: { AAPL: { name: 'Apple Inc' } } });
    service = await startService({
      env: { FINNHUB_API_KEY: finnhub.token, FINNHUB_BASE_URL: finnhub.url, MARKET_DATA_REQUESTS_PER_MINUTE: '100000', UPLOAD_MAX_BYTES: String(256 * 1024) },
    });
    trader = await signIn(service);
    expect((await trader.json('PUT', '/auth/profile', { brokerage_account: 'XXXX-1234' })).status).toBe(200);
  });
  afterAll(async () => {
    await service?.stop();
    await finnhub?.close();
  });

  /** What the reports say, to compare before and after a refused upload. */
  const reports = async () => {
    const bodies = await Promise.all(['/api/months', '/api/timeframe-data?all=true', '/api/symbols/summary'].map(async (path) => (await trader.fetch(path)).text()));
    return bodies.join('\n');
  };

  it('broken and random uploads: below 500, and a refused one changes nothing', async () => {
    const random = generator(SEED);
    const files = exampleFiles();
    const failures: string[] = [];
    let before = await reports();
    const outcomes = { success: 0, error: 0, refused: 0 };
    for (let index = 0; index < Math.round(CASES * UPLOAD_SHARE); index += 1) {
      const transactions = random.next() < 0.6 ? mutateFile(random, files.transaction_history_file.content as Buffer) : (files.transaction_history_file.content as Buffer);
      const gains = random.next() < 0.4 ? mutateFile(random, files.realized_gains_file.content as Buffer) : (files.realized_gains_file.content as Buffer);
      const swap = random.next() < 0.05;
      const name = (fallback: string) => (random.next() < 0.05 ? random.pick(['x.txt', '', 'x.CSV', '../x.csv', 'a'.repeat(300) + '.csv']) : fallback);
      const response = await trader.fetch('/api/upload-csv', {
        method: 'POST',
        headers: { origin: service.url },
        body: uploadForm({
          transaction_history_file: { name: name('transactions.csv'), content: swap ? gains : transactions },
          realized_gains_file: { name: name('realized_gains.csv'), content: swap ? transactions : gains },
        }),
      });
      const text = await response.text();
      if (response.status >= 500) failures.push(`upload ${index}: ${response.status} ${text.slice(0, 200)}`);
      const last = response.status === 200 ? ndjson(text).pop() : undefined;
      const after = await reports();
      if (last?.type === 'success') {
        outcomes.success += 1;
        before = after;
        continue;
      }
      if (response.status === 200) outcomes.error += 1;
      else outcomes.refused += 1;
      if (last !== undefined && last.type !== 'error') failures.push(`upload ${index}: the stream ended with ${JSON.stringify(last)}`);
      if (after !== before) failures.push(`upload ${index}: refused (${text.slice(0, 120)}) but the reports changed`);
    }
    expect(failures).toEqual([]);
    // The generator reaches every outcome: accepted variants, errors in the stream, refusals before it.
    expect(Object.values(outcomes).every((count) => count > 0)).toBe(true);
  });

  it('random paths, query strings and JSON bodies on every route: below 500', async () => {
    const random = generator(SEED + 1);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (let index = 0; index < CASES - Math.round(CASES * UPLOAD_SHARE); index += 1) {
      const request = apiRequest(random, service.url);
      const response = await trader.fetch(request.path, { method: request.method, headers: request.headers, body: request.body, redirect: 'manual' });
      const text = await response.text();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status >= 500) failures.push(`case ${index}: ${request.method} ${request.path} ${request.body?.slice(0, 120) ?? ''} → ${response.status} ${text.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
    // Not all refusals: the generator also reaches the routes' real answers.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(CASES / 20);
  });

  it('the service is still up and still answers', async () => {
    expect((await fetch(`${service.url}/health/live`)).status).toBe(200);
    expect((await trader.fetch('/api/months')).status).toBe(200);
  });
});
