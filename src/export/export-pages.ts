import { EntityManager } from 'typeorm';
import { PageEntry } from '../import/dto/page-entry.dto';
import { named } from '../database/named-parameters';
import { RobotsDirective } from '../pages/page-options';

interface PageRow extends Omit<PageEntry, 'parent_page_id' | 'public_settings'> {
  parent_page_id: string | null;
  public_url: string | null;
  public_robots: RobotsDirective[];
}

/**
 * The workspace's pages in tree pre-order (parent first, siblings by sort key, archived subtrees
 * after the active children of the page they were archived from), so that importing the list
 * rebuilds the same trees. An archive root whose former parent is gone or now in another project
 * comes out at its project's root.
 */
export async function exportPages(tx: EntityManager, teamId: string): Promise<PageEntry[]> {
  const rows: PageRow[] = await tx.query(
    ...named(
      `SELECT p.team_id, p.id::text AS id, p.project_id, COALESCE(p.parent_id, fp.id)::text AS parent_page_id,
            p.title, p.owner_id,
            a.page_id IS NOT NULL AS archived, p.alias_id, p.font, p.icon, p.cover_image, p.content, p.is_public,
            p.public_url, p.public_robots, p.hide_table_of_contents, p.hide_subpages,
            COALESCE((SELECT json_agg(json_build_object('user_id', m.user_id, 'role', m.role)
                                      ORDER BY m.assigned_at, m.user_id)
                        FROM page_members m WHERE m.team_id = :teamId AND m.page_id = p.id), '[]') AS members,
            ARRAY(SELECT b.user_id FROM page_bookmarks b
                   WHERE b.team_id = :teamId AND b.page_id = p.id ORDER BY b.user_id) AS bookmarked_by,
            ARRAY(SELECT w.user_id FROM page_watchers w
                   WHERE w.team_id = :teamId AND w.page_id = p.id ORDER BY w.user_id) AS watched_by,
            COALESCE((SELECT json_agg(json_build_object('id', c.id, 'user_id', c.user_id, 'text', c.text)
                                      ORDER BY c.time_created, c.id)
                        FROM page_comments c WHERE c.team_id = :teamId AND c.page_id = p.id), '[]') AS comments
       FROM pages p
       LEFT JOIN page_archives a ON a.team_id = :teamId AND a.page_id = p.id
       LEFT JOIN pages fp ON p.parent_id IS NULL AND fp.team_id = :teamId AND fp.id = a.former_parent_id
                         AND fp.project_id = p.project_id
      WHERE p.team_id = :teamId
      ORDER BY p.project_id, p.sort_key COLLATE "C" NULLS LAST, a.time_archived, p.id`,
      { teamId },
    ),
  );
  return preOrder(rows).map(({ team_id, id, project_id, parent_page_id, public_url, public_robots, ...page }) => ({
    team_id,
    id,
    project_id,
    parent_page_id: parent_page_id ?? '',
    ...page,
    public_settings: { url: public_url, robots: public_robots },
  }));
}

/** Parents before children, keeping the rows' order among siblings; nothing is dropped. */
function preOrder(rows: PageRow[]): PageRow[] {
  const children = new Map<string | null, PageRow[]>();
  for (const row of rows) children.set(row.parent_page_id, [...(children.get(row.parent_page_id) ?? []), row]);
  const ordered: PageRow[] = [];
  const seen = new Set<string>();
  const visit = (row: PageRow) => {
    if (seen.has(row.id)) return;
    seen.add(row.id);
    ordered.push(row);
    for (const child of children.get(row.id) ?? []) visit(child);
  };
  for (const root of children.get(null) ?? []) visit(root);
  // Only a cycle in the stored tree leaves pages unreached; they come out at the root rather than not at all.
  for (const row of rows) if (!seen.has(row.id)) visit({ ...row, parent_page_id: null });
  return ordered;
}
