import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The people who sign in; every other table hangs off a user. */
export class CreateUsers1763700000000 implements MigrationInterface {
  name = 'CreateUsers1763700000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE users (
        id          SERIAL PRIMARY KEY,
        email       TEXT NOT NULL,
        name        TEXT,
        created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
        last_login  TIMESTAMPTZ,
        CONSTRAINT users_email_lowercase CHECK (email = lower(email))
      )`);
    await runner.query(`CREATE UNIQUE INDEX users_email_key ON users (email)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE users`);
  }
}
