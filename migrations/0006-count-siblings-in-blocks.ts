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
 * Triggers on pages keep the blocks exact whatever writes pages (the API, imports, the CLI, a
 * hand-written UPDATE): a row trigger counts each page that leaves or joins a place out of or into its
 * block (nothing when it stays in its block), and a statement trigger then tidies the places the
 * statement left out of bounds (a partial index finds them): an empty block goes, a block under
 * BLOCK_MIN (but the first) joins the one before it, a block over BLOCK_MAX is cut into blocks of about
 * BLOCK_TARGET by walking its keys. Writers of one project's pages are serialized (the API's project
 * locks, the import's page locks), so a tidy walk sees what the counts say.
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
           WHERE team_id = t AND project_id = pr AND parent_key = pa AND (size = 0 OR (size < ${BLOCK_MIN} AND lower_key <> ''))
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
            DELETE FROM page_sibling_blocks WHERE team_id = t AND project_id = pr AND parent_key = pa AND lower_key = neighbour.lower_key;
            UPDATE page_sibling_blocks SET size = neighbour.size WHERE team_id = t AND project_id = pr AND parent_key = pa AND lower_key = '';
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

      -- The blocks a statement left out of bounds (nearly always none), for the statement trigger to find at once.
      CREATE INDEX page_sibling_blocks_untidy ON page_sibling_blocks (team_id, project_id, parent_key)
       WHERE size = 0 OR (size < ${BLOCK_MIN} AND lower_key <> '') OR size > ${BLOCK_MAX};

      -- The start of the block of a place that holds key k.
      CREATE FUNCTION page_sibling_block_of(t text, pr text, pa bigint, k text) RETURNS text LANGUAGE sql STABLE AS $$
        SELECT max(lower_key) FROM page_sibling_blocks WHERE team_id = t AND project_id = pr AND parent_key = pa AND lower_key <= k
      $$;

      -- Row trigger: counts a page out of the block it left and into the block it joined (a place's first
      -- sibling makes its first block). It only counts: the statement trigger tidies, once every row is counted.
      CREATE FUNCTION page_sibling_blocks_count() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        left_block text;
        joined_block text;
      BEGIN
        IF TG_OP <> 'INSERT' AND OLD.sort_key IS NOT NULL THEN
          left_block := page_sibling_block_of(OLD.team_id, OLD.project_id, COALESCE(OLD.parent_id, -1), OLD.sort_key);
        END IF;
        IF TG_OP <> 'DELETE' AND NEW.sort_key IS NOT NULL THEN
          joined_block := page_sibling_block_of(NEW.team_id, NEW.project_id, COALESCE(NEW.parent_id, -1), NEW.sort_key);
        END IF;
        IF TG_OP = 'UPDATE' AND left_block = joined_block AND (OLD.project_id, COALESCE(OLD.parent_id, -1)) = (NEW.project_id, COALESCE(NEW.parent_id, -1)) THEN
          RETURN NULL;
        END IF;
        IF left_block IS NOT NULL THEN
          UPDATE page_sibling_blocks SET size = size - 1
           WHERE team_id = OLD.team_id AND project_id = OLD.project_id AND parent_key = COALESCE(OLD.parent_id, -1) AND lower_key = left_block;
        END IF;
        IF TG_OP <> 'DELETE' AND NEW.sort_key IS NOT NULL THEN
          INSERT INTO page_sibling_blocks AS b (team_id, project_id, parent_key, lower_key, size)
          VALUES (NEW.team_id, NEW.project_id, COALESCE(NEW.parent_id, -1), COALESCE(joined_block, ''), 1)
          ON CONFLICT (team_id, project_id, parent_key, lower_key) DO UPDATE SET size = b.size + 1;
        END IF;
        RETURN NULL;
      END $$;

      -- Statement trigger: tidies every place the statement left out of bounds.
      CREATE FUNCTION page_sibling_blocks_tidy_all() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        place record;
      BEGIN
        FOR place IN
          SELECT DISTINCT team_id, project_id, parent_key FROM page_sibling_blocks
           WHERE size = 0 OR (size < ${BLOCK_MIN} AND lower_key <> '') OR size > ${BLOCK_MAX}
        LOOP
          PERFORM page_sibling_blocks_tidy(place.team_id, place.project_id, place.parent_key);
        END LOOP;
        RETURN NULL;
      END $$;

      CREATE TRIGGER pages_sibling_blocks_insert AFTER INSERT ON pages
        FOR EACH ROW WHEN (NEW.sort_key IS NOT NULL) EXECUTE FUNCTION page_sibling_blocks_count();
      CREATE TRIGGER pages_sibling_blocks_update AFTER UPDATE OF project_id, parent_id, sort_key ON pages
        FOR EACH ROW WHEN ((OLD.project_id, OLD.parent_id, OLD.sort_key) IS DISTINCT FROM (NEW.project_id, NEW.parent_id, NEW.sort_key))
        EXECUTE FUNCTION page_sibling_blocks_count();
      CREATE TRIGGER pages_sibling_blocks_delete AFTER DELETE ON pages
        FOR EACH ROW WHEN (OLD.sort_key IS NOT NULL) EXECUTE FUNCTION page_sibling_blocks_count();
      CREATE TRIGGER pages_sibling_blocks_tidy AFTER INSERT OR UPDATE OF project_id, parent_id, sort_key OR DELETE ON pages
        FOR EACH STATEMENT EXECUTE FUNCTION page_sibling_blocks_tidy_all();

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
      DROP TRIGGER pages_sibling_blocks_tidy ON pages;
      DROP TRIGGER pages_sibling_blocks_delete ON pages;
      DROP TRIGGER pages_sibling_blocks_update ON pages;
      DROP TRIGGER pages_sibling_blocks_insert ON pages;
      DROP FUNCTION page_sibling_blocks_truncate();
      DROP FUNCTION page_sibling_blocks_tidy_all();
      DROP FUNCTION page_sibling_blocks_count();
      DROP FUNCTION page_sibling_block_of(text, text, bigint, text);
      DROP FUNCTION page_sibling_blocks_tidy(text, text, bigint);
      DROP FUNCTION page_sibling_blocks_split(text, text, bigint, text);
      DROP TABLE page_sibling_blocks;
    `);
  }
}
