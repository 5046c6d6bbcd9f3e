import { MIGRATIONS, type Database } from '@app/persistence';
import type { MigrationInterface } from 'typeorm';

/**
 * Undoes the named migrations (the last first) and runs them again, in order, on `database`: how the
 * tests check that a migration gives data stored before it what the code would have written.
 */
export async function migrateAgain(database: Database, ...names: string[]): Promise<void> {
  const migrations = names.map((name) => {
    const found = MIGRATIONS.map((Migration) => new (Migration as new () => MigrationInterface)()).find((candidate) => candidate.name === name);
    if (found === undefined) throw new Error(`no migration ${name}`);
    return found;
  });
  const runner = database.dataSource.createQueryRunner();
  try {
    for (const migration of [...migrations].reverse()) await migration.down(runner);
    for (const migration of migrations) await migration.up(runner);
  } finally {
    await runner.release();
  }
}
