// Benchmarks on loopback, bounded in time: `npm run bench` (builds first).
// Starts the built service on a fresh embedded database, measures each scenario with autocannon,
// and prints a table with each endpoint's throughput as a ratio to /health/live measured in the
// same run (machines are noisy: the ratio holds where an absolute figure does not).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);

/** Each scenario: a name, a path, and the goals it must meet (checked at the end). */
const SCENARIOS = [{ name: 'health/live', path: '/health/live', p99MaxMs: 50 }];

async function main() {
  const dataDir = await mkdtemp(join(tmpdir(), 'sta-bench-'));
  const port = await freePort();
  const service = spawn(process.execPath, ['dist/apps/api/src/main.js'], {
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForReady(base, 60_000);
    const rows = [];
    for (const scenario of SCENARIOS) {
      const result = await autocannon({ url: base + scenario.path, connections: CONNECTIONS, duration: DURATION_S });
      rows.push({ ...scenario, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx });
    }
    const baseline = rows.find((row) => row.name === 'health/live').rps;
    console.log(`\n${CONNECTIONS} connections, ${DURATION_S} s per endpoint, loopback, embedded database\n`);
    console.log('| endpoint | req/s | p50 ms | p99 ms | ratio to /health/live | errors | goal |');
    console.log('|---|---:|---:|---:|---:|---:|---|');
    let failed = false;
    for (const row of rows) {
      const ratio = row.rps / baseline;
      const goals = [];
      if (row.p99MaxMs !== undefined) goals.push(row.p99 <= row.p99MaxMs ? `p99 ≤ ${row.p99MaxMs} ✓` : `p99 ≤ ${row.p99MaxMs} ✗`);
      if (row.minRatio !== undefined) goals.push(ratio >= row.minRatio ? `ratio ≥ ${row.minRatio} ✓` : `ratio ≥ ${row.minRatio} ✗`);
      if (goals.some((goal) => goal.endsWith('✗')) || row.errors > 0) failed = true;
      console.log(`| ${row.path} | ${row.rps.toFixed(0)} | ${row.p50} | ${row.p99} | ${ratio.toFixed(2)} | ${row.errors} | ${goals.join(', ')} |`);
    }
    if (failed) process.exitCode = 1;
  } finally {
    service.kill('SIGTERM');
    await new Promise((resolve) => service.once('exit', resolve));
    await rm(dataDir, { recursive: true, force: true });
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForReady(base, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/health/ready`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('service did not become ready');
}

await main();
