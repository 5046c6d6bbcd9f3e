// The import and export benchmarks, bounded in time: `npm run bench` runs them after the report bench.
// Starts the built service on a fresh embedded database (or, with BENCH_DATABASE_URL, on a fresh
// database of that server) and measures, through the real HTTP endpoints:
// - the import of a generated 100,000-row Schwab transaction history with its lot details: total
//   time, rows/s, when the first progress line arrives after the upload's last byte, and the
//   service's peak RSS (Linux VmHWM; on the embedded database also its engine process's); the same
//   history as a Robinhood report and as an IBKR Flex trades file through POST /api/import, each
//   one's rate as a ratio to Schwab's in the same run;
// - the exports of a month holding 5,000 trades as CSV, Excel and PDF, and /health/live latency
//   while PDFs are being rendered.
// Prints one table with the goals of issues 4 and 7; exit code 1 when one is missed.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, median } from './support/load.mjs';
import { childPids, createDatabase, loadSignIn, peakRssMb, startBenchService, waitForReady } from './support/service.mjs';
import { schwabPair, setAccount, timedUpload } from './support/uploads.mjs';
import { generateTradingHistory, inLayout } from './support/trading-history.mjs';

const SERVER_URL = process.env.BENCH_DATABASE_URL?.trim() || undefined;
const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const EXPORT_TRADES = 5_000;
const TRADERS = ['importer@example.com', 'exporter@example.com', 'robinhood@example.com', 'ibkr@example.com'];

async function main() {
  const dataDir = await mkdtemp(join(tmpdir(), 'sta-bench-io-'));
  const database = SERVER_URL ? await createDatabase(SERVER_URL) : undefined;
  const signIn = await loadSignIn(dataDir);
  const service = await startBenchService({ dataDir, databaseUrl: database?.url, users: TRADERS });
  const base = service.url;
  const rows = [];
  try {
    await waitForReady(base, 60_000);
    const [importer, exporter, robinhood, ibkr] = await Promise.all(TRADERS.map((email) => signIn({ url: base }, email)));
    for (const session of [importer, exporter, robinhood, ibkr]) await setAccount(session);

    // Import: about IMPORT_ROWS rows (a round trip is two rows; a twentieth of the rows are dividends).
    const history = generateTradingHistory({ trades: Math.round(IMPORT_ROWS / 2.1), dividends: Math.round(IMPORT_ROWS * 0.05) });
    const upload = await timedUpload(base, importer.cookie, schwabPair(history.transactions, history.gains));
    const seconds = upload.totalMs / 1000;
    rows.push(['import', `${history.rows} rows, ${history.lots} lots`, `${seconds.toFixed(1)} s`, `≤ ${database ? 3 : 6} s`, seconds <= (database ? 3 : 6)]);
    const schwabRate = history.rows / seconds;
    rows.push(['import rate', '', `${Math.round(schwabRate)} rows/s`, '', undefined]);
    rows.push(['first progress line after the upload', '', `${upload.firstLineMs.toFixed(0)} ms`, '≤ 200 ms', upload.firstLineMs <= 200]);
    const peakMb = peakRssMb(service.pid);
    rows.push(['service peak RSS', '', `${peakMb} MB`, '≤ 500 MB', peakMb <= 500]);
    // The embedded database runs in a child process of the service (as a server would run apart).
    for (const pid of childPids(service.pid)) rows.push(['embedded engine process peak RSS', '', `${peakRssMb(pid)} MB`, '', undefined]);
    // The same history in other layouts, through POST /api/import (issue 21: within 20 % of Schwab's rate).
    for (const [layout, session] of [['robinhood', robinhood], ['ibkr-flex', ibkr]]) {
      const file = inLayout(history.transactions, layout);
      const other = await timedUpload(base, session.cookie, [['files', `${layout}.csv`, file.text]], '/api/import');
      const rate = file.rows / (other.totalMs / 1000);
      rows.push([`import, ${layout} layout`, `${file.rows} rows`, `${(other.totalMs / 1000).toFixed(1)} s, ${Math.round(rate)} rows/s, ${(rate / schwabRate).toFixed(2)}× Schwab's rate`, '≥ 0.8×', rate / schwabRate >= 0.8]);
    }
    rows.push(['service peak RSS, after the three imports', '', `${peakRssMb(service.pid)} MB`, '', undefined]);

    // Exports: one month with EXPORT_TRADES trades.
    const month = oneBusyMonth(EXPORT_TRADES);
    const seeded = await timedUpload(base, exporter.cookie, schwabPair(month.transactions, month.gains));
    if (!seeded.ok) throw new Error('the export month did not import');
    for (const [format, limitMs] of [['csv', 1000], ['excel', 2000], ['pdf', 3000]]) {
      const times = [];
      for (let run = 0; run < 3; run += 1) times.push(await timedExport(base, exporter.cookie, format));
      const middle = median(times);
      rows.push([`export ${format}`, `${EXPORT_TRADES} trades`, `${middle.toFixed(0)} ms`, `≤ ${limitMs} ms`, middle <= limitMs]);
    }
    let rendering = true;
    const renders = (async () => {
      let count = 0;
      while (rendering) {
        await timedExport(base, exporter.cookie, 'pdf');
        count += 1;
      }
      return count;
    })();
    const live = await load({ url: `${base}/health/live`, connections: 64, seconds: 5 });
    rendering = false;
    const pdfs = await renders;
    rows.push(['/health/live while PDFs render', `${pdfs} PDFs, 64 connections`, `p99 ${live.p99} ms`, 'p99 ≤ 50 ms', live.p99 <= 50]);
  } finally {
    await service.stop();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }

  console.log(`\nimport and exports, loopback, ${database ? 'PostgreSQL server' : 'embedded database'}\n`);
  console.log('| measure | size | result | goal | |');
  console.log('|---|---|---:|---|---|');
  for (const [measure, size, result, goal, met] of rows) console.log(`| ${measure} | ${size} | ${result} | ${goal} | ${met === undefined ? '' : met ? '✓' : '✗'} |`);
  if (rows.some((row) => row[4] === false)) process.exitCode = 1;
}

async function timedExport(base, cookie, format) {
  const started = performance.now();
  const response = await fetch(`${base}/api/monthly/export/${format}?month=2024-05`, { headers: { cookie } });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`export ${format}: ${response.status}`);
  return performance.now() - started;
}

/** `trades` round trips, all closed in May 2024, FIFO-matched (the lot details name only the first). */
function oneBusyMonth(trades) {
  const header = '"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"';
  const rows = [];
  for (let i = trades - 1; i >= 0; i -= 1) {
    const symbol = `T${String(i % 250).padStart(3, '0')}`;
    const day = String(1 + (i % 28)).padStart(2, '0');
    const quantity = 1 + (i % 50);
    const buy = 1000 + (i % 700);
    const sell = buy + ((i % 13) - 6) * 10;
    const dollars = (cents) => `${cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toFixed(2)}`;
    rows.push(`"05/${day}/2024","Sell","${symbol}","${symbol} CORP","${quantity}","${dollars(sell)}","","${dollars(sell * quantity)}"`);
    rows.push(`"04/${day}/2024","Buy","${symbol}","${symbol} CORP","${quantity}","${dollars(buy)}","","${dollars(-buy * quantity)}"`);
  }
  rows.sort((a, b) => b.slice(1, 11).localeCompare(a.slice(1, 11)));
  const gains = readFileSync('../shared/fixtures/schwab-example/realized_gains.csv');
  return { transactions: `${header}\r\n${rows.join('\r\n')}\r\n`, gains };
}

await main();
