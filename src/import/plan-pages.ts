import { randomUUID } from 'node:crypto';
import {
  ChildTableSpec,
  newVersions,
  remove,
  replaceChildren,
  Row,
  Statement,
  TableSpec,
  update,
  upsert,
} from './bulk-statements';
import { PageEntry } from './dto/page-entry.dto';
import { ExistingState, StoredPage, teamKey } from './existing-state';
import { importStamps } from './import-actor';
import { ImportError } from './import-error';
import { childRows, Listed, parentRows } from './listed-document';
import { PagePlacement, planPagePlacement } from './page-placement';
import { References } from './references';

const PAGE_KEY = { team_id: 'text', id: 'bigint' };
const PAGES: TableSpec = {
  table: 'pages',
  key: PAGE_KEY,
  fields: {
    project_id: 'text',
    parent_id: 'bigint',
    sort_key: 'text',
    alias_id: 'uuid',
    title: 'text',
    font: 'text',
    icon: 'jsonb',
    cover_image: 'jsonb',
    content: 'text',
    owner_id: 'text',
    is_public: 'boolean',
    public_url: 'text',
    public_robots: 'text[]',
    hide_table_of_contents: 'boolean',
    hide_subpages: 'boolean',
  },
  stamped: true,
};
const PAGE_PROJECTS: TableSpec = { table: 'pages', key: PAGE_KEY, fields: { project_id: 'text' } };
const PAGE_ARCHIVES: TableSpec = {
  table: 'page_archives',
  key: { team_id: 'text', page_id: 'bigint' },
  fields: { archive_root_id: 'bigint', former_parent_id: 'bigint' },
  createOnly: { archived_by: 'text' },
};
const PAGE_USERS = { team_id: 'text', page_id: 'bigint', user_id: 'text' };
const PARENT_PAGE = ['team_id', 'page_id'];
const PAGE_MEMBERS: ChildTableSpec = {
  table: 'page_members',
  key: PAGE_USERS,
  fields: { role: 'text' },
  parent: PARENT_PAGE,
};
const PAGE_BOOKMARKS: ChildTableSpec = { table: 'page_bookmarks', key: PAGE_USERS, parent: PARENT_PAGE };
const PAGE_WATCHERS: ChildTableSpec = { table: 'page_watchers', key: PAGE_USERS, parent: PARENT_PAGE };
const PAGE_COMMENTS: ChildTableSpec = {
  table: 'page_comments',
  key: { team_id: 'text', id: 'text' },
  fields: { page_id: 'bigint', user_id: 'text', text: 'text' },
  parent: PARENT_PAGE,
};

/** Pages in their trees, their archive state, and the per-user lists and comments of each. */
export function planPages(pages: Listed<PageEntry>[], refs: References, existing: ExistingState): Statement[] {
  pages.forEach(({ entry, label }) => checkPageReferences(entry, label, refs));
  checkCommentIds(pages);
  const rows: Row[] = [];
  const tree = { moves: [] as Row[], archives: [] as Row[], unarchived: [] as Row[] };
  const aliasTeams = new Map([...existing.aliasHolders].map(([alias, holder]) => [alias, holder.teamId]));
  for (const [teamId, stored] of existing.pages) {
    const listed = pages.filter(({ entry }) => entry.team_id === teamId);
    const placement = planPagePlacement(teamId, stored, listed);
    const aliases = aliasIds(teamId, listed, stored, existing.aliasHolders, aliasTeams);
    rows.push(...listed.map(({ entry, label }) => pageRow(entry, label, placement, aliases.get(entry.id)!)));
    tree.moves.push(
      ...placement.projectMoves.map((m) => ({
        entry: `page ${m.id}`,
        team_id: teamId,
        id: m.id,
        project_id: m.projectId,
      })),
    );
    tree.archives.push(
      ...placement.archives.map((a) => ({
        entry: `page ${a.pageId}`,
        team_id: teamId,
        page_id: a.pageId,
        archive_root_id: a.rootId,
        former_parent_id: a.formerParentId,
        archived_by: a.archivedBy,
      })),
    );
    tree.unarchived.push(...placement.unarchived.map((id) => ({ entry: `page ${id}`, team_id: teamId, page_id: id })));
  }
  const parents = parentRows(pages, 'page_id');
  const children = <T>(items: (page: PageEntry) => T[] | undefined, columns: (item: T) => object) =>
    childRows(pages, 'page_id', items, columns);
  return [
    upsert(PAGES, rows),
    update(PAGE_PROJECTS, tree.moves),
    remove(PAGE_ARCHIVES, tree.unarchived),
    upsert(PAGE_ARCHIVES, tree.archives),
    ...replaceChildren(
      PAGE_MEMBERS,
      parents,
      children(
        (p) => p.members,
        (m) => ({ user_id: m.user_id, role: m.role ?? 'member' }),
      ),
    ),
    ...replaceChildren(
      PAGE_BOOKMARKS,
      parents,
      children(
        (p) => p.bookmarked_by,
        (userId) => ({ user_id: userId }),
      ),
    ),
    ...replaceChildren(
      PAGE_WATCHERS,
      parents,
      children(
        (p) => p.watched_by,
        (userId) => ({ user_id: userId }),
      ),
    ),
    ...replaceChildren(
      PAGE_COMMENTS,
      parents,
      children(
        (p) => p.comments,
        (c) => ({ id: c.id, user_id: c.user_id, text: c.text ?? '' }),
      ),
    ),
    newVersions(PAGES, rows),
  ];
}

function checkPageReferences(page: PageEntry, label: string, refs: References): void {
  refs.workspace(label, page.team_id);
  refs.project(label, page.team_id, page.project_id);
  refs.member(label, page.team_id, page.owner_id, 'owner_id');
  for (const member of page.members ?? []) refs.member(label, page.team_id, member.user_id, 'members');
  for (const userId of page.bookmarked_by ?? []) refs.member(label, page.team_id, userId, 'bookmarked_by');
  for (const userId of page.watched_by ?? []) refs.member(label, page.team_id, userId, 'watched_by');
  for (const comment of page.comments ?? []) refs.member(label, page.team_id, comment.user_id, 'comments');
}

/** Comment ids are unique within a workspace, not only within a page. */
function checkCommentIds(pages: Listed<PageEntry>[]): void {
  const seen = new Map<string, string>();
  for (const { entry, label } of pages) {
    for (const comment of entry.comments ?? []) {
      const key = teamKey(entry.team_id, comment.id);
      const first = seen.get(key);
      if (first) throw ImportError.at(label, `comment id "${comment.id}" is also used on page ${first}`);
      seen.set(key, entry.id);
    }
  }
}

/**
 * Each listed page's alias_id: as given, else as stored, else new; no two pages of a workspace share one.
 * An alias is a public URL of the whole service: one that another workspace holds (a workspace exported and
 * imported as another) stays that workspace's, and the imported page gets a new one.
 * aliasTeams (alias -> workspace) starts with the holders' and gains each alias this import gives.
 */
function aliasIds(
  teamId: string,
  listed: Listed<PageEntry>[],
  stored: StoredPage[],
  holders: ExistingState['aliasHolders'],
  aliasTeams: Map<string, string>,
): Map<string, string> {
  const listedIds = new Set(listed.map(({ entry }) => entry.id));
  const storedAlias = new Map(stored.map((page) => [page.id, page.aliasId]));
  /** A page of this workspace the document leaves as it is, holding `alias`. */
  const heldHere = (alias: string) => {
    const holder = holders.get(alias);
    return holder?.teamId === teamId && !listedIds.has(holder.pageId) ? holder.pageId : undefined;
  };
  const claimed = new Map<string, string>();
  const aliases = new Map<string, string>();
  for (const { entry, label } of listed) {
    // PostgreSQL prints uuids in lower case; compare them that way.
    const given = entry.alias_id?.toLowerCase();
    const heldElsewhere = given !== undefined && (aliasTeams.get(given) ?? teamId) !== teamId;
    const alias = (heldElsewhere ? undefined : given) ?? storedAlias.get(entry.id) ?? randomUUID();
    const owner = claimed.get(alias) ?? heldHere(alias);
    if (owner !== undefined) throw ImportError.at(label, `alias_id "${alias}" is already used by page ${owner}`);
    claimed.set(alias, entry.id);
    aliases.set(entry.id, alias);
    aliasTeams.set(alias, teamId);
  }
  return aliases;
}

function pageRow(page: PageEntry, label: string, placement: PagePlacement, aliasId: string): Row {
  const { projectId, parentId, sortKey } = placement.placed.get(page.id)!;
  return {
    entry: label,
    team_id: page.team_id,
    id: page.id,
    project_id: projectId,
    parent_id: parentId,
    sort_key: sortKey,
    alias_id: aliasId,
    title: page.title ?? '',
    font: page.font ?? 'sans',
    icon: page.icon ?? null,
    cover_image: page.cover_image ?? null,
    content: page.content ?? '',
    owner_id: page.owner_id,
    is_public: page.is_public ?? false,
    public_url: page.public_settings?.url ?? null,
    public_robots: page.public_settings?.robots ?? [],
    hide_table_of_contents: page.hide_table_of_contents ?? false,
    hide_subpages: page.hide_subpages ?? false,
    ...importStamps(page.owner_id),
  };
}
