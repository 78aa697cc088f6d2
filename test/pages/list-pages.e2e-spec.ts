import { expectError } from '../support/expect-error';
import { seedWorkspace, Workspace } from '../support/fixtures';
import { useScene } from '../support/scene';
import { pageId, seedPages } from './page-fixtures';

describe('GET /v1/{team_id}/pages', () => {
  const s = useScene();
  const list = (ws: Workspace, query: Record<string, string | number> = {}, auth = ws.auth.member) =>
    s.t.http.get(`/v1/${ws.teamId}/pages`).query(query).set('Authorization', auth);
  const titles = (res: { body: { pages: Array<{ title: string }> } }) => res.body.pages.map((p) => p.title);
  /** Every page of a list, following its cursor to the end. */
  const walk = async (ws: Workspace, query: Record<string, string | number>, auth = ws.auth.member) => {
    const seen: Array<{ id: string; title: string }> = [];
    let cursor: string | null = null;
    do {
      const res: { body: { pages: Array<{ id: string; title: string }>; count: number; cursor: string | null } } =
        await list(ws, cursor ? { ...query, cursor } : query, auth).expect(200);
      expect(res.body.count).toBe(res.body.pages.length);
      seen.push(...res.body.pages);
      cursor = res.body.cursor;
    } while (cursor);
    return seen;
  };

  /** A workspace of its own with two projects: 1: A (A1 (A1a), A2), B (B1); 2: C. */
  let ws: Workspace;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    ws = await seedWorkspace(s.t.app);
    for (const name of ['A', 'A1', 'A1a', 'A2', 'B', 'B1', 'C']) ids[name] = pageId();
    const parent: Record<string, string> = { A1: 'A', A1a: 'A1', A2: 'A', B1: 'B' };
    await seedPages(
      s.t.app,
      ws,
      Object.keys(ids).map((name) => ({
        id: ids[name],
        title: name,
        parent: parent[name] ? ids[parent[name]] : undefined,
        project: name === 'C' ? '2' : undefined,
        content: `the content of ${name}`,
        members: name.startsWith('A1') ? [{ user_id: ws.users.guest }] : [],
      })),
    );
  });

  it('lists active pages depth-first, siblings by position, projects by id, as summaries', async () => {
    const res = await list(ws).expect(200);
    expect(titles(res)).toEqual(['A', 'A1', 'A1a', 'A2', 'B', 'B1', 'C']);
    expect(res.body).toMatchObject({ count: 7, cursor: null });
    const a1 = res.body.pages[1];
    expect(a1).toMatchObject({ id: ids.A1, parent_page_id: ids.A, position: 0, project_id: '1', team_id: ws.teamId });
    expect(res.body.pages[3]).toMatchObject({ parent_page_id: ids.A, position: 1 });
    expect(res.body.pages[0]).toMatchObject({ parent_page_id: '', position: 0 });
    for (const page of res.body.pages) {
      expect(page).not.toHaveProperty('content');
      expect(page).not.toHaveProperty('collaboration');
    }
    const { page } = (await s.t.http.get(`/v1/${ws.teamId}/pages/${ids.A1}`).set('Authorization', ws.auth.member)).body;
    const { content: _content, collaboration: _collaboration, ...summary } = page;
    expect(a1).toEqual(summary);
  });

  it('follows the cursor in answers of `limit`, the same order', async () => {
    const first = await list(ws, { limit: 2 }).expect(200);
    expect(titles(first)).toEqual(['A', 'A1']);
    expect(first.body.cursor).toEqual(expect.any(String));
    expect((await walk(ws, { limit: 2 })).map((p) => p.title)).toEqual(['A', 'A1', 'A1a', 'A2', 'B', 'B1', 'C']);
    expect((await walk(ws, { limit: 1 })).map((p) => p.title)).toEqual(['A', 'A1', 'A1a', 'A2', 'B', 'B1', 'C']);
  });

  it('filters by project, by parent, and the root pages of a project', async () => {
    expect(titles(await list(ws, { project_id: '1' }).expect(200))).toEqual(['A', 'A1', 'A1a', 'A2', 'B', 'B1']);
    expect(titles(await list(ws, { project_id: '2' }).expect(200))).toEqual(['C']);
    expect(titles(await list(ws, { parent_page_id: ids.A }).expect(200))).toEqual(['A1', 'A2']);
    expect(titles(await list(ws, { parent_page_id: '', project_id: '1' }).expect(200))).toEqual(['A', 'B']);
    expect((await walk(ws, { parent_page_id: ids.A, limit: 1 })).map((p) => p.title)).toEqual(['A1', 'A2']);
    expect((await walk(ws, { project_id: '1', limit: 4 })).map((p) => p.title)).toEqual([
      'A',
      'A1',
      'A1a',
      'A2',
      'B',
      'B1',
    ]);
  });

  it('shows a guest only the pages that list them; a viewer reads them all', async () => {
    expect(titles(await list(ws, {}, ws.auth.guest).expect(200))).toEqual(['A1', 'A1a']);
    expect((await walk(ws, { limit: 1 }, ws.auth.guest)).map((p) => p.title)).toEqual(['A1', 'A1a']);
    expect(titles(await list(ws, { parent_page_id: ids.A }, ws.auth.guest).expect(200))).toEqual(['A1']);
    expect(await list(ws, {}, ws.auth.viewer).expect(200)).toMatchObject({ body: { count: 7 } });
  });

  it('lists archived pages alone, newest archive first, and recently changed pages newest first', async () => {
    const own = await seedWorkspace(s.t.app);
    const [x, y, z] = await seedPages(s.t.app, own, [{ title: 'X' }, { title: 'Y' }, { title: 'Z' }]);
    const patch = (id: string, body: object) =>
      s.t.http.patch(`/v1/${own.teamId}/pages/${id}`).set('Authorization', own.auth.member).send(body).expect(200);
    await patch(y, { archived: true });
    await patch(x, { archived: true });
    expect(titles(await list(own).expect(200))).toEqual(['Z']);
    expect(titles(await list(own, { archived: 'false' }).expect(200))).toEqual(['Z']);
    const archived = await list(own, { archived: 'true' }).expect(200);
    expect(titles(archived)).toEqual(['X', 'Y']);
    expect(archived.body.pages[0]).toMatchObject({ archived: { user_id: own.users.member, parent_page_id: '' } });
    expect(archived.body.pages[0]).not.toHaveProperty('position');
    expect((await walk(own, { archived: 'true', limit: 1 })).map((p) => p.title)).toEqual(['X', 'Y']);
    expect(titles(await list(own, { archived: 'true', project_id: '2' }).expect(200))).toEqual([]);

    await patch(z, { title: 'Z2' });
    const recent = await walk(own, { updated_recently: 'true', limit: 1 });
    expect(recent.map((p) => p.title)).toEqual(['Z2']);
    const recentArchived = await walk(own, { updated_recently: 'true', archived: 'true', limit: 1 });
    expect(recentArchived.map((p) => p.title)).toEqual(['X', 'Y']);
    expect(x).not.toBe(z);
  });

  it('refuses an unknown parameter and values of the wrong type or out of bounds (400)', async () => {
    expectError(await list(ws, { archive: 'true' }), 'UNKNOWN_QUERY_PARAMETER', /archive/);
    expectError(await list(ws, { archived: 'yes' }), 'VALIDATION_FAILED', /archived/);
    expectError(await list(ws, { updated_recently: '1' }), 'VALIDATION_FAILED', /updated_recently/);
    for (const limit of ['ten', '0', '101', '-1', '1.5'])
      expectError(await list(ws, { limit }), 'VALIDATION_FAILED', /limit/);
    expectError(await list(ws, { parent_page_id: '' }), 'VALIDATION_FAILED', /project_id/);
    expectError(await list(ws, { parent_page_id: 'x1' }), 'VALIDATION_FAILED', /parent_page_id/);
    expectError(await list(ws, { project_id: 'a b' }), 'VALIDATION_FAILED', /project_id/);
    expectError(await list(ws, { project_id: '404', archived: 'yes' }), 'VALIDATION_FAILED', /archived/);
  });

  it('refuses a cursor it did not make, or made for other filters (400 INVALID_CURSOR)', async () => {
    const { cursor } = (await list(ws, { limit: 1 }).expect(200)).body;
    expectError(await list(ws, { cursor, project_id: '1' }), 'INVALID_CURSOR');
    expectError(await list(ws, { cursor, archived: 'true' }), 'INVALID_CURSOR');
    expectError(await list(ws, { cursor: 'not-a-cursor' }), 'INVALID_CURSOR');
    const forged = (body: object) => Buffer.from(JSON.stringify(body)).toString('base64url');
    const real = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as { l: string; f: string; p: unknown[] };
    expectError(await list(ws, { cursor: forged({ ...real, l: 'tags' }) }), 'INVALID_CURSOR');
    expectError(
      await list(ws, { cursor: forged({ ...real, p: ['tree', Date.now(), '1:1:', null, ['1; drop'], ['a']] }) }),
      'INVALID_CURSOR',
    );
    expectError(await list(ws, { cursor: forged({ ...real, p: ['timed', '1', '2', '3'] }) }), 'INVALID_CURSOR');
    expectError(
      await list(ws, { cursor: forged({ ...real, p: ['tree', Date.now() - 25 * 3_600_000, '1:1:', null, [], []] }) }),
      'INVALID_CURSOR',
    );
    const other = (await list(s.other, { limit: 1 }).expect(200)).body.cursor as string | null;
    if (other) expect((await list(ws, { cursor: other })).status).toBe(200);
    // false is the default: a cursor made without it serves with it.
    expect((await list(ws, { cursor, archived: 'false' })).status).toBe(200);
  });

  it('answers 404 for a project or parent that names nothing in the workspace', async () => {
    expectError(await list(ws, { project_id: 'nope' }), 'PROJECT_NOT_FOUND', /nope/);
    expectError(await list(ws, { parent_page_id: '999999999' }), 'PARENT_PAGE_NOT_FOUND', /999999999/);
    expectError(await list(ws, { parent_page_id: '99999999999999999999' }), 'VALIDATION_FAILED');
    expectError(await list(ws, { parent_page_id: '9999999999999999999' }), 'PARENT_PAGE_NOT_FOUND');
    const [foreign] = await seedPages(s.t.app, s.other, [{}]);
    expectError(await list(ws, { parent_page_id: foreign }), 'PARENT_PAGE_NOT_FOUND');
    expect(titles(await list(ws, { parent_page_id: ids.C, project_id: '1' }).expect(200))).toEqual([]);
  });

  it('refuses a caller of another workspace (403) and no token (401)', async () => {
    expectError(await list(ws, {}, s.other.auth.owner), 'ACCESS_DENIED');
    expectError(await s.t.http.get(`/v1/${ws.teamId}/pages`), 'UNAUTHENTICATED');
  });

  it("answers mcp-superthread-plus's page_get_all (PageResource.list) as it sends it", async () => {
    // Its query: URLSearchParams of project_id and String(archived); its headers: a Bearer token and JSON.
    const pageGetAll = (params: { project_id?: string; archived?: boolean }) => {
      const query = new URLSearchParams();
      if (params.project_id) query.append('project_id', params.project_id);
      if (params.archived !== undefined) query.append('archived', String(params.archived));
      return s.t.http
        .get(`/v1/${ws.teamId}/pages?${query.toString()}`)
        .set('Authorization', ws.auth.member)
        .set('Content-Type', 'application/json');
    };
    expect(titles(await pageGetAll({ project_id: '1', archived: false }).expect(200))).toEqual([
      'A',
      'A1',
      'A1a',
      'A2',
      'B',
      'B1',
    ]);
    expect(titles(await pageGetAll({ project_id: '2', archived: true }).expect(200))).toEqual([]);
  });
});
