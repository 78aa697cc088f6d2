import { expectError } from '../support/expect-error';
import { createTestApp, TestApp } from '../support/test-app';
import { CALLER_NAMES, CALLERS, CallerName, CallerSpec, Target, TARGETS } from './access-rules';
import {
  IsolationScene,
  Person,
  ROLE_OF,
  seedIsolationScene,
  snapshot,
  TEMPLATE_KINDS,
  TemplateKind,
} from './isolation-scene';

type Outcome = 'ok' | 'UNAUTHENTICATED' | 'ACCESS_DENIED';

/** Whom a caller acts for in `target`, or why it gets nowhere there. */
function actsIn(caller: CallerName, target: Target): Person | Exclude<Outcome, 'ok'> {
  const acts = (CALLERS[caller] as CallerSpec).acts;
  if (!acts) return 'UNAUTHENTICATED';
  if (acts.team !== target || acts.person === 'stranger') return 'ACCESS_DENIED';
  return acts.person;
}

const KINDS = Object.keys(TEMPLATE_KINDS) as TemplateKind[];
const readable = (person: Person) =>
  KINDS.filter((k) => [person, null].includes(TEMPLATE_KINDS[k].owner) || TEMPLATE_KINDS[k].shared)
    .map((k) => TEMPLATE_KINDS[k].id)
    .sort();

/**
 * The template list, create and delete across every caller and both twin workspaces (the isolation
 * matrix's callers and scene): a refusal changes nothing in either workspace, the list shows only the
 * templates of the path's workspace the caller may read, and a create or delete touches only its own.
 */
describe('isolation: note template list, create and delete', () => {
  let t: TestApp;
  let s: IsolationScene;
  const teamOf = (target: Target) => (target === 'home' ? s.home : s.twin);
  const both = async () => ({ home: await snapshot(t.app, s.home), twin: await snapshot(t.app, s.twin) });
  const auth = (caller: CallerName) => (CALLERS[caller] as CallerSpec).authorization(s);
  const send = (method: 'get' | 'post' | 'delete', path: string, caller: CallerName, body?: object) => {
    let request = t.http[method](path);
    const header = auth(caller);
    if (header !== undefined) request = request.set('Authorization', header);
    return body ? request.send(body) : request;
  };

  beforeAll(async () => {
    t = await createTestApp();
    s = await seedIsolationScene(t.app);
  });
  afterAll(() => t.close());

  const pairs = CALLER_NAMES.flatMap((caller) => TARGETS.map((target) => ({ caller, target })));

  it.each(pairs)('GET list as $caller on $target', async ({ caller, target }) => {
    const acts = actsIn(caller, target);
    const before = await both();
    const res = await send('get', `/v1/${teamOf(target)}/notes/templates`, caller);
    expect(await both()).toEqual(before);
    if (acts === 'UNAUTHENTICATED' || acts === 'ACCESS_DENIED') return expectError(res, acts);
    expect(res.status).toBe(200);
    const ids = res.body.note_templates.map((x: { id: string }) => x.id).sort();
    expect(ids).toEqual(readable(acts));
    for (const x of res.body.note_templates) expect(x.context).toBe(`Context of ${teamOf(target)}`);
  });

  it.each(pairs)('POST then DELETE as $caller on $target', async ({ caller, target }) => {
    const acts = actsIn(caller, target);
    const before = await both();
    const path = `/v1/${teamOf(target)}/notes/templates`;
    const res = await send('post', path, caller, { title: `By ${caller}` });
    const mayCreate = acts !== 'UNAUTHENTICATED' && acts !== 'ACCESS_DENIED' && ROLE_OF[acts] !== 'viewer';
    if (!mayCreate) {
      expectError(res, acts === 'UNAUTHENTICATED' ? acts : 'ACCESS_DENIED');
      expect(await both()).toEqual(before);
      return;
    }
    expect(res.status).toBe(201);
    const elsewhere: Target = target === 'home' ? 'twin' : 'home';
    expect((await both())[elsewhere]).toEqual(before[elsewhere]);
    await send('delete', `${path}/${res.body.note_template.id}`, caller).expect(204);
    expect(await both()).toEqual(before);
  });

  const deletes = KINDS.flatMap((kind) => pairs.map((p) => ({ ...p, kind })));
  it.each(deletes)('DELETE $kind as $caller on $target: only its owner, never a viewer', async (cell) => {
    const acts = actsIn(cell.caller, cell.target);
    const owner = TEMPLATE_KINDS[cell.kind].owner;
    const mayDelete = acts === owner && ROLE_OF[acts] !== 'viewer';
    const before = await both();
    const path = `/v1/${teamOf(cell.target)}/notes/templates/${TEMPLATE_KINDS[cell.kind].id}`;
    // The allowed cells delete under an If-Match that cannot match, so the scene stays whole: 412 proves access.
    const request = send('delete', path, cell.caller).set('If-Match', '"0"');
    const res = await request;
    if (mayDelete) expectError(res, 'PRECONDITION_FAILED');
    else expectError(res, acts === 'UNAUTHENTICATED' ? acts : 'ACCESS_DENIED');
    expect(await both()).toEqual(before);
  });
});
