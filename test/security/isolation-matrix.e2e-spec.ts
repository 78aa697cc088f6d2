import type { Response } from 'supertest';
import { expectError } from '../support/expect-error';
import { createTestApp, TestApp } from '../support/test-app';
import {
  CALLER_NAMES,
  CALLERS,
  CallerName,
  CallerSpec,
  expectedOutcome,
  Expectation,
  RouteSpec,
  ROUTES,
  Target,
  TARGETS,
} from './access-rules';
import {
  CARD_ID,
  DELETABLE_TAG_IDS,
  IsolationScene,
  PAGE_ID,
  seedIsolationScene,
  Snapshot,
  snapshot,
  TAG_IDS,
  TEMPLATE_KINDS,
  TemplateKind,
} from './isolation-scene';

interface Cell {
  label: string;
  route: RouteSpec;
  kind: TemplateKind | null;
  caller: CallerName;
  target: Target;
  /** The cell's index among its route's cells: picks its body. */
  index: number;
  expected: Expectation;
}

/** Every route × (template kind) × caller × target, generated flat so the count is plain. */
const CELLS: Cell[] = [];
for (const route of ROUTES) {
  const kinds = route.resource === 'template' ? (Object.keys(TEMPLATE_KINDS) as TemplateKind[]) : [null];
  let index = 0;
  for (const kind of kinds) {
    for (const caller of CALLER_NAMES) {
      for (const target of TARGETS) {
        const expected = expectedOutcome(route, kind, caller, target);
        const outcome = expected.allowed
          ? `${route.successStatus}`
          : expected.error === 'UNAUTHENTICATED'
            ? '401'
            : '403';
        const label =
          `#${CELLS.length + 1} ${route.name}${kind ? ` (${kind})` : ''} ` + `as ${caller} on ${target} -> ${outcome}`;
        CELLS.push({ label, route, kind, caller, target, index: index++, expected });
      }
    }
  }
}
const allowedCells = CELLS.filter((c) => c.expected.allowed).length;

/**
 * Decisions.md "Callers" and "Note templates", cell by cell: two workspaces with identical ids and
 * the same people in the same roles; only the allowed cells succeed, and they change exactly their
 * own resource in their own workspace. Every other cell changes nothing in either workspace.
 */
describe(`isolation matrix: ${CELLS.length} cells (${allowedCells} allowed)`, () => {
  let t: TestApp;
  let s: IsolationScene;
  let current: Record<Target, Snapshot>;
  const teamOf = (target: Target) => (target === 'home' ? s.home : s.twin);
  const takeSnapshots = async () => ({ home: await snapshot(t.app, s.home), twin: await snapshot(t.app, s.twin) });

  beforeAll(async () => {
    t = await createTestApp();
    s = await seedIsolationScene(t.app);
    current = await takeSnapshots();
  });
  afterAll(() => t.close());

  it('has one cell per route, template kind, caller and target', () => {
    // 2 template routes x 5 kinds + 11 other routes, x 13 callers x 2 targets.
    expect(CELLS).toHaveLength((2 * 5 + 11) * 13 * 2);
    // GET pages: the six people of home and the twin token in its own workspace.
    expect(allowedCells).toBe(71 + 7);
    for (const route of ROUTES) {
      const outcomes = new Set(
        CELLS.filter((c) => c.route === route).map((c) => (c.expected.allowed ? 'ok' : c.expected.error)),
      );
      expect([route.name, [...outcomes].sort()]).toEqual([route.name, ['ACCESS_DENIED', 'UNAUTHENTICATED', 'ok']]);
    }
  });

  it.each(CELLS)('$label', async (cell) => {
    const { route, kind, caller, target, expected } = cell;
    const teamId = teamOf(target);
    const before = current;
    const authorization = (CALLERS[caller] as CallerSpec).authorization(s);
    let request = t.http[route.method](route.path(teamId, kind, cell.index));
    if (authorization !== undefined) request = request.set('Authorization', authorization);
    if (route.body) request = request.send(route.body(cell.index));
    const res = await request;
    const after = await takeSnapshots();
    current = after;

    if (!expected.allowed) {
      expectError(res, expected.error);
      if (expected.error === 'UNAUTHENTICATED') expect(res.headers['www-authenticate']).toMatch(/^Bearer\b/);
      else expect(res.body.error.message).toBe('You do not have access to this resource');
      expect(after.home).toEqual(before.home);
      expect(after.twin).toEqual(before.twin);
      return;
    }

    expect(res.status).toBe(route.successStatus);
    const elsewhere: Target = target === 'home' ? 'twin' : 'home';
    expect(after[elsewhere]).toEqual(before[elsewhere]);
    expectBodyOfTarget(res, cell, teamId);
    if (!route.write) {
      expect(after[target]).toEqual(before[target]);
      return;
    }
    expect(after[target].exported).toEqual(expectedExport(before[target].exported, cell, res));
    if (route.resource === 'tag') {
      // A tag carries no update stamps, and these tags are on no card: no stamp moves.
      expect(after[target].stamps).toEqual(before[target].stamps);
      return;
    }
    const written = {
      kind: route.resource,
      id: route.resource === 'template' ? TEMPLATE_KINDS[kind!].id : route.resource === 'page' ? PAGE_ID : CARD_ID,
    };
    const stamp = after[target].stamps.find((r) => r.kind === written.kind && r.id === written.id)!;
    expect(stamp.updated_by.user_id).toBe(
      s.users[(CALLERS[caller] as CallerSpec).acts!.person as keyof typeof s.users],
    );
    expect(after[target].stamps.filter((r) => r !== stamp)).toEqual(
      before[target].stamps.filter((r) => !(r.kind === written.kind && r.id === written.id)),
    );

    if (route.name === 'PUT page archive') {
      // Bring the page back so that the next cells find it as every other cell did.
      const owner = target === 'home' ? s.secrets.owner : s.secrets.twinOwner;
      await t.http
        .patch(`/v1/${teamId}/pages/${PAGE_ID}`)
        .set('Authorization', `Bearer ${owner}`)
        .send({ archived: false })
        .expect(200);
      current = await takeSnapshots();
    }
  });
});

/** A success answers with the resource of the workspace in the path, never its twin's. */
function expectBodyOfTarget(res: Response, cell: Cell, teamId: string): void {
  switch (cell.route.resource) {
    case 'template':
      expect(res.body.note_template).toMatchObject({
        id: TEMPLATE_KINDS[cell.kind!].id,
        context: `Context of ${teamId}`,
      });
      if (cell.route.write) expect(res.body.note_template.title).toBe(`Cell ${cell.index}`);
      return;
    case 'page':
      expect(res.body.page).toMatchObject({ id: PAGE_ID, team_id: teamId });
      if (cell.route.name === 'PATCH page') expect(res.body.page.title).toBe(`Cell ${cell.index}`);
      if (cell.route.name === 'PUT page archive')
        expect(res.body.page.archived).toEqual(expect.objectContaining({ time_archived: expect.any(Number) }));
      return;
    case 'page-list': {
      const pages = res.body.pages as Array<{ id: string; team_id: string }>;
      expect(pages.every((p) => p.team_id === teamId)).toBe(true);
      expect(pages.some((p) => p.id === PAGE_ID)).toBe(cell.caller !== 'guestUnlisted');
      return;
    }
    case 'card':
      if (cell.route.write) expect(res.body).toEqual({});
      else expect(res.body.card).toMatchObject({ id: CARD_ID, team_id: teamId });
      return;
    case 'tag':
      if (cell.route.name === 'GET tags') {
        expect(res.body.tags.length).toBeGreaterThan(0);
        for (const tag of res.body.tags) expect(tag.team_id).toBe(teamId);
      } else if (cell.route.name === 'DELETE tag') expect(res.body).toEqual({});
      else
        expect(res.body.tag).toMatchObject({
          team_id: teamId,
          name: (cell.route.body!(cell.index) as { name: string }).name,
        });
  }
}

/** The export of the target workspace after an allowed write: the one change the cell asked for. */
function expectedExport(before: Snapshot['exported'], cell: Cell, res: Response): Snapshot['exported'] {
  const expected = structuredClone(before);
  switch (cell.route.name) {
    case 'PATCH note template':
      expected.note_templates!.find((n) => n.id === TEMPLATE_KINDS[cell.kind!].id)!.title = `Cell ${cell.index}`;
      break;
    case 'PATCH page':
      expected.pages!.find((p) => p.id === PAGE_ID)!.title = `Cell ${cell.index}`;
      break;
    case 'PUT page archive':
      expected.pages!.find((p) => p.id === PAGE_ID)!.archived = true;
      break;
    case 'POST card tags':
      expected.cards!.find((c) => c.id === CARD_ID)!.tags!.push(TAG_IDS[cell.index]);
      break;
    case 'DELETE card tag': {
      const card = expected.cards!.find((c) => c.id === CARD_ID)!;
      card.tags = card.tags!.filter((id) => id !== TAG_IDS[cell.index]);
      break;
    }
    case 'POST tag':
      expected.tags!.push({
        team_id: res.body.tag.team_id,
        id: res.body.tag.id,
        project_id: null,
        name: `Cell ${cell.index}`,
        slug: `cell-${cell.index}`,
        color: 'red',
      });
      break;
    case 'PATCH tag':
      Object.assign(
        expected.tags!.find((tag) => tag.id === TAG_IDS[cell.index])!,
        {
          name: `Renamed ${cell.index}`,
          slug: `renamed-${cell.index}`,
        },
      );
      break;
    case 'DELETE tag':
      expected.tags = expected.tags!.filter((tag) => tag.id !== DELETABLE_TAG_IDS[cell.index]);
      break;
    default:
      throw new Error(`No expected change for ${cell.route.name}`);
  }
  return expected;
}
