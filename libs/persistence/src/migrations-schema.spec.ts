import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import pg from 'pg';
import { migrationsSchema } from './database.js';
import { EmbeddedPostgres } from './embedded-postgres.js';
import { MIGRATIONS } from './migrations/index.js';

async function appliedMigrations(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ name: string }>('SELECT name FROM migrations ORDER BY id')).rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

/** The service's migrations as the embedded engine's schema: a new database starts migrated. */
describe('migrationsSchema', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('gives every new embedded database the migrations, applied once into a template', async () => {
    const scratch = await mkdtemp(join(tmpdir(), 'sta-migrations-schema-'));
    const templates = join(scratch, 'templates');
    try {
      for (const name of ['first', 'second']) {
        const engine = await EmbeddedPostgres.start(join(scratch, name), { templates, schema: migrationsSchema(MIGRATIONS) });
        try {
          expect(await appliedMigrations(engine.url)).toEqual(MIGRATIONS.map((migration) => migration.name));
        } finally {
          await engine.stop();
        }
      }
      expect((await readdir(templates)).filter((entry) => entry.startsWith('schema-'))).toHaveLength(1);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }, 120000);

  it('keys the template by the migrations, so another list or an edited one makes another', () => {
    const all = migrationsSchema(MIGRATIONS).key;
    expect(migrationsSchema(MIGRATIONS).key).toBe(all);
    expect(migrationsSchema(MIGRATIONS.slice(0, -1)).key).not.toBe(all);
    const last = MIGRATIONS.at(-1)!;
    const edited = { [last.name]: class extends last {} }[last.name];
    expect(migrationsSchema([...MIGRATIONS.slice(0, -1), edited]).key).not.toBe(all);
  });
});
