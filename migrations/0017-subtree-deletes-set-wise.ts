import { MigrationInterface, QueryRunner } from 'typeorm';
import { countingTrigger, LEFT } from './0006-count-siblings-in-blocks';

/** A table that hangs off pages: its rows name a page by (team_id, <column>) and go with it. */
interface Dependent {
  table: string;
  column: string;
  /** The foreign key this migration replaces (the name PostgreSQL gave it in migrations 0003 and 0015). */
  constraint: string;
}

const DEPENDENTS: Dependent[] = [
  { table: 'page_archives', column: 'page_id', constraint: 'page_archives_team_id_page_id_fkey' },
  { table: 'page_archives', column: 'archive_root_id', constraint: 'page_archives_team_id_archive_root_id_fkey' },
  { table: 'page_members', column: 'page_id', constraint: 'page_members_team_id_page_id_fkey' },
  { table: 'page_bookmarks', column: 'page_id', constraint: 'page_bookmarks_team_id_page_id_fkey' },
  { table: 'page_watchers', column: 'page_id', constraint: 'page_watchers_team_id_page_id_fkey' },
  { table: 'page_comments', column: 'page_id', constraint: 'page_comments_team_id_page_id_fkey' },
  { table: 'public_page_aliases', column: 'page_id', constraint: 'public_page_aliases_team_id_page_id_fkey' },
];

const TABLES = [...new Set(DEPENDENTS.map((d) => d.table))];
const columnsOf = (table: string) => DEPENDENTS.filter((d) => d.table === table).map((d) => d.column);

/**
 * The rows of `table` naming one of the statement's deleted pages (old_rows) by `column`. LATERAL with
 * OFFSET 0 keeps each lookup an index probe whatever plan the trigger's first run fixed (see 0006).
 */
const namingDeleted = (table: string, column: string) => `
          SELECT x.ctid FROM old_rows o CROSS JOIN LATERAL (
            SELECT t.ctid FROM ${table} t WHERE t.team_id = o.team_id AND t.${column} = o.id OFFSET 0) x`;

/** Deletes the rows of every dependent table that name a deleted page: what ON DELETE CASCADE did, set-wise. */
const DELETE_DEPENDENTS = `
  CREATE FUNCTION page_dependents_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN${TABLES.map(
    (table) => `
    DELETE FROM ${table} WHERE ctid = ANY (ARRAY(${columnsOf(table)
      .map((column) => namingDeleted(table, column))
      .join(' UNION ALL ')}));`,
  ).join('')}
    RETURN NULL;
  END $$;
  CREATE TRIGGER pages_dependents_delete AFTER DELETE ON pages
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION page_dependents_deleted();`;

/**
 * What the foreign key checked on the dependent's side: every row written names a page that exists, which
 * it locks FOR KEY SHARE as the key's check did, so a concurrent delete of the page waits for this
 * transaction, or this statement sees the page gone and fails. The locking subquery is not pulled up into
 * a join, so it stays one index probe per written row.
 */
const checkFunction = (table: string) => `
  CREATE FUNCTION ${table}_page_check() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    orphan record;
  BEGIN
    SELECT n.team_id, ${columnsOf(table)
      .map((column) => `n.${column}`)
      .join(', ')} INTO orphan FROM new_rows n
     WHERE ${columnsOf(table)
       .map(
         (column) =>
           `NOT EXISTS (SELECT 1 FROM pages p WHERE p.team_id = n.team_id AND p.id = n.${column} FOR KEY SHARE OF p)`,
       )
       .join(' OR ')}
     LIMIT 1;
    IF FOUND THEN
      RAISE EXCEPTION 'a row of ${table} names a page that does not exist: %', row_to_json(orphan)
        USING ERRCODE = 'foreign_key_violation', TABLE = '${table}';
    END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER ${table}_page_insert AFTER INSERT ON ${table}
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${table}_page_check();
  CREATE TRIGGER ${table}_page_update AFTER UPDATE ON ${table}
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${table}_page_check();`;

/** The foreign key refused changing a referenced page's key; nothing changes a page's key, and this keeps it so. */
const KEEP_PAGE_KEYS = `
  CREATE FUNCTION page_key_unchanged() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    RAISE EXCEPTION 'a page''s team_id and id never change (page %)', OLD.id USING ERRCODE = 'foreign_key_violation';
  END $$;
  CREATE TRIGGER pages_key_unchanged BEFORE UPDATE OF team_id, id ON pages
    FOR EACH ROW WHEN (OLD.team_id IS DISTINCT FROM NEW.team_id OR OLD.id IS DISTINCT FROM NEW.id)
    EXECUTE FUNCTION page_key_unchanged();`;

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
    WITH RECURSIVE needed AS (
      SELECT o.team_id, o.id, o.project_id, o.parent_id, o.sort_key, o.created_xid FROM old_rows o
       WHERE EXISTS (SELECT 1 FROM page_moves m
                      WHERE m.team_id = o.team_id AND m.old_project_id = o.project_id AND m.old_parent_key = o.id
                        AND m.old_sort_key IS NOT NULL)
      UNION
      SELECT o.team_id, o.id, o.project_id, o.parent_id, o.sort_key, o.created_xid
        FROM needed n JOIN old_rows o ON o.team_id = n.team_id AND o.id = n.parent_id
    )
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
 * Deleting a page with 100 descendants spent most of its time in per-row triggers: 7 cascading foreign keys
 * fired once per deleted page each (707 lookups through the trigger machinery), and the sibling blocks of
 * every emptied place were counted down and tidied one place at a time. The cascades become one statement
 * trigger (one DELETE per dependent table), the dependents' side of the keys statement triggers that check
 * and lock the named pages as the keys did, and emptied places lose their blocks at once. The pages' own
 * parent key stays a foreign key. And deletions join the page list's move log (LOG_DELETIONS).
 */
export class SubtreeDeletesSetWise0000000000017 implements MigrationInterface {
  name = 'SubtreeDeletesSetWise0000000000017';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ${DEPENDENTS.map((d) => `ALTER TABLE ${d.table} DROP CONSTRAINT ${d.constraint};`).join('\n')}
      ${DELETE_DEPENDENTS}
      ${TABLES.map(checkFunction).join('\n')}
      ${KEEP_PAGE_KEYS}
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
      DROP TRIGGER pages_key_unchanged ON pages; DROP FUNCTION page_key_unchanged();
      ${TABLES.map(
        (t) =>
          `DROP TRIGGER ${t}_page_update ON ${t}; DROP TRIGGER ${t}_page_insert ON ${t};
           DROP FUNCTION ${t}_page_check();`,
      ).join('\n')}
      DROP TRIGGER pages_dependents_delete ON pages; DROP FUNCTION page_dependents_deleted();
      ${DEPENDENTS.map(
        (d) =>
          `ALTER TABLE ${d.table} ADD CONSTRAINT ${d.constraint}
             FOREIGN KEY (team_id, ${d.column}) REFERENCES pages (team_id, id) ON DELETE CASCADE;`,
      ).join('\n')}
    `);
  }
}
