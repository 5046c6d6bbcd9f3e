import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The trades are found by their id through a hash index on `trade_id` instead of a B-tree on
 * `(user_id, trade_id)`. Every reading by id is an equality (a trade, the journal's ids as `= ANY`, the
 * journal's orphans), with the user checked on the rows found; nothing orders or ranges by it. The ids are digests, so an import's trades went into the B-tree all over it: with
 * `COPY` of the active trader's 70,890 trades, that index took about 30% of the embedded engine's time
 * for the table (1,076–1,107 ms with it, 733–791 without, 886 with the hash index, medians of three)
 * and of a PostgreSQL 15 server's (743–776 ms, 492–561, 601–662; four runs each): a hash index keeps
 * 4 bytes of each id's hash in the bucket its hash names (docs/operations.md "Database").
 */
export class TradeIdsByHash1763950000000 implements MigrationInterface {
  name = 'TradeIdsByHash1763950000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX closed_trades_user_trade_idx`);
    await runner.query(`CREATE INDEX closed_trades_trade_idx ON closed_trades USING hash (trade_id)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX closed_trades_trade_idx`);
    await runner.query(`CREATE INDEX closed_trades_user_trade_idx ON closed_trades (user_id, trade_id)`);
  }
}
