import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The stored raw rows of an import, made cheaper to write (a 100,000-row import writes as many):
 * - `fingerprint`: the first 128 bits of the SHA-256 natural key in a 16-byte `uuid` instead of 64
 *   hexadecimal characters of text; the unique index compares 16 bytes. Existing keys convert to
 *   exactly what the import now computes for the same rows (their first 32 digits), so a re-import
 *   still finds them.
 * - `cells` (the row as read, kept for the record, never queried): `json`, stored as the text it is,
 *   instead of `jsonb`, which parses every document into its binary form.
 */
export class CompactRawRowKeys1763790000000 implements MigrationInterface {
  name = 'CompactRawRowKeys1763790000000';

  async up(runner: QueryRunner): Promise<void> {
    for (const table of ['broker_transactions', 'realized_lots']) {
      await runner.query(`ALTER TABLE ${table} ALTER COLUMN fingerprint TYPE uuid USING left(fingerprint, 32)::uuid, ALTER COLUMN cells TYPE json`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    // The dropped half of each digest cannot be recovered: keys go back as the 32 digits they kept.
    for (const table of ['broker_transactions', 'realized_lots']) {
      await runner.query(`ALTER TABLE ${table} ALTER COLUMN fingerprint TYPE text USING replace(fingerprint::text, '-', ''), ALTER COLUMN cells TYPE jsonb`);
    }
  }
}
