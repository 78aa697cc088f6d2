import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The highest page and tag id each workspace has handed out or retired, so that the ids the service
 * assigns (src/database/id-counters.ts) are never reused after a delete. Starts at the highest id each
 * workspace holds now.
 */
export class IdCounters0000000000011 implements MigrationInterface {
  name = 'IdCounters0000000000011';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE id_counters (
        team_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        kind    text NOT NULL CHECK (kind IN ('page', 'tag')),
        last_id bigint NOT NULL CHECK (last_id >= 0),
        PRIMARY KEY (team_id, kind)
      );
      INSERT INTO id_counters (team_id, kind, last_id)
      SELECT team_id, 'page', max(id) FROM pages GROUP BY team_id
      UNION ALL
      SELECT team_id, 'tag', max(id) FROM tags GROUP BY team_id;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE id_counters`);
  }
}
