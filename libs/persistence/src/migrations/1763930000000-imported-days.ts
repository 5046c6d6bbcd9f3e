import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `imported_days`: for each account, layout and day, the digests of the days its imports read (the
 * header's and the day's rows' cells). An upload whose day has a digest its account holds is one an
 * earlier import read byte for byte, whose rows are all stored: its rows are not read, keyed or looked
 * up again, and a daily or overlapping export costs what it adds (docs/operations.md "Imports"). Several
 * digests per day: an export taken during a day and the day's full export later are both ones read.
 * A few rows per day and layout, so the account's foreign key costs nothing worth a trigger.
 */
export class ImportedDays1763930000000 implements MigrationInterface {
  name = 'ImportedDays1763930000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE imported_days (
        account_id INTEGER NOT NULL REFERENCES brokerage_accounts (id) ON DELETE CASCADE,
        layout TEXT NOT NULL,
        day DATE NOT NULL,
        digest UUID NOT NULL,
        PRIMARY KEY (account_id, layout, day, digest)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE imported_days`);
  }
}
