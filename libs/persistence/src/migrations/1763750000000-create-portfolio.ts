import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The portfolio context: holdings (one per symbol per user), the quote cache shared by all users, and
 * snapshots with a unique key that lets only one end-of-day snapshot per user and trading day exist.
 * Quantities and prices are NUMERIC with ten decimals (exact); snapshot money is stored in cents.
 */
export class CreatePortfolio1763750000000 implements MigrationInterface {
  name = 'CreatePortfolio1763750000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE portfolio_holdings (
        id            SERIAL PRIMARY KEY,
        user_id       INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        symbol        TEXT NOT NULL,
        holding_type  TEXT NOT NULL CHECK (holding_type IN ('stock', 'etf', 'mutual_fund')),
        shares        NUMERIC(30, 10) NOT NULL CHECK (shares > 0),
        average_cost  NUMERIC(30, 10) NOT NULL CHECK (average_cost >= 0),
        notes         TEXT NOT NULL DEFAULT '',
        purchase_date DATE,
        created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
        updated_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
        CONSTRAINT portfolio_holdings_user_symbol_key UNIQUE (user_id, symbol)
      )`);
    await runner.query(`
      CREATE TABLE market_quotes (
        symbol          TEXT PRIMARY KEY,
        current_price   NUMERIC(30, 10),
        change          NUMERIC(30, 10),
        percent_change  NUMERIC(30, 10),
        high            NUMERIC(30, 10),
        low             NUMERIC(30, 10),
        open            NUMERIC(30, 10),
        previous_close  NUMERIC(30, 10),
        quoted_at       TIMESTAMPTZ,
        fetched_at      TIMESTAMPTZ,
        checked_at      TIMESTAMPTZ NOT NULL,
        not_found       BOOLEAN NOT NULL DEFAULT false,
        company_name    TEXT,
        CONSTRAINT market_quotes_price_fetched CHECK ((current_price IS NULL) = (fetched_at IS NULL))
      )`);
    await runner.query(`
      CREATE TABLE portfolio_snapshots (
        id               SERIAL PRIMARY KEY,
        user_id          INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        snapshot_type    TEXT NOT NULL CHECK (snapshot_type IN ('MANUAL', 'AUTOMATIC', 'EOD')),
        snapshot_time    TIMESTAMPTZ NOT NULL,
        trading_date     DATE,
        total_value      NUMERIC(24, 2) NOT NULL,
        total_cost       NUMERIC(24, 2) NOT NULL,
        total_gain_loss  NUMERIC(24, 2) NOT NULL,
        total_return_pct NUMERIC(16, 2) NOT NULL,
        holdings_count   INTEGER NOT NULL,
        unpriced_count   INTEGER NOT NULL DEFAULT 0,
        notes            TEXT NOT NULL DEFAULT '',
        CONSTRAINT portfolio_snapshots_trading_date_eod CHECK (trading_date IS NULL OR snapshot_type = 'EOD')
      )`);
    await runner.query(`CREATE INDEX portfolio_snapshots_user_time ON portfolio_snapshots (user_id, snapshot_time DESC)`);
    await runner.query(`
      CREATE UNIQUE INDEX portfolio_snapshots_eod_once ON portfolio_snapshots (user_id, trading_date)
      WHERE trading_date IS NOT NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE portfolio_snapshots`);
    await runner.query(`DROP TABLE market_quotes`);
    await runner.query(`DROP TABLE portfolio_holdings`);
  }
}
