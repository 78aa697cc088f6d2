import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every statement that changes tokens or members (an API instance, the CLI, an import, a hand-written
 * UPDATE) notifies channel `auth_changed` when it commits, so the instances that cache token lookups
 * (src/auth/token-cache.ts) drop what they cached. Statement-level: one notification per statement,
 * and PostgreSQL folds identical ones within a transaction.
 */
export class NotifyAuthChanges0000000000005 implements MigrationInterface {
  name = 'NotifyAuthChanges0000000000005';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE FUNCTION notify_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('auth_changed', TG_TABLE_NAME);
        RETURN NULL;
      END $$;

      CREATE TRIGGER tokens_notify_auth_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tokens
        FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_changed();
      CREATE TRIGGER members_notify_auth_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON members
        FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_changed();
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DROP TRIGGER members_notify_auth_changed ON members;
      DROP TRIGGER tokens_notify_auth_changed ON tokens;
      DROP FUNCTION notify_auth_changed();
    `);
  }
}
