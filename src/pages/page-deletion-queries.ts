import { retireIds } from '../database/id-counters';
import { statement } from '../database/statement';
import { recursively, writeStatement } from '../write-path/write-statement';
import { PROJECT_LOCK } from './page-queries';

/**
 * CTE body `doomed`: page :pageId and its whole subtree, active and archived: its children, and the
 * archived pages whose archiving took them out from under one of its pages (they left the tree, not
 * the subtree); with each page's project and depth.
 */
const DOOMED = `
  SELECT p.id, p.project_id, 0 AS depth FROM pages p WHERE p.team_id = :teamId AND p.id = :pageId
  UNION ALL
  SELECT k.id, k.project_id, d.depth + 1
    FROM doomed d
    JOIN LATERAL (
      SELECT c.id, c.project_id FROM pages c WHERE c.team_id = :teamId AND c.parent_id = d.id
      UNION ALL
      SELECT x.id, x.project_id
        FROM page_archives a JOIN pages x ON x.team_id = :teamId AND x.id = a.page_id
       WHERE a.team_id = :teamId AND a.former_parent_id = d.id AND a.archive_root_id = a.page_id
    ) k ON true`;

/**
 * The first statement of a delete: the advisory locks of every project the page's subtree lies in
 * (read before locking; DELETE_PAGE checks it again), in the one order every tree writer takes them;
 * none when there is no such page.
 */
export const LOCK_SUBTREE_PROJECTS = statement<{ teamId: string; pageId: string }, { locked_projects: string[] }>(
  'lock_subtree_projects',
  `WITH RECURSIVE doomed AS (${DOOMED}),
   locked AS MATERIALIZED (
     SELECT COALESCE(array_agg(k), '{}') AS projects
       FROM (SELECT k, ${PROJECT_LOCK('k')} AS taken
               FROM (SELECT k FROM (SELECT DISTINCT project_id FROM doomed) named(k)
                      ORDER BY k COLLATE "C" OFFSET 0) in_order) each_lock
   )
   SELECT projects AS locked_projects FROM locked`,
);

export interface DeletePageParams {
  teamId: string;
  callerId: string;
  actor: string;
  pageId: string;
  /** The projects whose locks the transaction holds. */
  lockedProjects: string[];
}

/** A row of DELETE_PAGE. */
export interface DeletedPageRow {
  page_id: string;
  /** The pages deleted, the page first; empty when nothing was. */
  deleted_page_ids: string[];
  /** The subtree reaches a project whose lock the transaction does not hold: nothing was deleted. */
  stale: boolean;
}

/**
 * Deletes a page and its whole subtree for good, in one statement, with the row lock of the page
 * (`target`): their members, bookmarks, watchers, comments and archive records go with them (ON DELETE
 * CASCADE), the sibling blocks close the gap (migration 0006's triggers), their ids are retired; the
 * answer (204) is kept under the key and page.deleted announced. Nothing happens when the subtree
 * reaches a project that is not locked (it moved there since the locks were taken): the caller starts over.
 */
export const DELETE_PAGE = writeStatement<DeletePageParams, DeletedPageRow>('delete_page', {
  target: `SELECT p.id FROM pages p WHERE p.team_id = :teamId AND p.id = :pageId FOR UPDATE OF p`,
  reads: {
    doomed: recursively('doomed', DOOMED),
    unlocked: `SELECT EXISTS (SELECT 1 FROM doomed d WHERE d.project_id <> ALL (:lockedProjects::text[])) AS stale`,
  },
  plan: `
    SELECT t.id, now() AS now FROM target t, unlocked u WHERE NOT u.stale`,
  changes: {
    deleted: `
      DELETE FROM pages x
       WHERE x.team_id = :teamId AND x.id = ANY (ARRAY(SELECT d.id FROM doomed d)) AND EXISTS (SELECT 1 FROM planned)
      RETURNING x.id`,
    retired: retireIds('page', 'deleted'),
  },
  result: `
    SELECT :pageId::text AS page_id,
           ARRAY(SELECT x.id::text FROM deleted x JOIN doomed d ON d.id = x.id
                  ORDER BY d.depth, x.id) AS deleted_page_ids,
           (SELECT u.stale FROM unlocked u) AS stale`,
  keep: { status: 204, succeeded: 'cardinality(r.deleted_page_ids) > 0' },
  event: `
    SELECT 'page.deleted' AS type, 'page' AS resource_type, r.page_id AS resource_id, :actor::jsonb AS actor,
           jsonb_build_object('page_id', r.page_id, 'deleted_page_ids', r.deleted_page_ids) AS resource,
           NULL::jsonb AS previous
      FROM result r WHERE cardinality(r.deleted_page_ids) > 0`,
});
