import { between, generateActiveTraderHistory, random, transactionDates } from '../bench/support/trading-history.mjs';
import { getJson } from './support/report-expectations.js';
import { startService, type RunningService } from './support/service.js';
import { signIn, type SignedIn } from './support/sign-in.js';
import { fixture, ndjson, uploadForm } from './support/uploads.js';

// Daily uploads against one upload of everything (issue 22): a trader who uploads each day's export,
// or overlapping exports, must end with exactly what one import of the whole history gives. The
// histories are cut at random days (seeded, so a failure repeats); each piece carries the lots of its
// own sales, and in the overlapping runs the days of the piece before it too.

interface Pair {
  transactions: string;
  gains: string;
}

/**
 * A Schwab pair cut into pieces at `cuts` (ISO dates: a piece holds the days before its cut, from the
 * previous cut on), each piece with the transactions and lots of its days and, with `overlapDays`,
 * those of that many days (with transactions) before it as well.
 */
function splitPair(pair: Pair, cuts: string[], overlapDays: number): Pair[] {
  const days = [...new Set(transactionDates(pair))].sort();
  const bounds = ['0000-01-01', ...cuts, '9999-12-31'];
  const pieces: Pair[] = [];
  for (let index = 0; index + 1 < bounds.length; index += 1) {
    const firstDay = days.find((day) => day >= bounds[index]);
    if (firstDay === undefined || firstDay >= bounds[index + 1]) continue;
    pieces.push(between(pair, days[Math.max(0, days.indexOf(firstDay) - overlapDays)], bounds[index + 1]));
  }
  return pieces;
}

/** `count` distinct random days of the history's span (as cut points), in order. */
function randomCuts(pair: Pair, count: number, seed: number): string[] {
  const days = [...new Set(transactionDates(pair))].sort();
  const next = random(seed);
  const cuts = new Set<string>();
  while (cuts.size < Math.min(count, days.length - 1)) cuts.add(days[1 + Math.floor(next() * (days.length - 1))]);
  return [...cuts].sort();
}

describe('daily uploads give what one upload of the whole history gives', () => {
  const CASES = ['schwab', 'active'];
  const ROLES = ['whole', 'daily', 'overlapping'];
  let service: RunningService;

  beforeAll(async () => {
    // At `info` the log says of each import whether it went on from the stored books (`appended`).
    service = await startService({ env: { LOG_LEVEL: 'info', AUTHORIZED_USERS: CASES.flatMap((name) => ROLES.map((role) => `${name}-${role}@example.com`)).join(',') } });
  });

  afterAll(async () => {
    await service?.stop();
  });

  async function upload(session: SignedIn, pair: Pair): Promise<void> {
    const response = await session.fetch('/api/upload-csv', {
      method: 'POST',
      headers: { origin: service.url },
      body: uploadForm({
        transaction_history_file: { name: 'transactions.csv', content: pair.transactions },
        realized_gains_file: { name: 'realized_gains.csv', content: pair.gains },
      }),
    });
    const last = ndjson(await response.text()).at(-1);
    expect(last).toMatchObject({ type: 'success' });
  }

  /** How many imports so far went on from the account's stored books, and how many matched everything again. */
  function importPaths(): { appended: number; rematched: number } {
    const imports = service
      .output()
      .split('\n')
      .filter((line) => line.includes('import succeeded {'))
      .map((line) => JSON.parse(line.slice(line.indexOf('{'))) as { appended: number });
    return { appended: imports.filter((entry) => entry.appended > 0).length, rematched: imports.filter((entry) => entry.appended === 0).length };
  }

  async function json(session: SignedIn, path: string): Promise<any> {
    const { status, body } = await getJson(session, path);
    expect(status).toBe(200);
    return body;
  }

  /** Everything the reports say about the account, without the ids (each account's own) and data_source. */
  async function everything(session: SignedIn): Promise<unknown> {
    const trades: unknown[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await json(session, `/api/trades?limit=500&sort=close_date&order=asc${cursor ? `&cursor=${cursor}` : ''}`);
      trades.push(...page.trades.map(({ id: _id, ...trade }: { id: string }) => trade));
      cursor = page.next_cursor;
    } while (cursor);
    const months: any = await json(session, '/api/months');
    const monthly: unknown[] = [];
    for (const { month } of months.months) {
      const { trades: listed, dividends, summary } = await json(session, `/api/month/${month}`);
      monthly.push({ month, trades: listed, dividends, summary });
    }
    const reports = await Promise.all(
      ['/api/symbols/summary', '/api/timeframe-data?all=true', '/api/statistics?all=true', '/api/equity-curve?all=true', '/api/positions'].map((path) =>
        json(session, path),
      ),
    );
    return JSON.parse(JSON.stringify({ trades, months, monthly, reports }, (key, value) => (key === 'data_source' || key === 'id' || key === 'priced_at' ? undefined : value)));
  }

  it.each([
    ['the Schwab example', 'schwab', (): Pair => ({ transactions: fixture('schwab-example', 'transactions.csv').toString('utf8'), gains: fixture('schwab-example', 'realized_gains.csv').toString('utf8') }), 6, 17],
    ['an active trader (lots for every sale, shorts, splits)', 'active', (): Pair => generateActiveTraderHistory({ rows: 2_500, symbols: 25, dividends: 40, seed: 7 }), 12, 29],
  ])('%s, cut at random days', async (_label, name, history, pieces, seed) => {
    const pair = history();
    const [whole, daily, overlapping] = await Promise.all(ROLES.map((role) => signIn(service, `${name}-${role}@example.com`)));
    for (const session of [whole, daily, overlapping]) {
      const profile = await session.fetch('/auth/profile', { method: 'PUT', headers: { 'content-type': 'application/json', origin: service.url }, body: JSON.stringify({ brokerage_account: 'XXXX-1234' }) });
      expect(profile.status).toBe(200);
    }
    const before = importPaths();
    await upload(whole, pair);
    const cuts = randomCuts(pair, pieces - 1, seed);
    const days = splitPair(pair, cuts, 0);
    expect(days).toHaveLength(pieces);
    for (const piece of days) await upload(daily, piece);
    for (const piece of splitPair(pair, cuts, 3)) await upload(overlapping, piece);
    // Every piece after an account's first comes after its stored days: it is added to the stored books.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const after = importPaths();
    expect({ appended: after.appended - before.appended, rematched: after.rematched - before.rematched }).toEqual({ appended: 2 * (pieces - 1), rematched: 3 });
    const expected = await everything(whole);
    expect((expected as { trades: unknown[] }).trades.length).toBeGreaterThan(0);
    expect(await everything(daily)).toEqual(expected);
    expect(await everything(overlapping)).toEqual(expected);
  }, 180000);
});
