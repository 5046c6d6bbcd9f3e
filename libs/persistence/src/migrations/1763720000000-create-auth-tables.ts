import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The auth context: server-side sessions, pending sign-ins (OAuth state) and each user's brokerage
 * account. Tokens and state values are stored as SHA-256 hashes only.
 */
export class CreateAuthTables1763720000000 implements MigrationInterface {
  name = 'CreateAuthTables1763720000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE sessions (
        id            TEXT PRIMARY KEY,
        user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
        last_seen_at  TIMESTAMPTZ NOT NULL,
        expires_at    TIMESTAMPTZ NOT NULL
      )`);
    await runner.query(`CREATE INDEX sessions_user_id_idx ON sessions (user_id)`);
    await runner.query(`CREATE INDEX sessions_expires_at_idx ON sessions (expires_at)`);

    await runner.query(`
      CREATE TABLE sign_in_attempts (
        id             TEXT PRIMARY KEY,
        nonce          TEXT,
        code_verifier  TEXT NOT NULL,
        created_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
        expires_at     TIMESTAMPTZ NOT NULL
      )`);
    await runner.query(`CREATE INDEX sign_in_attempts_expires_at_idx ON sign_in_attempts (expires_at)`);

    await runner.query(`
      CREATE TABLE brokerage_accounts (
        id              SERIAL PRIMARY KEY,
        user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        account_number  TEXT NOT NULL,
        created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
        updated_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
        CONSTRAINT brokerage_accounts_user_id_key UNIQUE (user_id),
        CONSTRAINT brokerage_accounts_account_number_not_blank CHECK (btrim(account_number) <> '')
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE brokerage_accounts`);
    await runner.query(`DROP TABLE sign_in_attempts`);
    await runner.query(`DROP TABLE sessions`);
  }
}
