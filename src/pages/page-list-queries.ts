import { statement } from '../database/statement';
import { PAGE_VIEW, PageRow } from './page-queries';

/**
 * The statements of GET /pages (docs/page-list.md). Each reads one keyset order and stops after
 * :limit rows (one more than an answer, to tell whether anything follows); none uses OFFSET.
 */

/** A list row: a page as PageRow shows it, without content (a PageSummary shows none). */
const SUMMARY = PAGE_VIEW('NULL::int', undefined, `''::text AS content`);

/** Only pages that list the caller as a member, when :guest. */
const VISIBLE = `(NOT :guest::boolean OR EXISTS (
  SELECT 1 FROM page_members m WHERE m.team_id = :teamId AND m.page_id = p.id AND m.user_id = :callerId))`;

/** Where a walk stands: the project, and the ids and sort keys of the last page and its ancestors, root first. */
export interface WalkPath {
  projectId: string | null;
  pathIds: string[];
  pathKeys: string[];
}

export interface TreeWalkParams extends WalkPath {
  teamId: string;
  /** The snapshot of the walk's first answer (pg_snapshot text); null: this is the first. */
  snapshot: string | null;
  /** Only this project (the walk does not go on to the next). */
  onlyProject: boolean;
  steps: number;
  callerId: string;
}

export interface WalkedPageRow extends PageRow {
  /** False for a step through a page archived or deleted since the walk's first answer (its other columns null). */
  listed: boolean;
  snapshot: string;
  walk_project: string;
  path_ids: string[];
  path_keys: string[];
}

/** The walk's snapshot. */
const SNAPSHOT = '(SELECT s FROM snap)';
/** A move of page `id` (migration 0014) that the walk's snapshot does not see. */
const UNSEEN_MOVE = (m: string, id: string) =>
  `${m}.team_id = :teamId AND ${m}.page_id = ${id} AND NOT pg_visible_in_snapshot(${m}.xid, ${SNAPSHOT})`;

/**
 * The first page under (project, parent) after a key, in the tree as of the walk's snapshot: a page
 * there now that has not moved since, or a page that was there then (the place its first move since
 * left, a deletion being a move to nowhere: migration 0017). A page made since is in neither. The walk
 * steps through a page archived or deleted since, for the pages that were under it, but does not list it.
 */
const FIRST_AS_OF_SNAPSHOT = (project: string, parent: string, after: string) => `(
  SELECT x.id, x.sort_key FROM (
    (SELECT c.id, c.sort_key FROM pages c
      WHERE c.team_id = :teamId AND c.project_id = ${project} AND COALESCE(c.parent_id, -1) = ${parent}
        AND c.sort_key IS NOT NULL AND c.sort_key > ${after} AND pg_visible_in_snapshot(c.created_xid, ${SNAPSHOT})
        AND NOT EXISTS (SELECT 1 FROM page_moves m WHERE ${UNSEEN_MOVE('m', 'c.id')})
      ORDER BY c.sort_key LIMIT 1)
    UNION ALL
    (SELECT m.page_id, m.old_sort_key FROM page_moves m
      WHERE m.team_id = :teamId AND m.old_project_id = ${project} AND m.old_parent_key = ${parent}
        AND m.old_sort_key IS NOT NULL AND m.old_sort_key > ${after} AND NOT pg_visible_in_snapshot(m.xid, ${SNAPSHOT})
        AND NOT EXISTS (SELECT 1 FROM page_moves e WHERE ${UNSEEN_MOVE('e', 'm.page_id')} AND e.id < m.id)
        AND (EXISTS (SELECT 1 FROM pages c WHERE c.team_id = :teamId AND c.id = m.page_id
                                            AND pg_visible_in_snapshot(c.created_xid, ${SNAPSHOT}))
             OR (SELECT true FROM page_moves g WHERE g.team_id = :teamId AND g.page_id = m.page_id
                                                 AND pg_visible_in_snapshot(g.deleted_created_xid, ${SNAPSHOT})
                  LIMIT 1))
      ORDER BY m.old_sort_key LIMIT 1)
  ) x ORDER BY x.sort_key LIMIT 1)`;

/**
 * The active pages in tree order after a path, in the tree as of the walk's first answer
 * (docs/page-list.md): each step is one probe (the first child of the last page; else the next
 * sibling of it or of its nearest ancestor that has one; else the first root page of the next
 * project), so an answer costs the same wherever it starts. The page is shown as it is now; a step
 * through a page archived or deleted since is a row with `listed` false.
 */
export const WALK_PAGE_TREE = statement<TreeWalkParams, WalkedPageRow>(
  'walk_page_tree',
  `
  WITH RECURSIVE snap AS (SELECT COALESCE(:snapshot::pg_snapshot, pg_current_snapshot()) AS s),
  walk (n, project_id, ids, keys) AS (
    SELECT 0, :projectId::text, :pathIds::bigint[], :pathKeys::text[] COLLATE "C"
    UNION ALL
    SELECT w.n + 1, next.project_id, next.ids, next.keys
      FROM walk w
     CROSS JOIN LATERAL (
       (SELECT w.project_id, w.ids || f.id, w.keys || f.sort_key::text
          FROM ${FIRST_AS_OF_SNAPSHOT('w.project_id', 'COALESCE(w.ids[cardinality(w.ids)], -1)', "''")} f)
       UNION ALL
       (SELECT w.project_id, w.ids[1:d.level - 1] || f.id, w.keys[1:d.level - 1] || f.sort_key::text
          FROM generate_series(cardinality(w.ids), 1, -1) d (level)
         CROSS JOIN LATERAL
               ${FIRST_AS_OF_SNAPSHOT('w.project_id', 'COALESCE(w.ids[d.level - 1], -1)', 'w.keys[d.level]')} f
         ORDER BY d.level DESC LIMIT 1)
       UNION ALL
       (SELECT pr.id, ARRAY[f.id], ARRAY[f.sort_key::text]
          FROM projects pr CROSS JOIN LATERAL ${FIRST_AS_OF_SNAPSHOT('pr.id', '-1', "''")} f
         WHERE NOT :onlyProject::boolean AND pr.team_id = :teamId AND pr.id > COALESCE(w.project_id, '')
         ORDER BY pr.id LIMIT 1)
       LIMIT 1
     ) next (project_id, ids, keys)
     WHERE w.n < :steps::int
  )
  SELECT (SELECT s FROM snap)::text AS snapshot, w.n, w.project_id AS walk_project, w.ids::text[] AS path_ids,
         w.keys AS path_keys, (p.id IS NOT NULL AND a.page_id IS NULL) AS listed, ${SUMMARY}
    FROM walk w
    LEFT JOIN pages p ON p.team_id = :teamId AND p.id = w.ids[cardinality(w.ids)]
    LEFT JOIN page_archives a ON a.team_id = :teamId AND a.page_id = p.id
   WHERE w.n > 0
   ORDER BY w.n`,
);

export interface ChildPagesParams {
  teamId: string;
  callerId: string;
  guest: boolean;
  projectId: string;
  /** The parent's id, -1 for the project's root. */
  parentKey: string;
  afterKey: string | null;
  limit: number;
}

export interface ChildPageRow extends PageRow {
  sort_key: string;
}

/** One parent's active children by position, after a sort key. */
export const LIST_CHILD_PAGES = statement<ChildPagesParams, ChildPageRow>(
  'list_child_pages',
  `
  SELECT p.sort_key::text AS sort_key, ${SUMMARY}
    FROM pages p
    LEFT JOIN page_archives a ON a.team_id = :teamId AND a.page_id = p.id
   WHERE p.team_id = :teamId AND p.project_id = :projectId AND COALESCE(p.parent_id, -1) = :parentKey::bigint
     AND p.sort_key IS NOT NULL AND (:afterKey::text IS NULL OR p.sort_key > (:afterKey::text COLLATE "C"))
     AND ${VISIBLE}
   ORDER BY p.sort_key
   LIMIT :limit::int`,
);

/** The filters of the lists ordered by a time: null where not asked. */
export interface TimedListParams {
  teamId: string;
  callerId: string;
  guest: boolean;
  projectId: string | null;
  /** The parent's id, -1 for the root (an archived page: where it was), null for any. */
  parentKey: string | null;
  /** The last row of the answer before: its time (µs since the epoch) and id. */
  afterMicros: string | null;
  afterId: string | null;
  limit: number;
}

const TIMED_FILTERS = `
  (:projectId::text IS NULL OR p.project_id = :projectId::text)
  AND (:parentKey::bigint IS NULL OR COALESCE(p.parent_id, a.former_parent_id, -1) = :parentKey::bigint)
  AND ${VISIBLE}`;

const micros = (column: string) => `(extract(epoch FROM ${column}) * 1000000)::bigint`;
const fromMicros = (param: string) => `('epoch'::timestamptz + ${param}::bigint * interval '1 microsecond')`;

export interface TimedPageRow extends PageRow {
  order_micros: string;
}

/** Archived pages, newest archive first. */
export const LIST_ARCHIVED_PAGES = statement<TimedListParams, TimedPageRow>(
  'list_archived_pages',
  `
  SELECT ${micros('a.time_archived')}::text AS order_micros, ${SUMMARY}
    FROM page_archives a
    JOIN pages p ON p.team_id = :teamId AND p.id = a.page_id
   WHERE a.team_id = :teamId AND ${TIMED_FILTERS}
     AND (:afterMicros::bigint IS NULL
          OR (a.time_archived, a.page_id) < (${fromMicros(':afterMicros')}, :afterId::bigint))
   ORDER BY a.time_archived DESC, a.page_id DESC
   LIMIT :limit::int`,
);

export interface RecentListParams extends TimedListParams {
  archived: boolean;
  /** Changed at or after this time (µs since the epoch); null: seven days before now. */
  sinceMicros: string | null;
}

export interface RecentPageRow extends TimedPageRow {
  since_micros: string;
}

/** Pages changed since a time, newest change first, active or archived. */
export const LIST_RECENT_PAGES = statement<RecentListParams, RecentPageRow>(
  'list_recent_pages',
  `
  SELECT ${micros('p.time_updated')}::text AS order_micros, since.micros::text AS since_micros, ${SUMMARY}
    FROM (SELECT COALESCE(:sinceMicros::bigint, ${micros("now() - interval '7 days'")}) AS micros) since
    JOIN pages p ON p.team_id = :teamId AND p.time_updated >= ${fromMicros('since.micros')}
    LEFT JOIN page_archives a ON a.team_id = :teamId AND a.page_id = p.id
   WHERE (a.page_id IS NOT NULL) = :archived::boolean AND ${TIMED_FILTERS}
     AND (:afterMicros::bigint IS NULL
          OR (p.time_updated, p.id) < (${fromMicros(':afterMicros')}, :afterId::bigint))
   ORDER BY p.time_updated DESC, p.id DESC
   LIMIT :limit::int`,
);

/** Whether the project and the parent a list names exist in the workspace (null: not asked). */
export const LIST_SCOPE = statement<
  { teamId: string; projectId: string | null; parentId: string | null },
  { project_found: boolean; parent_project: string | null }
>(
  'list_pages_scope',
  `
  SELECT EXISTS (SELECT 1 FROM projects pr WHERE pr.team_id = :teamId AND pr.id = :projectId::text) AS project_found,
         (SELECT pg.project_id FROM pages pg
           WHERE pg.team_id = :teamId AND pg.id = :parentId::bigint) AS parent_project`,
);
