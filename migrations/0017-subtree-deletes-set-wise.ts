import { MigrationInterface, QueryRunner } from 'typeorm';
import { countingTrigger, LEFT } from './0006-count-siblings-in-blocks';

/**
 * The statement's deleted pages that had a place, each marked `parent_gone` when its parent was deleted
 * too. Set-wise (a window over both roles of each id, sorted), not a join: its plan does not depend on the
 * size of the trigger's first run (see 0006).
 */
const DELETED_PLACES = `
  SELECT team_id, project_id, parent_key, sort_key, -1 AS delta, parent_gone
    FROM (SELECT r.*, bool_or(r.is_parent) OVER (PARTITION BY r.team_id, r.parent_key) AS parent_gone
            FROM (SELECT team_id, project_id, id AS parent_key, NULL::text COLLATE "C" AS sort_key, true AS is_parent
                    FROM old_rows
                  UNION ALL
                  SELECT team_id, project_id, COALESCE(parent_id, -1), sort_key, false FROM old_rows
                   WHERE sort_key IS NOT NULL) r) places
   WHERE NOT is_parent`;

/**
 * The places under a deleted page went with it (the parent's foreign key refuses a statement that leaves a
 * child behind): their blocks are deleted by key, instead of being counted down to empty and tidied one
 * place at a time. Only the pages whose parent stays are counted.
 */
const DROP_VACATED_PLACES = `
        DELETE FROM page_sibling_blocks WHERE ctid = ANY (ARRAY(
          SELECT b.ctid FROM (SELECT DISTINCT team_id, project_id, parent_key FROM (${DELETED_PLACES}) d
                               WHERE d.parent_gone) v
           CROSS JOIN LATERAL (
            SELECT x.ctid FROM page_sibling_blocks x
             WHERE x.team_id = v.team_id AND x.project_id = v.project_id AND x.parent_key = v.parent_key
            OFFSET 0) b));`;
const LEFT_PLACES_THAT_STAY = `
  SELECT team_id, project_id, parent_key, sort_key, delta FROM (${DELETED_PLACES}) d WHERE NOT d.parent_gone`;

/**
 * CTE `needed`: the statement's deleted pages the move log needs (LOG_DELETIONS).
 */
export const DELETIONS_NEEDED = `
    WITH RECURSIVE needed AS (
      SELECT o.team_id, o.id, o.project_id, o.parent_id, o.sort_key, o.created_xid FROM old_rows o
       WHERE EXISTS (SELECT 1 FROM page_moves m
                      WHERE m.team_id = o.team_id AND m.old_project_id = o.project_id AND m.old_parent_key = o.id
                        AND m.old_sort_key IS NOT NULL)
      UNION
      SELECT o.team_id, o.id, o.project_id, o.parent_id, o.sort_key, o.created_xid
        FROM needed n JOIN old_rows o ON o.team_id = n.team_id AND o.id = n.parent_id
    )`;

/**
 * The page list's walk reads the tree as of its first answer (docs/page-list.md, migration 0014's move log):
 * a deleted page that a walk must still step through is logged like a move to nowhere, with its creating
 * transaction, so that the pages moved out from under it meanwhile are found where they were. Only those:
 * a deleted page some logged move left from (a page moved out from under it), and the deleted pages above
 * it; nearly always none, so a delete pays one index probe per page, not a log row.
 */
const LOG_DELETIONS = `
  ALTER TABLE page_moves ADD COLUMN deleted_created_xid xid8;
  CREATE FUNCTION page_deletions_log() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO page_moves (team_id, page_id, old_project_id, old_parent_key, old_sort_key, deleted_created_xid)
    ${DELETIONS_NEEDED}
    SELECT team_id, id, project_id, COALESCE(parent_id, -1), sort_key, created_xid FROM needed;
    RETURN NULL;
  END $$;
  CREATE TRIGGER page_deletions_log AFTER DELETE ON pages
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION page_deletions_log();`;

const siblingBlocksDeleteTrigger = (changes: string, first = '') => `
  DROP TRIGGER pages_sibling_blocks_delete ON pages;
  DROP FUNCTION page_sibling_blocks_deleted();
  ${countingTrigger('page_sibling_blocks_deleted', changes, undefined, first)}
  CREATE TRIGGER pages_sibling_blocks_delete AFTER DELETE ON pages
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION page_sibling_blocks_deleted();`;

/**
 * Deleting a page with 100 descendants counted the sibling blocks of every emptied place down and tidied
 * them one place at a time: emptied places now lose their blocks at once. The foreign keys to pages stay:
 * their cascades cost a lookup per deleted page and table, but they are PostgreSQL's own integrity, and
 * Citus keeps foreign keys between colocated tables. And deletions join the page list's move log
 * (LOG_DELETIONS).
 */
export class SubtreeDeletesSetWise0000000000017 implements MigrationInterface {
  name = 'SubtreeDeletesSetWise0000000000017';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ${siblingBlocksDeleteTrigger(LEFT_PLACES_THAT_STAY, DROP_VACATED_PLACES)}
      ${LOG_DELETIONS}
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DROP TRIGGER page_deletions_log ON pages; DROP FUNCTION page_deletions_log();
      DELETE FROM page_moves WHERE deleted_created_xid IS NOT NULL;
      ALTER TABLE page_moves DROP COLUMN deleted_created_xid;
      ${siblingBlocksDeleteTrigger(LEFT)}
    `);
  }
}
