import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the built-in development identity provider (oidc-provider) keeps between the steps of a
 * sign-in: interactions, authorization codes, grants, its own sessions. In the service's database
 * instead of the provider's memory, so a restart in the middle of a sign-in does not lose it and
 * every instance behind a balancer sees the same.
 */
export class IdentityProviderState1763810000000 implements MigrationInterface {
  name = 'IdentityProviderState1763810000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE identity_provider_state (
        model TEXT NOT NULL,
        id TEXT NOT NULL,
        payload JSONB NOT NULL,
        grant_id TEXT,
        uid TEXT,
        user_code TEXT,
        expires_at TIMESTAMPTZ,
        PRIMARY KEY (model, id)
      )`);
    await runner.query('CREATE INDEX identity_provider_state_grant ON identity_provider_state (grant_id) WHERE grant_id IS NOT NULL');
    await runner.query('CREATE INDEX identity_provider_state_uid ON identity_provider_state (uid) WHERE uid IS NOT NULL');
    await runner.query('CREATE INDEX identity_provider_state_expiry ON identity_provider_state (expires_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE identity_provider_state');
  }
}
