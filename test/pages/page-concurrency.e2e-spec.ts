import fc from 'fast-check';
import { createTestApp, TestApp } from '../support/test-app';
import { seedWorkspace, Workspace } from '../support/fixtures';
import { PageRead, treeProblems } from './api-tree-problems';
import { pageId, seedPages } from './page-fixtures';

const CLIENTS = 8;
const OPERATIONS = 200;
const SEED = 20261121;
/** Refusals the rules allow under any interleaving; anything else (500, 503, 409, ...) fails the test. */
const ALLOWED_REFUSALS = new Set(['SEC:002-00004', 'SEC:002-00005', 'SEC:002-00006']);

type Operation =
  | { kind: 'patch'; page: number; body: Record<string, unknown> }
  | { kind: 'archive'; page: number }
  | { kind: 'opposite'; a: number; b: number };

/**
 * The seeded operation mix: reorders, moves (also across projects and to the root), archiving, titles,
 * opposite moves.
 */
function operations(pageCount: number, client: number): Operation[] {
  const page = fc.integer({ min: 0, max: pageCount - 1 });
  const operation: fc.Arbitrary<Operation> = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({ kind: fc.constant('patch' as const), page, body: fc.record({ position: fc.nat(12) }) }),
    },
    {
      weight: 4,
      arbitrary: fc
        .tuple(page, page)
        .map(([p, parent]) => ({ kind: 'patch' as const, page: p, body: { parent_page_id: parent } })),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(page, page, fc.nat(5)).map(([p, parent, position]) => ({
        kind: 'patch' as const,
        page: p,
        body: { parent_page_id: parent, position },
      })),
    },
    { weight: 1, arbitrary: page.map((p) => ({ kind: 'patch' as const, page: p, body: { parent_page_id: '' } })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(page, fc.constantFrom('1', '2'))
        .map(([p, project_id]) => ({ kind: 'patch' as const, page: p, body: { project_id } })),
    },
    { weight: 1, arbitrary: page.map((p) => ({ kind: 'patch' as const, page: p, body: { archived: true } })) },
    { weight: 1, arbitrary: page.map((p) => ({ kind: 'archive' as const, page: p })) },
    { weight: 3, arbitrary: page.map((p) => ({ kind: 'patch' as const, page: p, body: { archived: false } })) },
    {
      weight: 3,
      arbitrary: fc.tuple(page, fc.nat(3)).map(([p, position]) => ({
        kind: 'patch' as const,
        page: p,
        body: { archived: false, parent_page_id: '', position },
      })),
    },
    { weight: 4, arbitrary: page.map((p) => ({ kind: 'patch' as const, page: p, body: { title: 'TITLE' } })) },
    { weight: 2, arbitrary: fc.tuple(page, page).map(([a, b]) => ({ kind: 'opposite' as const, a, b })) },
  );
  return fc.sample(operation, { seed: SEED + client, numRuns: OPERATIONS });
}

/**
 * 8 clients, alternating between two API instances on one database, each sending 200 seeded random
 * operations at once; then the whole tree is read back through the API and checked.
 */
describe('pages under concurrency', () => {
  let apps: TestApp[];
  let ws: Workspace;
  let ids: string[];

  beforeAll(async () => {
    apps = [await createTestApp(), await createTestApp()];
    ws = await seedWorkspace(apps[0].app);
    const seeds = [];
    for (const project of ['1', '2']) {
      for (let r = 0; r < 4; r++) {
        const root = pageId();
        seeds.push({ id: root, project });
        for (let c = 0; c < 3; c++) seeds.push({ id: pageId(), parent: root, project });
      }
    }
    ids = await seedPages(apps[0].app, ws, seeds);
  });
  afterAll(() => Promise.all(apps.map((a) => a.close())));

  it('keeps the tree valid, loses no title and answers no client with an error it should not see', async () => {
    const unexpected: string[] = [];
    const lastTitle = new Map<string, string>();
    const send = async (client: number, page: string, body: object | null) => {
      const http = apps[client % 2].http;
      const request =
        body === null
          ? http.put(`/v1/${ws.teamId}/pages/${page}/archive`)
          : http.patch(`/v1/${ws.teamId}/pages/${page}`).send(body);
      const res = await request.set('Authorization', ws.auth.member);
      if (res.status !== 200 && !(res.status === 400 && ALLOWED_REFUSALS.has(res.body.error?.sec))) {
        unexpected.push(`${res.status} ${res.body.error?.sec} ${res.body.error?.message} for ${JSON.stringify(body)}`);
      }
      return res.status;
    };

    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        for (const [n, op] of operations(ids.length, client).entries()) {
          if (op.kind === 'opposite') {
            await Promise.all([
              send(client, ids[op.a], { parent_page_id: ids[op.b] }),
              send(client, ids[op.b], { parent_page_id: ids[op.a] }),
            ]);
          } else if (op.kind === 'archive') {
            await send(client, ids[op.page], null);
          } else if (op.body.title !== undefined) {
            // Each client writes the titles of its own pages only, so the last write it saw succeed must stay.
            const page = ids[(op.page - (op.page % CLIENTS) + client) % ids.length];
            const title = `client ${client} write ${n}`;
            if ((await send(client, page, { title })) === 200) lastTitle.set(page, title);
          } else {
            const body = { ...op.body };
            if (typeof body.parent_page_id === 'number') body.parent_page_id = ids[body.parent_page_id];
            await send(client, ids[op.page], body);
          }
        }
      }),
    );

    expect(unexpected).toEqual([]);
    const pages: PageRead[] = await Promise.all(
      ids.map(
        async (id) =>
          (await apps[0].http.get(`/v1/${ws.teamId}/pages/${id}`).set('Authorization', ws.auth.owner).expect(200)).body
            .page,
      ),
    );
    for (const [id, title] of lastTitle) expect(pages.find((p) => p.id === id)!.title).toBe(title);
    expect(treeProblems(pages)).toEqual([]);
  }, 180_000);
});
