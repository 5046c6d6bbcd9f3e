// How cost grows with the account (issue 22): for each size of the active-trader shape
// (bench/support/trading-history.mjs; 10,000 and 100,000 transaction rows, and 1,000,000 with
// BENCH_SCALE=1m), a fresh service on a fresh database (embedded, or BENCH_DATABASE_URL's server):
// - the import of everything before a busy day near the end, its time, the CPU the service and the database
//   used for it (with a server, when it runs on this machine), the service's and the engine's peak RSS,
//   and /health/live's p99 meanwhile under the paced probes of a monitor (HEALTH_PROBES: 8 connections, a
//   request every 100 ms on each, 80 a second; a flood of probes, each sent as the last answer came,
//   took a sixth of the service's main thread from the import it was measuring, and hid its stalls), and
//   the first progress line after the upload's last byte (≤ 200 ms up to 100,000 rows);
// - then, after BENCH_SETTLE_SECONDS (5) for the import's after-work, the daily uploads: that day
//   alone (its rows and lots), and a 90-day export that ends with the next day (89 stored days and
//   one new one), each timed (≤ 300 ms on a server, ≤ 600 ms embedded, up to 100,000 rows);
// - then /api/months and the busiest month's /api/month/{m}: the first (uncached) answer and p99
//   under 64 connections for 5 s, with the CPU the service and this load generator used meanwhile.
// Exit code 1 when a goal is missed.
import { load, timedRequest } from './support/load.mjs';
import { cpuMeter } from './support/service.mjs';
import { activeTraderSymbols, dailyUploads, generateActiveTraderHistory } from './support/trading-history.mjs';
import { importCpuText, importIntoFreshService, schwabPair, timedUpload } from './support/uploads.mjs';

const SERVER_URL = process.env.BENCH_DATABASE_URL?.trim() || undefined;
const SIZES = process.env.BENCH_SCALE === '1m' ? [10_000, 100_000, 1_000_000] : [10_000, 100_000];
const TRADER = 'scale@example.com';
const ENCODINGS = 'gzip, deflate, br, zstd';
/** Seconds between the import and the daily uploads (`BENCH_SETTLE_SECONDS`, as bench/run.mjs). */
const SETTLE_S = Number(process.env.BENCH_SETTLE_SECONDS ?? 5);

async function measure(size) {
  const history = generateActiveTraderHistory({ rows: size, symbols: activeTraderSymbols(size) });
  // The busiest day of the last four weeks alone after what came before, then a 90-day export ending the day after.
  const { base, lastDay, overlap, overlapNew } = dailyUploads(history);
  const { imported, importCpu, live, servicePeak, enginePeak, after } = await importIntoFreshService({
    pair: base,
    serverUrl: SERVER_URL,
    trader: TRADER,
    after: async ({ url, session, service }) => {
      // A trader's next upload comes later, not while the service is still doing the import's after-work
      // (the statistics refresh it asked for, collecting its garbage): the uploads below wait for that.
      await new Promise((resolve) => setTimeout(resolve, SETTLE_S * 1000));
      const day = await timedUpload(url, session.cookie, schwabPair(lastDay.transactions, lastDay.gains));
      const ninety = await timedUpload(url, session.cookie, schwabPair(overlap.transactions, overlap.gains));
      const headers = { cookie: session.cookie, 'accept-encoding': ENCODINGS };
      // After the uploads above, nothing is cached: the first answer is the read model's own speed.
      const first = async (path) => {
        const answer = await timedRequest(`${url}${path}`, { headers });
        return { firstMs: answer.ms, body: answer.body.toString('utf8') };
      };
      const monthsFirst = await first('/api/months');
      const { months } = JSON.parse(monthsFirst.body);
      const busiest = months.reduce((best, each) => (each.total_trades > best.total_trades ? each : best), months[0]);
      const monthFirst = await first(`/api/month/${busiest.month}`);
      const reports = [];
      for (const [path, { firstMs }] of [['/api/months', monthsFirst], [`/api/month/${busiest.month}`, monthFirst]]) {
        // The CPU the service and this load generator used meanwhile: which of them set the pace.
        const started = performance.now();
        const cpu = cpuMeter(service.pid);
        const result = await load({ url: `${url}${path}`, connections: 64, seconds: 5, headers });
        reports.push({ path, firstMs, ...result, ...cpu((performance.now() - started) / 1000) });
      }
      return { day, ninety, reports, busiest };
    },
  });
  return { size, history, base, lastDay, overlap, overlapNew, imported, importCpu, live, servicePeak, enginePeak, ...after };
}

async function main() {
  const results = [];
  for (const size of SIZES) results.push(await measure(size));
  const server = SERVER_URL !== undefined;
  // The sizes' imports hold a little less than their nominal rows (the busy day and what follows it stay out).
  const million = (rows) => rows >= 900_000;
  const goals = {
    import: (rows, seconds) => (million(rows) ? seconds <= (server ? 20 : 40) : rows >= 90_000 ? seconds <= (server ? 2 : 4) : undefined),
    rss: (rows, mb) => (million(rows) ? mb <= 600 : mb <= 400),
    // A day's upload (≈ 200 rows) or a 90-day export into an account of 100,000 rows: ≤ 300 ms / ≤ 600 ms.
    // The goal names none at a million rows, whose "day" holds ten times the rows (≈ 1,700) and whose
    // 90-day export 117,000 rows, more than the whole 100,000-row import: shown for the slope.
    daily: (rows, ms) => (million(rows) ? undefined : ms <= (server ? 300 : 600)),
    // The first answer after an import: ≤ 100 ms, ≤ 300 ms at a million rows.
    first: (rows, ms) => ms <= (million(rows) ? 300 : 100),
    // The first progress line after the upload's last byte: ≤ 200 ms (the goal names none at a million rows).
    firstLine: (rows, ms) => (million(rows) ? undefined : ms <= 200),
  };
  const percent = (share) => (Number.isNaN(share) ? '–' : `${Math.round(share * 100)}%`);
  const mark = (met) => (met === undefined ? '' : met ? ' ✓' : ' ✗');
  let failed = false;
  const check = (met) => {
    if (met === false) failed = true;
    return mark(met);
  };
  console.log(`\nhow cost grows, active-trader shape, ${server ? 'PostgreSQL server' : 'embedded database'}\n`);
  console.log('| rows (lots) | symbols | import | first progress line | rows/s | CPU during it: service + database | service peak RSS | engine peak RSS | /health/live p99 during it | one new day | 90-day overlap | /api/months first, p99 | busiest month first, p99 |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    const seconds = r.imported.totalMs / 1000;
    const [months, month] = r.reports;
    console.log(
      `| ${r.base.rows.toLocaleString('en-US')} (${r.base.lots.toLocaleString('en-US')}) | ${activeTraderSymbols(r.size).toLocaleString('en-US')} | ${seconds.toFixed(1)} s${check(goals.import(r.base.rows, seconds))} | ${r.imported.firstLineMs.toFixed(0)} ms${check(goals.firstLine(r.base.rows, r.imported.firstLineMs))} | ${Math.round(r.base.rows / seconds).toLocaleString('en-US')} | ${importCpuText(r.importCpu)} | ${r.servicePeak} MB${check(goals.rss(r.base.rows, r.servicePeak))} | ${r.enginePeak ? `${r.enginePeak} MB` : '–'} | ${r.live.p99} ms${check(r.live.p99 <= 50)} | ${r.day.totalMs.toFixed(0)} ms (${r.lastDay.rows} rows)${check(goals.daily(r.base.rows, r.day.totalMs))} | ${r.ninety.totalMs.toFixed(0)} ms (${r.overlap.rows} rows, ${r.overlapNew.rows} new)${check(goals.daily(r.base.rows, r.ninety.totalMs))} | ${months.firstMs.toFixed(0)} ms${check(goals.first(r.base.rows, months.firstMs))}, ${months.p99} ms${check(months.p99 <= 50)} | ${month.firstMs.toFixed(0)} ms${check(goals.first(r.base.rows, month.firstMs))}, ${month.p99} ms (${r.busiest.total_trades} trades; CPU: service ${percent(month.serviceCpu)}, load ${percent(month.clientCpu)})${check(month.p99 <= 50)} |`,
    );
  }
  if (failed) process.exitCode = 1;
}

await main();
