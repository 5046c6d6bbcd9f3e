import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Triggers that announce, after commit, changes to rows that instances keep copies of (NOTIFY is
 * transactional: a rolled-back change announces nothing): a session row (sign-out, touch, expiry,
 * any SQL) on `session_changes` with its id; a user's e-mail or name on `user_changes` (a deleted user's sessions go with it) with the user's
 * id; a user's report version on `report_version_changes` with the user's id. Each instance LISTENs
 * and forgets its copy.
 */
export class NotifySharedRowChanges1763780000000 implements MigrationInterface {
  name = 'NotifySharedRowChanges1763780000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE FUNCTION notify_session_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('session_changes', OLD.id);
        RETURN NULL;
      END $$`);
    await runner.query(`
      CREATE TRIGGER sessions_notify_change AFTER UPDATE OR DELETE ON sessions
      FOR EACH ROW EXECUTE FUNCTION notify_session_change()`);

    await runner.query(`
      CREATE FUNCTION notify_user_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('user_changes', OLD.id::text);
        RETURN NULL;
      END $$`);
    await runner.query(`
      CREATE TRIGGER users_notify_change AFTER UPDATE ON users
      FOR EACH ROW WHEN (OLD.email IS DISTINCT FROM NEW.email OR OLD.name IS DISTINCT FROM NEW.name)
      EXECUTE FUNCTION notify_user_change()`);

    await runner.query(`
      CREATE FUNCTION notify_report_version_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('report_version_changes', NEW.user_id::text);
        RETURN NULL;
      END $$`);
    await runner.query(`
      CREATE TRIGGER report_versions_notify_change AFTER INSERT OR UPDATE ON report_versions
      FOR EACH ROW EXECUTE FUNCTION notify_report_version_change()`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TRIGGER report_versions_notify_change ON report_versions`);
    await runner.query(`DROP FUNCTION notify_report_version_change()`);
    await runner.query(`DROP TRIGGER users_notify_change ON users`);
    await runner.query(`DROP FUNCTION notify_user_change()`);
    await runner.query(`DROP TRIGGER sessions_notify_change ON sessions`);
    await runner.query(`DROP FUNCTION notify_session_change()`);
  }
}
