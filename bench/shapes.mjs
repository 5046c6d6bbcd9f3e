// How the import's cost varies with the account's shape (issue 22: a goal met only on the
// benchmark's own data is not met): 100,000 transaction rows of accounts that hold many lots at once
// (bench/support/trading-history.mjs `generateLotHistory`), each imported into a fresh service on a
// fresh database (embedded, or BENCH_DATABASE_URL's server) as bench/scale.mjs imports the
// active-trader shape, with the same goals: import ≤ 2 s on a server, ≤ 4 s embedded; first progress
// line ≤ 200 ms; service peak RSS ≤ 400 MB; /health/live p99 ≤ 50 ms meanwhile. As bench/scale.mjs,
// the import holds everything before the busiest day of the last four weeks; after
// BENCH_SETTLE_SECONDS (5), that day alone and a 90-day export ending the next day are uploaded, each
// timed (≤ 300 ms on a server, ≤ 600 ms embedded: daily uploads cost what they add, whatever the
// books hold), then the whole export once more (its later days), and the first /api/months answer
// (≤ 100 ms). Every shape's figures are then checked: per symbol, the trades, their P&L to the cent
// and the shares still held (`/api/symbols/summary`) against what the generator knows, so the
// uploads that went on from the stored books are checked too.
// BENCH_SHAPES=one-symbol,many-symbols runs only those. Exit code 1 when a goal is missed or a figure is wrong.
import { timedRequest } from './support/load.mjs';
import { dailyUploads, generateLotHistory, LOT_SHAPES as SHAPES, transactionDates } from './support/trading-history.mjs';
import { importCpuText, importIntoFreshService, schwabPair, timedUpload } from './support/uploads.mjs';

const SERVER_URL = process.env.BENCH_DATABASE_URL?.trim() || undefined;
const ROWS = 100_000;
const TRADER = 'shapes@example.com';
/** Seconds between the import and the daily uploads (`BENCH_SETTLE_SECONDS`, as bench/scale.mjs). */
const SETTLE_S = Number(process.env.BENCH_SETTLE_SECONDS ?? 5);

/** The symbols whose trades, P&L (cents) or shares held differ from what the generator knows. */
function wrongFigures(expected, summary) {
  const shown = new Map(summary.map((item) => [item.symbol, item]));
  const wrong = [];
  for (const [symbol, want] of expected) {
    const got = shown.get(symbol);
    shown.delete(symbol);
    const figures = got === undefined ? { trades: 0, cents: 0, shares: 0 } : { trades: got.total_trades, cents: Math.round(got.trading_profit_loss * 100), shares: got.current_shares_held };
    if (figures.trades !== want.trades || figures.cents !== want.cents || figures.shares !== want.shares) wrong.push(`${symbol}: ${JSON.stringify(figures)}, expected ${JSON.stringify(want)}`);
  }
  for (const symbol of shown.keys()) wrong.push(`${symbol}: not in the files`);
  return wrong;
}

async function measure([name, description, options]) {
  const history = generateLotHistory({ rows: ROWS, ...options });
  const { base, lastDay, overlap, overlapNew } = dailyUploads({ ...history, lastDay: transactionDates(history).sort().at(-1) });
  const measured = await importIntoFreshService({
    pair: base,
    serverUrl: SERVER_URL,
    trader: TRADER,
    after: async ({ url, session }) => {
      await new Promise((resolve) => setTimeout(resolve, SETTLE_S * 1000));
      const day = await timedUpload(url, session.cookie, schwabPair(lastDay.transactions, lastDay.gains));
      const ninety = await timedUpload(url, session.cookie, schwabPair(overlap.transactions, overlap.gains));
      await timedUpload(url, session.cookie, schwabPair(history.transactions, history.gains));
      const months = await timedRequest(`${url}/api/months`, { headers: { cookie: session.cookie, 'accept-encoding': 'gzip, deflate, br, zstd' } });
      const summary = await session.fetch('/api/symbols/summary');
      if (months.status !== 200 || summary.status !== 200) throw new Error(`${name}: /api/months ${months.status}, /api/symbols/summary ${summary.status}`);
      return { day, ninety, monthsFirstMs: months.ms, wrong: wrongFigures(history.expected, (await summary.json()).symbols) };
    },
  });
  return { name, description, options, history, base, lastDay, overlap, overlapNew, ...measured };
}

async function main() {
  const only = process.env.BENCH_SHAPES?.split(',').map((each) => each.trim());
  const shapes = SHAPES.filter(([name]) => only === undefined || only.includes(name));
  if (shapes.length === 0) throw new Error(`BENCH_SHAPES names none of ${SHAPES.map(([name]) => name).join(', ')}`);
  const results = [];
  for (const shape of shapes) results.push(await measure(shape));
  const server = SERVER_URL !== undefined;
  let failed = false;
  const check = (met) => {
    if (!met) failed = true;
    return met ? ' ✓' : ' ✗';
  };
  console.log(`\nthe import at other shapes, ${ROWS.toLocaleString('en-US')} rows, ${server ? 'PostgreSQL server' : 'embedded database'}\n`);
  for (const { name, description } of results) console.log(`- \`${name}\`: ${description}`);
  console.log('\n| shape | rows (lots) | open lots at the end | import | first progress line | rows/s | CPU during it: service + database | service peak RSS | engine peak RSS | /health/live p99 during it | one new day | 90-day overlap | /api/months first | figures |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  const daily = server ? 300 : 600;
  for (const r of results) {
    const seconds = r.imported.totalMs / 1000;
    const { day, ninety, monthsFirstMs, wrong } = r.after;
    console.log(
      `| \`${r.name}\` | ${r.base.rows.toLocaleString('en-US')} (${r.base.lots.toLocaleString('en-US')}) | ${r.history.openLots.toLocaleString('en-US')} | ${seconds.toFixed(1)} s${check(seconds <= (server ? 2 : 4))} | ${r.imported.firstLineMs.toFixed(0)} ms${check(r.imported.firstLineMs <= 200)} | ${Math.round(r.base.rows / seconds).toLocaleString('en-US')} | ${importCpuText(r.importCpu)} | ${r.servicePeak} MB${check(r.servicePeak <= 400)} | ${r.enginePeak ? `${r.enginePeak} MB` : '–'} | ${r.live.p99} ms${check(r.live.p99 <= 50)} | ${day.totalMs.toFixed(0)} ms (${r.lastDay.rows} rows)${check(day.totalMs <= daily)} | ${ninety.totalMs.toFixed(0)} ms (${r.overlap.rows} rows, ${r.overlapNew.rows} new)${check(ninety.totalMs <= daily)} | ${monthsFirstMs.toFixed(0)} ms${check(monthsFirstMs <= 100)} | ${wrong.length === 0 ? 'exact' : `${wrong.length} symbols wrong`}${check(wrong.length === 0)} |`,
    );
  }
  for (const r of results) for (const line of r.after.wrong.slice(0, 5)) console.log(`${r.name}: ${line}`);
  if (failed) process.exitCode = 1;
}

await main();
