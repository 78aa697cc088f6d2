import { allocateIds } from '../database/id-counters';
import { statement } from '../database/statement';
import { stimeSql } from '../database/stime';
import { insertedRow, writeStatement } from '../write-path/write-statement';
import { NEIGHBOUR_BLOCKS, NEIGHBOUR_KEYS, NeighbourKeys, PAGE_VIEW, PageRow, PROJECT_LOCK } from './page-queries';

/**
 * The statements that bring pages into being (a creation, a copy): where a new page may go, and the
 * parts of the statements that insert pages with their creator as their one member.
 */

/**
 * The advisory lock of one project: a new page's siblings and parent hold still until the commit. Taken
 * beside the project's row, so that on Citus it is taken on the workspace's node, with every other tree
 * writer's (a statement that reads no table runs on the coordinator); a project that does not exist is not
 * locked (no row), and the creation refuses it, or starts over when it exists by then (page-creation.ts).
 */
export const LOCK_PROJECT = statement<{ teamId: string; projectId: string }, { locked: string }>(
  'lock_project',
  `SELECT ${PROJECT_LOCK('p.id')}::text AS locked
     FROM projects p WHERE p.team_id = :teamId AND p.id = :projectId::text`,
);

/** What decides where a new page goes: the project and parent named, and the sort keys around its index. */
export interface NewPagePlaceRow extends NeighbourKeys {
  project_exists: boolean;
  /** The parent's project; null when there is no such page. */
  parent_project_id: string | null;
  parent_archived: boolean | null;
}

export interface NewPagePlaceParams {
  teamId: string;
  /** The project named by the request (null: none named). */
  projectId: string | null;
  /** The parent named (null: none, or the root). */
  parentId: string | null;
  keysProjectId: string | null;
  keysParentKey: string;
  keysIndex: number;
}

/**
 * Under the projects' locks: whether the named project exists, the named parent's project and archive
 * state, and the sort keys around index :keysIndex of the place the page goes to (no page left out). The
 * parent is read in a subquery of its own: Citus reads the inner side of an outer join apart, without
 * the join's conditions (the whole shard).
 */
export const NEW_PAGE_PLACE = statement<NewPagePlaceParams, NewPagePlaceRow>(
  'new_page_place',
  `WITH ${NEIGHBOUR_BLOCKS('-1')}
   SELECT EXISTS (SELECT 1 FROM projects pr WHERE pr.team_id = :teamId AND pr.id = :projectId::text) AS project_exists,
          q.project_id AS parent_project_id,
          CASE WHEN q.id IS NOT NULL THEN EXISTS (
            SELECT 1 FROM page_archives a WHERE a.team_id = :teamId AND a.page_id = q.id) END AS parent_archived,
          ${NEIGHBOUR_KEYS('-1')}
     FROM (SELECT) one
     LEFT JOIN (SELECT p.id, p.project_id FROM pages p
                 WHERE p.team_id = :teamId AND p.id = :parentId::bigint) q ON true`,
);

/** The stored columns of a new page, in the order NEW_PAGE_VALUES gives them. */
export const NEW_PAGE_COLUMNS = `
  team_id, id, project_id, parent_id, sort_key, title, font, icon, cover_image, content, schema, owner_id,
  created_by, updated_by, is_public, public_url, public_robots, hide_table_of_contents, hide_subpages,
  time_created, time_updated`;

/** CTE body: the caller, the one member (admin) of each page of CTE `inserted`, since its creation. */
export const ADD_CREATOR = `
  INSERT INTO page_members (team_id, page_id, user_id, role, assigned_at)
  SELECT :teamId, (i.page).id, :callerId, 'admin', (i.page).time_created FROM inserted i
  RETURNING page_id, user_id, role, assigned_at`;

/** Page `p`'s members as ADD_CREATOR wrote them (the statement's snapshot does not show them). */
export const CREATOR_MEMBERS = `COALESCE((
    SELECT json_agg(json_build_object('user_id', m.user_id, 'assigned_date', ${stimeSql('m.assigned_at')},
                                      'role', m.role))
      FROM creators m WHERE m.page_id = p.id
  ), '[]')`;

/**
 * The PageRow of each new page of `pages` (a query of pages' columns and `known_position`, its rank);
 * a new page has no archive record.
 */
export const NEW_PAGE_VIEW = (pages: string) => `
  SELECT ${PAGE_VIEW('p.known_position', CREATOR_MEMBERS)}
    FROM (${pages}) p
    LEFT JOIN page_archives a ON a.team_id = :teamId AND a.page_id = p.id`;

/** A new page: its place, its fields as the contract normalises them, who creates it. */
export interface CreatePageParams {
  teamId: string;
  callerId: string;
  actor: string;
  projectId: string;
  parentId: string | null;
  sortKey: string;
  position: number;
  title: string;
  content: string;
  schema: number;
  font: string;
  icon: string | null;
  cover: string | null;
  isPublic: boolean;
  publicUrl: string | null;
  robots: string[];
  hideTableOfContents: boolean;
  hideSubpages: boolean;
}

/** A row of CREATE_PAGE: the new page, or nulls when nothing was written (the key was taken over). */
export type CreatedPageRow = PageRow;

/**
 * Creates one page, in one statement: takes the workspace's next page id (id_counters), inserts the
 * page at the sort key the service planned under the project's lock, makes the caller its member, keeps
 * the answer under the key and announces page.created.
 */
export const CREATE_PAGE = writeStatement<CreatePageParams, CreatedPageRow>('create_page', {
  plan: `
    SELECT :teamId::text AS team_id, :projectId::text AS project_id, :parentId::bigint AS parent_id,
           :sortKey::text AS sort_key, :title::text AS title, :font::text AS font, :icon::jsonb AS icon,
           :cover::jsonb AS cover_image, :content::text AS content, :schema::int AS schema,
           :isPublic::boolean AS is_public, :publicUrl::text AS public_url, :robots::text[] AS public_robots,
           :hideTableOfContents::boolean AS hide_table_of_contents, :hideSubpages::boolean AS hide_subpages,
           now() AS now`,
  changes: {
    allocated: allocateIds('page', '(SELECT count(*) FROM planned)'),
    inserted: `
      INSERT INTO pages AS p (${NEW_PAGE_COLUMNS})
      SELECT n.team_id, k.first_id, n.project_id, n.parent_id, n.sort_key, n.title, n.font, n.icon, n.cover_image,
             n.content, n.schema, :callerId, :actor::jsonb, :actor::jsonb, n.is_public, n.public_url, n.public_robots,
             n.hide_table_of_contents, n.hide_subpages, n.now, n.now
        FROM planned n, allocated k
      RETURNING ${insertedRow('p', 'pages')} AS page`,
    creators: ADD_CREATOR,
  },
  result: `
    SELECT v.* FROM (SELECT) one
      LEFT JOIN (${NEW_PAGE_VIEW('SELECT (i.page).*, :position::int AS known_position FROM inserted i')}) v ON true`,
  keep: { status: 201, succeeded: 'r.id IS NOT NULL' },
  event: `
    SELECT 'page.created' AS type, 'page' AS resource_type, r.id AS resource_id, :actor::jsonb AS actor,
           to_jsonb(r) AS resource, NULL::jsonb AS previous
      FROM result r WHERE r.id IS NOT NULL`,
});
