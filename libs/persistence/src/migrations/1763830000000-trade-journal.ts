import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The journal (docs/api.md "Journal"): tags and notes on trades, notes on days.
 *
 * - `closed_trades.trade_id`: the trade's stable id, stored by the import (it was computed on every
 *   read); tags and notes refer to it, and the tag filters join on it. Rows stored before are given the
 *   same id here, computed as libs/trades' `tradeId` does (a frozen copy: the sha256 of the trade's
 *   account, symbol, side, source, dates, shares, cost basis and proceeds in units of 10^-10, and its
 *   occurrence among identical trades), so links a client kept stay valid.
 * - `closed_trades.close_fill`: the natural key of the trade's closing transaction (its raw row's
 *   fingerprint), where tags and notes move when a re-import splits or merges the trades of one fill.
 *   Unknown for rows stored before; the next import of the account writes it.
 * - `journal_trades`: what the journal knows of each annotated trade (enough to re-attach it, or to
 *   show it when its trade is gone); `trade_tags` and `trade_notes` hang off it.
 * - `journal_tags`: the user's tags, keyed by their lower-cased name, shown as first written.
 * - `day_notes`: a note per user and day.
 */
export class TradeJournal1763830000000 implements MigrationInterface {
  name = 'TradeJournal1763830000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE closed_trades ADD COLUMN trade_id TEXT, ADD COLUMN close_fill TEXT`);
    await runner.query(`
      UPDATE closed_trades c SET trade_id = ids.trade_id
        FROM (SELECT account_id, seq,
                     left(encode(sha256(convert_to(concat_ws('|', account_id, symbol, side, source, to_char(open_date, 'YYYY-MM-DD'),
                            to_char(close_date, 'YYYY-MM-DD'), (volume * 10000000000)::numeric(1000, 0), (cost_basis * 10000000000)::numeric(1000, 0),
                            (proceeds * 10000000000)::numeric(1000, 0),
                            row_number() OVER (PARTITION BY account_id, symbol, side, source, open_date, close_date, volume, cost_basis, proceeds
                                               ORDER BY seq) - 1), 'UTF8')), 'hex'), 20) AS trade_id
                FROM closed_trades) ids
       WHERE c.account_id = ids.account_id AND c.seq = ids.seq`);
    await runner.query(`ALTER TABLE closed_trades ALTER COLUMN trade_id SET NOT NULL`);
    await runner.query(`CREATE INDEX closed_trades_user_trade_idx ON closed_trades (user_id, trade_id)`);

    await runner.query(`
      CREATE TABLE journal_tags (
        user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        tag_key     TEXT NOT NULL,
        name        TEXT NOT NULL,
        created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, tag_key)
      )`);
    await runner.query(`
      CREATE TABLE journal_trades (
        user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        trade_id    TEXT NOT NULL,
        account_id  INTEGER NOT NULL REFERENCES brokerage_accounts (id) ON DELETE CASCADE,
        close_fill  TEXT,
        symbol      TEXT NOT NULL,
        side        TEXT NOT NULL,
        open_date   DATE NOT NULL,
        close_date  DATE NOT NULL,
        volume      NUMERIC NOT NULL,
        profit_loss NUMERIC NOT NULL,
        PRIMARY KEY (user_id, trade_id)
      )`);
    await runner.query(`CREATE INDEX journal_trades_account_idx ON journal_trades (account_id)`);
    await runner.query(`
      CREATE TABLE trade_tags (
        user_id   INTEGER NOT NULL,
        trade_id  TEXT NOT NULL,
        tag_key   TEXT NOT NULL,
        PRIMARY KEY (user_id, trade_id, tag_key),
        FOREIGN KEY (user_id, trade_id) REFERENCES journal_trades (user_id, trade_id) ON DELETE CASCADE ON UPDATE CASCADE,
        FOREIGN KEY (user_id, tag_key) REFERENCES journal_tags (user_id, tag_key) ON DELETE CASCADE ON UPDATE CASCADE
      )`);
    await runner.query(`CREATE INDEX trade_tags_tag_idx ON trade_tags (user_id, tag_key)`);
    await runner.query(`
      CREATE TABLE trade_notes (
        user_id     INTEGER NOT NULL,
        trade_id    TEXT NOT NULL,
        note        TEXT NOT NULL,
        updated_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, trade_id),
        FOREIGN KEY (user_id, trade_id) REFERENCES journal_trades (user_id, trade_id) ON DELETE CASCADE ON UPDATE CASCADE
      )`);
    await runner.query(`
      CREATE TABLE day_notes (
        user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        day         DATE NOT NULL,
        note        TEXT NOT NULL,
        updated_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, day)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['day_notes', 'trade_notes', 'trade_tags', 'journal_trades', 'journal_tags']) await runner.query(`DROP TABLE ${table}`);
    await runner.query(`DROP INDEX closed_trades_user_trade_idx`);
    await runner.query(`ALTER TABLE closed_trades DROP COLUMN trade_id, DROP COLUMN close_fill`);
  }
}
