import type { SqlText } from '../support/sql-text';
import { blockProblems } from './sibling-block-problems';
import { treeProblems } from './tree-problems';

/** A page as the tree's tables hold it. */
export interface StoredPage {
  id: string;
  project_id: string;
  parent_id: string | null;
  sort_key: string | null;
  title: string;
  time_updated: string;
  /** Its page_archives row, when it is archived. */
  archive_root_id: string | null;
  former_parent_id: string | null;
}

const STORED_PAGE = `
  SELECT p.id::text, p.project_id, p.parent_id::text, p.sort_key, p.title, p.time_updated::text,
         a.archive_root_id::text, a.former_parent_id::text
    FROM pages p LEFT JOIN page_archives a ON a.team_id = p.team_id AND a.page_id = p.id
   WHERE p.team_id = $1`;

/** One workspace's tree as the database has it, read on `db` (a test's transaction sees what it wrote). */
export function treeRows(db: SqlText, teamId: string) {
  return {
    /** The active pages of one place in sibling order; parentId null: the project's root. */
    children: async (projectId: string, parentId: string | null): Promise<string[]> =>
      (await placeKeys(db, teamId, projectId, parentId)).map((row) => row.id),
    /** The length of the longest sort key among them. */
    longestKey: async (projectId: string, parentId: string | null): Promise<number> =>
      Math.max(0, ...(await placeKeys(db, teamId, projectId, parentId)).map((row) => row.sort_key.length)),
    page: async (id: string): Promise<StoredPage> => (await pages(db, teamId, [id]))[0],
    /** Several pages, in the order of `ids`. */
    pages: (ids: string[]): Promise<StoredPage[]> => pages(db, teamId, ids),
    /** Every page of the workspace, by id: what a refusal must leave as it found. */
    all: (): Promise<StoredPage[]> => db.query<StoredPage>(`${STORED_PAGE} ORDER BY p.id`, [teamId]),
    /** Everything wrong with the tree and its page_sibling_blocks (treeProblems, blockProblems); none: []. */
    problems: async (): Promise<string[]> => [
      ...(await treeProblems(db, teamId)),
      ...(await blockProblems(db, teamId)),
    ],
    /** The page_sibling_blocks of one place, in key order. */
    blocks: (projectId: string, parentId: string | null): Promise<Array<{ lower_key: string; size: number }>> =>
      db.query(
        `SELECT lower_key, size FROM page_sibling_blocks
          WHERE team_id = $1 AND project_id = $2 AND parent_key = COALESCE($3::bigint, -1)
          ORDER BY lower_key`,
        [teamId, projectId, parentId],
      ),
  };
}

async function pages(db: SqlText, teamId: string, ids: string[]): Promise<StoredPage[]> {
  const found = await db.query<StoredPage>(`${STORED_PAGE} AND p.id = ANY ($2::bigint[])`, [teamId, ids]);
  return ids.map((id) => {
    const page = found.find((row) => row.id === id);
    if (!page) throw new Error(`No page ${id} in ${teamId}`);
    return page;
  });
}

function placeKeys(db: SqlText, teamId: string, projectId: string, parentId: string | null) {
  return db.query<{ id: string; sort_key: string }>(
    `SELECT id::text, sort_key FROM pages
      WHERE team_id = $1 AND project_id = $2 AND COALESCE(parent_id, -1) = COALESCE($3::bigint, -1)
        AND sort_key IS NOT NULL
      ORDER BY sort_key`,
    [teamId, projectId, parentId],
  );
}
