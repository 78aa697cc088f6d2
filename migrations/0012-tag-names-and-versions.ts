import { MigrationInterface, QueryRunner } from 'typeorm';
import { SIMPLE_LOWERCASE_FUNCTIONS } from './simple-lowercase';
import { TAG_NAME_KEYS } from './tag-name-keys';

/**
 * Tags get a version (their ETag) and names unique ignoring case within their scope (tag-name-keys.ts),
 * case ignored by simple_lowercase, the same on every PostgreSQL from 15 whatever the database's locale.
 * Databases whose 0012 keyed names with lower() under pg_c_utf8 (17 and later only) are moved here by 0021.
 */
export class TagNamesAndVersions0000000000012 implements MigrationInterface {
  name = 'TagNamesAndVersions0000000000012';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE tags ADD COLUMN version bigint NOT NULL DEFAULT 1`);
    for (const statement of [...SIMPLE_LOWERCASE_FUNCTIONS, ...TAG_NAME_KEYS]) await db.query(statement);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DROP INDEX tags_name_order;
      DROP INDEX tags_project_name_key;
      DROP INDEX tags_workspace_name_key;
      ALTER TABLE tags DROP COLUMN name_key, DROP COLUMN version;
      DROP FUNCTION simple_lowercase(text);
      DROP FUNCTION simple_lowercase_by_table(text);
    `);
  }
}
