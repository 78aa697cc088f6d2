import { expectError } from '../support/expect-error';
import { importDocument, seedWorkspace, Workspace } from '../support/fixtures';
import { useScene } from '../support/scene';
import { tagClient } from './tag-fixtures';

describe('GET /v1/{team_id}/tags', () => {
  const s = useScene();
  let ws: Workspace;
  /** Names in the order the list shows them (case ignored), each once per scope. */
  const wide = ['alpha', 'Beta', 'beta two', 'Gamma', 'zeta'];
  const own = ['Alpha', 'delta'];
  const elsewhere = ['omega'];
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ws = await seedWorkspace(s.t.app);
    let id = 100;
    const tag = (name: string, project_id: string | null) => {
      ids[`${project_id}:${name}`] = String(++id);
      return { team_id: ws.teamId, id: String(id), project_id, name, color: 'red' };
    };
    await importDocument(s.t.app, {
      projects: [{ team_id: ws.teamId, id: '2', title: 'Two' }],
      tags: [
        ...wide.map((n) => tag(n, null)),
        ...own.map((n) => tag(n, ws.projectId)),
        ...elsewhere.map((n) => tag(n, '2')),
      ],
    });
  });
  const api = () => tagClient(s.t, ws);
  const names = (body: { tags: Array<{ name: string }> }) => body.tags.map((t) => t.name);

  it('without project_id: the workspace-wide tags by name ignoring case, every field', async () => {
    const { body } = await api().list().expect(200);
    expect(names(body)).toEqual(wide);
    expect(body).toMatchObject({ count: 5, cursor: null });
    expect(body.tags[0]).toEqual({
      id: ids['null:alpha'],
      team_id: ws.teamId,
      project_id: null,
      name: 'alpha',
      slug: 'alpha',
      color: 'red',
      total_cards: 0,
    });
  });

  it("with project_id: the workspace-wide tags and the project's own, merged by name then id", async () => {
    const { body } = await api().list({ project_id: ws.projectId }).expect(200);
    expect(names(body)).toEqual(['alpha', 'Alpha', 'Beta', 'beta two', 'delta', 'Gamma', 'zeta']);
  });

  it('all=true: every tag of the workspace, whatever project_id says; all=false is the default', async () => {
    const all = (await api().list({ all: 'true' }).expect(200)).body;
    expect(names(all)).toEqual(['alpha', 'Alpha', 'Beta', 'beta two', 'delta', 'Gamma', 'omega', 'zeta']);
    expect(names((await api().list({ all: 'true', project_id: ws.projectId }).expect(200)).body)).toEqual(names(all));
    expect(names((await api().list({ all: 'false' }).expect(200)).body)).toEqual(wide);
  });

  it('pages through with limit and cursor, bound to its filters', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let answers = 0;
    do {
      const query: Record<string, string> = { all: 'true', limit: '3', ...(cursor ? { cursor } : {}) };
      const { body } = await api().list(query).expect(200);
      expect(body.count).toBe(body.tags.length);
      seen.push(...names(body));
      cursor = body.cursor;
      answers++;
    } while (cursor);
    expect(answers).toBe(3);
    expect(seen).toEqual(['alpha', 'Alpha', 'Beta', 'beta two', 'delta', 'Gamma', 'omega', 'zeta']);
    const first = (await api().list({ all: 'true', limit: '3' }).expect(200)).body;
    expectError(await api().list({ cursor: first.cursor, limit: '3' }), 'INVALID_CURSOR');
    expectError(await api().list({ all: 'true', cursor: 'bm9wZQ' }), 'INVALID_CURSOR');
  });

  it('a full last answer has no cursor past it only when nothing follows', async () => {
    const { body } = await api().list({ limit: '5' }).expect(200);
    expect(body).toMatchObject({ count: 5, cursor: null });
  });

  it('every member lists, guests and viewers too', async () => {
    for (const role of ['owner', 'admin', 'member', 'guest', 'viewer'] as const)
      expect(names((await api().list({}, ws.auth[role]).expect(200)).body)).toEqual(wide);
  });

  it.each([
    [{ limit: '0' }, 'VALIDATION_FAILED'],
    [{ limit: '501' }, 'VALIDATION_FAILED'],
    [{ limit: 'ten' }, 'VALIDATION_FAILED'],
    [{ all: 'yes' }, 'VALIDATION_FAILED'],
    [{ project_id: 'a b' }, 'VALIDATION_FAILED'],
    [{ archived: 'true' }, 'UNKNOWN_QUERY_PARAMETER'],
    [{ project_id: 'nope' }, 'PROJECT_NOT_FOUND'],
  ] as const)('%j is %s', async (query, code) => {
    expectError(await api().list(query), code);
  });

  it('accepts limit=500; 403 to another workspace; 401 without a token', async () => {
    await api().list({ limit: '500' }).expect(200);
    expectError(await api().list({}, s.other.auth.owner), 'ACCESS_DENIED');
    expectError(await s.t.http.get(`/v1/${ws.teamId}/tags`), 'UNAUTHENTICATED');
  });
});
