import { randomBytes } from 'node:crypto';
import { randomBelow, seededRandom } from '../support/random';

/** A page as the import document lists it (see /work/shared/spec/decisions.md, "Data in and out"). */
export interface PageEntry {
  team_id: string;
  id: string;
  project_id: string;
  parent_page_id: string;
  title: string;
  owner_id: string;
}

export interface WorkspaceShape {
  /** Pages in all, the ones below included. */
  total: number;
  /** Children of the one parent whose siblings get reordered (project 1). */
  family: number;
  /** Length of the chain of pages, each the child of the one before (project 2). */
  chainDepth: number;
  /** Projects the remaining pages are spread over, as bushy trees (projects 3, 4, ...). */
  otherProjects: number;
  /** Seed of the tree shapes. */
  seed: number;
}

/** One seeded workspace: its import documents and where the pages the benchmark uses are. */
export interface PageWorkspace {
  teamId: string;
  userId: string;
  /** `Bearer ...` of a member's token. */
  auth: string;
  pages: PageEntry[];
  /** Every page id (the population of "a random page"). */
  pageIds: string[];
  /** The reordered family: a root page of project 1 and its children, in order. */
  family: { parent: string; children: string[] };
  /** chain[d - 1] is the page at depth d (chain[0] is a root of project 2). */
  chain: string[];
  /** A leaf that moves between chain pages around the middle of the chain; `home` is its parent at first. */
  mover: { id: string; home: string; homeDepth: number };
  /** The tree's depth, counting roots as 1. */
  maxDepth: number;
}

/**
 * Plans a workspace of `shape.total` pages: project 1 holds one root with `family` children; project 2
 * a chain `chainDepth` pages deep with one extra leaf (the mover) under its middle page; the rest is
 * spread over `otherProjects` projects as trees of 25 roots each, every page having 0 to 9 children
 * (breadth first, so a few levels deep). Page ids are 1..total in the order listed: parents first.
 */
export function planPageWorkspace(label: string, shape: WorkspaceShape): PageWorkspace {
  const teamId = `bench${label}${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const userId = `${teamId}-member`;
  const random = seededRandom(shape.seed);
  const pages: PageEntry[] = [];
  const depth = new Map<string, number>();
  const add = (projectId: string, parent: string | null): string => {
    const id = String(pages.length + 1);
    pages.push({
      team_id: teamId,
      id,
      project_id: projectId,
      parent_page_id: parent ?? '',
      title: `Page ${id}`,
      owner_id: userId,
    });
    depth.set(id, parent === null ? 1 : depth.get(parent)! + 1);
    return id;
  };

  const familyParent = add('1', null);
  const children = Array.from({ length: shape.family }, () => add('1', familyParent));

  const chain: string[] = [];
  for (let d = 0; d < shape.chainDepth; d++) chain.push(add('2', d === 0 ? null : chain[d - 1]));
  const homeDepth = Math.ceil(shape.chainDepth / 2);
  const mover = { id: add('2', chain[homeDepth - 1]), home: chain[homeDepth - 1], homeDepth };

  const rest = shape.total - pages.length;
  if (rest < 0)
    throw new Error(
      `${label}: ${shape.total} pages cannot hold a family of ${shape.family} and a chain of ${shape.chainDepth}`,
    );
  for (let p = 0; p < shape.otherProjects; p++) {
    const projectId = String(p + 3);
    let quota = Math.floor(rest / shape.otherProjects) + (p < rest % shape.otherProjects ? 1 : 0);
    const queue: string[] = [];
    while (quota > 0) {
      if (queue.length === 0) {
        for (let r = 0; r < 25 && quota > 0; r++, quota--) queue.push(add(projectId, null));
        continue;
      }
      const parent = queue.shift()!;
      for (let c = randomBelow(random, 10); c > 0 && quota > 0; c--, quota--) queue.push(add(projectId, parent));
    }
  }

  return {
    teamId,
    userId,
    auth: `Bearer bench-${randomBytes(16).toString('hex')}`,
    pages,
    pageIds: pages.map((p) => p.id),
    family: { parent: familyParent, children },
    chain,
    mover,
    maxDepth: Math.max(...depth.values()),
  };
}

/** The projects a workspace's pages use. */
export const projectIds = (ws: PageWorkspace): string[] => [...new Set(ws.pages.map((p) => p.project_id))].sort();

/**
 * The import documents that create the workspace: the first one the workspace, its member, token
 * and projects, then the pages `batch` at a time in the order listed (a parent is always in an
 * earlier document or earlier in the same one, and new pages go after the siblings already stored).
 */
export function importDocuments(ws: PageWorkspace, batch: number): object[] {
  const secret = ws.auth.slice('Bearer '.length);
  const docs: object[] = [
    {
      workspaces: [{ id: ws.teamId, name: `Pages benchmark ${ws.pages.length}` }],
      users: [{ id: ws.userId, name: 'Bench member', email: `member@${ws.teamId}.example.com` }],
      members: [{ team_id: ws.teamId, user_id: ws.userId, role: 'member' }],
      tokens: [
        {
          id: `${ws.teamId}-token`,
          team_id: ws.teamId,
          user_id: ws.userId,
          token: secret,
          expires_at: null,
          actor: { type: 'user' },
        },
      ],
      projects: projectIds(ws).map((id) => ({ team_id: ws.teamId, id, title: `Project ${id}` })),
    },
  ];
  for (let start = 0; start < ws.pages.length; start += batch)
    docs.push({ pages: ws.pages.slice(start, start + batch) });
  return docs;
}
