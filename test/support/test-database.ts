import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A fresh PostgreSQL database per service under test, on the server named by DATABASE_URL.
 * Refuses any server database whose name does not contain "test", so a suite can never touch real data.
 */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export function serverDatabaseUrl(): string | undefined {
  const url = process.env.DATABASE_URL?.trim();
  if (!url) return undefined;
  const name = new URL(url).pathname.slice(1);
  if (!name.includes('test')) {
    throw new Error(`Refusing to run tests against database '${name}': its name must contain 'test'`);
  }
  return url;
}

export async function createTestDatabase(adminUrl: string): Promise<TestDatabase> {
  const base = new URL(adminUrl);
  const name = `${base.pathname.slice(1)}_${randomBytes(6).toString('hex')}`;
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
