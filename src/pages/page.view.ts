import { PageDto } from './dto/page.response';
import { PageRow } from './page-queries';

/** The contract's Page for one caller, plus where it sits (parent_page_id, position). */
export function toPageView(row: PageRow, collaborationToken: string, publicBaseUrl: string): PageDto {
  const archived = row.archived_by !== null;
  // The root of an archived subtree has left the tree; it shows where it was.
  const parentId = archived && row.parent_id === null ? row.former_parent_id : row.parent_id;
  return {
    id: row.id,
    alias_id: row.alias_id,
    title: row.title,
    font: row.font,
    ...(row.icon ? { icon: row.icon } : {}),
    content: row.content,
    schema: row.schema,
    collaboration: { token: collaborationToken },
    project_id: row.project_id,
    standalone: row.standalone,
    ...(row.cover_image ? { cover_image: row.cover_image } : {}),
    user_id: row.owner_id,
    user_id_updated: row.updated_by.user_id ?? '',
    user: row.created_by,
    user_updated: row.updated_by,
    team_id: row.team_id,
    time_created: row.time_created,
    time_updated: row.time_updated,
    // Field by field: a kept answer's row went through jsonb, which orders an object's keys its own way.
    members: row.members.map(({ user_id, assigned_date, role }) => ({ user_id, assigned_date, role })),
    bookmarked: row.is_bookmarked,
    ...(archived
      ? { archived: { user_id: row.archived_by!, time_archived: row.time_archived!, parent_page_id: parentId ?? '' } }
      : {}),
    is_public: row.is_public,
    public_settings: { url: row.public_url ?? `${publicBaseUrl}/${row.alias_id}`, robots: row.public_robots },
    total_comments: row.total_comments,
    is_watching: row.is_watching,
    is_bookmarked: row.is_bookmarked,
    hide_table_of_contents: row.hide_table_of_contents,
    hide_subpages: row.hide_subpages,
    parent_page_id: parentId ?? '',
    ...(row.position === null ? {} : { position: row.position }),
  };
}
