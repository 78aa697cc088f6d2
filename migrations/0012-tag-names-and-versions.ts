import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tags get a version (their ETag) and names unique ignoring case within their scope: among the
 * workspace-wide tags, and among one project's tags, so that the database, not the process, decides
 * which of two concurrent creates of "Bug" and "bug" wins. Case is folded with the built-in
 * pg_c_utf8 collation (PostgreSQL 17+), which maps every Unicode letter whatever the database's locale.
 * Names already taken twice get the later tag's id appended, since the index could not be built otherwise.
 * The third index serves the list of every tag, ordered by name ignoring case, then id.
 */
export class TagNamesAndVersions0000000000012 implements MigrationInterface {
  name = 'TagNamesAndVersions0000000000012';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE tags ADD COLUMN version bigint NOT NULL DEFAULT 1;

      UPDATE tags t SET name = left(t.name, 200) || ' (' || t.id || ')', version = t.version + 1
        FROM (SELECT team_id, id, row_number() OVER (
                PARTITION BY team_id, project_id, lower(name COLLATE pg_c_utf8) ORDER BY id) AS n
                FROM tags) d
       WHERE t.team_id = d.team_id AND t.id = d.id AND d.n > 1;

      CREATE UNIQUE INDEX tags_workspace_name_key ON tags (team_id, lower(name COLLATE pg_c_utf8))
        WHERE project_id IS NULL;
      CREATE UNIQUE INDEX tags_project_name_key ON tags (team_id, project_id, lower(name COLLATE pg_c_utf8))
        WHERE project_id IS NOT NULL;
      CREATE INDEX tags_name_order ON tags (team_id, lower(name COLLATE pg_c_utf8), id);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DROP INDEX tags_name_order;
      DROP INDEX tags_project_name_key;
      DROP INDEX tags_workspace_name_key;
      ALTER TABLE tags DROP COLUMN version;
    `);
  }
}
