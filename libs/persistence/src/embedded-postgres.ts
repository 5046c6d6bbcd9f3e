import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
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
    const db = await PGlite.create({ dataDir: directory });
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
