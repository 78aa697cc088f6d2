import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Positions among siblings in O(√n) instead of O(n) (issue 5: a reorder among 10,000 siblings walked
 * up to 10,000 index entries to find the keys at its index, and a page's position was a count of the
 * siblings before it).
 *
 * The active siblings of one place (team, project, parent; -1 for the root), in sort_key order, are cut
 * into blocks of consecutive keys: a block starts at its `lower_key` ('' for the first) and runs to the
 * next block's, and `size` is how many active siblings it holds. The rank of a key is then the sizes of
 * the blocks before its own plus a walk inside that block (at most BLOCK_MAX entries), and the key at an
 * index is found the same way.
 *
 * Statement-level triggers on pages keep the blocks exact whatever writes pages (the API, imports, the
 * CLI, a hand-written UPDATE): each statement's rows that left or joined a place are counted out of and
 * into their blocks, then the places it touched are tidied: a block under BLOCK_MIN joins a neighbour,
 * a block over BLOCK_MAX is cut into blocks of about BLOCK_TARGET by walking its keys. Writers of one
 * project's pages are serialized (the API's project locks, the import's page locks), so a tidy walk
 * sees what the counts say.
 */
const BLOCK_TARGET = 100;
const BLOCK_MIN = 25;
const BLOCK_MAX = 200;

export class CountSiblingsInBlocks0000000000006 implements MigrationInterface {
  name = 'CountSiblingsInBlocks0000000000006';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE page_sibling_blocks (
        team_id    text NOT NULL,
        project_id text NOT NULL,
        parent_key bigint NOT NULL,
        lower_key  text COLLATE "C" NOT NULL,
        size       integer NOT NULL CHECK (size >= 0),
        PRIMARY KEY (team_id, project_id, parent_key, lower_key)
      );

      -- Cuts the block of one place that starts at lower into blocks of about ${BLOCK_TARGET}, from its keys.
      CREATE FUNCTION page_sibling_blocks_split(t text, pr text, pa bigint, lower text) RETURNS void LANGUAGE sql AS $$
        WITH upper AS (
          SELECT min(lower_key) AS k FROM page_sibling_blocks
           WHERE team_id = t AND project_id = pr AND parent_key = pa AND lower_key > lower
        ), keys AS (
          SELECT p.sort_key, row_number() OVER (ORDER BY p.sort_key) - 1 AS n, count(*) OVER () AS total
            FROM pages p, upper
           WHERE p.team_id = t AND p.project_id = pr AND COALESCE(p.parent_id, -1) = pa AND p.sort_key IS NOT NULL
             AND p.sort_key >= lower AND (upper.k IS NULL OR p.sort_key < upper.k)
        ), pieces AS (
          SELECT sort_key, n * ((total + ${BLOCK_TARGET - 1}) / ${BLOCK_TARGET}) / total AS piece FROM keys
        )
        INSERT INTO page_sibling_blocks (team_id, project_id, parent_key, lower_key, size)
        SELECT t, pr, pa, CASE WHEN piece = 0 THEN lower ELSE min(sort_key) END, count(*) FROM pieces GROUP BY piece
        ON CONFLICT (team_id, project_id, parent_key, lower_key) DO UPDATE SET size = EXCLUDED.size
      $$;

      -- Keeps the blocks of one place within bounds: none empty, none under ${BLOCK_MIN} but a lone one, none over ${BLOCK_MAX}.
      CREATE FUNCTION page_sibling_blocks_tidy(t text, pr text, pa bigint) RETURNS void LANGUAGE plpgsql AS $$
      DECLARE
        small record;
        neighbour record;
        large record;
      BEGIN
        LOOP
          SELECT lower_key, size INTO small FROM page_sibling_blocks
           WHERE team_id = t AND project_id = pr AND parent_key = pa AND size < ${BLOCK_MIN}
           ORDER BY lower_key LIMIT 1;
          EXIT WHEN NOT FOUND;
          IF small.lower_key = '' THEN
            -- The first block takes in the next one; alone, it stays unless it is empty.
            SELECT lower_key, size INTO neighbour FROM page_sibling_blocks
             WHERE team_id = t AND project_id = pr AND parent_key = pa AND lower_key > ''
             ORDER BY lower_key LIMIT 1;
            IF NOT FOUND THEN
              DELETE FROM page_sibling_blocks WHERE team_id = t AND project_id = pr AND parent_key = pa AND size = 0;
              EXIT;
            END IF;
            DELETE FROM page_sibling_blocks WHERE team_id = t AND project_id = pr AND parent_key = pa AND lower_key = neighbour.lower_key;
            UPDATE page_sibling_blocks SET size = size + neighbour.size
             WHERE team_id = t AND project_id = pr AND parent_key = pa AND lower_key = '';
          ELSE
            -- Any other block joins the one before it.
            DELETE FROM page_sibling_blocks WHERE team_id = t AND project_id = pr AND parent_key = pa AND lower_key = small.lower_key;
            UPDATE page_sibling_blocks SET size = size + small.size
             WHERE team_id = t AND project_id = pr AND parent_key = pa
               AND lower_key = (SELECT max(lower_key) FROM page_sibling_blocks
                                 WHERE team_id = t AND project_id = pr AND parent_key = pa AND lower_key < small.lower_key);
          END IF;
        END LOOP;
        FOR large IN
          SELECT lower_key FROM page_sibling_blocks WHERE team_id = t AND project_id = pr AND parent_key = pa AND size > ${BLOCK_MAX}
        LOOP
          PERFORM page_sibling_blocks_split(t, pr, pa, large.lower_key);
        END LOOP;
      END $$;

      -- One page leaving (-1) or joining (+1) the active siblings of a place, at sort_key.
      CREATE TYPE page_sibling_change AS (team_id text, project_id text, parent_key bigint, sort_key text COLLATE "C", delta int);

      -- Counts the changes out of and into their blocks (a place's first sibling makes its first block),
      -- then tidies the places whose blocks left their bounds.
      CREATE FUNCTION page_sibling_blocks_apply(changes page_sibling_change[]) RETURNS void LANGUAGE plpgsql AS $$
      DECLARE
        place record;
      BEGIN
        FOR place IN
          WITH per_block AS (
            SELECT c.team_id, c.project_id, c.parent_key, k.lower_key, sum(c.delta)::int AS delta
              FROM unnest(changes) c
             CROSS JOIN LATERAL (
               SELECT max(x.lower_key) AS lower_key FROM page_sibling_blocks x
                WHERE x.team_id = c.team_id AND x.project_id = c.project_id AND x.parent_key = c.parent_key AND x.lower_key <= c.sort_key
             ) k
             GROUP BY 1, 2, 3, 4
          ), created AS (
            INSERT INTO page_sibling_blocks (team_id, project_id, parent_key, lower_key, size)
            SELECT team_id, project_id, parent_key, '', delta FROM per_block WHERE lower_key IS NULL
            RETURNING team_id, project_id, parent_key, size
          ), updated AS (
            UPDATE page_sibling_blocks b SET size = b.size + d.delta
              FROM per_block d
             WHERE d.lower_key IS NOT NULL AND d.delta <> 0
               AND b.team_id = d.team_id AND b.project_id = d.project_id AND b.parent_key = d.parent_key AND b.lower_key = d.lower_key
            RETURNING b.team_id, b.project_id, b.parent_key, b.size
          )
          SELECT DISTINCT team_id, project_id, parent_key FROM (SELECT * FROM created UNION ALL SELECT * FROM updated) s
           WHERE size < ${BLOCK_MIN} OR size > ${BLOCK_MAX}
        LOOP
          PERFORM page_sibling_blocks_tidy(place.team_id, place.project_id, place.parent_key);
        END LOOP;
      END $$;

      -- The trigger: the rows of one statement that left a place (old_rows) or joined one (new_rows).
      CREATE FUNCTION page_sibling_blocks_sync() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        changes page_sibling_change[];
      BEGIN
        IF TG_OP = 'INSERT' THEN
          SELECT array_agg((team_id, project_id, COALESCE(parent_id, -1), sort_key, 1)::page_sibling_change) INTO changes
            FROM new_rows WHERE sort_key IS NOT NULL;
        ELSIF TG_OP = 'DELETE' THEN
          SELECT array_agg((team_id, project_id, COALESCE(parent_id, -1), sort_key, -1)::page_sibling_change) INTO changes
            FROM old_rows WHERE sort_key IS NOT NULL;
        ELSE
          WITH moved AS (
            SELECT o.team_id, o.project_id AS old_project, COALESCE(o.parent_id, -1) AS old_parent, o.sort_key AS old_key,
                   n.project_id AS new_project, COALESCE(n.parent_id, -1) AS new_parent, n.sort_key AS new_key
              FROM old_rows o JOIN new_rows n ON n.team_id = o.team_id AND n.id = o.id
             WHERE (o.project_id, o.parent_id, o.sort_key) IS DISTINCT FROM (n.project_id, n.parent_id, n.sort_key)
          )
          SELECT array_agg(c) INTO changes FROM (
            SELECT (team_id, old_project, old_parent, old_key, -1)::page_sibling_change AS c FROM moved WHERE old_key IS NOT NULL
            UNION ALL
            SELECT (team_id, new_project, new_parent, new_key, 1)::page_sibling_change FROM moved WHERE new_key IS NOT NULL
          ) s;
        END IF;
        IF changes IS NOT NULL THEN
          PERFORM page_sibling_blocks_apply(changes);
        END IF;
        RETURN NULL;
      END $$;

      CREATE TRIGGER pages_sibling_blocks_insert AFTER INSERT ON pages
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION page_sibling_blocks_sync();
      CREATE TRIGGER pages_sibling_blocks_update AFTER UPDATE ON pages
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION page_sibling_blocks_sync();
      CREATE TRIGGER pages_sibling_blocks_delete AFTER DELETE ON pages
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION page_sibling_blocks_sync();

      CREATE FUNCTION page_sibling_blocks_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM page_sibling_blocks;
        RETURN NULL;
      END $$;
      CREATE TRIGGER pages_sibling_blocks_truncate AFTER TRUNCATE ON pages
        FOR EACH STATEMENT EXECUTE FUNCTION page_sibling_blocks_truncate();

      -- The pages already there: one block per place, then cut.
      INSERT INTO page_sibling_blocks (team_id, project_id, parent_key, lower_key, size)
      SELECT team_id, project_id, COALESCE(parent_id, -1), '', count(*) FROM pages WHERE sort_key IS NOT NULL GROUP BY 1, 2, 3;
      SELECT page_sibling_blocks_split(team_id, project_id, parent_key, '') FROM page_sibling_blocks WHERE size > ${BLOCK_MAX};
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DROP TRIGGER pages_sibling_blocks_truncate ON pages;
      DROP TRIGGER pages_sibling_blocks_delete ON pages;
      DROP TRIGGER pages_sibling_blocks_update ON pages;
      DROP TRIGGER pages_sibling_blocks_insert ON pages;
      DROP FUNCTION page_sibling_blocks_truncate();
      DROP FUNCTION page_sibling_blocks_sync();
      DROP FUNCTION page_sibling_blocks_apply(page_sibling_change[]);
      DROP TYPE page_sibling_change;
      DROP FUNCTION page_sibling_blocks_tidy(text, text, bigint);
      DROP FUNCTION page_sibling_blocks_split(text, text, bigint, text);
      DROP TABLE page_sibling_blocks;
    `);
  }
}
