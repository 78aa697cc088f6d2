import { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Http } from '../support/test-app';
import { Workspace } from '../support/fixtures';
import { PageSeed, seedPages } from './page-fixtures';

let next = 1;
/**
 * Ids for imported pages, counting down from far above anything created in a test: the service gives a
 * new page the id after the workspace's highest, so seeds counting up would meet the ids it hands out.
 */
export const seedId = () => String(9_000_000_000_000 - next++);

/** seedPages with ids from seedId. */
export function seedHigh(app: INestApplicationContext, ws: Workspace, pages: PageSeed[]): Promise<string[]> {
  return seedPages(
    app,
    ws,
    pages.map((page) => ({ ...page, id: page.id ?? seedId() })),
  );
}

/** The requests of the lifecycle routes, for one workspace. */
export function lifecycle(http: Http, ws: Workspace) {
  const base = `/v1/${ws.teamId}/pages`;
  return {
    create: (body: object, auth = ws.auth.member) => http.post(base).set('Authorization', auth).send(body),
    copy: (id: string, body?: object, auth = ws.auth.member) => {
      const request = http.post(`${base}/${id}/copy`).set('Authorization', auth);
      return body === undefined ? request : request.send(body);
    },
    remove: (id: string, auth = ws.auth.member) => http.delete(`${base}/${id}`).set('Authorization', auth),
    get: (id: string, auth = ws.auth.member) => http.get(`${base}/${id}`).set('Authorization', auth),
    patch: (id: string, body: object, auth = ws.auth.member) =>
      http.patch(`${base}/${id}`).set('Authorization', auth).send(body),
  };
}

/** How many rows of the workspace's pages and page members there are: what a refusal must leave alone. */
export async function pageCounts(
  app: INestApplicationContext,
  ws: Workspace,
): Promise<{ pages: number; members: number }> {
  const [row] = await app.get(DataSource).query<Array<{ pages: number; members: number }>>(
    `SELECT (SELECT count(*) FROM pages WHERE team_id = $1)::int AS pages,
            (SELECT count(*) FROM page_members WHERE team_id = $1)::int AS members`,
    [ws.teamId],
  );
  return row;
}
