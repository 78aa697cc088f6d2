import { EntityManager } from 'typeorm';
import { hashTokenSecret } from '../auth/token-secret';
import { ImportDocument } from './dto/import-document.dto';
import { named } from '../database/named-parameters';
import { PROJECT_LOCK } from '../pages/page-queries';

/** `team/id`: unambiguous because a team id has no "/". */
export const teamKey = (teamId: string, id: string) => `${teamId}/${id}`;

export interface StoredPage {
  id: string;
  projectId: string;
  parentId: string | null;
  sortKey: string | null;
  aliasId: string;
  archive: { rootId: string; formerParentId: string | null; archivedBy: string } | null;
}

export interface StoredToken {
  teamId: string;
  id: string;
  tokenHash: Buffer;
  revokedAt: Date | null;
}

/** What the database already holds that the document may refer to or overwrite. */
export interface ExistingState {
  workspaces: Set<string>;
  users: Set<string>;
  /** teamKey(team, user) */
  members: Set<string>;
  /** teamKey(team, project) */
  projects: Set<string>;
  /** teamKey(team, tag) -> the tag's project, null for workspace-wide */
  tags: Map<string, string | null>;
  tokens: StoredToken[];
  /** Per workspace the document lists pages for, the pages placing them needs, locked (loadPages). */
  pages: Map<string, StoredPage[]>;
  /** alias_id -> the page, of any workspace, that holds an alias the document gives */
  aliasHolders: Map<string, { teamId: string; pageId: string }>;
}

interface PageRow {
  team_id: string;
  id: string;
  project_id: string;
  parent_id: string | null;
  sort_key: string | null;
  alias_id: string;
  archive_root_id: string | null;
  former_parent_id: string | null;
  archived_by: string | null;
}

export async function loadExistingState(tx: EntityManager, doc: ImportDocument): Promise<ExistingState> {
  const teams = [...new Set([...(doc.workspaces ?? []).map((w) => w.id), ...teamEntries(doc).map((e) => e.team_id)])];
  const users = [...new Set((doc.members ?? []).map((m) => m.user_id))];
  const tokens = doc.tokens ?? [];
  // One after another: the queries share the transaction's connection.
  const workspaceRows = await tx.query<Array<{ id: string }>>(
    ...named(`SELECT id FROM workspaces WHERE id = ANY(:teams)`, { teams }),
  );
  const userRows = await tx.query<Array<{ id: string }>>(
    ...named(`SELECT id FROM users WHERE id = ANY(:users)`, { users }),
  );
  const memberRows = await tx.query<Array<{ team_id: string; user_id: string }>>(
    ...named(`SELECT team_id, user_id FROM members WHERE team_id = ANY(:teams)`, { teams }),
  );
  const projectRows = await tx.query<Array<{ team_id: string; id: string }>>(
    ...named(`SELECT team_id, id FROM projects WHERE team_id = ANY(:teams)`, { teams }),
  );
  const tagRows = await tx.query<Array<{ team_id: string; id: string; project_id: string | null }>>(
    ...named(`SELECT team_id, id::text, project_id FROM tags WHERE team_id = ANY(:teams)`, { teams }),
  );
  const tokenRows = await tx.query<Array<{ team_id: string; id: string; token_hash: Buffer; revoked_at: Date | null }>>(
    ...named(
      `SELECT team_id, id, token_hash, revoked_at FROM tokens
        WHERE (team_id, id) IN (SELECT * FROM unnest(:teamIds::text[], :ids::text[]))
           OR token_hash = ANY(:hashes::bytea[])`,
      {
        teamIds: tokens.map((t) => t.team_id),
        ids: tokens.map((t) => t.id),
        hashes: tokens.flatMap((t) => (t.token ? [hashTokenSecret(t.token)] : [])),
      },
    ),
  );
  return {
    workspaces: new Set(workspaceRows.map((r) => r.id)),
    users: new Set(userRows.map((r) => r.id)),
    members: new Set(memberRows.map((r) => teamKey(r.team_id, r.user_id))),
    projects: new Set(projectRows.map((r) => teamKey(r.team_id, r.id))),
    tags: new Map(tagRows.map((r) => [teamKey(r.team_id, r.id), r.project_id])),
    tokens: tokenRows.map((r) => ({
      teamId: r.team_id,
      id: r.id,
      tokenHash: r.token_hash,
      revokedAt: r.revoked_at,
    })),
    pages: await loadPages(tx, doc),
    aliasHolders: await loadAliasHolders(tx, doc),
  };
}

/** An alias names one page of the whole service (its public URL), so its holder may be in any workspace. */
async function loadAliasHolders(tx: EntityManager, doc: ImportDocument): Promise<ExistingState['aliasHolders']> {
  const aliases = (doc.pages ?? []).flatMap((page) => (page.alias_id ? [page.alias_id.toLowerCase()] : []));
  const rows = await tx.query<Array<{ team_id: string; id: string; alias_id: string }>>(
    ...named(`SELECT team_id, id::text, alias_id::text FROM pages WHERE alias_id = ANY(:aliases::uuid[])`, {
      aliases,
    }),
  );
  return new Map(rows.map((row) => [row.alias_id, { teamId: row.team_id, pageId: row.id }]));
}

function teamEntries(doc: ImportDocument): Array<{ team_id: string }> {
  const { members = [], tokens = [], projects = [], note_templates = [], pages = [], tags = [], cards = [] } = doc;
  return [...members, ...tokens, ...projects, ...note_templates, ...pages, ...tags, ...cards];
}

/** What the document asks of one workspace's pages: the ids, parents, projects and aliases it names. */
interface ListedPages {
  ids: string[];
  parents: string[];
  /** The projects of the pages listed at a project's root (their siblings are that root's pages). */
  rootProjects: string[];
  projects: string[];
}

function listedPages(doc: ImportDocument, teamId: string): ListedPages {
  const pages = (doc.pages ?? []).filter((p) => p.team_id === teamId);
  const unique = (values: Array<string | undefined>) => [...new Set(values.filter((v): v is string => !!v))];
  return {
    ids: unique(pages.map((p) => p.id)),
    parents: unique(pages.map((p) => p.parent_page_id)),
    rootProjects: unique(pages.filter((p) => !p.parent_page_id).map((p) => p.project_id)),
    projects: unique(pages.map((p) => p.project_id)),
  };
}

/** The projects the listed pages are stored in now (read without a lock: the locks come next). */
const STORED_PROJECTS = `
  SELECT COALESCE(array_agg(DISTINCT p.project_id), '{}') AS projects FROM pages p
   WHERE p.team_id = :teamId AND p.id = ANY(:ids::bigint[])`;

/**
 * The API's advisory locks of these projects, in the one order every tree writer takes them. The probe of
 * the workspace's projects puts the statement on the workspace's node on Citus, where the API's tree
 * writers take theirs (a statement that reads no table runs on the coordinator).
 */
const LOCK_PROJECTS = `
  SELECT array_agg(k) AS locked, EXISTS (SELECT 1 FROM projects p WHERE p.team_id = :teamId) AS on_workspace_node
    FROM (SELECT k, ${PROJECT_LOCK('k')} AS taken
            FROM (SELECT k FROM unnest(:projects::text[]) k ORDER BY k COLLATE "C" OFFSET 0) in_order) each_lock`;

/**
 * The pages the placement reads, locked: the listed ones and their subtrees (which follow them), their
 * parents and the siblings they are placed among, and every ancestor of those (a page's project and
 * archive state come from above it). The pages holding an alias the document names are aliasHolders.
 */
const PLACEMENT_PAGES = `
  WITH RECURSIVE
  below (id) AS (
    SELECT unnest(:ids::bigint[])
    UNION
    SELECT c.id FROM below b JOIN pages c ON c.team_id = :teamId AND c.parent_id = b.id
  ),
  named (id) AS (
    SELECT id FROM below
    UNION SELECT unnest(:parents::bigint[])
    UNION SELECT c.id FROM pages c WHERE c.team_id = :teamId AND c.parent_id = ANY(:parents::bigint[])
    UNION SELECT c.id FROM pages c
           WHERE c.team_id = :teamId AND c.parent_id IS NULL AND c.sort_key IS NOT NULL
             AND c.project_id = ANY(:rootProjects::text[])
  ),
  above (id) AS (
    SELECT id FROM named
    UNION
    SELECT p.parent_id FROM above a JOIN pages p ON p.team_id = :teamId AND p.id = a.id WHERE p.parent_id IS NOT NULL
  )
  SELECT p.team_id, p.id::text, p.project_id, p.parent_id::text, p.sort_key, p.alias_id,
         a.archive_root_id::text, a.former_parent_id::text, a.archived_by
    FROM pages p LEFT JOIN page_archives a ON a.team_id = :teamId AND a.page_id = p.id
   WHERE p.team_id = :teamId AND p.id IN (SELECT id FROM above)
   ORDER BY p.id
     FOR UPDATE OF p`;

/**
 * Per workspace, the pages the placement needs (PLACEMENT_PAGES), never the whole tree: under the advisory
 * locks of every project the listed pages are in or go to, as the API's tree writers take them, so no
 * move, creation or deletion through the API interleaves with the placement; and the pages' row locks.
 */
async function loadPages(tx: EntityManager, doc: ImportDocument): Promise<Map<string, StoredPage[]>> {
  const pages = new Map<string, StoredPage[]>();
  for (const teamId of new Set((doc.pages ?? []).map((p) => p.team_id))) {
    const listed = listedPages(doc, teamId);
    const storedProjects = async () =>
      (await tx.query<Array<{ projects: string[] }>>(...named(STORED_PROJECTS, { teamId, ids: listed.ids })))[0]
        .projects;
    const locked = new Set<string>();
    // A listed page moved to another project between the read and the locks: that one is locked too, then read again.
    for (let wanted = [...listed.projects, ...(await storedProjects())]; wanted.length > 0;) {
      const projects = [...new Set(wanted)].filter((project) => !locked.has(project));
      await tx.query(...named(LOCK_PROJECTS, { teamId, projects }));
      projects.forEach((project) => locked.add(project));
      wanted = (await storedProjects()).filter((project) => !locked.has(project));
    }
    const rows = await tx.query<PageRow[]>(...named(PLACEMENT_PAGES, { teamId, ...listed }));
    pages.set(teamId, rows.map(storedPage));
  }
  return pages;
}

function storedPage(row: PageRow): StoredPage {
  return {
    id: row.id,
    projectId: row.project_id,
    parentId: row.parent_id,
    sortKey: row.sort_key,
    aliasId: row.alias_id,
    archive: row.archive_root_id
      ? { rootId: row.archive_root_id, formerParentId: row.former_parent_id, archivedBy: row.archived_by! }
      : null,
  };
}
