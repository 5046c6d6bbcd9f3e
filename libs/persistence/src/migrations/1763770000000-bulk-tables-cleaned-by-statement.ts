import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The tables an import fills by the ten thousand rows, with the parents their rows belong to. */
const BULK_TABLES: { table: string; parents: ('users' | 'brokerage_accounts')[] }[] = [
  { table: 'broker_transactions', parents: ['brokerage_accounts'] },
  { table: 'realized_lots', parents: ['brokerage_accounts'] },
  { table: 'closed_trades', parents: ['users', 'brokerage_accounts'] },
  { table: 'dividends', parents: ['users', 'brokerage_accounts'] },
  { table: 'position_history', parents: ['users', 'brokerage_accounts'] },
  { table: 'daily_totals', parents: ['users'] },
  { table: 'daily_symbol_totals', parents: ['users'] },
];

const PARENT_KEY = { users: 'user_id', brokerage_accounts: 'account_id' } as const;

/**
 * A foreign key checks its parent once per inserted row; on the tables an import fills with a
 * hundred thousand rows that was a third of the import's time (two thirds on the embedded database).
 * Those tables lose their foreign keys and keep the same guarantees another way:
 * - deleting a user or an account still deletes their rows, through one statement-level trigger per
 *   parent table (a user's deletion cascades to their account, whose trigger runs in turn);
 * - no row is written for a parent that does not exist: the import locks its account row
 *   (`FOR KEY SHARE`, what each row's check did) once, before it writes anything.
 */
export class BulkTablesCleanedByStatement1763770000000 implements MigrationInterface {
  name = 'BulkTablesCleanedByStatement1763770000000';

  async up(runner: QueryRunner): Promise<void> {
    const keys: { table: string; name: string }[] = await runner.query(
      `SELECT conrelid::regclass::text AS table, conname AS name FROM pg_constraint
        WHERE contype = 'f' AND conrelid::regclass::text = ANY($1)`,
      [BULK_TABLES.map(({ table }) => table)],
    );
    for (const { table, name } of keys) await runner.query(`ALTER TABLE ${table} DROP CONSTRAINT "${name}"`);

    for (const parent of ['users', 'brokerage_accounts'] as const) {
      const key = PARENT_KEY[parent];
      const deletes = BULK_TABLES.filter(({ parents }) => parents.at(-1) === parent)
        .map(({ table }) => `DELETE FROM ${table} WHERE ${key} IN (SELECT id FROM gone);`)
        .join('\n          ');
      await runner.query(`
        CREATE FUNCTION delete_rows_of_${parent}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          ${deletes}
          RETURN NULL;
        END $$`);
      await runner.query(`
        CREATE TRIGGER ${parent}_delete_bulk_rows AFTER DELETE ON ${parent}
          REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION delete_rows_of_${parent}()`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const parent of ['users', 'brokerage_accounts'] as const) {
      await runner.query(`DROP TRIGGER ${parent}_delete_bulk_rows ON ${parent}`);
      await runner.query(`DROP FUNCTION delete_rows_of_${parent}()`);
    }
    for (const { table, parents } of BULK_TABLES) {
      for (const parent of parents) {
        const key = PARENT_KEY[parent];
        await runner.query(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_${key}_fkey FOREIGN KEY (${key}) REFERENCES ${parent} (id) ON DELETE CASCADE`);
      }
    }
  }
}
