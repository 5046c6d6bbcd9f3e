import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What an import that adds days to an account reads instead of the account's whole history
 * (docs/operations.md "Imports"): the account's last transaction date, the lots it holds closed after
 * it, and where its trades' and dividends' order goes on (`seq`): the account-only indexes of the trades
 * and dividends become (account, seq), which deleting an account's rows uses as before. Per account
 * and symbol (`symbol_totals`), how many trades came from broker lots and whether a sale on each side
 * was matched first in, first out: what the import counts and goes on from, without reading the trades.
 */
export class IncrementalImports1763880000000 implements MigrationInterface {
  name = 'IncrementalImports1763880000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE INDEX broker_transactions_account_date_idx ON broker_transactions (account_id, trade_date)`);
    await runner.query(`CREATE INDEX realized_lots_account_closed_idx ON realized_lots (account_id, closed_date)`);
    await runner.query(`DROP INDEX closed_trades_account_idx`);
    await runner.query(`CREATE INDEX closed_trades_account_idx ON closed_trades (account_id, seq)`);
    await runner.query(`DROP INDEX dividends_account_idx`);
    await runner.query(`CREATE INDEX dividends_account_idx ON dividends (account_id, seq)`);
    await runner.query(
      `ALTER TABLE symbol_totals ADD COLUMN broker_trades INTEGER NOT NULL DEFAULT 0,
         ADD COLUMN fifo_long BOOLEAN NOT NULL DEFAULT false, ADD COLUMN fifo_short BOOLEAN NOT NULL DEFAULT false`,
    );
    await runner.query(`
      UPDATE symbol_totals s SET broker_trades = t.broker_trades, fifo_long = t.fifo_long, fifo_short = t.fifo_short
        FROM (SELECT account_id, symbol, COUNT(*) FILTER (WHERE source = 'broker') AS broker_trades,
                     COALESCE(bool_or(source = 'fifo' AND side = 'long'), false) AS fifo_long,
                     COALESCE(bool_or(source = 'fifo' AND side = 'short'), false) AS fifo_short
                FROM closed_trades GROUP BY account_id, symbol) t
       WHERE s.account_id = t.account_id AND s.symbol = t.symbol`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE symbol_totals DROP COLUMN broker_trades, DROP COLUMN fifo_long, DROP COLUMN fifo_short`);
    await runner.query(`DROP INDEX dividends_account_idx`);
    await runner.query(`CREATE INDEX dividends_account_idx ON dividends (account_id)`);
    await runner.query(`DROP INDEX closed_trades_account_idx`);
    await runner.query(`CREATE INDEX closed_trades_account_idx ON closed_trades (account_id)`);
    await runner.query(`DROP INDEX realized_lots_account_closed_idx`);
    await runner.query(`DROP INDEX broker_transactions_account_date_idx`);
  }
}
