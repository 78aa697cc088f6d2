import { importDocument } from '../support/fixtures';
import { expectError } from '../support/expect-error';
import { createTestApp, TestApp } from '../support/test-app';
import { CALLER_NAMES, CALLERS, CallerName, CallerSpec, Expectation, Target, TARGETS } from './access-rules';
import { IsolationScene, PAGE_ID, PROJECT_ID, ROLE_OF, seedIsolationScene, snapshot } from './isolation-scene';

/** The routes that make and remove pages: owners, admins and members only (decisions.md, "Who may"). */
const LIFECYCLE_ROUTES = [
  { name: 'POST pages', method: 'post', status: 201 },
  { name: 'POST page copy', method: 'post', status: 201 },
  { name: 'DELETE page', method: 'delete', status: 204 },
] as const;
type LifecycleRoute = (typeof LIFECYCLE_ROUTES)[number];

function expectedOutcome(caller: CallerName, target: Target): Expectation {
  const acts = (CALLERS[caller] as CallerSpec).acts;
  if (!acts) return { allowed: false, error: 'UNAUTHENTICATED' };
  if (acts.team !== target || acts.person === 'stranger') return { allowed: false, error: 'ACCESS_DENIED' };
  const role = ROLE_OF[acts.person];
  // Guests (even one a page lists) and viewers neither make nor remove pages.
  return role === 'guest' || role === 'viewer' ? { allowed: false, error: 'ACCESS_DENIED' } : { allowed: true };
}

const CELLS = LIFECYCLE_ROUTES.flatMap((route) =>
  CALLER_NAMES.flatMap((caller) => TARGETS.map((target) => ({ route, caller, target }))),
).map((cell, n) => ({ ...cell, n, expected: expectedOutcome(cell.caller, cell.target) }));

/**
 * The isolation matrix's callers and twin workspaces, for create, copy and delete: only the allowed cells
 * succeed, in their own workspace; every other cell changes nothing in either.
 */
describe(`isolation of the page lifecycle: ${CELLS.length} cells`, () => {
  let t: TestApp;
  let s: IsolationScene;
  const teamOf = (target: Target) => (target === 'home' ? s.home : s.twin);
  const snapshots = async () => ({ home: await snapshot(t.app, s.home), twin: await snapshot(t.app, s.twin) });

  beforeAll(async () => {
    t = await createTestApp();
    s = await seedIsolationScene(t.app);
  });
  afterAll(() => t.close());

  it('has every kind of outcome on every route', () => {
    expect(CELLS).toHaveLength(3 * 13 * 2);
    expect(CELLS.filter((c) => c.expected.allowed)).toHaveLength(3 * 4);
  });

  /** A page of its own to delete, in both workspaces, with the same id. */
  const victim = async (n: number) => {
    const id = String(1000 + n);
    await importDocument(t.app, {
      pages: [s.home, s.twin].map((team_id) => ({
        team_id,
        id,
        project_id: PROJECT_ID,
        parent_page_id: '',
        title: 'Victim',
        owner_id: s.users.owner,
        archived: false,
        members: [{ user_id: s.users.guestListed, role: 'admin' }],
      })),
    });
    return id;
  };

  const request = (route: LifecycleRoute, teamId: string, n: number, victimId: string) => {
    switch (route.name) {
      case 'POST pages':
        return t.http.post(`/v1/${teamId}/pages`).send({ project_id: PROJECT_ID, title: `Cell ${n}` });
      case 'POST page copy':
        return t.http.post(`/v1/${teamId}/pages/${PAGE_ID}/copy`).send({ title: `Cell ${n}` });
      case 'DELETE page':
        return t.http.delete(`/v1/${teamId}/pages/${victimId}`);
    }
  };

  it.each(CELLS)('#$n $route.name as $caller on $target', async ({ route, caller, target, n, expected }) => {
    const victimId = route.name === 'DELETE page' ? await victim(n) : PAGE_ID;
    const before = await snapshots();
    const authorization = (CALLERS[caller] as CallerSpec).authorization(s);
    let req = request(route, teamOf(target), n, victimId);
    if (authorization !== undefined) req = req.set('Authorization', authorization);
    const res = await req;
    const after = await snapshots();

    if (!expected.allowed) {
      expectError(res, expected.error);
      expect(after).toEqual(before);
      return;
    }
    expect(res.status).toBe(route.status);
    const elsewhere: Target = target === 'home' ? 'twin' : 'home';
    expect(after[elsewhere]).toEqual(before[elsewhere]);
    const pagesBefore = before[target].exported.pages ?? [];
    const pagesAfter = after[target].exported.pages ?? [];
    if (route.name === 'DELETE page') {
      expect(pagesAfter).toEqual(pagesBefore.filter((p) => p.id !== victimId));
      return;
    }
    expect(res.body.page).toMatchObject({ team_id: teamOf(target), title: `Cell ${n}` });
    expect(pagesAfter.filter((p) => p.id !== res.body.page.id)).toEqual(pagesBefore);
    const owner = target === 'home' ? s.secrets.owner : s.secrets.twinOwner;
    await t.http
      .delete(`/v1/${teamOf(target)}/pages/${res.body.page.id}`)
      .set('Authorization', `Bearer ${owner}`)
      .expect(204);
  });
});
