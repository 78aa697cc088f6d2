import { seedCardScene } from '../cards/card-fixtures';
import { useScene } from '../support/scene';
import { freshName } from './tag-fixtures';

/**
 * The tag calls of mcp-superthread-plus (src/api/tags.ts and src/api/cards.ts), with its own request
 * shapes: every request carries `Content-Type: application/json` (a GET and a DELETE too, with no body),
 * the query string is built with URLSearchParams, and a 204 or an empty body reads as success.
 */
describe('mcp-superthread-plus tag calls', () => {
  const s = useScene();
  const request = (method: 'get' | 'post' | 'patch' | 'delete', path: string, body?: object) => {
    const call = s.t.http[method](`/v1/${s.ws.teamId}${path}`)
      .set('Authorization', s.ws.auth.member)
      .set('Content-Type', 'application/json');
    return body === undefined ? call : call.send(JSON.stringify(body));
  };

  /** CardResource.getTags: project_id only when given, all whenever it is not undefined. */
  const getTags = (params?: { project_id?: string; all?: boolean }) => {
    const query = new URLSearchParams();
    if (params?.project_id) query.append('project_id', params.project_id);
    if (params?.all !== undefined) query.append('all', String(params.all));
    const text = query.toString();
    return request('get', `/tags${text ? `?${text}` : ''}`);
  };

  it('tag create, update, card_get_tags (project_id, all), card_remove_tag, tag delete', async () => {
    const { cardId } = await seedCardScene(s.t.app, s.ws);
    const wide = (await request('post', '/tags', { name: freshName('Wide'), color: 'red' }).expect(201)).body.tag;
    const own = (
      await request('post', '/tags', { name: freshName('Own'), color: '#00ff00', project_id: s.ws.projectId }).expect(
        201,
      )
    ).body.tag;
    const renamed = await request('patch', `/tags/${own.id}`, { name: freshName('Own renamed') }).expect(200);
    expect(renamed.body.tag).toMatchObject({ id: own.id, color: '#00ff00', project_id: s.ws.projectId });
    await request('patch', `/tags/${wide.id}`, { color: 'blue' }).expect(200);

    const listed = async (params?: { project_id?: string; all?: boolean }) => {
      const { body } = await getTags(params).expect(200);
      expect(body).toEqual({ tags: expect.any(Array), count: body.tags.length, cursor: null });
      return body.tags.map((t: { id: string }) => t.id) as string[];
    };
    expect(await listed()).toContain(wide.id);
    expect(await listed()).not.toContain(own.id);
    expect(await listed({ project_id: s.ws.projectId })).toEqual(expect.arrayContaining([wide.id, own.id]));
    expect(await listed({ all: true })).toEqual(expect.arrayContaining([wide.id, own.id]));
    expect(await listed({ project_id: s.ws.projectId, all: false })).toEqual(expect.arrayContaining([wide.id, own.id]));

    await request('post', `/cards/${cardId}/tags`, { ids: [wide.id, own.id] }).expect(204);
    const removed = await request('delete', `/cards/${cardId}/tags/${own.id}`).expect(204);
    expect(removed.text).toBe('');
    await request('delete', `/tags/${wide.id}`).expect(204);
    const card = await request('get', `/cards/${cardId}`).expect(200);
    expect(card.body.card.tags).toEqual([]);
  });
});
