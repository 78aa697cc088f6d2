import { useScene } from '../support/scene';
import { seedHigh } from './lifecycle-fixtures';

/**
 * The page lifecycle calls of mcp-superthread-plus (src/tools/pages.ts and src/api/pages.ts), as that
 * client sends them: every request with `Content-Type: application/json` and a bearer token, the body
 * JSON.stringify of the tool's arguments with the absent ones left out, DELETE without a body (it
 * reads a 204 as success).
 */
describe('mcp-superthread-plus: page_create, page_duplicate, page_delete', () => {
  const s = useScene();
  const send = (method: 'post' | 'delete', path: string, params?: object) => {
    const request = s.t.http[method](`/v1/${s.ws.teamId}${path}`)
      .set('Authorization', s.ws.auth.member)
      .set('Content-Type', 'application/json');
    return params === undefined ? request : request.send(JSON.stringify(params));
  };

  it('page_create with every argument the tool takes', async () => {
    const [parent] = await seedHigh(s.t.app, s.ws, [{}]);
    const res = await send('post', '/pages', {
      project_id: s.ws.projectId,
      title: 'From the agent',
      content: '<p>Written by a tool</p>',
      schema: 1,
      font: 'serif',
      cover_image: { type: 'image', src: 'https://example.com/cover.png', positionY: 40, object_fit: 'cover' },
      icon: { type: 'emoji', src: '🤖' },
      parent_page_id: parent,
      position: 0,
      is_public: false,
    }).expect(201);
    expect(res.body.page).toMatchObject({
      title: 'From the agent',
      content: '<p>Written by a tool</p>',
      parent_page_id: parent,
      position: 0,
      project_id: s.ws.projectId,
    });
  });

  it('page_create with only the required project_id, and with "" for the root', async () => {
    await send('post', '/pages', { project_id: s.ws.projectId }).expect(201);
    const root = await send('post', '/pages', { project_id: s.ws.projectId, parent_page_id: '' }).expect(201);
    expect(root.body.page.parent_page_id).toBe('');
  });

  it('page_duplicate: project_id always, title, parent_page_id and position when given', async () => {
    const [original, parent] = await seedHigh(s.t.app, s.ws, [{ title: 'Original' }, {}]);
    const plain = await send('post', `/pages/${original}/copy`, { project_id: s.ws.projectId }).expect(201);
    expect(plain.body.page).toMatchObject({ title: 'Original', parent_page_id: '' });
    const placed = await send('post', `/pages/${original}/copy`, {
      project_id: s.ws.projectId,
      title: 'Copy',
      parent_page_id: parent,
      position: 0,
    }).expect(201);
    expect(placed.body.page).toMatchObject({ title: 'Copy', parent_page_id: parent, position: 0 });
  });

  it('page_delete: DELETE without a body, 204', async () => {
    const [page] = await seedHigh(s.t.app, s.ws, [{}]);
    const res = await send('delete', `/pages/${page}`).expect(204);
    expect(res.text).toBe('');
  });
});
