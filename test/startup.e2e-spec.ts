import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { MIGRATIONS } from '@app/persistence';
import { runUntilExit, startService } from './support/service.js';
import { withClient } from './support/test-database.js';

describe('start-up', () => {
  it.each([
    [{ PORT: 'abc' }, /^Invalid configuration: PORT must be a whole number from 0 to 65535 \(got 'abc'\)$/m],
    [{ SESSION_IDLE_MINUTES: '-5' }, /^Invalid configuration: SESSION_IDLE_MINUTES /m],
    [{ DATABASE_URL: 'mysql://db/test' }, /^Invalid configuration: DATABASE_URL must start with postgres:\/\/ or postgresql:\/\/$/m],
    [{ NODE_ENV: 'production', PUBLIC_URL: 'https://journal.example.com' }, /^Invalid configuration: SESSION_SECRET is required in production/m],
    [{ AUTHORIZED_USERS: 'alice@example.com, bob' }, /^Invalid configuration: AUTHORIZED_USERS .*'bob'/m],
  ])('refuses to start on %j with one clear line and a non-zero exit', async (env, message) => {
    const { code, output } = await runUntilExit(env);
    expect(code).not.toBe(0);
    expect(output).toMatch(message);
    expect(output.trim().split('\n')).toHaveLength(1);
  });

  it('applies the migrations to an empty embedded database, and a second start applies nothing again', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sta-migrate-'));
    try {
      const first = await startService({ dataDir, env: { DATABASE_URL: undefined } });
      expect(await first.stop()).toBe(0);
      const second = await startService({ dataDir, env: { DATABASE_URL: undefined } });
      expect((await fetch(`${second.url}/health/ready`)).status).toBe(200);
      expect(await second.stop()).toBe(0);

      const db = await PGlite.create({ dataDir: join(dataDir, 'pg') });
      const applied = await db.query<{ name: string }>('SELECT name FROM migrations ORDER BY id');
      await db.close();
      expect(applied.rows.map((row) => row.name)).toEqual(MIGRATIONS.map((migration) => migration.name));
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  const onServer = process.env.DATABASE_URL ? it : it.skip;
  onServer('applies the migrations once on a PostgreSQL server, also across restarts', async () => {
    const first = await startService();
    const databaseUrl = first.databaseUrl!;
    // Keep the database: start a second service on the same one before the first is dropped.
    const second = await startService({ env: { DATABASE_URL: databaseUrl } });
    const names = await withClient(databaseUrl, (client) => client.query<{ name: string }>('SELECT name FROM migrations ORDER BY id'));
    expect(names.rows.map((row) => row.name)).toEqual(MIGRATIONS.map((migration) => migration.name));
    await second.stop();
    await first.stop();
  });

  it('shuts down cleanly on SIGTERM: exit code 0 and the database closed', async () => {
    const service = await startService({ env: { LOG_LEVEL: 'info' } });
    expect(await service.stop('SIGTERM')).toBe(0);
    expect(service.output()).toContain('database closed');
  });
});
