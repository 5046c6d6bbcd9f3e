import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Read-model rollups of the trading reports (libs/trades), rebuilt for a user at the end of every
 * import inside the import's transaction (`refreshTradeReports`), so a report reads a few rows
 * instead of aggregating every trade:
 * - `daily_totals`: per user and day (the close date of trades, the date of dividends): calendar,
 *   months, timeframes;
 * - `daily_symbol_totals`: the same per symbol, for the timeframe's `symbols` filter;
 * - `symbol_totals`: per user, account and symbol, what the symbol summaries combine;
 * - `report_versions`: a counter per user, raised by every rebuild: the key that keeps cached
 *   report responses consistent across instances.
 * Money is NUMERIC (exact sums); a row exists only for a day with at least one trade or dividend.
 */
export class CreateTradeReportRollups1763760000000 implements MigrationInterface {
  name = 'CreateTradeReportRollups1763760000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE daily_totals (
        user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        day             DATE NOT NULL,
        trade_count     INTEGER NOT NULL,
        winning_trades  INTEGER NOT NULL,
        trading_pnl     NUMERIC NOT NULL,
        dividend_count  INTEGER NOT NULL,
        dividends       NUMERIC NOT NULL,
        PRIMARY KEY (user_id, day)
      )`);
    await runner.query(`
      CREATE TABLE daily_symbol_totals (
        user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        symbol          TEXT NOT NULL,
        day             DATE NOT NULL,
        trade_count     INTEGER NOT NULL,
        winning_trades  INTEGER NOT NULL,
        trading_pnl     NUMERIC NOT NULL,
        dividend_count  INTEGER NOT NULL,
        dividends       NUMERIC NOT NULL,
        PRIMARY KEY (user_id, symbol, day)
      )`);
    await runner.query(`
      CREATE TABLE symbol_totals (
        user_id              INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        account_id           INTEGER NOT NULL REFERENCES brokerage_accounts (id) ON DELETE CASCADE,
        symbol               TEXT NOT NULL,
        company_name         TEXT,
        trade_count          INTEGER NOT NULL,
        winning_trades       INTEGER NOT NULL,
        trading_pnl          NUMERIC NOT NULL,
        min_pnl              NUMERIC,
        max_pnl              NUMERIC,
        sum_return_pct       NUMERIC NOT NULL,
        min_return_pct       NUMERIC,
        max_return_pct       NUMERIC,
        sum_holding_days     BIGINT NOT NULL,
        total_volume         NUMERIC NOT NULL,
        total_cost_basis     NUMERIC NOT NULL,
        first_trade_date     DATE,
        last_trade_date      DATE,
        first_open_date      DATE,
        dividend_count       INTEGER NOT NULL,
        dividends            NUMERIC NOT NULL,
        first_dividend_date  DATE,
        last_dividend_date   DATE,
        has_positions        BOOLEAN NOT NULL,
        current_shares       NUMERIC NOT NULL,
        PRIMARY KEY (user_id, symbol, account_id)
      )`);
    await runner.query(`
      CREATE TABLE report_versions (
        user_id  INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        version  BIGINT NOT NULL
      )`);
    await this.backfill(runner);
  }

  /** Rollups of what earlier imports stored (a frozen copy of libs/trades' refresh, for every user at once). */
  private async backfill(runner: QueryRunner): Promise<void> {
    await runner.query(`
      INSERT INTO daily_symbol_totals (user_id, symbol, day, trade_count, winning_trades, trading_pnl, dividend_count, dividends)
      SELECT user_id, symbol, day, SUM(trade_count)::int, SUM(winning_trades)::int, SUM(trading_pnl), SUM(dividend_count)::int, SUM(dividends)
        FROM (SELECT user_id, symbol, close_date AS day, COUNT(*) AS trade_count, COUNT(*) FILTER (WHERE trade_result = 'Win') AS winning_trades,
                     SUM(profit_loss) AS trading_pnl, 0 AS dividend_count, 0::numeric AS dividends
                FROM closed_trades GROUP BY user_id, symbol, close_date
              UNION ALL
              SELECT user_id, symbol, transaction_date, 0, 0, 0, COUNT(*), SUM(amount)
                FROM dividends GROUP BY user_id, symbol, transaction_date) AS activity
       GROUP BY user_id, symbol, day`);
    await runner.query(`
      INSERT INTO daily_totals (user_id, day, trade_count, winning_trades, trading_pnl, dividend_count, dividends)
      SELECT user_id, day, SUM(trade_count), SUM(winning_trades), SUM(trading_pnl), SUM(dividend_count), SUM(dividends)
        FROM daily_symbol_totals GROUP BY user_id, day`);
    await runner.query(`
      INSERT INTO symbol_totals (user_id, account_id, symbol, company_name, trade_count, winning_trades, trading_pnl, min_pnl, max_pnl,
                                 sum_return_pct, min_return_pct, max_return_pct, sum_holding_days, total_volume, total_cost_basis,
                                 first_trade_date, last_trade_date, first_open_date, dividend_count, dividends, first_dividend_date,
                                 last_dividend_date, has_positions, current_shares)
      WITH traded AS (
             SELECT user_id, account_id, symbol, COUNT(*) AS trade_count, COUNT(*) FILTER (WHERE trade_result = 'Win') AS winning_trades,
                    SUM(profit_loss) AS trading_pnl, MIN(profit_loss) AS min_pnl, MAX(profit_loss) AS max_pnl,
                    SUM(return_pct) AS sum_return_pct, MIN(return_pct) AS min_return_pct, MAX(return_pct) AS max_return_pct,
                    SUM(holding_days) AS sum_holding_days, SUM(volume) AS total_volume, SUM(cost_basis) AS total_cost_basis,
                    MIN(close_date) AS first_trade_date, MAX(close_date) AS last_trade_date, MIN(open_date) AS first_open_date
               FROM closed_trades GROUP BY user_id, account_id, symbol),
           paid AS (
             SELECT user_id, account_id, symbol, COUNT(*) AS dividend_count, SUM(amount) AS dividends,
                    MIN(transaction_date) AS first_dividend_date, MAX(transaction_date) AS last_dividend_date
               FROM dividends WHERE symbol <> '' GROUP BY user_id, account_id, symbol),
           held AS (
             SELECT user_id, account_id, symbol, MIN(as_of) AS first_position_date, (array_agg(shares ORDER BY as_of DESC))[1] AS current_shares
               FROM position_history GROUP BY user_id, account_id, symbol),
           keys AS (
             SELECT user_id, account_id, symbol FROM traded UNION SELECT user_id, account_id, symbol FROM paid
             UNION SELECT user_id, account_id, symbol FROM held)
      SELECT k.user_id, k.account_id, k.symbol, s.company_name, COALESCE(t.trade_count, 0), COALESCE(t.winning_trades, 0),
             COALESCE(t.trading_pnl, 0), t.min_pnl, t.max_pnl, COALESCE(t.sum_return_pct, 0), t.min_return_pct, t.max_return_pct,
             COALESCE(t.sum_holding_days, 0), COALESCE(t.total_volume, 0), COALESCE(t.total_cost_basis, 0),
             t.first_trade_date, t.last_trade_date, LEAST(t.first_open_date, h.first_position_date),
             COALESCE(d.dividend_count, 0), COALESCE(d.dividends, 0), d.first_dividend_date, d.last_dividend_date,
             h.account_id IS NOT NULL, COALESCE(h.current_shares, 0)
        FROM keys k
        LEFT JOIN traded t ON t.account_id = k.account_id AND t.symbol = k.symbol
        LEFT JOIN paid d ON d.account_id = k.account_id AND d.symbol = k.symbol
        LEFT JOIN held h ON h.account_id = k.account_id AND h.symbol = k.symbol
        LEFT JOIN securities s ON s.account_id = k.account_id AND s.symbol = k.symbol`);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['report_versions', 'symbol_totals', 'daily_symbol_totals', 'daily_totals']) {
      await runner.query(`DROP TABLE ${table}`);
    }
  }
}
