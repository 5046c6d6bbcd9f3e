// What the benchmarks share: a signed-in trader, a fresh database, the service's CPU, free ports.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';

/** The end-to-end suites' sign-in helper (test/support/sign-in.ts), compiled for this run. */
export async function loadSignIn(dataDir) {
  const outDir = join(dataDir, 'sign-in');
  execFileSync(
    process.execPath,
    ['node_modules/typescript/bin/tsc', '--ignoreConfig', '--outDir', outDir, '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2023', '--skipLibCheck', '--types', 'node', 'test/support/sign-in.ts'],
    { stdio: 'inherit' },
  );
  await writeFile(join(outDir, 'package.json'), '{"type":"module"}\n');
  const module = await import(pathToFileURL(join(outDir, 'sign-in.js')).href);
  return module.signIn;
}

/** A fresh database on the server named by BENCH_DATABASE_URL, dropped afterwards. */
export async function createDatabase(adminUrl) {
  const name = `${new URL(adminUrl).pathname.slice(1) || 'postgres'}_bench_${randomBytes(4).toString('hex')}`;
  const admin = async (sql) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/** CPU seconds a process has used (Linux /proc; NaN elsewhere), all its threads included. */
export function cpuSecondsOf(pid) {
  try {
    return cpuSecondsIn(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return Number.NaN;
  }
}

/** The user and system CPU seconds of a process's /proc/<pid>/stat text. */
function cpuSecondsIn(stat) {
  const fields = stat.split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU seconds the service's database has used so far: the embedded engine's process (the service's
 * children), or, with a server, every PostgreSQL process on this machine (its backends, and its own
 * background work; NaN when the server runs elsewhere). Read before and after an import, the difference is
 * the database's share of the import's work (a server's connections outlive it: the pool keeps them).
 */
export function databaseCpuSeconds(servicePid, server) {
  if (!server) return childPids(servicePid).reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);
  let sum = 0;
  let found = false;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (!stat.includes(' (postgres) ')) continue;
      sum += cpuSecondsIn(stat);
      found = true;
    } catch {
      // gone meanwhile
    }
  }
  return found ? sum : Number.NaN;
}

/**
 * Starts measuring the CPU a service (all its threads) and this process use; the function returned
 * gives each one's share of one core since then over `seconds` (100% = one core busy; above ~90% for
 * this process, the load generator, not the service, sets the pace).
 */
export function cpuMeter(pid) {
  const client = process.cpuUsage();
  const service = cpuSecondsOf(pid);
  return (seconds) => {
    const { user, system } = process.cpuUsage(client);
    return { serviceCpu: (cpuSecondsOf(pid) - service) / seconds, clientCpu: (user + system) / 1e6 / seconds };
  };
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export async function waitForReady(base, timeoutMs) {
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

/** The ids of a process's children (Linux /proc). */
export function childPids(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) => readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
  } catch {
    return [];
  }
}

/** Peak resident memory of a process in MB (Linux VmHWM). */
export function peakRssMb(pid) {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : Number.NaN;
}

const START_PROD = JSON.parse(readFileSync('package.json', 'utf8')).scripts['start:prod'].split(' ');

/**
 * Node's flags as `npm run start:prod` starts the service, read from package.json so the benchmarks
 * measure what ships (docs/operations.md "Processes and threads").
 */
export const SERVICE_NODE_FLAGS = START_PROD.filter((word) => word.startsWith('--'));

/** The variables `npm run start:prod` sets for the service's node (`NAME=value` before it; glibc's malloc arenas). */
export const SERVICE_ENV = Object.fromEntries(START_PROD.slice(0, START_PROD.indexOf('node')).map((word) => word.split('=', 2)));

/**
 * The built service on a free loopback port, as the benchmarks run it (test mode, warnings only,
 * SERVICE_ENV unless the benchmark's own environment sets those variables), with `env` added; `stop`
 * ends it with SIGTERM and waits for it. `nodeFlags` are flags for the service's node after
 * SERVICE_NODE_FLAGS (a later one wins), BENCH_SERVICE_NODE_FLAGS by default (`--cpu-prof`, V8's heap
 * sizes …, for looking into a figure).
 * @param {{ dataDir: string, databaseUrl?: string, users: string[], env?: Record<string, string>, nodeFlags?: string }} options
 */
export async function startBenchService({ dataDir, databaseUrl, users, env = {}, nodeFlags = process.env.BENCH_SERVICE_NODE_FLAGS }) {
  const port = await freePort();
  const flags = nodeFlags?.trim().split(/\s+/).filter(Boolean) ?? [];
  const service = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...flags, 'dist/apps/api/src/main.js'], {
    env: { ...SERVICE_ENV, ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '', AUTHORIZED_USERS: users.join(','), ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => service.once('exit', resolve));
  return {
    pid: service.pid,
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      service.kill('SIGTERM');
      await exited;
    },
  };
}
