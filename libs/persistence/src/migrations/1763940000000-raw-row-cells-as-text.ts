import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The raw rows' `cells` (each row as read, a JSON array of its cells, kept for the record and never
 * queried) as `text` instead of `json`. The service is their only writer and makes the JSON itself
 * (`rowCellsJson` in csv-text.ts, whose spec checks it against the cells' `JSON.stringify`), and the
 * engine's check of every document as it came in cost more than storing it: on a PostgreSQL 15 server,
 * `COPY` of the active trader's 168,000 raw rows' cells (21 MB) took 275 ms into a `json` column and
 * 105 ms into a `text` one, the same bytes stored; the embedded engine's `COPY` of those raw rows, about
 * 6% less (docs/operations.md "Database"). Changing the type writes both tables again, once.
 */
export class RawRowCellsAsText1763940000000 implements MigrationInterface {
  name = 'RawRowCellsAsText1763940000000';

  async up(runner: QueryRunner): Promise<void> {
    for (const table of ['broker_transactions', 'realized_lots']) {
      await runner.query(`ALTER TABLE ${table} ALTER COLUMN cells TYPE text`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['broker_transactions', 'realized_lots']) {
      await runner.query(`ALTER TABLE ${table} ALTER COLUMN cells TYPE json USING cells::json`);
    }
  }
}
