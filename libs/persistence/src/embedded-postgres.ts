import { execFile } from 'node:child_process';
import { access, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { copyStatement, type CopyTarget } from './bulk-copy.js';

/**
 * The embedded PostgreSQL: PGlite (PostgreSQL compiled to WebAssembly) with its files under
 * `DATA_DIR/pg`, served on a loopback port so the ordinary `pg` driver, and with it TypeORM,
 * talks to it exactly as to a real server. PGlite is one session: use a pool of one connection.
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly db: PGlite,
    private readonly server: PGLiteSocketServer,
    readonly url: string,
  ) {}

  static async start(dataDir: string): Promise<EmbeddedPostgres> {
    const directory = join(dataDir, 'pg');
    await mkdir(directory, { recursive: true });
    if (!(await exists(join(directory, 'PG_VERSION')))) await initialiseInChildProcess(directory);
    const db = await PGlite.create({ dataDir: directory, startParams: [...PGlite.defaultStartParams, ...SETTINGS] });
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0 });
    await server.start();
    const port = server.getServerConn().split(':').pop();
    return new EmbeddedPostgres(db, server, `postgres://postgres@127.0.0.1:${port}/postgres`);
  }

  /**
   * `COPY … FROM` the given text, straight into the engine rather than through the socket (several
   * times faster for large inputs). The engine is one session: the statement joins whatever
   * transaction the socket's connection has open, which is the caller's.
   */
  async copyFrom(target: CopyTarget, text: string): Promise<number> {
    const result = await this.db.query(copyStatement(target, "'/dev/blob'"), [], { blob: new Blob([text]) });
    return result.affectedRows ?? 0;
  }

  async stop(): Promise<void> {
    await this.server.stop();
    await this.db.close();
  }
}

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
