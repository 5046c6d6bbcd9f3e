import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A user may hold several brokerage accounts (an import names them: the account number a file carries
 * or the upload's `account` field). The profile's account is the default one: the account the Schwab
 * endpoint imports into and the profile renames. Numbers are unique per user.
 */
export class SeveralBrokerageAccounts1763870000000 implements MigrationInterface {
  name = 'SeveralBrokerageAccounts1763870000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE brokerage_accounts ADD COLUMN is_default BOOLEAN NOT NULL DEFAULT false`);
    await runner.query(`UPDATE brokerage_accounts SET is_default = true`);
    await runner.query(`ALTER TABLE brokerage_accounts DROP CONSTRAINT brokerage_accounts_user_id_key`);
    await runner.query(`CREATE UNIQUE INDEX brokerage_accounts_default_key ON brokerage_accounts (user_id) WHERE is_default`);
    await runner.query(`ALTER TABLE brokerage_accounts ADD CONSTRAINT brokerage_accounts_number_key UNIQUE (user_id, account_number)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DELETE FROM brokerage_accounts WHERE NOT is_default`);
    await runner.query(`ALTER TABLE brokerage_accounts DROP CONSTRAINT brokerage_accounts_number_key`);
    await runner.query(`DROP INDEX brokerage_accounts_default_key`);
    await runner.query(`ALTER TABLE brokerage_accounts ADD CONSTRAINT brokerage_accounts_user_id_key UNIQUE (user_id)`);
    await runner.query(`ALTER TABLE brokerage_accounts DROP COLUMN is_default`);
  }
}
