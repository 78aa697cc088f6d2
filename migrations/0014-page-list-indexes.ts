import { MigrationInterface, QueryRunner } from 'typeorm';

/** How long a page list's tree cursor serves (src/pages/page-list.ts); the move log keeps an hour more. */
export const CURSOR_HOURS = 24;

/**
 * What the page list needs (docs/page-list.md): the keyset orders no index had yet (archived pages
 * newest archive first, recently changed pages newest change first), and what lets a tree walk see
 * the tree as of its first answer: each page's creating transaction, and a log of every change of a
 * page's place (project, parent, sort key) with the transaction that made it and the place it left.
 * Statement triggers keep the log whatever writes pages (the API, the import, a hand-written UPDATE).
 */
export class PageListIndexes0000000000014 implements MigrationInterface {
  name = 'PageListIndexes0000000000014';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE INDEX page_archives_time_idx ON page_archives (team_id, time_archived DESC, page_id DESC);
      CREATE INDEX pages_time_updated_idx ON pages (team_id, time_updated DESC, id DESC);

      ALTER TABLE pages ADD COLUMN created_xid xid8 NOT NULL DEFAULT pg_current_xact_id();

      CREATE TABLE page_moves (
        team_id        text NOT NULL,
        id             bigint GENERATED ALWAYS AS IDENTITY,
        page_id        bigint NOT NULL,
        xid            xid8 NOT NULL DEFAULT pg_current_xact_id(),
        old_project_id text NOT NULL,
        old_parent_key bigint NOT NULL,
        old_sort_key   text COLLATE "C",
        time_moved     timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (team_id, id)
      );
      CREATE INDEX page_moves_page_idx ON page_moves (team_id, page_id, id);
      CREATE INDEX page_moves_place_idx ON page_moves (team_id, old_project_id, old_parent_key, old_sort_key)
       WHERE old_sort_key IS NOT NULL;
      CREATE INDEX page_moves_time_idx ON page_moves (time_moved);

      -- A set difference rather than a join of old_rows and new_rows: its plan does not depend on how many rows
      -- the statement's first run had (see migration 0006).
      CREATE FUNCTION page_moves_log() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO page_moves (team_id, page_id, old_project_id, old_parent_key, old_sort_key)
        SELECT team_id, id, project_id, COALESCE(parent_id, -1), sort_key
          FROM (SELECT team_id, id, project_id, parent_id, sort_key FROM old_rows
                EXCEPT
                SELECT team_id, id, project_id, parent_id, sort_key FROM new_rows) moved;
        -- A walk's cursor lives ${CURSOR_HOURS} h; older moves serve none. A few at a time: no write pays for many.
        IF FOUND THEN
          DELETE FROM page_moves WHERE ctid = ANY (ARRAY(
            SELECT ctid FROM page_moves WHERE time_moved < now() - interval '${CURSOR_HOURS + 1} hours' LIMIT 100));
        END IF;
        RETURN NULL;
      END $$;
      CREATE TRIGGER page_moves_log AFTER UPDATE ON pages
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION page_moves_log();
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DROP TRIGGER page_moves_log ON pages; DROP FUNCTION page_moves_log(); DROP TABLE page_moves;
      ALTER TABLE pages DROP COLUMN created_xid;
      DROP INDEX pages_time_updated_idx; DROP INDEX page_archives_time_idx;
    `);
  }
}
