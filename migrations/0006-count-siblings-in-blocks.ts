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
 * Statement triggers on pages keep the blocks exact whatever writes pages (the API, imports, the CLI,
 * a hand-written UPDATE): the statement's pages that left or joined a place (from its transition
 * tables) are counted out of and into their blocks, each block written once (nothing when a page stays
 * in its block); then the places the statement left out of bounds (a partial index finds them) are
 * tidied: an empty block goes, a block under BLOCK_MIN (but the first) joins the one before it, a
 * block over BLOCK_MAX is cut into blocks of about BLOCK_TARGET by walking its keys. Writers of one
 * project's pages are serialized (the API's project locks, the import's page locks), so a tidy walk
 * sees what the counts say.
 */
const BLOCK_TARGET = 100;
/** A block holds BLOCK_MIN to BLOCK_MAX siblings; a place's first block may hold fewer. */
export const BLOCK_MIN = 25;
export const BLOCK_MAX = 200;
/**
 * A block a statement left out of bounds; the partial index and the query that finds them must say
 * it alike.
 */
export const OUT_OF_BOUNDS = `size = 0 OR (size < ${BLOCK_MIN} AND lower_key <> '') OR size > ${BLOCK_MAX}`;

/** The pages of a statement that joined a place (new_rows: its transition table), as changes of +1. */
const JOINED = `SELECT team_id, project_id, COALESCE(parent_id, -1) AS parent_key, sort_key, 1 AS delta
                  FROM new_rows WHERE sort_key IS NOT NULL`;
/** The pages of a statement that left a place (old_rows), as changes of -1. */
export const LEFT = `SELECT team_id, project_id, COALESCE(parent_id, -1) AS parent_key, sort_key, -1 AS delta
                FROM old_rows WHERE sort_key IS NOT NULL`;
/**
 * The pages of an UPDATE: -1 where they were, +1 where they are; a page that stayed in its block
 * cancels out. No join of old_rows with new_rows: PL/pgSQL keeps the plan of a statement's first run,
 * and a join planned for one row runs as a nested loop over ten thousand.
 */
export const MOVED = `${LEFT} UNION ALL ${JOINED}`;
/** An UPDATE of one page that left its project, parent and key as they were (a title change, say). */
export const ONE_PAGE_STAYED = `
  (SELECT count(*) FROM new_rows) = 1
  AND NOT EXISTS (SELECT 1 FROM old_rows o, new_rows n
                   WHERE (o.project_id, o.parent_id, o.sort_key)
                         IS DISTINCT FROM (n.project_id, n.parent_id, n.sort_key))`;

/**
 * A statement trigger function that counts one statement's \`changes\` (a query over its transition
 * tables) into their blocks, set-wise: each block is written once per statement, however many of its
 * pages the statement moved (one UPDATE per row would write a block's row thousands of times in an
 * import, each write walking the versions before it). A place's first sibling makes its first block.
 * `first`: statements run before anything else.
 */
export function countingTrigger(
  name: string,
  changes: string,
  nothingToCount = `NOT EXISTS (${changes})`,
  first = '',
): string {
  return `
      CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN${first}
        IF ${nothingToCount} THEN
          RETURN NULL;
        END IF;
        INSERT INTO page_sibling_blocks (team_id, project_id, parent_key, lower_key, size)
        SELECT DISTINCT c.team_id, c.project_id, c.parent_key, '', 0 FROM (${changes}) c
         WHERE c.delta > 0
           AND NOT EXISTS (SELECT 1 FROM page_sibling_blocks b
                            WHERE b.team_id = c.team_id AND b.project_id = c.project_id AND b.parent_key = c.parent_key)
        ON CONFLICT DO NOTHING;
        UPDATE page_sibling_blocks b SET size = b.size + d.delta
          FROM (SELECT team_id, project_id, parent_key, lower_key, sum(delta)::int AS delta
                  FROM (SELECT c.*, (SELECT max(x.lower_key) FROM page_sibling_blocks x
                                      WHERE x.team_id = c.team_id AND x.project_id = c.project_id
                                        AND x.parent_key = c.parent_key
                                        AND x.lower_key <= c.sort_key) AS lower_key
                          FROM (${changes}) c) blocked
                 GROUP BY 1, 2, 3, 4) d
         WHERE d.delta <> 0 AND b.team_id = d.team_id AND b.project_id = d.project_id
           AND b.parent_key = d.parent_key AND b.lower_key = d.lower_key;
        PERFORM page_sibling_blocks_tidy_out_of_bounds();
        RETURN NULL;
      END $$;`;
}

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

      -- Brings the blocks of one place back within bounds: no empty block, none under ${BLOCK_MIN} but the first,
      -- none over ${BLOCK_MAX}.
      CREATE FUNCTION page_sibling_blocks_tidy(t text, pr text, pa bigint) RETURNS void LANGUAGE plpgsql AS $$
      DECLARE
        small record;
        neighbour record;
        large record;
      BEGIN
        LOOP
          SELECT lower_key, size INTO small FROM page_sibling_blocks
           WHERE team_id = t AND project_id = pr AND parent_key = pa
             AND (size = 0 OR (size < ${BLOCK_MIN} AND lower_key <> ''))
           ORDER BY lower_key LIMIT 1;
          EXIT WHEN NOT FOUND;
          IF small.lower_key = '' THEN
            -- The first block is empty: the next one becomes the first, or the place has no siblings left.
            SELECT lower_key, size INTO neighbour FROM page_sibling_blocks
             WHERE team_id = t AND project_id = pr AND parent_key = pa AND lower_key > ''
             ORDER BY lower_key LIMIT 1;
            IF NOT FOUND THEN
              DELETE FROM page_sibling_blocks WHERE team_id = t AND project_id = pr AND parent_key = pa;
              EXIT;
            END IF;
            DELETE FROM page_sibling_blocks
             WHERE team_id = t AND project_id = pr AND parent_key = pa AND lower_key = neighbour.lower_key;
            UPDATE page_sibling_blocks SET size = neighbour.size
             WHERE team_id = t AND project_id = pr AND parent_key = pa AND lower_key = '';
          ELSE
            -- Any other block joins the one before it.
            DELETE FROM page_sibling_blocks
             WHERE team_id = t AND project_id = pr AND parent_key = pa AND lower_key = small.lower_key;
            UPDATE page_sibling_blocks SET size = size + small.size
             WHERE team_id = t AND project_id = pr AND parent_key = pa
               AND lower_key = (SELECT max(lower_key) FROM page_sibling_blocks
                                 WHERE team_id = t AND project_id = pr AND parent_key = pa
                                   AND lower_key < small.lower_key);
          END IF;
        END LOOP;
        FOR large IN
          SELECT lower_key FROM page_sibling_blocks
           WHERE team_id = t AND project_id = pr AND parent_key = pa AND size > ${BLOCK_MAX}
        LOOP
          PERFORM page_sibling_blocks_split(t, pr, pa, large.lower_key);
        END LOOP;
      END $$;

      -- The blocks a statement left out of bounds (nearly always none), for the statement trigger to find at once.
      CREATE INDEX page_sibling_blocks_untidy ON page_sibling_blocks (team_id, project_id, parent_key)
       WHERE ${OUT_OF_BOUNDS};

      -- Tidies every place the statement left out of bounds (found through the partial index above).
      CREATE FUNCTION page_sibling_blocks_tidy_out_of_bounds() RETURNS void LANGUAGE plpgsql AS $$
      DECLARE
        place record;
      BEGIN
        FOR place IN
          SELECT DISTINCT team_id, project_id, parent_key FROM page_sibling_blocks
           WHERE ${OUT_OF_BOUNDS}
        LOOP
          PERFORM page_sibling_blocks_tidy(place.team_id, place.project_id, place.parent_key);
        END LOOP;
      END $$;

      ${countingTrigger('page_sibling_blocks_inserted', JOINED)}
      ${countingTrigger('page_sibling_blocks_deleted', LEFT)}
      ${countingTrigger('page_sibling_blocks_updated', MOVED, ONE_PAGE_STAYED)}

      CREATE TRIGGER pages_sibling_blocks_insert AFTER INSERT ON pages
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION page_sibling_blocks_inserted();
      CREATE TRIGGER pages_sibling_blocks_update AFTER UPDATE ON pages
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION page_sibling_blocks_updated();
      CREATE TRIGGER pages_sibling_blocks_delete AFTER DELETE ON pages
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION page_sibling_blocks_deleted();

      CREATE FUNCTION page_sibling_blocks_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM page_sibling_blocks;
        RETURN NULL;
      END $$;
      CREATE TRIGGER pages_sibling_blocks_truncate AFTER TRUNCATE ON pages
        FOR EACH STATEMENT EXECUTE FUNCTION page_sibling_blocks_truncate();

      -- The pages already there: one block per place, then cut.
      INSERT INTO page_sibling_blocks (team_id, project_id, parent_key, lower_key, size)
      SELECT team_id, project_id, COALESCE(parent_id, -1), '', count(*) FROM pages
       WHERE sort_key IS NOT NULL GROUP BY 1, 2, 3;
      SELECT page_sibling_blocks_split(team_id, project_id, parent_key, '') FROM page_sibling_blocks
       WHERE size > ${BLOCK_MAX};
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DROP TRIGGER pages_sibling_blocks_truncate ON pages;
      DROP TRIGGER pages_sibling_blocks_delete ON pages;
      DROP TRIGGER pages_sibling_blocks_update ON pages;
      DROP TRIGGER pages_sibling_blocks_insert ON pages;
      DROP FUNCTION page_sibling_blocks_truncate();
      DROP FUNCTION page_sibling_blocks_deleted();
      DROP FUNCTION page_sibling_blocks_updated();
      DROP FUNCTION page_sibling_blocks_inserted();
      DROP FUNCTION page_sibling_blocks_tidy_out_of_bounds();
      DROP FUNCTION page_sibling_blocks_tidy(text, text, bigint);
      DROP FUNCTION page_sibling_blocks_split(text, text, bigint, text);
      DROP TABLE page_sibling_blocks;
    `);
  }
}
