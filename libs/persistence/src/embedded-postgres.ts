import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { access, mkdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Logger } from '@nestjs/common';
import { copyStatement, type CopyTarget } from './bulk-copy.js';

/**
 * The embedded PostgreSQL: PGlite (PostgreSQL compiled to WebAssembly) with its files under
 * `DATA_DIR/pg`, served on a loopback port so the ordinary `pg` driver, and with it TypeORM,
 * talks to it exactly as to a real server. PGlite is one session: use a pool of one connection.
 *
 * The engine runs in a child process of its own, as a PostgreSQL server would: its work does not
 * hold up the service's event loop, on two cores the service parses and matches an import while the
 * engine writes the rows before, and the engine's memory (WebAssembly, its buffer pool) is not the
 * service's. The child ends with the service (it exits when its channel to the service closes).
 */
export class EmbeddedPostgres {
  private readonly logger = new Logger(EmbeddedPostgres.name);
  private readonly pending = new Map<number, { resolve: (rows: number) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private failure: Error | undefined;
  private stopping = false;

  private constructor(
    private readonly engine: ChildProcess,
    readonly url: string,
    private readonly spool: string,
  ) {
    engine.on('message', (message: EngineReply) => this.settle(message));
    engine.on('error', (error) => this.fail(error));
    engine.on('exit', (code, signal) => this.fail(new Error(`the embedded database stopped (${signal ?? `exit code ${code}`})`)));
  }

  /** The engine's process id. */
  get pid(): number | undefined {
    return this.engine.pid;
  }

  static async start(dataDir: string): Promise<EmbeddedPostgres> {
    const directory = join(dataDir, 'pg');
    await mkdir(directory, { recursive: true });
    const spool = join(dataDir, 'pg-copy');
    await rm(spool, { recursive: true, force: true }); // what a stopped engine left unread
    await mkdir(spool, { recursive: true });
    if (!(await exists(join(directory, 'PG_VERSION')))) await initialiseInChildProcess(directory);
    const require = createRequire(import.meta.url);
    const engine = spawn(process.execPath, ['-e', ENGINE_SOURCE], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
    });
    const started = { pglite: require.resolve('@electric-sql/pglite'), socket: require.resolve('@electric-sql/pglite-socket'), directory, settings: SETTINGS };
    engine.send({ type: 'start', ...started });
    const url = await new Promise<string>((resolve, reject) => {
      engine.once('message', (message: EngineReply) =>
        message.type === 'ready' ? resolve(message.url) : reject(new Error(`the embedded database did not start: ${message.type === 'failed' ? message.message : ''}`)),
      );
      engine.once('error', reject);
      engine.once('exit', (code) => reject(new Error(`the embedded database did not start (exit code ${code})`)));
    });
    return new EmbeddedPostgres(engine, url, spool);
  }

  /**
   * `COPY … FROM` the given text, straight into the engine rather than through the socket (several
   * times faster for large inputs). The engine is one session: the statement joins whatever
   * transaction the socket's connection has open, which is the caller's. Statements run in the
   * order they were given; the caller may hand over the next before this one has finished.
   *
   * The text goes through a file under `DATA_DIR/pg-copy` (named by a counter; the engine deletes it
   * once read) and only its name through the channel: writing the file needs no event-loop turn, so
   * the engine can take in one chunk while the service goes on with CPU work (matching an import)
   * instead of waiting for the channel to be drained.
   */
  copyFrom(target: CopyTarget, text: string): Promise<number> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const id = this.nextId++;
    const file = join(this.spool, `${id}.copy`);
    try {
      writeFileSync(file, text);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return this.send(id, { type: 'copy', statement: copyStatement(target, "'/dev/blob'"), file });
  }

  /**
   * A round trip to the engine process that does not queue behind the session's statements: it
   * answers as soon as the engine's event loop has a turn, so a long import (which holds the one
   * session) does not make a live engine look unavailable.
   */
  ping(): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return this.send(this.nextId++, { type: 'ping' }).then(() => undefined);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.failure === undefined) await this.send(this.nextId++, { type: 'stop' }).catch(() => undefined);
    if (this.engine.exitCode === null && this.engine.signalCode === null) {
      const exited = new Promise((resolve) => this.engine.once('exit', resolve));
      this.engine.disconnect();
      await exited;
    }
  }

  /** Callers check `failure` first. */
  private send(id: number, request: { type: 'copy'; statement: string; file: string } | { type: 'stop' } | { type: 'ping' }): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.engine.send({ ...request, id });
    });
  }

  private settle(message: EngineReply): void {
    if (message.type !== 'done') return;
    const waiting = this.pending.get(message.id);
    this.pending.delete(message.id);
    if (message.error === undefined) waiting?.resolve(message.rows);
    else waiting?.reject(Object.assign(new Error(message.error.message), { code: message.error.code, detail: message.error.detail }));
  }

  private fail(error: Error): void {
    // Nothing restarts it: the service stays up, not ready, and says why (requests answer 500
    // `Database connection failed`); a restart of the service starts a new engine.
    if (this.failure === undefined && !this.stopping) this.logger.error(`${error.message}; restart the service`);
    this.failure ??= error;
    for (const waiting of this.pending.values()) waiting.reject(this.failure);
    this.pending.clear();
  }
}

type EngineReply =
  | { type: 'ready'; url: string }
  | { type: 'failed'; message: string }
  | { type: 'done'; id: number; rows: number; error?: { message: string; code?: string; detail?: string } };

/**
 * The engine process: PGlite and its socket server, and the direct statements (one at a time, in
 * order). Plain CommonJS run with `node -e`, so it is the same code under the compiled service and
 * under the tests, which load the TypeScript sources.
 */
const ENGINE_SOURCE = `
const { openAsBlob, rmSync } = require('node:fs');
process.once('message', async (start) => {
  try {
    const { PGlite } = require(start.pglite);
    const { PGLiteSocketServer } = require(start.socket);
    const db = await PGlite.create({ dataDir: start.directory, startParams: [...PGlite.defaultStartParams, ...start.settings] });
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0 });
    await server.start();
    let queue = Promise.resolve();
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      await server.stop();
      await db.close();
    };
    process.on('message', (request) => {
      if (request.type === 'ping') {
        process.send({ type: 'done', id: request.id, rows: 0 });
        return;
      }
      queue = queue.then(async () => {
        try {
          if (request.type === 'stop') {
            await close();
            process.send({ type: 'done', id: request.id, rows: 0 });
            return;
          }
          let result;
          try {
            result = await db.query(request.statement, [], { blob: await openAsBlob(request.file) });
          } finally {
            rmSync(request.file, { force: true });
          }
          process.send({ type: 'done', id: request.id, rows: result.affectedRows ?? 0 });
        } catch (error) {
          process.send({ type: 'done', id: request.id, error: { message: String(error && error.message), code: error && error.code, detail: error && error.detail } });
        }
      });
    });
    // The service decides when the engine stops (a terminal's Ctrl+C reaches both): when it asks, or
    // when its channel closes because it has gone, the engine closes its files and exits.
    process.on('SIGINT', () => undefined);
    process.on('SIGTERM', () => undefined);
    process.on('disconnect', () => queue.then(close).finally(() => process.exit(0)));
    process.send({ type: 'ready', url: 'postgres://postgres@' + server.getServerConn() + '/postgres' });
  } catch (error) {
    process.send({ type: 'failed', message: String((error && error.stack) || error) });
    process.exit(1);
  }
});
`;

/**
 * Engine settings. The shared buffer pool is a fixed part of the process's memory (PGlite runs in
 * it); 32 MB instead of PostgreSQL's 128 MB keeps the service's resident memory lower, at no
 * measurable cost to imports or reports: the operating system caches the data files behind it.
 */
const SETTINGS = ['-c', 'shared_buffers=32MB'];

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/**
 * Creating a new database (initdb) takes about 850 MB that PGlite never gives back, against 300 MB
 * for opening an existing one. A short-lived child process does the creation, and its memory goes
 * with it; the service then opens the result.
 */
async function initialiseInChildProcess(directory: string): Promise<void> {
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const script = `require(process.argv[1]).PGlite.create({ dataDir: process.argv[2] }).then((db) => db.close())`;
  await promisify(execFile)(process.execPath, ['-e', script, pglite, directory], { timeout: 120_000 });
}
