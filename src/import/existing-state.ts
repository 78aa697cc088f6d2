import { EntityManager } from 'typeorm';
import { hashTokenSecret } from '../auth/token-secret';
import { ImportDocument } from './dto/import-document.dto';
import { named } from '../database/named-parameters';

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
  /** Every page of each workspace the document lists pages for, locked for this transaction. */
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
    pages: await loadPages(tx, [...new Set((doc.pages ?? []).map((p) => p.team_id))]),
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

/** Locks the pages so that no move through the API interleaves with the import's placement. */
async function loadPages(tx: EntityManager, teams: string[]): Promise<Map<string, StoredPage[]>> {
  const rows: PageRow[] = await tx.query(
    ...named(
      `SELECT p.team_id, p.id::text, p.project_id, p.parent_id::text, p.sort_key, p.alias_id,
            a.archive_root_id::text, a.former_parent_id::text, a.archived_by
       FROM pages p LEFT JOIN page_archives a ON a.team_id = p.team_id AND a.page_id = p.id
      WHERE p.team_id = ANY(:teams)
      ORDER BY p.team_id, p.id
        FOR UPDATE OF p`,
      { teams },
    ),
  );
  const pages = new Map<string, StoredPage[]>(teams.map((team) => [team, []]));
  for (const row of rows) {
    pages.get(row.team_id)!.push({
      id: row.id,
      projectId: row.project_id,
      parentId: row.parent_id,
      sortKey: row.sort_key,
      aliasId: row.alias_id,
      archive: row.archive_root_id
        ? { rootId: row.archive_root_id, formerParentId: row.former_parent_id, archivedBy: row.archived_by! }
        : null,
    });
  }
  return pages;
}
