import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The brokerage import: the raw rows as uploaded (one per natural key, so re-imports add nothing),
 * the trades, dividends and positions derived from them (recomputed per account on each import),
 * and the upload history.
 */
export class CreateImportTables1763740000000 implements MigrationInterface {
  name = 'CreateImportTables1763740000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE upload_history (
        id                      SERIAL PRIMARY KEY,
        user_id                 INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        account_id              INTEGER REFERENCES brokerage_accounts (id) ON DELETE SET NULL,
        brokerage_account       TEXT NOT NULL,
        transaction_filename    TEXT NOT NULL,
        gains_filename          TEXT NOT NULL,
        transaction_file_size   BIGINT NOT NULL,
        gains_file_size         BIGINT NOT NULL,
        status                  TEXT NOT NULL CHECK (status IN ('success', 'failed')),
        error                   TEXT,
        transactions_processed  INTEGER NOT NULL DEFAULT 0,
        transactions_inserted   INTEGER NOT NULL DEFAULT 0,
        realized_gains_lots     INTEGER NOT NULL DEFAULT 0,
        broker_verified_trades  INTEGER NOT NULL DEFAULT 0,
        months_updated          INTEGER NOT NULL DEFAULT 0,
        created_at              TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
      )`);
    await runner.query(`CREATE INDEX upload_history_user_idx ON upload_history (user_id, created_at DESC, id DESC)`);

    await runner.query(`
      CREATE TABLE broker_transactions (
        id            BIGSERIAL PRIMARY KEY,
        account_id    INTEGER NOT NULL REFERENCES brokerage_accounts (id) ON DELETE CASCADE,
        upload_id     INTEGER NOT NULL,
        line          INTEGER NOT NULL,
        fingerprint   TEXT NOT NULL,
        trade_date    DATE NOT NULL,
        as_of_date    DATE,
        action        TEXT NOT NULL,
        symbol        TEXT NOT NULL,
        description   TEXT NOT NULL,
        quantity      NUMERIC,
        price         NUMERIC,
        fees          NUMERIC,
        amount        NUMERIC,
        cells         JSONB NOT NULL,
        CONSTRAINT broker_transactions_natural_key UNIQUE (account_id, fingerprint)
      )`);
    await runner.query(`
      CREATE TABLE realized_lots (
        id                  BIGSERIAL PRIMARY KEY,
        account_id          INTEGER NOT NULL REFERENCES brokerage_accounts (id) ON DELETE CASCADE,
        upload_id           INTEGER NOT NULL,
        line                INTEGER NOT NULL,
        fingerprint         TEXT NOT NULL,
        symbol              TEXT NOT NULL,
        name                TEXT NOT NULL,
        closed_date         DATE NOT NULL,
        opened_date         DATE NOT NULL,
        quantity            NUMERIC NOT NULL,
        proceeds_per_share  NUMERIC,
        cost_per_share      NUMERIC,
        proceeds            NUMERIC NOT NULL,
        cost_basis          NUMERIC NOT NULL,
        gain_loss           NUMERIC NOT NULL,
        gain_loss_percent   NUMERIC,
        term                TEXT,
        wash_sale           BOOLEAN NOT NULL,
        disallowed_loss     NUMERIC,
        cells               JSONB NOT NULL,
        CONSTRAINT realized_lots_natural_key UNIQUE (account_id, fingerprint)
      )`);

    await runner.query(`
      CREATE TABLE closed_trades (
        id                BIGSERIAL PRIMARY KEY,
        user_id           INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        account_id        INTEGER NOT NULL REFERENCES brokerage_accounts (id) ON DELETE CASCADE,
        symbol            TEXT NOT NULL,
        side              TEXT NOT NULL CHECK (side IN ('long', 'short')),
        source            TEXT NOT NULL CHECK (source IN ('broker', 'fifo')),
        buy_date          DATE NOT NULL,
        sell_date         DATE NOT NULL,
        close_date        DATE NOT NULL,
        open_date         DATE NOT NULL,
        volume            NUMERIC NOT NULL,
        buy_price         NUMERIC NOT NULL,
        sell_price        NUMERIC NOT NULL,
        cost_basis        NUMERIC NOT NULL,
        proceeds          NUMERIC NOT NULL,
        profit_loss       NUMERIC NOT NULL,
        profit_per_share  NUMERIC NOT NULL,
        return_pct        NUMERIC NOT NULL,
        holding_days      INTEGER NOT NULL,
        trade_result      TEXT NOT NULL CHECK (trade_result IN ('Win', 'Loss', 'Breakeven')),
        wash_sale         BOOLEAN,
        disallowed_loss   NUMERIC,
        term              TEXT,
        buy_tx_price      NUMERIC,
        sell_tx_price     NUMERIC,
        seq               INTEGER NOT NULL
      )`);
    await runner.query(`CREATE INDEX closed_trades_user_close_idx ON closed_trades (user_id, close_date)`);
    await runner.query(`CREATE INDEX closed_trades_user_symbol_idx ON closed_trades (user_id, symbol, close_date)`);
    await runner.query(`CREATE INDEX closed_trades_account_idx ON closed_trades (account_id)`);

    await runner.query(`
      CREATE TABLE dividends (
        id                BIGSERIAL PRIMARY KEY,
        user_id           INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        account_id        INTEGER NOT NULL REFERENCES brokerage_accounts (id) ON DELETE CASCADE,
        transaction_date  DATE NOT NULL,
        symbol            TEXT NOT NULL,
        action            TEXT NOT NULL,
        amount            NUMERIC NOT NULL,
        seq               INTEGER NOT NULL
      )`);
    await runner.query(`CREATE INDEX dividends_user_date_idx ON dividends (user_id, transaction_date)`);
    await runner.query(`CREATE INDEX dividends_user_symbol_idx ON dividends (user_id, symbol, transaction_date)`);
    await runner.query(`CREATE INDEX dividends_account_idx ON dividends (account_id)`);

    // Shares held per symbol at the end of each day on which they changed (negative: open short).
    await runner.query(`
      CREATE TABLE position_history (
        user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        account_id  INTEGER NOT NULL REFERENCES brokerage_accounts (id) ON DELETE CASCADE,
        symbol      TEXT NOT NULL,
        as_of       DATE NOT NULL,
        shares      NUMERIC NOT NULL,
        PRIMARY KEY (account_id, symbol, as_of)
      )`);
    await runner.query(`CREATE INDEX position_history_user_idx ON position_history (user_id, symbol, as_of)`);

    await runner.query(`
      CREATE TABLE securities (
        account_id    INTEGER NOT NULL REFERENCES brokerage_accounts (id) ON DELETE CASCADE,
        user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        symbol        TEXT NOT NULL,
        company_name  TEXT NOT NULL,
        PRIMARY KEY (account_id, symbol)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['securities', 'position_history', 'dividends', 'closed_trades', 'realized_lots', 'broker_transactions', 'upload_history']) {
      await runner.query(`DROP TABLE ${table}`);
    }
  }
}
