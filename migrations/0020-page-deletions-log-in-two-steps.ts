import { MigrationInterface, QueryRunner } from 'typeorm';
import { DELETIONS_NEEDED } from './0017-subtree-deletes-set-wise';

/**
 * Migration 0017's deletions log, the same rows written in two steps: the deleted pages the log needs are
 * read first (nearly always none), then written. Citus cannot plan an INSERT from a recursive query
 * (docs/citus.md); a recursive SELECT, then an INSERT of its rows, it can.
 */
export class PageDeletionsLogInTwoSteps0000000000020 implements MigrationInterface {
  name = 'PageDeletionsLogInTwoSteps0000000000020';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE OR REPLACE FUNCTION page_deletions_log() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        moves jsonb;
      BEGIN
        ${DELETIONS_NEEDED}
        SELECT jsonb_agg(m) INTO moves
          FROM (SELECT team_id, id AS page_id, project_id AS old_project_id, COALESCE(parent_id, -1) AS old_parent_key,
                       sort_key AS old_sort_key, created_xid AS deleted_created_xid FROM needed) m;
        IF moves IS NOT NULL THEN
          INSERT INTO page_moves (team_id, page_id, old_project_id, old_parent_key, old_sort_key, deleted_created_xid)
          SELECT team_id, page_id, old_project_id, old_parent_key, old_sort_key, deleted_created_xid
            FROM jsonb_populate_recordset(NULL::page_moves, moves);
        END IF;
        RETURN NULL;
      END $$`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE OR REPLACE FUNCTION page_deletions_log() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO page_moves (team_id, page_id, old_project_id, old_parent_key, old_sort_key, deleted_created_xid)
        ${DELETIONS_NEEDED}
        SELECT team_id, id, project_id, COALESCE(parent_id, -1), sort_key, created_xid FROM needed;
        RETURN NULL;
      END $$`);
  }
}
