import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './free-port.js';
import { createTestDatabase, serverDatabaseUrl, type TestDatabase } from './test-database.js';

export const MAIN = resolve(process.cwd(), 'dist/apps/api/src/main.js');
/** Node's flags as `npm start`, `npm run start:prod` and the image start the service (docs/operations.md "Processes and threads"). */
export const SERVICE_NODE_FLAGS = ['--v8-pool-size=2'];
/** The environment they start it in besides its settings: glibc's malloc with two arenas (docs/operations.md "Processes and threads"). */
export const SERVICE_ENV = { MALLOC_ARENA_MAX: '2' };
/**
 * How long a service may take to become ready: a ceiling, not an expectation (it takes 2–4 s). A
 * loaded two-core machine running several suites at once can take many times that, and a start that
 * fails says so at once (the process exits, and the wait ends with its output).
 */
const START_CEILING_MS = 180_000;

export interface ServiceOptions {
  /** Extra environment; `DATABASE_URL: undefined` forces the embedded database. */
  env?: Record<string, string | undefined>;
  /** Reuse a data directory (e.g. to start twice on the same embedded database). */
  dataDir?: string;
  /** Listen on this port (to restart on the same address) instead of a free one. */
  port?: number;
  /** Wait for /health/ready (default) or only for /health/live. */
  waitFor?: 'ready' | 'live';
}

export interface RunningService {
  url: string;
  dataDir: string;
  /** The PostgreSQL URL the service uses when it runs on the server database. */
  databaseUrl: string | undefined;
  output(): string;
  /** Sends a signal and resolves with the exit code; removes what the service was given to run on. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts the built service (dist/) as a child process on a free loopback port, with a fresh data
 * directory and, when DATABASE_URL is set, a fresh database on that server.
 */
export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  const port = options.port ?? (await freePort());
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'sta-data-')));
  const adminUrl = 'DATABASE_URL' in (options.env ?? {}) ? undefined : serverDatabaseUrl();
  const database: TestDatabase | undefined = adminUrl ? await createTestDatabase(adminUrl) : undefined;
  const env: Record<string, string | undefined> = {
    ...SERVICE_ENV,
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: database?.url,
    ...options.env,
  };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];

  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, MAIN], { env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;

  const cleanUp = async () => {
    await database?.drop();
    if (ownDataDir) await rm(dataDir, { recursive: true, force: true });
  };
  const service: RunningService = {
    url,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      const code = await stopChild(child, signal);
      await cleanUp();
      return code;
    },
  };

  try {
    await waitUntil(() => probe(`${url}/health/${options.waitFor ?? 'ready'}`), START_CEILING_MS, child, () => output);
  } catch (error) {
    await service.stop('SIGKILL');
    throw error;
  }
  return service;
}

/** Runs the service expecting it to refuse to start; resolves with its exit code and output. */
export async function runUntilExit(env: Record<string, string | undefined>, timeoutMs = 30000): Promise<{ code: number | null; output: string }> {
  const merged: Record<string, string | undefined> = { ...process.env, NODE_ENV: 'test', DATA_DIR: join(tmpdir(), 'sta-never-used'), ...env };
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, MAIN], { env: merged as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((done) => child.once('exit', (c) => done(c)));
  clearTimeout(timer);
  return { code, output };
}

async function probe(url: string): Promise<boolean> {
  try {
    const response = await fetch(url);
    return response.status === 200;
  } catch {
    return false;
  }
}

export async function waitUntil(
  condition: () => Promise<boolean>,
  timeoutMs: number,
  child?: ChildProcess,
  output?: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}:\n${output?.()}`);
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`condition not met within ${timeoutMs} ms${output ? `:\n${output()}` : ''}`);
}

function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolveExit) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 15000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolveExit(code);
    });
    child.kill(signal);
  });
}
