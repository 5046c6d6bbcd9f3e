import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The trades' index by user and close date takes the rest of the reports' order (account, then
 * `seq`): a month's trades can then be read in the order the month's page lists them, with no sort
 * after. The month's JSON is built in the query (`SqlTradeReports.monthTradesJson`), so a sort held
 * each trade's text: the busiest month of a million-row account (34,019 trades) sorted 11 MB, and the
 * embedded engine's query took ~250–340 ms; read in index order, ~150–230 ms. The embedded engine's
 * planner takes that path (its `random_page_cost`, `EmbeddedPostgres`); a server's chooses by its own
 * settings. The index loses its deduplication (each key is now unique): at 720,000 trades 2,774 pages
 * instead of 968, which a reading of a date range by user reads a little more of. Inserting 300,000
 * trades took the embedded engine the same time with either index.
 */
export class ClosedTradesInReportOrder1763970000000 implements MigrationInterface {
  name = 'ClosedTradesInReportOrder1763970000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX closed_trades_user_close_idx`);
    await runner.query(`CREATE INDEX closed_trades_user_close_idx ON closed_trades (user_id, close_date, account_id, seq)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX closed_trades_user_close_idx`);
    await runner.query(`CREATE INDEX closed_trades_user_close_idx ON closed_trades (user_id, close_date)`);
  }
}
