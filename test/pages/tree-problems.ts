import type { SqlText } from '../support/sql-text';

/** Deeper than any tree a spec builds: a walk up that gets this far went round a cycle. */
const DEEPEST = 200;

/**
 * Everything wrong with one workspace's page tree: a cycle, an active page out of order (no key) or
 * under an archived parent, a subpage in another project than its parent, an archive root still in
 * the tree, a page archived with a root that its parent was not archived with.
 */
export async function treeProblems(db: SqlText, teamId: string): Promise<string[]> {
  const rows = await db.query<{ problem: string }>(
    `WITH RECURSIVE page AS (
       SELECT p.id, p.project_id, p.parent_id, p.sort_key, a.archive_root_id, a.page_id IS NOT NULL AS archived
         FROM pages p LEFT JOIN page_archives a ON a.team_id = p.team_id AND a.page_id = p.id
        WHERE p.team_id = $1
     ), up AS (
       SELECT id AS start, parent_id, 1 AS depth FROM page
       UNION ALL
       SELECT up.start, page.parent_id, up.depth + 1 FROM up JOIN page ON page.id = up.parent_id
        WHERE up.depth < ${DEEPEST}
     ), link AS (
       SELECT c.*, parent.project_id AS parent_project_id, parent.archived AS parent_archived,
              parent.archive_root_id AS parent_archive_root_id
         FROM page c JOIN page parent ON parent.id = c.parent_id
     )
     SELECT format('page %s is its own ancestor', start) AS problem FROM up WHERE depth = ${DEEPEST}
     UNION ALL
     SELECT format('active page %s has no sort key', id) FROM page WHERE NOT archived AND sort_key IS NULL
     UNION ALL
     SELECT format('archive root %s is still in the tree', id) FROM page
      WHERE archive_root_id = id AND (parent_id IS NOT NULL OR sort_key IS NOT NULL)
     UNION ALL
     SELECT format('page %s was archived with %s but has no parent', id, archive_root_id) FROM page
      WHERE archive_root_id <> id AND parent_id IS NULL
     UNION ALL
     SELECT format('page %s is in project %s, its parent %s in %s', id, project_id, parent_id, parent_project_id)
       FROM link WHERE project_id <> parent_project_id
     UNION ALL
     SELECT format('active page %s is under archived page %s', id, parent_id) FROM link
      WHERE NOT archived AND parent_archived
     UNION ALL
     SELECT format('page %s was archived with %s, its parent %s with %s',
                   id, archive_root_id, parent_id, parent_archive_root_id)
       FROM link
      WHERE archived AND archive_root_id <> id AND parent_archive_root_id IS DISTINCT FROM archive_root_id`,
    [teamId],
  );
  return rows.map((row) => row.problem);
}
