import { DataSource } from 'typeorm';
import { seedWorkspace, Workspace } from '../support/fixtures';
import { createTestApp, TestApp } from '../support/test-app';
import { pageId, PageSeed, seedPages } from './page-fixtures';

const ROOTS = 100;
const CHILDREN = 9;
const GRANDCHILDREN = 10;
const CHANGES_PER_ANSWER = 4;

/** A fixed sequence of pseudo-random numbers (a seeded LCG), so a failure replays. */
function random(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
}

/**
 * docs/page-list.md: a client that follows `cursor` to the end sees every page that existed throughout
 * exactly once, whatever others create, move, reorder, archive and delete meanwhile; a page made during
 * the walk not at all, and no page twice.
 */
describe('GET /v1/{team_id}/pages walked to the end while the tree changes', () => {
  let t: TestApp;
  let ws: Workspace;
  const roots: string[] = [];
  const children: string[] = [];
  const grandchildren: string[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    ws = await seedWorkspace(t.app);
    const seeds: PageSeed[] = [];
    for (let r = 0; r < ROOTS; r++) {
      const root = pageId();
      roots.push(root);
      seeds.push({ id: root, project: r < ROOTS / 2 ? undefined : '2' });
      for (let c = 0; c < CHILDREN; c++) {
        const child = pageId();
        children.push(child);
        seeds.push({ id: child, parent: root, project: r < ROOTS / 2 ? undefined : '2' });
        for (let g = 0; g < GRANDCHILDREN; g++) {
          const grandchild = pageId();
          grandchildren.push(grandchild);
          seeds.push({ id: grandchild, parent: child, project: r < ROOTS / 2 ? undefined : '2' });
        }
      }
    }
    await seedPages(t.app, ws, seeds);
  }, 120_000);
  afterAll(() => t?.close());

  it('sees each page that existed throughout exactly once, a page made meanwhile never', async () => {
    const pick = random(20261126);
    const any = <T>(list: T[]) => list[pick(list.length)];
    const patch = (id: string, body: object) =>
      t.http.patch(`/v1/${ws.teamId}/pages/${id}`).set('Authorization', ws.auth.member).send(body);
    const created = new Set<string>();
    const deleted = new Set<string>();
    const db = t.app.get(DataSource);
    const change = async () => {
      const kind = pick(6);
      const res =
        kind === 0
          ? await patch(any(grandchildren), { parent_page_id: any(children) })
          : kind === 1
            ? await patch(any(children), { parent_page_id: any(roots), position: pick(12) })
            : kind === 2
              ? await patch(any([...children, ...grandchildren]), { position: pick(12) })
              : kind === 3
                ? await patch(any(children), { archived: true })
                : undefined;
      if (res) expect([200, 400, 404]).toContain(res.status);
      if (kind === 4) {
        const id = any(grandchildren);
        const gone = await db.query(
          `DELETE FROM pages p WHERE p.team_id = $1 AND p.id = $2
              AND NOT EXISTS (SELECT 1 FROM pages c WHERE c.team_id = $1 AND c.parent_id = p.id) RETURNING p.id::text`,
          [ws.teamId, id],
        );
        if (gone.length > 0) deleted.add(id);
      }
      if (kind === 5) {
        const [id, parent] = [pageId(), any(children)];
        const [{ project_id: project }] = await db.query(
          `SELECT p.project_id FROM pages p WHERE p.team_id = $1 AND p.id = $2`,
          [ws.teamId, parent],
        );
        // The import refuses an archived parent: then nothing is made.
        const made = await seedPages(t.app, ws, [{ id, parent, project }]).then(
          () => true,
          () => false,
        );
        if (made) created.add(id);
      }
    };

    const seen = new Map<string, number>();
    let cursor: string | null = null;
    let answers = 0;
    do {
      const res: { body: { pages: Array<{ id: string }>; cursor: string | null } } = await t.http
        .get(`/v1/${ws.teamId}/pages`)
        .query(cursor ? { cursor } : {})
        .set('Authorization', ws.auth.member)
        .expect(200);
      for (const page of res.body.pages) seen.set(page.id, (seen.get(page.id) ?? 0) + 1);
      cursor = res.body.cursor;
      answers++;
      for (let i = 0; i < CHANGES_PER_ANSWER; i++) await change();
    } while (cursor);

    const active: Array<{ id: string }> = await db.query(
      `SELECT p.id::text AS id FROM pages p
        WHERE p.team_id = $1 AND NOT EXISTS (SELECT 1 FROM page_archives a WHERE a.team_id = $1 AND a.page_id = p.id)`,
      [ws.teamId],
    );
    const throughout = active.map((p) => p.id).filter((id) => !created.has(id));
    expect(answers).toBeGreaterThanOrEqual(150);
    expect(deleted.size).toBeGreaterThan(0);
    expect(created.size).toBeGreaterThan(0);
    expect(throughout.length).toBeGreaterThan(8000);
    expect(throughout.filter((id) => seen.get(id) !== 1)).toEqual([]);
    expect([...seen].filter(([, times]) => times > 1)).toEqual([]);
    expect([...created].filter((id) => seen.has(id))).toEqual([]);
  }, 300_000);

  describe('a page moved out from under a page then deleted or archived, both during the walk', () => {
    for (const fate of ['deleted', 'archived'] as const) {
      it(`is listed once, at its place as of the first answer (its old parent ${fate})`, async () => {
        const other = await seedWorkspace(t.app);
        const [a, x] = await seedPages(t.app, other, [{}, {}]);
        const early = await seedPages(
          t.app,
          other,
          Array.from({ length: 12 }, () => ({ parent: a })),
        );
        // Two levels down: the walk must step through x and y, both gone.
        const [y] = await seedPages(t.app, other, [{ parent: x }]);
        const [p] = await seedPages(t.app, other, [{ parent: y }]);
        const [under] = await seedPages(t.app, other, [{ parent: p }]);
        const list = (cursor: string | null) =>
          t.http
            .get(`/v1/${other.teamId}/pages`)
            .query(cursor ? { limit: 5, cursor } : { limit: 5 })
            .set('Authorization', other.auth.member)
            .expect(200);
        const first = await list(null);
        const seen: string[] = first.body.pages.map((page: { id: string }) => page.id);
        const call = (method: 'patch' | 'delete', id: string) =>
          t.http[method](`/v1/${other.teamId}/pages/${id}`).set('Authorization', other.auth.member);
        // Into the part already walked, then its old parent goes.
        await call('patch', p).send({ parent_page_id: a, position: 0 }).expect(200);
        if (fate === 'deleted') await call('delete', x).expect(204);
        else await call('patch', x).send({ archived: true }).expect(200);
        for (let cursor: string | null = first.body.cursor; cursor;) {
          const res = await list(cursor);
          seen.push(...res.body.pages.map((page: { id: string }) => page.id));
          cursor = res.body.cursor;
        }
        expect(seen.filter((id) => id === p)).toEqual([p]);
        expect(seen.filter((id) => id === under)).toEqual([under]);
        expect(seen.filter((id) => id === x || id === y)).toEqual([]);
        expect([a, ...early].filter((id) => seen.filter((s) => s === id).length !== 1)).toEqual([]);
      });
    }
  });
});
