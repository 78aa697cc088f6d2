import { seedCardScene } from '../cards/card-fixtures';
import { seedTemplate } from '../notes/note-template-fixtures';
import { pageId, seedPages } from '../pages/page-fixtures';
import { expectError } from '../support/expect-error';
import { useScene } from '../support/scene';

/**
 * Every GET sends the strong ETag of the stored version and answers a matching If-None-Match (weakly, or `*`)
 * with 304 and no body, whatever its Cache-Control says.
 */
describe('conditional GET', () => {
  const s = useScene();
  const get = (path: string, headers: Record<string, string> = {}) =>
    s.t.http.get(`/v1/${s.ws.teamId}/${path}`).set({ Authorization: s.ws.auth.member, ...headers });

  async function expectNotModified(path: string, ifNoneMatch: string): Promise<void> {
    const res = await get(path, { 'If-None-Match': ifNoneMatch }).expect(304);
    expect(res.text ?? '').toBe('');
  }

  /** Checks the ETag answers of an unchanged resource and returns its ETag. */
  async function expectConditional(path: string): Promise<string> {
    const etag = (await get(path).expect(200)).headers.etag;
    expect(etag).toMatch(/^".+"$/);
    for (const match of [etag, '*', `"other", ${etag}`, `W/${etag}`]) await expectNotModified(path, match);
    await get(path, { 'If-None-Match': etag, 'Cache-Control': 'no-cache' }).expect(304);
    await get(path, { 'If-None-Match': 'W/"not-it"' }).expect(200);
    return etag;
  }

  it('a card: 304 while it is unchanged, 200 with a new ETag once it changes', async () => {
    const { cardId, usable } = await seedCardScene(s.t.app, s.ws);
    const etag = await expectConditional(`cards/${cardId}`);
    await s.t.http
      .post(`/v1/${s.ws.teamId}/cards/${cardId}/tags`)
      .set('Authorization', s.ws.auth.member)
      .send({ id: usable[0] })
      .expect(204);
    const res = await get(`cards/${cardId}`, { 'If-None-Match': etag }).expect(200);
    expect(res.body.card.tags.map((tag: { id: string }) => tag.id)).toContain(usable[0]);
    expect(res.headers.etag).not.toBe(etag);
  });

  it('a note template answers the same way', async () => {
    await expectConditional(`notes/templates/${await seedTemplate(s.t.app, s.ws)}`);
  });

  it('a page: every read issues a new collaboration token, and the ETag stays the same', async () => {
    const [id] = await seedPages(s.t.app, s.ws, [{ id: pageId() }]);
    const etag = await expectConditional(`pages/${id}`);
    await new Promise((resolve) => setTimeout(resolve, 2)); // the token's expiry is in milliseconds
    const [first, second] = [await get(`pages/${id}`).expect(200), await get(`pages/${id}`).expect(200)];
    expect(second.body.page.collaboration.token).not.toBe(first.body.page.collaboration.token);
    expect([first.headers.etag, second.headers.etag]).toEqual([etag, etag]);
  });

  it('an error stays an error whatever If-None-Match says', async () => {
    expectError(await get('pages/987654321', { 'If-None-Match': '*' }), 'PAGE_NOT_FOUND');
  });

  it('a PATCH ignores If-None-Match', async () => {
    const [id] = await seedPages(s.t.app, s.ws, [{ id: pageId() }]);
    const res = await s.t.http
      .patch(`/v1/${s.ws.teamId}/pages/${id}`)
      .set({ Authorization: s.ws.auth.member, 'If-None-Match': '*' })
      .send({ title: 'Patched' })
      .expect(200);
    expect(res.body.page.title).toBe('Patched');
  });
});
