import { Scene } from '../support/scene';
import { PageSeed, seedPages } from '../pages/page-fixtures';

export interface SharedPage {
  id: string;
  aliasId: string;
  /** The path of public_settings.url: what the service serves. */
  path: string;
}

/** Seeds a page through the import, then shares it as a client does: PATCH is_public (and robots). */
export async function sharePage(s: Scene, seed: PageSeed, robots?: string[]): Promise<SharedPage> {
  const [id] = await seedPages(s.t.app, s.ws, [seed]);
  const res = await s.t.http
    .patch(`/v1/${s.ws.teamId}/pages/${id}`)
    .set('Authorization', s.ws.auth.member)
    .send({ is_public: true, ...(robots ? { public_settings: { robots } } : {}) })
    .expect(200);
  const page = res.body.page as { alias_id: string; public_settings: { url: string } };
  return { id, aliasId: page.alias_id, path: new URL(page.public_settings.url).pathname };
}
