import { stimeSql } from '../common/stime';

/** Siblings of one parent in one project: -1 stands for the project root (see pages_sibling_order_key). */
const SAME_PLACE = (s: string, p: string) =>
  `${s}.team_id = ${p}.team_id AND ${s}.project_id = ${p}.project_id AND COALESCE(${s}.parent_id, -1) = COALESCE(${p}.parent_id, -1)`;

/** The blocks of page_sibling_blocks (migration 0006) that count the siblings of page `p`. */
const SAME_BLOCKS = (b: string, p: string) =>
  `${b}.team_id = ${p}.team_id AND ${b}.project_id = ${p}.project_id AND ${b}.parent_key = COALESCE(${p}.parent_id, -1)`;

/**
 * Everything a response shows of one page, for one caller, in one round trip.
 * $1 team_id, $2 page_id, $3 caller user_id, $4 its position when the caller knows it (else the
 * rank is counted: the sizes of the blocks before the page's own, then a walk inside it: O(√siblings)).
 */
export const READ_PAGE = `
  SELECT p.id::text, p.alias_id::text, p.title, p.font, p.icon, p.content, p.schema, p.project_id, p.standalone,
         p.cover_image, p.owner_id, p.created_by, p.updated_by, p.team_id, p.is_public, p.public_url, p.public_robots,
         p.hide_table_of_contents, p.hide_subpages, p.parent_id::text AS parent_id,
         ${stimeSql('p.time_created')}::float8 AS time_created,
         ${stimeSql('p.time_updated')}::float8 AS time_updated,
         COALESCE((
           SELECT json_agg(json_build_object('user_id', m.user_id, 'assigned_date', ${stimeSql('m.assigned_at')}, 'role', m.role)
                           ORDER BY m.assigned_at, m.user_id)
             FROM page_members m WHERE m.team_id = p.team_id AND m.page_id = p.id
         ), '[]') AS members,
         EXISTS (SELECT 1 FROM page_members m WHERE m.team_id = p.team_id AND m.page_id = p.id AND m.user_id = $3) AS caller_is_member,
         EXISTS (SELECT 1 FROM page_bookmarks b WHERE b.team_id = p.team_id AND b.page_id = p.id AND b.user_id = $3) AS is_bookmarked,
         EXISTS (SELECT 1 FROM page_watchers w WHERE w.team_id = p.team_id AND w.page_id = p.id AND w.user_id = $3) AS is_watching,
         (SELECT count(*) FROM page_comments c WHERE c.team_id = p.team_id AND c.page_id = p.id)::int AS total_comments,
         a.archived_by, ${stimeSql('a.time_archived')}::float8 AS time_archived, a.former_parent_id::text AS former_parent_id,
         CASE WHEN a.page_id IS NULL
              THEN COALESCE($4::int, (
                SELECT (SELECT COALESCE(sum(b.size), 0) FROM page_sibling_blocks b WHERE ${SAME_BLOCKS('b', 'p')} AND b.lower_key < mine.lower_key)
                     + (SELECT count(*) FROM pages s WHERE ${SAME_PLACE('s', 'p')} AND s.sort_key >= mine.lower_key AND s.sort_key < p.sort_key)
                  FROM (SELECT max(b.lower_key) AS lower_key FROM page_sibling_blocks b WHERE ${SAME_BLOCKS('b', 'p')} AND b.lower_key <= p.sort_key) mine
              )::int)
         END AS position
    FROM pages p
    LEFT JOIN page_archives a ON a.team_id = p.team_id AND a.page_id = p.id
   WHERE p.team_id = $1 AND p.id = $2`;

/**
 * What an update needs to know of a page before changing it. With FOR UPDATE appended, the row stays
 * locked until the transaction ends. $1 team_id, $2 page_id, $3 caller user_id.
 */
export const PAGE_STATE = `
  SELECT p.project_id, p.parent_id::text AS parent_id, p.sort_key, p.title, p.font, p.icon, p.cover_image, p.is_public,
         p.public_url, p.public_robots, p.hide_table_of_contents, p.hide_subpages,
         a.archive_root_id::text AS archive_root_id, a.former_parent_id::text AS former_parent_id,
         EXISTS (SELECT 1 FROM page_members m WHERE m.team_id = p.team_id AND m.page_id = p.id AND m.user_id = $3) AS caller_is_member
    FROM pages p
    LEFT JOIN page_archives a ON a.team_id = p.team_id AND a.page_id = p.id
   WHERE p.team_id = $1 AND p.id = $2`;

/**
 * A prospective parent: its project, whether it is archived, and whether the moving page is the
 * parent itself or one of its ancestors (a cycle), found by walking up from the parent: O(depth).
 * $1 team_id, $2 parent id, $3 moving page id.
 */
export const PARENT_STATE = `
  WITH RECURSIVE ancestry AS (
    SELECT id, parent_id FROM pages WHERE team_id = $1 AND id = $2
    UNION ALL
    SELECT p.id, p.parent_id FROM pages p JOIN ancestry up ON p.team_id = $1 AND p.id = up.parent_id
  )
  SELECT p.project_id,
         EXISTS (SELECT 1 FROM page_archives a WHERE a.team_id = p.team_id AND a.page_id = p.id) AS archived,
         EXISTS (SELECT 1 FROM ancestry WHERE id = $3) AS cycle
    FROM pages p
   WHERE p.team_id = $1 AND p.id = $2`;

/** $1 team_id, $2 project_id. */
export const PROJECT_EXISTS = `SELECT 1 FROM projects WHERE team_id = $1 AND id = $2`;

/**
 * The sort keys around index $5 among the active siblings under parent $3 (-1: root) of project $2,
 * leaving out page $4: the two from index $5 - 1, and the last (one step from the index's end). The
 * index is found in page_sibling_blocks (migration 0006): the block that holds it, counted without page
 * $4, then a walk inside that block. O(√siblings) rather than O(index).
 */
export const NEIGHBOUR_KEYS = `
  WITH me AS MATERIALIZED (
    SELECT sort_key FROM pages WHERE team_id = $1 AND id = $4 AND project_id = $2 AND COALESCE(parent_id, -1) = $3
  ), bounds AS (
    SELECT lower_key, size, lead(lower_key) OVER (ORDER BY lower_key) AS upper_key
      FROM page_sibling_blocks WHERE team_id = $1 AND project_id = $2 AND parent_key = $3
  ), blocks AS (
    SELECT b.lower_key, b.size - CASE WHEN me.sort_key >= b.lower_key AND (b.upper_key IS NULL OR me.sort_key < b.upper_key) THEN 1 ELSE 0 END AS size
      FROM bounds b LEFT JOIN me ON true
  ), target AS (
    SELECT lower_key, GREATEST($5::bigint - 1, 0) - (sum(size) OVER (ORDER BY lower_key) - size) AS offset_in_block,
           sum(size) OVER (ORDER BY lower_key) AS through
      FROM blocks
  ), chosen AS (
    SELECT lower_key, offset_in_block FROM target WHERE through > GREATEST($5::bigint - 1, 0) ORDER BY lower_key LIMIT 1
  )
  SELECT ARRAY(
           SELECT sort_key FROM pages
            WHERE team_id = $1 AND project_id = $2 AND COALESCE(parent_id, -1) = $3 AND sort_key IS NOT NULL AND id <> $4
              AND sort_key >= (SELECT lower_key FROM chosen)
            ORDER BY sort_key OFFSET (SELECT offset_in_block FROM chosen) LIMIT 2
         ) AS window,
         (SELECT sort_key FROM pages
           WHERE team_id = $1 AND project_id = $2 AND COALESCE(parent_id, -1) = $3 AND sort_key IS NOT NULL AND id <> $4
           ORDER BY sort_key DESC LIMIT 1) AS last`;

/** Every active sibling's id in order, page $4 left out; for the rare rebalancing of long keys. */
export const SIBLING_IDS = `
  SELECT id::text FROM pages
   WHERE team_id = $1 AND project_id = $2 AND COALESCE(parent_id, -1) = $3 AND sort_key IS NOT NULL AND id <> $4
   ORDER BY sort_key`;

/** Gives pages $2 (ids) the sort keys $3, in one statement. */
export const SET_SORT_KEYS = `
  UPDATE pages p SET sort_key = k.sort_key
    FROM unnest($2::bigint[], $3::text[]) AS k(id, sort_key)
   WHERE p.team_id = $1 AND p.id = k.id`;

/** The page $2 and every page below it, through parent links. */
const SUBTREE = `
  WITH RECURSIVE subtree AS (
    SELECT id FROM pages WHERE team_id = $1 AND id = $2
    UNION ALL
    SELECT c.id FROM pages c JOIN subtree s ON c.team_id = $1 AND c.parent_id = s.id
  )`;

/** Moves page $2 and its subpages to project $3. */
export const MOVE_SUBTREE_TO_PROJECT = `${SUBTREE}
  UPDATE pages SET project_id = $3 WHERE team_id = $1 AND id IN (SELECT id FROM subtree) AND project_id <> $3`;

/**
 * Archives page $2 and its subpages: each remembers its parent; the page itself leaves the tree.
 * $3 is the archiving user.
 */
export const ARCHIVE_SUBTREE = `${SUBTREE},
  archived AS (
    INSERT INTO page_archives (team_id, page_id, archive_root_id, former_parent_id, archived_by)
    SELECT p.team_id, p.id, $2, p.parent_id, $3 FROM pages p JOIN subtree s ON p.team_id = $1 AND p.id = s.id
    RETURNING page_id
  )
  UPDATE pages SET parent_id = NULL, sort_key = NULL WHERE team_id = $1 AND id = $2`;

/** Brings back page $2 and the pages below it that were archived with it ($3: their archive root). */
export const UNARCHIVE_SUBTREE = `
  WITH RECURSIVE restored AS (
    SELECT page_id AS id FROM page_archives WHERE team_id = $1 AND page_id = $2
    UNION ALL
    SELECT c.id FROM pages c
      JOIN restored r ON c.team_id = $1 AND c.parent_id = r.id
      JOIN page_archives a ON a.team_id = $1 AND a.page_id = c.id AND a.archive_root_id = $3
  )
  DELETE FROM page_archives WHERE team_id = $1 AND page_id IN (SELECT id FROM restored)`;
