import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A journal entry whose trade is gone is marked where it is kept (`journal_trades.orphaned`, as its tag
 * rows already were): whether an account's journal holds orphans is then read from a partial index of
 * the few marked rows, not found by looking up the trade of every entry. Every upload that only adds
 * later days asks it (`SqlTradeLedger.openBooks`): with 72,000 tagged trades the lookup took 270 ms of
 * each such upload on the embedded engine. Only a full rewrite of an account's trades makes or mends
 * orphans (`reattachJournal`), and it keeps the mark.
 */
export class JournalOrphansMarked1763980000000 implements MigrationInterface {
  name = 'JournalOrphansMarked1763980000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE journal_trades ADD COLUMN orphaned BOOLEAN NOT NULL DEFAULT false`);
    await runner.query(
      `UPDATE journal_trades j SET orphaned = true
        WHERE NOT EXISTS (SELECT 1 FROM closed_trades c WHERE c.user_id = j.user_id AND c.trade_id = j.trade_id)`,
    );
    await runner.query(`CREATE INDEX journal_trades_orphaned_idx ON journal_trades (user_id, account_id) WHERE orphaned`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX journal_trades_orphaned_idx`);
    await runner.query(`ALTER TABLE journal_trades DROP COLUMN orphaned`);
  }
}
