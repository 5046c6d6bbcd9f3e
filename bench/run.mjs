// Benchmarks on loopback, bounded in time: `npm run bench` (builds first).
// Starts the built service on a fresh embedded database (or, with BENCH_DATABASE_URL, on a fresh
// database of that PostgreSQL server), signs a trader in through the real sign-in flow, imports
// generated Schwab exports of the account shape BENCH_SHAPE names (see SHAPES) through the real
// upload endpoint, then measures each scenario with the load generator in support/load.mjs and
// prints a table with each endpoint's throughput as a ratio to /health/live measured in the same run
// (machines are noisy: the ratio holds where an absolute figure does not). Exit code 1 when a goal
// is missed.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMarketDataStub, openPositionsExport } from './support/market-data-stub.mjs';
import { load, timedRequest } from './support/load.mjs';
import { cpuMeter, createDatabase, loadSignIn, startBenchService, waitForReady } from './support/service.mjs';
import { generateActiveTraderHistory, generateTradingHistory } from './support/trading-history.mjs';
import { schwabPair, setAccount, timedUpload } from './support/uploads.mjs';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
/** Quiet time after the import (its garbage is collected, the database settles) before measuring. */
const SETTLE_S = Number(process.env.BENCH_SETTLE_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
/** Comma-separated paths to measure (health/live is always measured: it is the baseline). */
const ONLY = process.env.BENCH_ONLY?.split(',').map((path) => path.trim()).filter(Boolean);
const SERVER_URL = process.env.BENCH_DATABASE_URL?.trim() || undefined;
const TRADER = 'bench@example.com';
/** A second trader whose imports leave POSITIONS open positions (issue 19), priced through the provider stub. */
const HOLDER = 'holder@example.com';
const POSITIONS = { positions: Number(process.env.BENCH_POSITIONS ?? 1_000), lots: Number(process.env.BENCH_POSITION_LOTS ?? 3) };
/**
 * The account's shape (bench/support/trading-history.mjs), `BENCH_SHAPE`: `ten-years` (ten years,
 * 100,000 trades over 200 symbols, broker lots for a fifth of the sales; `BENCH_TRADES`,
 * `BENCH_DIVIDENDS`, `BENCH_SYMBOLS`, `BENCH_BROKER_LOT_SHARE` vary it) or `active-trader` (two years,
 * 100,000 rows, lots for every sale, ~3,000 trades a month over 1,026 symbols; `BENCH_ROWS`,
 * `BENCH_SYMBOLS`). Each names the month, day and range its report rows read.
 */
const SHAPES = {
  'ten-years': {
    generate: () =>
      generateTradingHistory({
        trades: Number(process.env.BENCH_TRADES ?? 100_000),
        dividends: Number(process.env.BENCH_DIVIDENDS ?? 5_000),
        symbols: Number(process.env.BENCH_SYMBOLS ?? 200),
        brokerLotShare: Number(process.env.BENCH_BROKER_LOT_SHARE ?? 0.2),
      }),
    month: '2020-06',
    day: '2020-06-10',
    range: ['2015-01-01', '2024-12-31'],
  },
  'active-trader': {
    generate: () => generateActiveTraderHistory({ rows: Number(process.env.BENCH_ROWS ?? 100_000), symbols: Number(process.env.BENCH_SYMBOLS ?? 1_026) }),
    month: '2024-06',
    day: '2024-06-12',
    range: ['2023-01-01', '2024-12-31'],
  },
};
const SHAPE_NAME = process.env.BENCH_SHAPE ?? 'ten-years';
const SHAPE = SHAPES[SHAPE_NAME];
if (SHAPE === undefined) throw new Error(`BENCH_SHAPE: one of ${Object.keys(SHAPES).join(', ')}`);
const [MONTH_YEAR, MONTH_NUMBER] = SHAPE.month.split('-').map(Number);

const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';

/**
 * Each scenario: a name, a path, whether it needs the trader's session, and the goals it must meet.
 * Requests carry a browser's `Accept-Encoding` (report bodies of 1 KB or more are sent gzipped);
 * `identity` scenarios ask for uncompressed bodies, for comparison.
 */
const SCENARIOS = [
  { name: 'health/live', path: '/health/live', p99MaxMs: 50 },
  { name: 'months', path: '/api/months', session: true, p99MaxMs: 50, minRatio: 0.3, firstMaxMs: 100 },
  { name: 'month', path: `/api/month/${SHAPE.month}`, session: true, p99MaxMs: 50, minRatio: 0.3, firstMaxMs: 100 },
  { name: 'month, uncompressed', path: `/api/month/${SHAPE.month}`, session: true, identity: true },
  { name: 'calendar', path: `/api/calendar-data?year=${MONTH_YEAR}&month=${MONTH_NUMBER}`, session: true, p99MaxMs: 50, minRatio: 0.3, firstMaxMs: 100 },
  { name: 'day', path: `/api/day-details?date=${SHAPE.day}`, session: true, p99MaxMs: 50, minRatio: 0.3, firstMaxMs: 100 },
  { name: 'symbols summary', path: '/api/symbols/summary', session: true, p99MaxMs: 50, minRatio: 0.3, firstMaxMs: 100 },
  { name: 'timeframe all', path: '/api/timeframe-data?all=true', session: true, p99MaxMs: 50, minRatio: 0.3, firstMaxMs: 100 },
  { name: 'statistics all', path: '/api/statistics?all=true', session: true, p99MaxMs: 50, firstMaxMs: 300 },
  // The same trades through a date range: no rollup, one scan (for comparison; the goal is all=true's).
  { name: 'statistics over a range', path: `/api/statistics?start_date=${SHAPE.range[0]}&end_date=${SHAPE.range[1]}`, session: true },
  { name: 'equity curve all', path: '/api/equity-curve?all=true', session: true, p99MaxMs: 50, firstMaxMs: 300 },
  { name: 'trades of a symbol by P&L', path: '/api/trades?symbol=BAA&sort=profit_loss&limit=100', session: true, p99MaxMs: 50, firstMaxMs: 100 },
  // The journal (issue 18), after 50 tags were put on every trade by a tag file: the tags' figures
  // (through the report cache; "first" is the uncached computation), a trade list filtered by a tag,
  // then setting a trade's tags (PUT, a random one of 1,000 trades per request; each raises the
  // user's report version, so the cached reports above would be recomputed).
  { name: 'tags', path: '/api/tags', session: true, p99MaxMs: 50, firstMaxMs: 100 },
  { name: 'trades with a tag', path: '/api/trades?tag=setup-07&limit=100', session: true, p99MaxMs: 50 },
  // One trader tagging from a few tabs: 4 connections (64 writes of one user at once queue on the user's
  // report version row, and on the embedded engine's single connection).
  { name: 'set tags', path: '/api/trades/{id}/tags', method: 'PUT', body: { tags: ['bench-a', 'Bench B'] }, session: true, p99MaxMs: 50, connections: 4 },
  // Issue 19: the holder's open positions with every price cached (fetched from the stub just before).
  { name: 'positions', path: '/api/positions', session: 'holder', p99MaxMs: 50, prepare: 'pricePositions' },
];
const JOURNAL_TAGS = 50;

async function main() {
  const dataDir = await mkdtemp(join(tmpdir(), 'sta-bench-'));
  const database = SERVER_URL ? await createDatabase(SERVER_URL) : undefined;
  const signIn = await loadSignIn(dataDir);
  const marketData = await startMarketDataStub();
  const service = await startBenchService({
    dataDir,
    databaseUrl: database?.url,
    users: [TRADER, HOLDER],
    env: { FINNHUB_API_KEY: 'bench-key', FINNHUB_BASE_URL: marketData.url, MARKET_DATA_REQUESTS_PER_MINUTE: '100000' },
  });
  const base = service.url;
  try {
    await waitForReady(base, 60_000);
    const session = await signIn({ url: base }, TRADER);
    const imported = await importHistory(session, base);
    console.log(`imported ${imported.trades} trades and ${imported.dividends} dividends (${imported.rows} rows, ${imported.lots} broker lots) in ${imported.seconds.toFixed(1)} s`);
    // The same files again, before and after every trade is tagged: what following the journal costs a re-import.
    const untagged = await importHistory(session, base);
    const journal = await tagEveryTrade(session, base);
    console.log(
      `tagged ${journal.tagged} of ${journal.listed} trades with ${JOURNAL_TAGS} tags from a ${journal.lines}-line tag file in ${journal.seconds.toFixed(1)} s (${journal.ambiguous} ambiguous lines)`,
    );
    const again = await importHistory(session, base);
    console.log(`the same files again: ${untagged.seconds.toFixed(1)} s untagged, ${again.seconds.toFixed(1)} s with every trade tagged`);

    const holder = await signIn({ url: base }, HOLDER);
    const holdings = await importPositions(holder, base);
    console.log(`the holder's ${POSITIONS.positions} positions of ${POSITIONS.lots} lots imported in ${holdings.seconds.toFixed(1)} s`);

    await new Promise((resolve) => setTimeout(resolve, SETTLE_S * 1000));

    const rows = [];
    for (const scenario of SCENARIOS.filter((each) => ONLY === undefined || each.path === '/health/live' || ONLY.includes(each.path))) {
      if (scenario.prepare === 'pricePositions') await pricePositions(holder);
      const headers = {
        'accept-encoding': scenario.identity ? 'identity' : BROWSER_ENCODINGS,
        ...(scenario.session ? { cookie: scenario.session === 'holder' ? holder.cookie : session.cookie } : {}),
        ...(scenario.body ? { 'content-type': 'application/json', origin: base } : {}),
      };
      const method = scenario.method ?? 'GET';
      const body = scenario.body ? JSON.stringify(scenario.body) : undefined;
      // A path with {id}: a random one of the tagged trades per request.
      const pathOf = () => scenario.path.replace('{id}', journal.ids[Math.floor(Math.random() * journal.ids.length)]);
      // The first request after the import finds no cached response: the read model's own speed.
      const { status, body: answer, ms: firstMs } = await timedRequest(base + pathOf(), { method, headers, body });
      if (status !== 200) throw new Error(`${scenario.path}: ${status} ${answer.toString('utf8', 0, 200)}`);
      const cpu = cpuMeter(service.pid);
      const result = await load({
        url: base + scenario.path,
        connections: scenario.connections ?? CONNECTIONS,
        seconds: DURATION_S,
        headers,
        method,
        body,
        ...(scenario.path.includes('{id}') ? { pathOf } : {}),
      });
      const { serviceCpu, clientCpu } = cpu(DURATION_S + 1);
      // What was sent during the run (a compressed form may be made after the first request, as Brotli is).
      const last = await fetch(base + pathOf(), { method, headers, body });
      const sentBytes = Number(last.headers.get('content-length') ?? 0);
      await last.arrayBuffer();
      rows.push({
        ...scenario,
        firstMs,
        bytes: answer.length,
        sentBytes: sentBytes || answer.length,
        clientCpu,
        serviceCpu,
        rps: result.rps,
        p50: result.p50,
        p99: result.p99,
        errors: result.errors + result.non2xx,
      });
    }
    const baseline = rows.find((row) => row.name === 'health/live').rps;
    console.log(`\naccount (${SHAPE_NAME}): ${imported.rows} rows, ${imported.trades} trades, ${imported.lots} broker lots, ${imported.dividends} dividends, ${imported.firstDay} to ${imported.lastDay}`);
    console.log(`${CONNECTIONS} connections, ${DURATION_S} s per endpoint, loopback, ${database ? 'PostgreSQL server' : 'embedded database'}\n`);
    console.log('| endpoint | req/s | p50 ms | p99 ms | ratio to /health/live | first (uncached) ms | JSON KB | sent KB | service CPU | client CPU | errors | goal |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
    let failed = false;
    for (const row of rows) {
      const ratio = row.rps / baseline;
      const goals = [];
      if (row.p99MaxMs !== undefined) goals.push(row.p99 <= row.p99MaxMs ? `p99 ≤ ${row.p99MaxMs} ✓` : `p99 ≤ ${row.p99MaxMs} ✗`);
      if (row.firstMaxMs !== undefined) goals.push(row.firstMs <= row.firstMaxMs ? `first ≤ ${row.firstMaxMs} ✓` : `first ≤ ${row.firstMaxMs} ✗`);
      if (row.minRatio !== undefined) goals.push(ratio >= row.minRatio ? `ratio ≥ ${row.minRatio} ✓` : `ratio ≥ ${row.minRatio} ✗`);
      if (goals.some((goal) => goal.endsWith('✗')) || row.errors > 0) failed = true;
      console.log(
        `| ${row.method ? `${row.method} ` : ''}${row.path}${row.identity ? ' (uncompressed)' : ''}${row.connections ? ` (${row.connections} connections)` : ''} | ${row.rps.toFixed(0)} | ${row.p50} | ${row.p99} | ${ratio.toFixed(2)} | ${row.firstMs.toFixed(0)} | ${(row.bytes / 1024).toFixed(1)} | ${(row.sentBytes / 1024).toFixed(1)} | ${Number.isNaN(row.serviceCpu) ? '–' : `${(row.serviceCpu * 100).toFixed(0)}%`} | ${(row.clientCpu * 100).toFixed(0)}% | ${row.errors} | ${goals.join(', ')} |`,
      );
    }
    if (failed) process.exitCode = 1;
  } finally {
    await service.stop();
    await database?.drop();
    await marketData.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Imports the holder's export: POSITIONS.positions symbols, each bought POSITIONS.lots + 1 times and sold once. */
async function importPositions(holder, base) {
  await setAccount(holder);
  const gains = generateTradingHistory({ trades: 2, dividends: 0, symbols: 1, brokerLotShare: 0 }).gains;
  const upload = await timedUpload(base, holder.cookie, schwabPair(openPositionsExport(POSITIONS), gains));
  return { seconds: upload.totalMs / 1000 };
}

/** Reads the holder's positions until no price is pending: every price is then in the quote cache. */
async function pricePositions(holder) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const body = await (await holder.fetch('/api/positions')).json();
    if (body.count !== POSITIONS.positions) throw new Error(`expected ${POSITIONS.positions} positions, got ${body.count}`);
    if (body.pending_prices === 0 && body.unpriced_count === 0) return;
    if (Date.now() > deadline) throw new Error(`positions still unpriced after 2 minutes: ${body.pending_prices} pending, ${body.unpriced_count} unpriced`);
  }
}

/**
 * Tags every trade the way a trader moving from another journal would: a tag file (POST
 * /api/trades/tags.csv) naming each symbol, side and close date once, with one of JOURNAL_TAGS tags
 * (two for a tenth of them). Lines naming several closing fills are ambiguous and tag nothing.
 * Returns 1,000 trade ids for the PUT scenario.
 */
async function tagEveryTrade(session, base) {
  const trades = [];
  let cursor = null;
  do {
    const page = await (await session.fetch(`/api/trades?limit=500${cursor ? `&cursor=${cursor}` : ''}`)).json();
    trades.push(...page.trades.map((trade) => ({ id: trade.id, key: `${trade.symbol},${trade.close_date},${trade.side}` })));
    cursor = page.next_cursor;
  } while (cursor);
  const keys = [...new Set(trades.map((trade) => trade.key))];
  const name = (index) => `setup-${String(index % JOURNAL_TAGS).padStart(2, '0')}`;
  const file = ['symbol,close_date,side,tags', ...keys.map((key, index) => `${key},${name(index)}${index % 10 === 0 ? `;${name(index + 7)}` : ''}`)].join('\n');
  const form = new FormData();
  form.append('file', new Blob([file]), 'tags.csv');
  const started = performance.now();
  const response = await session.fetch('/api/trades/tags.csv', { method: 'POST', headers: { origin: base }, body: form });
  const result = await response.json();
  if (response.status !== 200) throw new Error(`tag import: ${response.status} ${JSON.stringify(result).slice(0, 200)}`);
  return {
    listed: trades.length,
    lines: keys.length,
    tagged: result.trades_tagged,
    ambiguous: result.ambiguous,
    seconds: (performance.now() - started) / 1000,
    ids: trades.filter((_, index) => index % Math.max(1, Math.floor(trades.length / 1000)) === 0).map((trade) => trade.id).slice(0, 1000),
  };
}

let history;

/** Sets the trader's brokerage account and uploads the generated exports through POST /api/upload-csv. */
async function importHistory(session, base) {
  await setAccount(session);
  history ??= SHAPE.generate();
  const upload = await timedUpload(base, session.cookie, schwabPair(history.transactions, history.gains));
  return { ...history, seconds: upload.totalMs / 1000 };
}

await main();
