import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { RunningService } from './service.js';
import { withClient } from './test-database.js';

export type Query = (sql: string, params?: unknown[]) => Promise<Record<string, any>[]>;

/**
 * Runs SQL against the database of a running service (started with an explicit `dataDir`, so that
 * stopping it keeps the files). On a server database it connects next to the running service. The
 * embedded database admits one process at a time: the service is stopped, its files opened directly,
 * and `restart` starts it again; the service to use afterwards is returned either way.
 */
export async function withServiceDatabase<T>(
  service: RunningService,
  restart: () => Promise<RunningService>,
  work: (query: Query) => Promise<T>,
): Promise<{ service: RunningService; result: T }> {
  if (service.databaseUrl !== undefined) {
    const result = await withClient(service.databaseUrl, (client) => work(async (sql, params) => (await client.query(sql, params)).rows));
    return { service, result };
  }
  await service.stop();
  const db = await PGlite.create({ dataDir: join(service.dataDir, 'pg') });
  let result: T;
  try {
    result = await work(async (sql, params) => (await db.query<Record<string, any>>(sql, params)).rows);
  } finally {
    await db.close();
  }
  return { service: await restart(), result };
}
