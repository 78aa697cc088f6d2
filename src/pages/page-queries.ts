import { Actor } from '../common/actor';
import { Image } from '../common/image';
import { statement } from '../database/statement';
import { stimeSql } from '../database/stime';
import { PREVIOUS_VALUES } from '../write-path/outbox-sql';
import { recursively, writeStatement } from '../write-path/write-statement';
import { PageDto } from './dto/page.response';
import { RobotsDirective } from './page-options';

/**
 * Every page statement of the request paths. Parameters :teamId, :pageId and :callerId (the caller's
 * user_id) mean the same in all of them.
 */

/** Siblings of one parent in one project: -1 stands for the project root (see pages_sibling_order_key). */
const SAME_PLACE = (s: string, p: string) =>
  `${s}.team_id = :teamId AND ${s}.project_id = ${p}.project_id
   AND COALESCE(${s}.parent_id, -1) = COALESCE(${p}.parent_id, -1)`;

/** The blocks of page_sibling_blocks (migration 0006) that count the siblings of page `p`. */
const SAME_BLOCKS = (b: string, p: string) =>
  `${b}.team_id = :teamId AND ${b}.project_id = ${p}.project_id
   AND ${b}.parent_key = COALESCE(${p}.parent_id, -1)`;

/**
 * The rank of page `p` among its active siblings: the sizes of the blocks before its own, then a walk
 * inside it (O(√siblings)).
 */
const COUNTED_POSITION = (p: string) => `(
  SELECT (SELECT COALESCE(sum(b.size), 0) FROM page_sibling_blocks b
           WHERE ${SAME_BLOCKS('b', p)} AND b.lower_key < mine.lower_key)
       + (SELECT count(*) FROM pages s
           WHERE ${SAME_PLACE('s', p)} AND s.sort_key >= mine.lower_key AND s.sort_key < ${p}.sort_key)
    FROM (SELECT max(b.lower_key) AS lower_key FROM page_sibling_blocks b
           WHERE ${SAME_BLOCKS('b', p)} AND b.lower_key <= ${p}.sort_key) mine
)::int`;

/** A row of READ_PAGE and WRITE_PAGE: everything a response shows of one page, for one caller. */
export interface PageRow {
  id: string;
  alias_id: string;
  title: string;
  font: string;
  icon: Image | null;
  content: string;
  schema: number;
  project_id: string;
  standalone: boolean;
  cover_image: Image | null;
  owner_id: string;
  created_by: Actor;
  updated_by: Actor;
  team_id: string;
  is_public: boolean;
  public_url: string | null;
  public_robots: RobotsDirective[];
  hide_table_of_contents: boolean;
  hide_subpages: boolean;
  parent_id: string | null;
  time_created: number;
  time_updated: number;
  members: PageDto['members'];
  caller_is_member: boolean;
  is_bookmarked: boolean;
  is_watching: boolean;
  total_comments: number;
  archived_by: string | null;
  time_archived: number | null;
  former_parent_id: string | null;
  position: number | null;
  /** Counts the page's changes (migration 0007); with its place, its ETag (pageETag). */
  version: string;
}

/** Page `p`'s members as a PageRow lists them, read from page_members. */
const STORED_MEMBERS = `COALESCE((
    SELECT json_agg(json_build_object('user_id', m.user_id, 'assigned_date', ${stimeSql('m.assigned_at')},
                                      'role', m.role)
                    ORDER BY m.assigned_at, m.user_id)
      FROM page_members m WHERE m.team_id = :teamId AND m.page_id = p.id
  ), '[]')`;

/**
 * The columns of a PageRow, from page `p` (a row of pages) and its archive record `a`; `knownPosition`
 * is the page's rank when the statement knows it (NULL: counted); `members` is the members' JSON when
 * the statement itself wrote them (its snapshot does not show them); a list passes `content` as an
 * empty string, since it shows none.
 */
export const PAGE_VIEW = (knownPosition: string, members = STORED_MEMBERS, content = 'p.content') => `
  p.id::text, p.alias_id::text, p.title, p.font, p.icon, ${content}, p.schema, p.project_id, p.standalone,
  p.cover_image, p.owner_id, p.created_by, p.updated_by, p.team_id, p.is_public, p.public_url, p.public_robots,
  p.hide_table_of_contents, p.hide_subpages, p.parent_id::text AS parent_id, p.version::text AS version,
  ${stimeSql('p.time_created')}::float8 AS time_created,
  ${stimeSql('p.time_updated')}::float8 AS time_updated,
  ${members} AS members,
  EXISTS (SELECT 1 FROM page_members m
           WHERE m.team_id = :teamId AND m.page_id = p.id AND m.user_id = :callerId) AS caller_is_member,
  EXISTS (SELECT 1 FROM page_bookmarks b
           WHERE b.team_id = :teamId AND b.page_id = p.id AND b.user_id = :callerId) AS is_bookmarked,
  EXISTS (SELECT 1 FROM page_watchers w
           WHERE w.team_id = :teamId AND w.page_id = p.id AND w.user_id = :callerId) AS is_watching,
  (SELECT count(*) FROM page_comments c WHERE c.team_id = :teamId AND c.page_id = p.id)::int AS total_comments,
  a.archived_by, ${stimeSql('a.time_archived')}::float8 AS time_archived, a.former_parent_id::text AS former_parent_id,
  CASE WHEN a.archived_by IS NULL THEN COALESCE(${knownPosition}, ${COUNTED_POSITION('p')}) END AS position`;

const READ = `
  SELECT ${PAGE_VIEW('NULL::int')}
    FROM pages p
    LEFT JOIN page_archives a ON a.team_id = :teamId AND a.page_id = p.id
   WHERE p.team_id = :teamId AND p.id = :pageId`;

/** Which page, for whom. */
export interface PageKey {
  teamId: string;
  pageId: string;
  callerId: string;
}

/** One page as one caller sees it, in one round trip. */
export const READ_PAGE = statement<PageKey, PageRow>('read_page', READ);

/** READ_PAGE with the row locked for the rest of the transaction: a conditional write's first step. */
export const LOCK_READ_PAGE = statement<PageKey, PageRow>('lock_read_page', `${READ} FOR NO KEY UPDATE OF p`);

/** A page update: who writes, the fields it sets, and the tree change the service planned for it. */
export interface WritePageParams extends PageKey {
  actor: string;
  /** Write only if the caller is one of the page's members (a guest). */
  listedOnly: boolean;
  // The page's own fields; null (or a false "set" flag for the nullable ones) keeps a field.
  title: string | null;
  font: string | null;
  setIcon: boolean;
  icon: string | null;
  setCover: boolean;
  cover: string | null;
  isPublic: boolean | null;
  setPublicUrl: boolean;
  publicUrl: string | null;
  robots: string[] | null;
  hideTableOfContents: boolean | null;
  hideSubpages: boolean | null;
  // Its place in the tree: where it lands (moves false: it stays), and its rank there if known.
  moves: boolean;
  projectId: string | null;
  parentId: string | null;
  sortKey: string | null;
  position: number | null;
  /** Its subpages follow it to projectId. */
  carriesSubtree: boolean;
  /** It and its subpages are archived: it leaves the tree, remembering where it was. */
  archives: boolean;
  /** It is brought back with the pages archived with it under this archive root. */
  unarchivedRoot: string | null;
  /** The answer's collaboration token, kept with it under an idempotency key. */
  collaborationToken: string;
}

/** A row of WRITE_PAGE. */
export interface WrittenPageRow extends PageRow {
  /** The page changed while the statement waited for its row: nothing was written. */
  stale: boolean;
}

/** The row a page write's answer was rendered from, as kept under its idempotency key. */
export interface KeptPageRow extends WrittenPageRow {
  collaboration_token: string;
}

/**
 * WRITE_PAGE's event, when it changed the page: archived, unarchived or updated; the row read back,
 * and the stored fields the change changed, as they were, with, for a move, the rank it had.
 */
const PAGE_EVENT = `
  SELECT CASE WHEN :archives THEN 'page.archived' WHEN :unarchivedRoot::bigint IS NOT NULL THEN 'page.unarchived'
              ELSE 'page.updated' END AS type,
         'page' AS resource_type, r.id AS resource_id, :actor::jsonb AS actor, to_jsonb(r) AS resource,
         (SELECT ${PREVIOUS_VALUES(`to_jsonb(o) - 'content' - 'schema'`, 'SELECT to_jsonb(c.page) FROM changed c')}
                 || jsonb_build_object('position',
                                       CASE WHEN :moves AND o.sort_key IS NOT NULL THEN ${COUNTED_POSITION('o')} END)
            FROM (SELECT (t.page).* FROM target t) o) AS previous
    FROM result r WHERE EXISTS (SELECT 1 FROM changed)`;

/**
 * The one write of a page update, in one statement: locks the row, writes what differs (the fields
 * that really change, stamped with who and when; nothing at all for a patch that changes nothing),
 * carries out the tree change the service planned (the subtree's project, archiving, unarchiving),
 * and reads the page back. Nothing is written when a guest is not one of the page's members. On its
 * own it is atomic (a title or display change needs no transaction); structural changes run it
 * inside theirs, under the projects' locks. Sub-statements see the statement's snapshot, so the
 * read-back takes the page from the UPDATE's RETURNING and its archive record from what this
 * statement did; and when the row lock found a newer version of the page than that snapshot
 * (`stale`), its siblings and archive record there may be older than the page: nothing is written,
 * and the caller runs it again, at last under the row's lock in a transaction. A real change adds one
 * to the version of the page and of the subpages it carries to another project, and is announced to
 * the workspace's webhooks by the same statement (PAGE_EVENT): one event, for the page named (the root
 * of an archived or unarchived subtree).
 */
export const WRITE_PAGE = writeStatement<WritePageParams, WrittenPageRow>('write_page', {
  target: `
    SELECT p AS page,
           EXISTS (SELECT 1 FROM page_members m
                    WHERE m.team_id = :teamId AND m.page_id = p.id AND m.user_id = :callerId) AS caller_is_member,
           p.ctid IS DISTINCT FROM (SELECT q.ctid FROM pages q WHERE q.team_id = :teamId AND q.id = p.id) AS stale
      FROM pages p WHERE p.team_id = :teamId AND p.id = :pageId
       FOR NO KEY UPDATE OF p`,
  plan: `
    SELECT (t.page).team_id, (t.page).id,
           COALESCE(:title::text, (t.page).title) AS title,
           COALESCE(:font::text, (t.page).font) AS font,
           CASE WHEN :setIcon::boolean THEN :icon::jsonb ELSE (t.page).icon END AS icon,
           CASE WHEN :setCover::boolean THEN :cover::jsonb ELSE (t.page).cover_image END AS cover_image,
           COALESCE(:isPublic::boolean, (t.page).is_public) AS is_public,
           CASE WHEN :setPublicUrl::boolean THEN :publicUrl::text ELSE (t.page).public_url END AS public_url,
           COALESCE(:robots::text[], (t.page).public_robots) AS public_robots,
           COALESCE(:hideTableOfContents::boolean, (t.page).hide_table_of_contents) AS hide_table_of_contents,
           COALESCE(:hideSubpages::boolean, (t.page).hide_subpages) AS hide_subpages,
           CASE WHEN :moves::boolean THEN :projectId::text ELSE (t.page).project_id END AS project_id,
           CASE WHEN :moves THEN :parentId::bigint ELSE (t.page).parent_id END AS landing_parent_id,
           CASE WHEN :moves THEN :sortKey::text ELSE (t.page).sort_key END AS landing_sort_key,
           now() AS now
      FROM target t
     WHERE (t.caller_is_member OR NOT :listedOnly::boolean) AND NOT t.stale`,
  changes: {
    subtree: recursively(
      'subtree',
      `SELECT id FROM planned
       UNION ALL
       SELECT c.id FROM pages c JOIN subtree s ON c.team_id = :teamId AND c.parent_id = s.id`,
    ),
    restored: recursively(
      'restored',
      `SELECT a.page_id AS id FROM page_archives a JOIN planned n ON a.team_id = :teamId AND a.page_id = n.id
        WHERE :unarchivedRoot::bigint IS NOT NULL
       UNION ALL
       SELECT c.id FROM pages c
         JOIN restored r ON c.team_id = :teamId AND c.parent_id = r.id
         JOIN page_archives a ON a.team_id = :teamId AND a.page_id = c.id AND a.archive_root_id = :unarchivedRoot`,
    ),
    unarchived: `DELETE FROM page_archives WHERE team_id = :teamId AND page_id = ANY (ARRAY(SELECT id FROM restored))`,
    archived: `
      INSERT INTO page_archives (team_id, page_id, archive_root_id, former_parent_id, archived_by)
      SELECT :teamId, c.id, n.id, CASE WHEN c.id = n.id THEN n.landing_parent_id ELSE c.parent_id END, :callerId
        FROM planned n JOIN pages c ON c.team_id = :teamId AND c.id = ANY (ARRAY(SELECT id FROM subtree))
       WHERE :archives::boolean
      RETURNING page_id, archived_by, time_archived, former_parent_id`,
    carried: `
      UPDATE pages c SET project_id = n.project_id, version = c.version + 1
        FROM planned n
       WHERE :carriesSubtree::boolean AND c.team_id = :teamId AND c.id = ANY (ARRAY(SELECT id FROM subtree))
         AND c.id <> n.id AND c.project_id <> n.project_id`,
    changed: `
      UPDATE pages p
         SET title = n.title, font = n.font, icon = n.icon, cover_image = n.cover_image, is_public = n.is_public,
             public_url = n.public_url, public_robots = n.public_robots,
             hide_table_of_contents = n.hide_table_of_contents,
             hide_subpages = n.hide_subpages, project_id = n.project_id,
             parent_id = CASE WHEN :archives THEN NULL ELSE n.landing_parent_id END,
             sort_key = CASE WHEN :archives THEN NULL ELSE n.landing_sort_key END,
             updated_by = :actor::jsonb, time_updated = n.now, version = p.version + 1
        FROM planned n
       WHERE p.team_id = :teamId AND p.id = n.id
         AND (:moves OR :archives OR :unarchivedRoot IS NOT NULL
              OR (n.title, n.font, n.icon, n.cover_image, n.is_public, n.public_url, n.public_robots,
                  n.hide_table_of_contents, n.hide_subpages)
                 IS DISTINCT FROM (p.title, p.font, p.icon, p.cover_image, p.is_public, p.public_url, p.public_robots,
                                   p.hide_table_of_contents, p.hide_subpages))
      RETURNING p AS page`,
    written: `
      SELECT page FROM changed
      UNION ALL
      SELECT page FROM target WHERE NOT EXISTS (SELECT 1 FROM changed)`,
  },
  result: `
    SELECT ${PAGE_VIEW(':position::int')}, (SELECT stale FROM target) AS stale
      FROM (SELECT (w.page).* FROM written w) p
      LEFT JOIN LATERAL (
        SELECT x.archived_by, x.time_archived, x.former_parent_id FROM archived x WHERE x.page_id = p.id
        UNION ALL
        SELECT a.archived_by, a.time_archived, a.former_parent_id FROM page_archives a
         WHERE a.team_id = :teamId AND a.page_id = p.id AND NOT :archives AND :unarchivedRoot IS NULL
      ) a ON true`,
  keep: {
    status: 200,
    answer: `to_jsonb(r) || jsonb_build_object('collaboration_token', :collaborationToken::text)`,
    succeeded: '(r.caller_is_member OR NOT :listedOnly) AND NOT r.stale',
  },
  event: PAGE_EVENT,
});

/**
 * What a structural change knows of a page and of the parent it may go under (a row of
 * LOCK_PAGE_PROJECTS or PAGE_PLACE).
 */
export interface PageFacts {
  project_id: string;
  parent_id: string | null;
  sort_key: string | null;
  /** Set while the page is archived: the page whose archiving took it out of the tree. */
  archive_root_id: string | null;
  /** Its parent when it was archived. */
  former_parent_id: string | null;
  caller_is_member: boolean;
  /** The parent the patch names, or the former parent a restore goes back under; null: none. */
  parent_to_check: string | null;
  /** That parent's project; null when it does not exist. */
  parent_project_id: string | null;
  parent_archived: boolean | null;
  /** The moving page is that parent or one of its ancestors. */
  parent_cycle: boolean | null;
  /** The project the patch names exists. */
  project_exists: boolean;
}

export interface PageFactsParams extends PageKey {
  /** The parent the patch names (null: none, or the root). */
  parentId: string | null;
  /** The patch brings the page back without naming a parent (its former parent is read). */
  restores: boolean;
  projectId: string | null;
}

/**
 * The facts of PageFacts, as CTEs `facts` and `parent`; `lock` locks the page's row. The cycle check
 * walks up from the parent: O(depth).
 */
const PAGE_FACTS = (lock: string) => `
  facts AS MATERIALIZED (
    SELECT p.project_id, p.parent_id::text AS parent_id, p.sort_key,
           a.archive_root_id::text AS archive_root_id, a.former_parent_id::text AS former_parent_id,
           EXISTS (SELECT 1 FROM page_members m
                    WHERE m.team_id = :teamId AND m.page_id = p.id AND m.user_id = :callerId) AS caller_is_member,
           COALESCE(:parentId::bigint, CASE WHEN :restores::boolean AND a.page_id IS NOT NULL
                                     THEN CASE WHEN a.archive_root_id = p.id THEN a.former_parent_id
                                               ELSE p.parent_id END END) AS parent_to_check
      FROM pages p
      LEFT JOIN page_archives a ON a.team_id = :teamId AND a.page_id = p.id
     WHERE p.team_id = :teamId AND p.id = :pageId
     ${lock}
  ), ancestry AS (
    SELECT q.id, q.parent_id FROM pages q JOIN facts f ON q.team_id = :teamId AND q.id = f.parent_to_check
    UNION ALL
    SELECT q.id, q.parent_id FROM pages q JOIN ancestry up ON q.team_id = :teamId AND q.id = up.parent_id
  ), parent AS (
    SELECT q.project_id,
           EXISTS (SELECT 1 FROM page_archives a WHERE a.team_id = :teamId AND a.page_id = q.id) AS archived,
           EXISTS (SELECT 1 FROM ancestry WHERE id = :pageId) AS cycle
      FROM pages q JOIN facts f ON q.team_id = :teamId AND q.id = f.parent_to_check
  )`;

const FACTS_COLUMNS = `
  f.project_id, f.parent_id, f.sort_key, f.archive_root_id, f.former_parent_id, f.caller_is_member,
  f.parent_to_check::text AS parent_to_check, parent.project_id AS parent_project_id,
  parent.archived AS parent_archived, parent.cycle AS parent_cycle,
  EXISTS (SELECT 1 FROM projects pr WHERE pr.team_id = :teamId AND pr.id = :projectId::text) AS project_exists`;

/** Takes the transaction's advisory lock of project `project` (an expression): writers of its tree take turns. */
export const PROJECT_LOCK = (project: string) =>
  `pg_advisory_xact_lock(hashtextextended(:teamId || '/' || ${project}, 0))`;

/**
 * The first statement of a structural change: the page's facts as they are (not locked), and the
 * advisory locks of every project the change may touch (the page's, the one the patch names, the
 * parent's), taken in one order so two movers never wait on each other in a cycle. Title and display
 * changes do not take them. With no such page, a row of nulls with the locks taken.
 */
export const LOCK_PAGE_PROJECTS = statement<PageFactsParams, PageFacts & { locked_projects: string[] }>(
  'lock_page_projects',
  `WITH RECURSIVE ${PAGE_FACTS('')},
   named AS (
     SELECT DISTINCT k
       FROM (SELECT project_id FROM facts
             UNION ALL SELECT :projectId::text
             UNION ALL SELECT project_id FROM parent) all_named(k)
      WHERE k IS NOT NULL
   ), locked AS MATERIALIZED (
     SELECT COALESCE(array_agg(k), '{}') AS projects
       FROM (SELECT k, ${PROJECT_LOCK('k')} AS taken
               FROM (SELECT k FROM named ORDER BY k COLLATE "C" OFFSET 0) in_order) each_lock
   )
   SELECT ${FACTS_COLUMNS}, locked.projects AS locked_projects
     FROM locked LEFT JOIN facts f ON true LEFT JOIN parent ON true`,
);

/** The sort keys around an index among the siblings of one place, the moving page left out. */
export interface NeighbourKeys {
  /** From index 0: [at, next]; from any other index: [before, at]. */
  window: string[] | null;
  /** The last sibling's key. */
  last: string | null;
  /** How many siblings there are. */
  total: number | null;
}

/**
 * CTEs `me` to `chosen`: the block of page_sibling_blocks (migration 0006) that holds index :keysIndex
 * among the active siblings under parent :keysParentKey (-1: root) of project :keysProjectId, page
 * `leftOut` (an id expression; -1 for none) left out; then counted without it, a walk inside that block.
 */
export const NEIGHBOUR_BLOCKS = (leftOut: string) => `me AS MATERIALIZED (
     SELECT sort_key FROM pages
      WHERE team_id = :teamId AND id = ${leftOut} AND project_id = :keysProjectId::text
        AND COALESCE(parent_id, -1) = :keysParentKey::bigint
   ), bounds AS (
     SELECT lower_key, size, lead(lower_key) OVER (ORDER BY lower_key) AS upper_key
       FROM page_sibling_blocks WHERE team_id = :teamId AND project_id = :keysProjectId AND parent_key = :keysParentKey
   ), blocks AS (
     SELECT b.lower_key,
            b.size - CASE WHEN me.sort_key >= b.lower_key AND (b.upper_key IS NULL OR me.sort_key < b.upper_key)
                          THEN 1 ELSE 0 END AS size
       FROM bounds b LEFT JOIN me ON true
   ), target AS (
     SELECT lower_key,
            GREATEST(:keysIndex::bigint - 1, 0) - (sum(size) OVER (ORDER BY lower_key) - size) AS offset_in_block,
            sum(size) OVER (ORDER BY lower_key) AS through
       FROM blocks
   ), chosen AS (
     SELECT lower_key, offset_in_block FROM target
      WHERE through > GREATEST(:keysIndex::bigint - 1, 0) ORDER BY lower_key LIMIT 1
   )`;

/** The NeighbourKeys columns, from NEIGHBOUR_BLOCKS's CTEs; null when :keysProjectId is null. */
export const NEIGHBOUR_KEYS = (leftOut: string) => `CASE WHEN :keysProjectId IS NOT NULL THEN ARRAY(
            SELECT sort_key FROM pages
             WHERE team_id = :teamId AND project_id = :keysProjectId AND COALESCE(parent_id, -1) = :keysParentKey
               AND sort_key IS NOT NULL AND id <> ${leftOut}
               AND sort_key >= (SELECT lower_key FROM chosen)
             ORDER BY sort_key OFFSET (SELECT offset_in_block FROM chosen) LIMIT 2
          ) END AS window,
          CASE WHEN :keysProjectId IS NOT NULL THEN (
            SELECT sort_key FROM pages
             WHERE team_id = :teamId AND project_id = :keysProjectId AND COALESCE(parent_id, -1) = :keysParentKey
               AND sort_key IS NOT NULL AND id <> ${leftOut}
             ORDER BY sort_key DESC LIMIT 1
          ) END AS last,
          CASE WHEN :keysProjectId IS NOT NULL THEN (SELECT COALESCE(sum(size), 0)::int FROM blocks) END AS total`;

/**
 * After the projects' locks: the page's facts, its row locked, and the sort keys around index `keysIndex`
 * among the active siblings under parent `keysParentKey` (-1: root) of project `keysProjectId` (null: none
 * needed), the page left out.
 * The index is found in page_sibling_blocks (migration 0006): the block that holds it, counted without
 * the page, then a walk inside that block: O(√siblings) rather than O(index).
 */
export const PAGE_PLACE = statement<
  PageFactsParams & { keysProjectId: string | null; keysParentKey: string; keysIndex: number },
  PageFacts & NeighbourKeys
>(
  'page_place',
  `WITH RECURSIVE ${PAGE_FACTS('FOR UPDATE OF p')},
   ${NEIGHBOUR_BLOCKS(':pageId')}
   SELECT ${FACTS_COLUMNS},
          ${NEIGHBOUR_KEYS(':pageId')}
     FROM facts f LEFT JOIN parent ON true`,
);

/** Every active sibling's id in order, the page left out; for the rare rebalancing of long keys. */
export const SIBLING_IDS = statement<
  { teamId: string; pageId: string; projectId: string; parentKey: string },
  { id: string }
>(
  'sibling_ids',
  `SELECT id::text FROM pages
    WHERE team_id = :teamId AND project_id = :projectId AND COALESCE(parent_id, -1) = :parentKey::bigint
      AND sort_key IS NOT NULL AND id <> :pageId
    ORDER BY sort_key`,
);

/** Gives pages `ids` the sort keys `sortKeys`, in one statement. */
export const SET_SORT_KEYS = statement<{ teamId: string; ids: string[]; sortKeys: Array<string | null> }>(
  'set_sort_keys',
  `UPDATE pages p SET sort_key = k.sort_key
     FROM unnest(:ids::bigint[], :sortKeys::text[]) AS k(id, sort_key)
    WHERE p.team_id = :teamId AND p.id = k.id`,
);
