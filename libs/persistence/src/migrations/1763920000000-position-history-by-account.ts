import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `position_history` without its index by user. Every reading of the table finds an account's rows by
 * the primary key (account, symbol, day): a position at a date, the symbols' totals of an append (one
 * account's symbols after a day), whether an account holds positions; the user's full refresh of the
 * symbols' totals reads the user's accounts through it too. The second index only cost writes: an
 * import of 100,000 rows writes ~100,000 positions, and the embedded engine spent about a third of their
 * `COPY` keeping it (docs/operations.md "Imports").
 */
export class PositionHistoryByAccount1763920000000 implements MigrationInterface {
  name = 'PositionHistoryByAccount1763920000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX position_history_user_idx`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE INDEX position_history_user_idx ON position_history (user_id, symbol, as_of)`);
  }
}
