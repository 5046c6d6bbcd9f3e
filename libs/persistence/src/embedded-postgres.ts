import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

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

  async stop(): Promise<void> {
    await this.server.stop();
    await this.db.close();
  }
}
