// Start-up: how long the built service takes until /health/ready answers, on an existing embedded
// database and on a new one (a copy of the migrated template), and how long a bad setting takes to be
// reported; beside the time a bare Node HTTP server takes to answer, measured in the same run (the
// machine's own start-up cost, so the ratio holds on a noisy machine where the seconds do not).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './support/load.mjs';
import { freePort, SERVICE_ENV as START_PROD_ENV, SERVICE_NODE_FLAGS } from './support/service.mjs';

const RUNS = Number(process.env.BENCH_START_RUNS ?? 5);
/** The built service's command line after `node`. */
const SERVICE = [...SERVICE_NODE_FLAGS, 'dist/apps/api/src/main.js'];

/** Milliseconds from spawning `args` until `url` answers 200, after which the process is stopped. */
async function timeToAnswer(args, env, path) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}${path}`)).status === 200) return performance.now() - started;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** Milliseconds from spawning the service with a bad setting until it has exited (non-zero). */
async function timeToRefuse(env) {
  const started = performance.now();
  const child = spawn(process.execPath, SERVICE, { env: { ...process.env, ...env }, stdio: 'ignore' });
  const code = await new Promise((resolve) => child.once('exit', resolve));
  if (code === 0) throw new Error('the service started with a bad setting');
  return performance.now() - started;
}

const SERVICE_ENV = { ...START_PROD_ENV, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: '', AUTHORIZED_USERS: 'trader@example.com' };
const BARE = ['-e', "require('node:http').createServer((_, response) => response.end('ok')).listen(Number(process.env.PORT), '127.0.0.1')"];

async function main() {
  const scratch = await mkdtemp(join(tmpdir(), 'sta-bench-start-'));
  try {
    const existing = join(scratch, 'existing');
    await timeToAnswer(SERVICE, { ...SERVICE_ENV, DATA_DIR: existing }, '/health/ready'); // makes it (and the templates, if missing)
    const samples = { bare: [], existing: [], fresh: [], refused: [] };
    for (let run = 0; run < RUNS; run += 1) {
      samples.bare.push(await timeToAnswer(BARE, {}, '/'));
      samples.existing.push(await timeToAnswer(SERVICE, { ...SERVICE_ENV, DATA_DIR: existing }, '/health/ready'));
      samples.fresh.push(await timeToAnswer(SERVICE, { ...SERVICE_ENV, DATA_DIR: join(scratch, `fresh-${run}`) }, '/health/ready'));
      samples.refused.push(await timeToRefuse({ ...SERVICE_ENV, DATA_DIR: existing, PORT: 'not-a-port' }));
    }
    const bare = median(samples.bare);
    const rows = [
      ['bare Node HTTP server answering (baseline)', samples.bare],
      ['built, existing embedded database, until ready', samples.existing],
      ['built, new embedded database, until ready', samples.fresh],
      ['a bad setting reported (exit)', samples.refused],
    ];
    console.log(`\n| start (${RUNS} runs) | median | max | median ÷ baseline |\n|---|---|---|---|`);
    for (const [name, values] of rows) {
      console.log(`| ${name} | ${(median(values) / 1000).toFixed(2)} s | ${(Math.max(...values) / 1000).toFixed(2)} s | ${(median(values) / bare).toFixed(1)}× |`);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
