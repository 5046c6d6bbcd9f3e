import { appendFileSync, copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createRequire } from 'node:module';

/**
 * The embedded engine's process: PGlite (PostgreSQL compiled to WebAssembly) and its socket server,
 * plus the statements the service hands over directly (COPY from a file; one at a time, in order).
 * `EmbeddedPostgres` starts it with `node <this file> --embedded-engine` and an IPC channel.
 *
 * It imports only Node's own modules: the PGlite packages are loaded from the paths the service
 * resolved, so the same file runs from `dist/` and, transpiled, from the sources under the tests.
 */

/** The argument that makes the file run as the engine (importing it, as the service does for its types, does nothing). */
export const ENGINE_ARGUMENT = '--embedded-engine';

/** Connections the engine's socket server accepts at once: the service's one and the one replacing it. */
export const ENGINE_CONNECTIONS = 2;

/**
 * Where the engine's PostgreSQL finds the service's spool directory (`DATA_DIR/pg-copy`, mounted into
 * PGlite's file system): a COPY statement names its file there, and PostgreSQL reads it itself.
 */
export const ENGINE_SPOOL = '/service-copy';

/**
 * Mounts `directory` at ENGINE_SPOOL in PGlite's file system (Node's, NODEFS), where the COPY
 * statements name their files (the engine's spool directory; bench/engine-replay.mjs's kept files):
 * PostgreSQL reads each in large reads straight into its memory. Given as a Blob for PGlite's
 * `/dev/blob`, a file was read whole into a buffer of its own, then copied into PostgreSQL's memory a
 * byte at a time by JavaScript: with the buffers' collections, about a tenth of the engine's CPU in a
 * replayed import (docs/imports.md "The COPY files read by the engine").
 */
export function mountSpool(db: Pick<PGliteDatabase, 'Module'>, directory: string): void {
  db.Module.FS.mkdirTree(ENGINE_SPOOL);
  db.Module.FS.mount(db.Module.FS.filesystems.NODEFS, { root: directory }, ENGINE_SPOOL);
}

/** What the service asks of the engine process. */
export type EngineRequest =
  | { type: 'create'; pglite: string; directory: string }
  | { type: 'start'; pglite: string; socket: string; directory: string; spool: string; settings: readonly string[]; keepCopies?: string }
  | { type: 'copy'; id: number; statement: string; file: string }
  | { type: 'ping'; id: number }
  | { type: 'stop'; id: number };

/** What it answers. */
export type EngineReply =
  | { type: 'created' }
  | { type: 'ready'; url: string }
  | { type: 'failed'; message: string }
  | { type: 'done'; id: number; rows: number; error?: EngineError };

export interface EngineError {
  message: string;
  code?: string;
  detail?: string;
}

/** The few members of PGlite this process uses. */
interface PGliteDatabase {
  query(statement: string): Promise<{ affectedRows?: number }>;
  close(): Promise<void>;
  /** The Emscripten module PostgreSQL runs in: its file system, with Node's (NODEFS) among the kinds it mounts. */
  readonly Module: {
    FS: {
      mkdirTree(path: string): void;
      mount(type: unknown, options: { root: string }, mountpoint: string): unknown;
      filesystems: { NODEFS: unknown };
    };
  };
}
interface PGliteModule {
  PGlite: {
    create(options: { dataDir: string; startParams?: string[] }): Promise<PGliteDatabase>;
    defaultStartParams: string[];
  };
}
interface SocketServer {
  start(): Promise<void>;
  stop(): Promise<void>;
  getServerConn(): string;
}
interface SocketModule {
  PGLiteSocketServer: new (options: { db: PGliteDatabase; host: string; port: number; maxConnections: number }) => SocketServer;
}

const load = createRequire(import.meta.url);

function reply(message: EngineReply, then?: () => void): void {
  process.send?.(message, undefined, {}, () => then?.());
}

/** An error as it crosses the channel: PostgreSQL's code and detail kept for the service's error mapping. */
export function engineError(error: unknown): EngineError {
  if (!(error instanceof Error)) return { message: String(error) };
  const { code, detail } = error as { code?: unknown; detail?: unknown };
  return {
    message: error.message,
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof detail === 'string' ? { detail } : {}),
  };
}

/**
 * Creates a new database (initdb) and exits. It takes about 850 MB that PGlite never gives back,
 * against 300 MB for opening an existing one, so it runs in a process of its own that then ends.
 */
async function create(request: Extract<EngineRequest, { type: 'create' }>): Promise<void> {
  const { PGlite } = load(request.pglite) as PGliteModule;
  const db = await PGlite.create({ dataDir: request.directory });
  await db.close();
  reply({ type: 'created' }, () => process.disconnect());
}

async function serve(request: Extract<EngineRequest, { type: 'start' }>): Promise<void> {
  const { PGlite } = load(request.pglite) as PGliteModule;
  const { PGLiteSocketServer } = load(request.socket) as SocketModule;
  const db = await PGlite.create({ dataDir: request.directory, startParams: [...PGlite.defaultStartParams, ...request.settings] });
  mountSpool(db, request.spool);
  // The service holds one connection, but a connection it replaces (closed when idle, or broken) is
  // still being let go for a moment when the next one comes: with room for one, that next one would be
  // refused (the client reads a reset connection). PGlite runs the connections' statements one at a
  // time and a transaction to its end before another connection's, so a second one is safe.
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: ENGINE_CONNECTIONS });
  await server.start();

  let queue = Promise.resolve();
  let closed = false;
  // Set when the service is gone without asking the engine to stop: what it queued is not done.
  let abandoned = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await server.stop();
    await db.close();
  };
  const kept = request.keepCopies === undefined ? undefined : keptCopies(request.keepCopies, request.settings);
  const copy = async (statement: string, file: string): Promise<number> => {
    try {
      return (await db.query(statement)).affectedRows ?? 0;
    } finally {
      if (kept === undefined) rmSync(file, { force: true });
      else kept(statement, file);
    }
  };

  process.on('message', (message: EngineRequest) => {
    if (message.type === 'ping') {
      // Answered at once, not behind the queue: a long import must not make a live engine look down.
      reply({ type: 'done', id: message.id, rows: 0 });
      return;
    }
    if (message.type !== 'copy' && message.type !== 'stop') return;
    queue = queue.then(async () => {
      if (abandoned) return;
      try {
        const rows = message.type === 'copy' ? await copy(message.statement, message.file) : await close().then(() => 0);
        reply({ type: 'done', id: message.id, rows });
      } catch (error) {
        reply({ type: 'done', id: message.id, rows: 0, error: engineError(error) });
      }
    });
  });
  // The service decides when the engine stops (a terminal's Ctrl+C reaches both): when it asks, or
  // when its channel closes because it has gone, the engine closes its files and exits. A service
  // that went without asking (killed) left its transaction open: the statements it queued are
  // dropped, and closing ends the session, which rolls that transaction back. The service's next
  // start waits for this process to be gone (`waitForEarlierEngine`): two engines must never have the
  // same files open (docs/operations.md "Database").
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => undefined);
  process.on('disconnect', () => {
    abandoned = true;
    void Promise.race([queue, new Promise((resolve) => setTimeout(resolve, 2_000))])
      .then(close)
      .catch(() => undefined)
      .finally(() => process.exit(0));
  });
  reply({ type: 'ready', url: `postgres://postgres@${server.getServerConn()}/postgres` });
}

if (process.argv[2] === ENGINE_ARGUMENT && process.send !== undefined) {
  process.once('message', (request: EngineRequest) => {
    const started = request.type === 'create' ? create(request) : request.type === 'start' ? serve(request) : Promise.reject(new Error(`not a first request: ${request.type}`));
    started.catch((error: unknown) => {
      reply({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) }, () => process.exit(1));
    });
  });
}

/**
 * Keeps each COPY's file in `directory` (`ENGINE_KEEP_COPIES`, benchmarks only: bench/engine-replay.mjs),
 * numbered in the order the statements ran, with the statement appended to its `statements.txt`
 * (naming the kept file, as `directory` mounted at ENGINE_SPOOL would show it), instead of deleting
 * it, and the engine's settings in `settings.json`: the engine's share of an import can then be
 * replayed on its own, away from the service's work.
 */
function keptCopies(directory: string, settings: readonly string[]): (statement: string, file: string) => void {
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, 'settings.json'), JSON.stringify(settings));
  let kept = 0;
  return (statement, file) => {
    kept += 1;
    const name = `${String(kept).padStart(6, '0')}.copy`;
    copyFileSync(file, join(directory, name));
    rmSync(file, { force: true });
    appendFileSync(join(directory, 'statements.txt'), `${statement.replace(`'${ENGINE_SPOOL}/${basename(file)}'`, `'${ENGINE_SPOOL}/${name}'`)}\n`);
  };
}
