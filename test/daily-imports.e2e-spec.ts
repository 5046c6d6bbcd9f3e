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
  const ORDERS = ['in-order', 'backwards'];
  let service: RunningService;

  beforeAll(async () => {
    // At `info` the log says of each import whether it went on from the stored books (`appended`).
    service = await startService({ env: { LOG_LEVEL: 'info', AUTHORIZED_USERS: [...CASES.flatMap((name) => ROLES.map((role) => `${name}-${role}@example.com`)), ...ORDERS.map((order) => `again-${order}@example.com`)].join(',') } });
  });

  afterAll(async () => {
    await service?.stop();
  });

  async function upload(session: SignedIn, pair: Pair): Promise<{ stats: { transactions_inserted: number } }> {
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
    return last as { stats: { transactions_inserted: number } };
  }

  /**
   * How many imports so far went on from the account's stored books, how many matched everything again,
   * and how many rows they left unread as rows of days their account held byte for byte.
   */
  function importPaths(): { appended: number; rematched: number; knownRows: number } {
    const imports = service
      .output()
      .split('\n')
      .filter((line) => line.includes('import succeeded {'))
      .map((line) => JSON.parse(line.slice(line.indexOf('{'))) as { appended: number; knownRows: number });
    return {
      appended: imports.filter((entry) => entry.appended > 0).length,
      rematched: imports.filter((entry) => entry.appended === 0).length,
      knownRows: imports.reduce((sum, entry) => sum + entry.knownRows, 0),
    };
  }

  async function setAccount(session: SignedIn): Promise<void> {
    const profile = await session.fetch('/auth/profile', { method: 'PUT', headers: { 'content-type': 'application/json', origin: service.url }, body: JSON.stringify({ brokerage_account: 'XXXX-1234' }) });
    expect(profile.status).toBe(200);
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
    for (const session of [whole, daily, overlapping]) await setAccount(session);
    const before = importPaths();
    await upload(whole, pair);
    const cuts = randomCuts(pair, pieces - 1, seed);
    const days = splitPair(pair, cuts, 0);
    expect(days).toHaveLength(pieces);
    for (const piece of days) await upload(daily, piece);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const apart = importPaths();
    // The overlapping pieces' first three days are days their account read before, byte for byte: not read again.
    const overlaps = splitPair(pair, cuts, 3);
    for (const piece of overlaps) await upload(overlapping, piece);
    // Every piece after an account's first comes after its stored days: it is added to the stored books.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const after = importPaths();
    expect({ appended: after.appended - before.appended, rematched: after.rematched - before.rematched }).toEqual({ appended: 2 * (pieces - 1), rematched: 3 });
    expect(apart.knownRows).toBe(before.knownRows);
    const overlapRows = overlaps.slice(1).reduce((sum, piece, index) => sum + rowsOf(piece) - rowsOf(days[index + 1]), 0);
    expect(after.knownRows - apart.knownRows).toBe(overlapRows);
    const expected = await everything(whole);
    expect((expected as { trades: unknown[] }).trades.length).toBeGreaterThan(0);
    expect(await everything(daily)).toEqual(expected);
    expect(await everything(overlapping)).toEqual(expected);
  }, 180000);

  it('reads a stored day again when its export holds a row more, whichever upload comes first', async () => {
    const pair = generateActiveTraderHistory({ rows: 1_500, symbols: 15, dividends: 20, seed: 5 });
    const dates = [...new Set(transactionDates(pair))].sort();
    const [cut, changed] = [dates[Math.floor(dates.length / 2)], dates[Math.floor(dates.length / 2) - 2]];
    const first = between(pair, '0000-01-01', cut);
    // The later export overlaps the first's last five days, and one of them has a row more (interest
    // credited after the first export was taken); the others are as before.
    const later = between(pair, dates[dates.indexOf(cut) - 5], '9999-12-31');
    const lines = later.transactions.split('\r\n');
    const shown = `${changed.slice(5, 7)}/${changed.slice(8)}/${changed.slice(0, 4)}`;
    const at = lines.findIndex((line) => line.startsWith(`"${shown}"`));
    expect(at).toBeGreaterThan(0);
    lines.splice(at, 0, `"${shown}","Credit Interest","","SCHWAB1 INT","","","","$1.23"`);
    const changedLater = { ...later, transactions: lines.join('\r\n') };
    const [inOrder, backwards] = await Promise.all(ORDERS.map((order) => signIn(service, `again-${order}@example.com`)));
    for (const session of [inOrder, backwards]) await setAccount(session);
    const before = importPaths();
    await upload(inOrder, first);
    const added = await upload(inOrder, changedLater);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Of the overlap's five days, the changed one's transactions are read again (not read before as they
    // now are): its new row is stored. Its lots, and the other days' rows, are not read.
    const overlap = between(first, dates[dates.indexOf(cut) - 5], cut);
    const changedDay = between(first, changed, dates[dates.indexOf(changed) + 1]);
    expect(importPaths().knownRows - before.knownRows).toBe(rowsOf(overlap) - changedDay.rows);
    expect(added.stats.transactions_inserted).toBe(later.rows - overlap.rows + 1);
    await upload(backwards, changedLater);
    await upload(backwards, first);
    const expected = await everything(inOrder);
    expect((expected as { trades: unknown[] }).trades.length).toBeGreaterThan(0);
    expect(await everything(backwards)).toEqual(expected);
  }, 120000);
});

/** A pair's data rows: its transactions and lots. */
function rowsOf(pair: Pair): number {
  const all = between(pair, '0000-01-01', '9999-12-31');
  return all.rows + all.lots;
}
