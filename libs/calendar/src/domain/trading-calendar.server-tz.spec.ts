import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { TradingCalendar } from './trading-calendar.js';

// The calendar must answer the same whatever the server's own time zone. Setting `process.env.TZ` inside
// a Jest test does not work: Jest gives each test file a copy of `process.env`, so Node never sees the
// change. Instead the domain folder is transpiled as-is to plain ESM in a temporary folder and run in a
// child Node process started with TZ=Asia/Tokyo (and two other zones far from New York).

const DOMAIN_DIR = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(DOMAIN_DIR, '../../../..');

const INSTANTS = [
  '2025-06-10T07:59:00Z', // 03:59 EDT  closed
  '2025-06-10T08:00:00Z', // 04:00 EDT  pre-market
  '2025-06-10T13:29:00Z', // 09:29 EDT  pre-market
  '2025-06-10T13:30:00Z', // 09:30 EDT  open
  '2025-06-10T19:59:00Z', // 15:59 EDT  open
  '2025-06-10T20:00:00Z', // 16:00 EDT  after-hours
  '2025-06-10T23:59:00Z', // 19:59 EDT  after-hours
  '2025-06-11T00:00:00Z', // 20:00 EDT  closed
  '2025-11-28T17:59:00Z', // 12:59 EST early close: open
  '2025-11-28T18:00:00Z', // 13:00 EST early close: after-hours
  '2025-07-04T14:00:00Z', // holiday 10:00 EDT closed
  '2025-06-14T14:00:00Z', // Saturday 10:00 EDT closed
  '2025-03-09T07:30:00Z', // spring-forward Sunday 03:30 EDT closed
  '2025-03-10T13:30:00Z', // 09:30 EDT open
  '2025-11-02T06:30:00Z', // fall-back Sunday 01:30 EST closed
  '2025-11-03T14:29:00Z', // 09:29 EST pre-market
  '2025-11-03T14:30:00Z', // 09:30 EST open
  '2025-06-16T02:00:00Z', // Sunday 22:00 EDT (Monday in UTC and in Tokyo) closed
];

const EXPECTED_STATUSES = [
  'closed',
  'pre-market',
  'pre-market',
  'open',
  'open',
  'after-hours',
  'after-hours',
  'closed',
  'open',
  'after-hours',
  'closed',
  'closed',
  'closed',
  'open',
  'closed',
  'pre-market',
  'open',
  'closed',
];

/** Everything the check compares, computed by a given calendar (in this process or in the child). */
const PROBE_BODY = `
  const statuses = INSTANTS.map((i) => calendar.marketStatusAt(new Date(i)));
  const dates = INSTANTS.map((i) => calendar.dateAt(new Date(i)));
  const metrics = ['2026-01-01T04:30:00Z', '2025-11-28T17:59:30.123Z', '2025-03-09T07:30:00Z'].map((i) =>
    calendar.metrics(new Date(i)),
  );
  const nextTradingDays = ['2025-06-13', '2025-07-03', '2026-12-31'].map((d) => calendar.nextTradingDay(d));
  const counts = [2024, 2025, 2026].map((y) => calendar.tradingDaysInYear(y));
  const holidays2026 = calendar.holidaysOf(2026).map((h) => h.date);
  const session = calendar.sessionOn('2025-03-10');
  const bells = [session.opensAt.toISOString(), session.closesAt.toISOString()];
  return { statuses, dates, metrics, nextTradingDays, counts, holidays2026, bells };
`;

const probe = new Function('calendar', 'INSTANTS', PROBE_BODY) as (calendar: TradingCalendar, instants: string[]) => unknown;

let workDir: string;

beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), 'calendar-tz-'));
  // The calendar's domain, and the shared domain it imports as '@app/shared/domain' (its only import).
  const SHARED_SRC = join(REPO_ROOT, 'libs/shared/src');
  const sources: [from: string, to: string][] = [
    [DOMAIN_DIR, 'domain'],
    [join(SHARED_SRC, 'domain'), 'shared/domain'],
    [join(SHARED_SRC, 'errors'), 'shared/errors'],
  ];
  for (const [from, to] of sources) {
    const outDir = join(workDir, to);
    mkdirSync(outDir, { recursive: true });
    for (const file of readdirSync(from).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))) {
      const { outputText } = ts.transpileModule(readFileSync(join(from, file), 'utf8'), {
        compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
      });
      writeFileSync(join(outDir, file.replace(/\.ts$/, '.js')), outputText.replaceAll("'@app/shared/domain'", "'../shared/domain/index.js'"));
    }
  }
  writeFileSync(join(workDir, 'package.json'), '{"type":"module"}');
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(workDir, 'node_modules'), 'dir');
});

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

function runInChild(timeZone: string) {
  const script = `
    import { TradingCalendar } from './domain/trading-calendar.js';
    const calendar = new TradingCalendar();
    const INSTANTS = ${JSON.stringify(INSTANTS)};
    const probe = new Function('calendar', 'INSTANTS', ${JSON.stringify(PROBE_BODY)});
    process.stdout.write(JSON.stringify({
      zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      offsetMinutes: new Date('2025-06-10T13:30:00Z').getTimezoneOffset(),
      answers: probe(calendar, INSTANTS),
    }));
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '--eval', script], {
    cwd: workDir,
    env: { ...process.env, TZ: timeZone },
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`child process failed: ${child.stderr}`);
  return JSON.parse(child.stdout) as { zone: string; offsetMinutes: number; answers: ReturnType<typeof probe> };
}

describe.each([
  ['Asia/Tokyo', -540],
  ['Pacific/Kiritimati', -840],
  ['America/Los_Angeles', 420],
])('with the server in %s', (timeZone, offsetMinutes) => {
  it('really runs in that zone', () => {
    const child = runInChild(timeZone);
    expect(child.zone).toBe(timeZone);
    expect(child.offsetMinutes).toBe(offsetMinutes);
  });

  it('gives the same answers, and the right ones', () => {
    const { answers } = runInChild(timeZone);
    expect(answers).toEqual(probe(new TradingCalendar(), INSTANTS));
    expect(answers).toMatchObject({
      statuses: EXPECTED_STATUSES,
      nextTradingDays: ['2025-06-16', '2025-07-07', '2027-01-04'],
      counts: [252, 251, 251],
      holidays2026: [
        '2026-01-01',
        '2026-01-19',
        '2026-02-16',
        '2026-04-03',
        '2026-05-25',
        '2026-06-19',
        '2026-07-03',
        '2026-09-07',
        '2026-11-26',
        '2026-11-27',
        '2026-12-24',
        '2026-12-25',
      ],
      bells: ['2025-03-10T13:30:00.000Z', '2025-03-10T20:00:00.000Z'],
    });
    const { dates, metrics } = answers as { dates: string[]; metrics: Record<string, unknown>[] };
    expect(dates[7]).toBe('2025-06-10'); // 20:00 EDT: still Tuesday in New York, Wednesday in UTC and Asia
    expect(dates[17]).toBe('2025-06-15');
    expect(metrics[0]).toEqual({
      current_time: '2025-12-31T23:30:00.000000',
      market_status: 'closed',
      market_open_time: '09:30:00',
      market_close_time: '16:00:00',
      is_trading_day: true,
      next_trading_day: '2026-01-02',
      trading_days_this_month: 22,
      trading_days_this_year: 251,
    });
    expect(metrics[1]).toMatchObject({ current_time: '2025-11-28T12:59:30.123000', market_close_time: '13:00:00' });
    expect(metrics[2]).toMatchObject({ current_time: '2025-03-09T03:30:00.000000', market_status: 'closed' });
  });
});
