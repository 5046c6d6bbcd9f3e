import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The lots an account's import leaves open (the portfolio's imported positions, docs/api.md
 * "Positions"): written with the account's trades by every import, in the same transaction.
 */
export class OpenLots1763850000000 implements MigrationInterface {
  name = 'OpenLots1763850000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE open_lots (
        user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        account_id  INTEGER NOT NULL REFERENCES brokerage_accounts (id) ON DELETE CASCADE,
        seq         INTEGER NOT NULL,
        symbol      TEXT NOT NULL,
        side        TEXT NOT NULL CHECK (side IN ('long', 'short')),
        open_date   DATE NOT NULL,
        shares      NUMERIC NOT NULL CHECK (shares > 0),
        cost        NUMERIC NOT NULL,
        price       NUMERIC,
        source      TEXT NOT NULL CHECK (source IN ('broker', 'fifo')),
        PRIMARY KEY (account_id, seq)
      )`);
    await runner.query(`CREATE INDEX open_lots_user_idx ON open_lots (user_id, symbol)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE open_lots`);
  }
}
