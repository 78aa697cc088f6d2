import { BLOCK_MAX, BLOCK_MIN } from '../../migrations/0006-count-siblings-in-blocks';
import type { SqlText } from '../support/sql-text';

/**
 * Everything wrong with the page_sibling_blocks of one workspace: a block whose size is not the number of
 * active siblings in its key range, a place whose blocks do not start at '', a place with siblings but
 * no block, a block out of bounds (an empty one: blocks with no siblings).
 */
export async function blockProblems(db: SqlText, teamId: string): Promise<string[]> {
  const rows = await db.query<{ problem: string }>(
    `WITH places AS (
       SELECT project_id, COALESCE(parent_id, -1) AS parent_key, count(*) AS siblings
         FROM pages WHERE team_id = $1 AND sort_key IS NOT NULL GROUP BY 1, 2
     ), blocks AS (
       SELECT b.*, lead(lower_key) OVER place AS upper_key, min(lower_key) OVER place AS first_key
         FROM page_sibling_blocks b WHERE team_id = $1
       WINDOW place AS (PARTITION BY project_id, parent_key ORDER BY lower_key
                        ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
     ), counted AS (
       SELECT b.*, (SELECT count(*) FROM pages p
                     WHERE p.team_id = $1 AND p.project_id = b.project_id AND COALESCE(p.parent_id, -1) = b.parent_key
                       AND p.sort_key IS NOT NULL AND p.sort_key >= b.lower_key
                       AND (b.upper_key IS NULL OR p.sort_key < b.upper_key)) AS actual
         FROM blocks b
     )
     SELECT format('block %s/%s/%L: size %s, holds %s', project_id, parent_key, lower_key, size, actual) AS problem
       FROM counted WHERE size <> actual
     UNION ALL
     SELECT format('place %s/%s: first block %L', project_id, parent_key, first_key) FROM counted
      WHERE first_key <> '' AND lower_key = first_key
     UNION ALL
     SELECT format('block %s/%s/%L: size %s', project_id, parent_key, lower_key, size) FROM counted
      WHERE size > ${BLOCK_MAX} OR size = 0 OR (size < ${BLOCK_MIN} AND lower_key <> '')
     UNION ALL
     SELECT format('place %s/%s: %s siblings, no block', p.project_id, p.parent_key, p.siblings) FROM places p
      WHERE NOT EXISTS (SELECT 1 FROM page_sibling_blocks b
                         WHERE b.team_id = $1 AND b.project_id = p.project_id AND b.parent_key = p.parent_key)`,
    [teamId],
  );
  return rows.map((row) => row.problem);
}
