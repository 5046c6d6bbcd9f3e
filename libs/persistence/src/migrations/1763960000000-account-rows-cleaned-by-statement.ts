import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The tables an import fills with a row per open lot or per symbol, and the parent whose statement-level
 * trigger deletes their rows: the account's (a user's deletion deletes their accounts), or the user's
 * for the statistics' groups, which are the user's across accounts.
 */
const CLEANED_NOW = [
  { table: 'open_lots', parent: 'brokerage_accounts' },
  { table: 'securities', parent: 'brokerage_accounts' },
  { table: 'symbol_totals', parent: 'brokerage_accounts' },
  { table: 'trade_statistic_groups', parent: 'users' },
] as const;
/** What each parent's trigger deleted before (BulkTablesCleanedByStatement1763770000000). */
const CLEANED_BEFORE = {
  brokerage_accounts: ['broker_transactions', 'realized_lots', 'closed_trades', 'dividends', 'position_history'],
  users: ['daily_totals', 'daily_symbol_totals'],
};
const PARENT_KEY = { users: 'user_id', brokerage_accounts: 'account_id' } as const;

/**
 * The open lots, company names, per-symbol totals and the statistics' groups lose their foreign keys
 * as the bulk tables did in BulkTablesCleanedByStatement1763770000000, and for the same reason:
 * PostgreSQL checks a foreign key once per inserted row. An account of 20,000 symbols (five rows
 * each) leaves 64,559 open lots and 20,000 or more rows in each of the others; one holding one symbol
 * bought nine times in ten leaves 84,725 open lots. On a PostgreSQL 15 server, 64,559 open lots went in
 * in 820–850 ms with their two keys and 280–300 ms without (three runs each). The same guarantees
 * stand: deleting an account or a user deletes these rows through the parent's statement-level
 * trigger, and the import, their only writer, holds its account (and so its user) `FOR KEY SHARE`
 * before it writes (`lockAccount`).
 */
export class AccountRowsCleanedByStatement1763960000000 implements MigrationInterface {
  name = 'AccountRowsCleanedByStatement1763960000000';

  async up(runner: QueryRunner): Promise<void> {
    const keys: { table: string; name: string }[] = await runner.query(
      `SELECT conrelid::regclass::text AS table, conname AS name FROM pg_constraint
        WHERE contype = 'f' AND conrelid::regclass::text = ANY($1)`,
      [CLEANED_NOW.map(({ table }) => table)],
    );
    for (const { table, name } of keys) await runner.query(`ALTER TABLE ${table} DROP CONSTRAINT "${name}"`);
    for (const parent of ['users', 'brokerage_accounts'] as const) {
      await replaceTrigger(runner, parent, [...CLEANED_BEFORE[parent], ...CLEANED_NOW.filter((now) => now.parent === parent).map(({ table }) => table)]);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const parent of ['users', 'brokerage_accounts'] as const) await replaceTrigger(runner, parent, CLEANED_BEFORE[parent]);
    for (const { table, parent } of CLEANED_NOW) {
      const parents = parent === 'users' ? (['users'] as const) : (['users', 'brokerage_accounts'] as const);
      for (const keyed of parents) {
        const key = PARENT_KEY[keyed];
        await runner.query(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_${key}_fkey FOREIGN KEY (${key}) REFERENCES ${keyed} (id) ON DELETE CASCADE`);
      }
    }
  }
}

/** The function a parent's delete trigger runs (the trigger itself stays): one DELETE per table. */
async function replaceTrigger(runner: QueryRunner, parent: 'users' | 'brokerage_accounts', tables: readonly string[]): Promise<void> {
  const deletes = tables.map((table) => `DELETE FROM ${table} WHERE ${PARENT_KEY[parent]} IN (SELECT id FROM gone);`).join('\n          ');
  await runner.query(`
    CREATE OR REPLACE FUNCTION delete_rows_of_${parent}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${deletes}
      RETURN NULL;
    END $$`);
}
