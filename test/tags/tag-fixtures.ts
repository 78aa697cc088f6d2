import { TestApp } from '../support/test-app';
import { Workspace } from '../support/fixtures';

/** The tag routes of one workspace, as `auth` calls them. */
export function tagClient(t: TestApp, ws: Workspace) {
  const base = `/v1/${ws.teamId}`;
  return {
    list: (query: Record<string, string> = {}, auth = ws.auth.member) =>
      t.http.get(`${base}/tags`).query(query).set('Authorization', auth),
    create: (body: unknown, auth = ws.auth.member) =>
      t.http
        .post(`${base}/tags`)
        .set('Authorization', auth)
        .send(body as object),
    update: (tagId: string, body: unknown, auth = ws.auth.member) =>
      t.http
        .patch(`${base}/tags/${tagId}`)
        .set('Authorization', auth)
        .send(body as object),
    remove: (tagId: string, auth = ws.auth.member) => t.http.delete(`${base}/tags/${tagId}`).set('Authorization', auth),
    untag: (cardId: string, tagId: string, auth = ws.auth.member) =>
      t.http.delete(`${base}/cards/${cardId}/tags/${tagId}`).set('Authorization', auth),
    attach: (cardId: string, ids: string[], auth = ws.auth.member) =>
      t.http.post(`${base}/cards/${cardId}/tags`).set('Authorization', auth).send({ ids }),
    card: async (cardId: string) =>
      (await t.http.get(`${base}/cards/${cardId}`).set('Authorization', ws.auth.owner).expect(200)).body.card as {
        tags: Array<{ id: string; total_cards: number }>;
        time_updated: number;
      },
  };
}

let next = 0;
/** A tag name no other test of this process uses. */
export const freshName = (prefix = 'Tag') => `${prefix} ${process.pid}-${++next}`;
