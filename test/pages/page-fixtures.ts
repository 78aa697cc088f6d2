import { INestApplicationContext } from '@nestjs/common';
import { importDocument, Workspace } from '../support/fixtures';

let next = 1;
/** Page ids unique within this test file's process. */
export const pageId = () => String(next++);

export interface PageSeed {
  id?: string;
  parent?: string;
  project?: string;
  title?: string;
  archived?: boolean;
  members?: Array<{ user_id: string; role?: string }>;
  [field: string]: unknown;
}

/** Imports pages in order (each placed last under its parent); returns their ids. */
export async function seedPages(app: INestApplicationContext, ws: Workspace, pages: PageSeed[]): Promise<string[]> {
  const entries = pages.map(({ id, parent, project, title, archived, members, ...rest }) => ({
    team_id: ws.teamId,
    id: id ?? pageId(),
    project_id: project ?? ws.projectId,
    parent_page_id: parent ?? '',
    title: title ?? 'A page',
    owner_id: ws.users.owner,
    archived: archived ?? false,
    members: members ?? [],
    ...rest,
  }));
  await importDocument(app, { projects: [{ team_id: ws.teamId, id: '2', title: 'Other project' }], pages: entries });
  return entries.map((e) => e.id);
}

/** A root page with `n` children, in order. */
export async function seedFamily(
  app: INestApplicationContext,
  ws: Workspace,
  n: number,
): Promise<{ root: string; children: string[] }> {
  const root = pageId();
  const children = Array.from({ length: n }, () => pageId());
  await seedPages(app, ws, [{ id: root }, ...children.map((id, i) => ({ id, parent: root, title: `Child ${i}` }))]);
  return { root, children };
}
