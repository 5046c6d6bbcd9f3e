import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What an import that adds days to an account reads instead of the account's whole history
 * (docs/operations.md "Imports"): the account's last transaction date, the lots it holds closed after
 * it, and where its trades' and dividends' order goes on (`seq`). The account-only indexes of the trades
 * and dividends become (account, seq): deleting an account's rows uses them as before.
 */
export class IncrementalImportIndexes1763880000000 implements MigrationInterface {
  name = 'IncrementalImportIndexes1763880000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE INDEX broker_transactions_account_date_idx ON broker_transactions (account_id, trade_date)`);
    await runner.query(`CREATE INDEX realized_lots_account_closed_idx ON realized_lots (account_id, closed_date)`);
    await runner.query(`DROP INDEX closed_trades_account_idx`);
    await runner.query(`CREATE INDEX closed_trades_account_idx ON closed_trades (account_id, seq)`);
    await runner.query(`DROP INDEX dividends_account_idx`);
    await runner.query(`CREATE INDEX dividends_account_idx ON dividends (account_id, seq)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX dividends_account_idx`);
    await runner.query(`CREATE INDEX dividends_account_idx ON dividends (account_id)`);
    await runner.query(`DROP INDEX closed_trades_account_idx`);
    await runner.query(`CREATE INDEX closed_trades_account_idx ON closed_trades (account_id)`);
    await runner.query(`DROP INDEX realized_lots_account_closed_idx`);
    await runner.query(`DROP INDEX broker_transactions_account_date_idx`);
  }
}
