import fc from 'fast-check';
import {
  hostileAuth,
  hostilePath,
  hostileTeam,
  hostileRequests,
  orHostile,
  rawBoolean,
  rawFieldsObject,
  rawImage,
  rawNotAnObject,
  rawValidObject,
  validPath,
  validText,
} from './arbitraries';
import { HostileRequest, isReplay, requestedId, SEEDED, serverView, useHostileScene } from './hostile-harness';
import { hostileTimeout } from './hostile-runs';
import { importDocument } from '../support/fixtures';

describe('hostile requests: note templates', () => {
  const scene = useHostileScene('note templates');
  const { s, sendChecked, assert } = scene;

  const ids = Object.values(SEEDED.templates);
  const templatePath = () => hostilePath(s, 'notes/templates', ids);

  const section = rawFieldsObject({ title: validText(0, 40), description: orHostile(validText(0, 40)) }, 3);
  const hostileFields = {
    title: orHostile(validText(1, 255)),
    context: fc.oneof(validText(0, 102400), fc.constant('null')),
    icon: orHostile(rawImage()),
    sections: orHostile(
      fc.oneof(
        { weight: 5, arbitrary: fc.array(section, { maxLength: 4 }).map((items) => `[${items.join(',')}]`) },
        { weight: 1, arbitrary: fc.constantFrom(100, 101).map((n) => `[${Array(n).fill('{"title":"s"}').join(',')}]`) },
      ),
    ),
    ai_actions: orHostile(rawBoolean),
    is_shared: orHostile(rawBoolean),
  };
  const validFields = {
    title: validText(1, 255),
    context: fc.oneof(validText(0, 102400), fc.constant('null')),
    icon: rawImage(false, false),
    sections: fc.oneof(
      fc.constant('null'),
      fc
        .array(
          fc.record(
            {
              title: fc.string({ maxLength: 20 }),
              description: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
            },
            { requiredKeys: ['title'] },
          ),
          { maxLength: 4 },
        )
        .map((list) => JSON.stringify(list)),
    ),
    ai_actions: fc.constantFrom('true', 'false', 'null'),
    is_shared: fc.constantFrom('true', 'false', 'null'),
  };
  const hostileBody = () =>
    fc.oneof({ weight: 4, arbitrary: rawFieldsObject(hostileFields) }, { weight: 1, arbitrary: rawNotAnObject });

  it(
    'PATCH: every answer is 200 or a contract error, a refusal changes nothing, ' +
      'a 200 is what it asked for and what a GET then shows',
    async () => {
      const requests = hostileRequests({
        method: 'patch',
        path: {
          valid: validPath(s, 'notes/templates', [SEEDED.templates.mine, SEEDED.templates.mineShared]),
          hostile: templatePath(),
        },
        auth: { valid: [s.ws.auth.member, s.ws.auth.oauth, s.ws.auth.agent], hostile: hostileAuth(s) },
        body: {
          valid: fc.oneof(
            { weight: 8, arbitrary: rawValidObject(validFields) },
            { weight: 1, arbitrary: fc.constant(undefined) },
          ),
          hostile: hostileBody(),
        },
      });
      await assert(
        requests,
        async (req) => {
          const res = await sendChecked(req);
          if (res.status !== 200) return;
          const sent = serverView(req) as Record<string, any>;
          const expected: Record<string, unknown> = {};
          if ('title' in sent) expected.title = sent.title;
          if ('context' in sent) expected.context = sent.context ?? '';
          if ('icon' in sent) expected.icon = sent.icon;
          if ('sections' in sent)
            expected.sections = (sent.sections ?? []).map((x: { title: string; description?: string }) => ({
              title: x.title,
              description: x.description ?? '',
            }));
          if ('ai_actions' in sent) expected.ai_actions = sent.ai_actions ?? false;
          if ('is_shared' in sent) expected.is_shared = sent.is_shared ?? false;
          expect(res.body.note_template).toMatchObject(expected);
          if ('icon' in sent) expect(res.body.note_template.icon).toEqual(sent.icon);
          if (isReplay(res)) return; // the answer first given (the harness checks that); the template may have moved on
          const read = await s.t.http.get(req.path).set('Authorization', req.headers.Authorization!);
          expect(read.status).toBe(200);
          expect(read.body).toEqual(res.body);
        },
        600,
      );
    },
    hostileTimeout(600),
  );

  it(
    'GET: every answer is 200, 304 (If-None-Match) or a contract error, and reading changes nothing',
    async () => {
      const requests = hostileRequests({
        method: 'get',
        path: { valid: validPath(s, 'notes/templates', ids), hostile: templatePath() },
        auth: {
          valid: [s.ws.auth.member, s.ws.auth.owner, s.ws.auth.guest, s.ws.auth.viewer],
          hostile: hostileAuth(s),
        },
        body: { valid: fc.constant(undefined), hostile: fc.oneof(rawNotAnObject, rawFieldsObject(hostileFields)) },
      });
      await assert(
        requests,
        async (req) => {
          const res = await sendChecked(req);
          if (res.status === 200) expect(res.body.note_template.id).toBe(requestedId(req));
        },
        300,
      );
    },
    hostileTimeout(300),
  );

  /** Whether a body, when it parses as an object, has a top-level title. */
  const namesTitle = (body: string) => {
    try {
      const value: unknown = JSON.parse(body);
      return typeof value !== 'object' || value === null || Array.isArray(value) || 'title' in value;
    } catch {
      return true;
    }
  };
  const listPath = (query: fc.Arbitrary<string>) =>
    fc.tuple(hostileTeam(s), query).map(([team, q]) => `/v1/${team}/notes/templates${q}`);

  it(
    'POST: every answer is 201 or a contract error, a refusal creates nothing, a 201 is what GET then shows',
    async () => {
      const requests = hostileRequests({
        method: 'post',
        path: { valid: fc.constant(`/v1/${s.ws.teamId}/notes/templates`), hostile: listPath(fc.constant('')) },
        auth: { valid: [s.ws.auth.member, s.ws.auth.guest, s.ws.auth.agent], hostile: hostileAuth(s) },
        body: {
          valid: rawValidObject({ ...validFields, title: validText(1, 255) }, 7).filter((b) => b.includes('"title"')),
          // The harness wants a message to name a key of the body; a missing title is the e2e spec's case.
          hostile: hostileBody().filter(namesTitle),
        },
      });
      // If-Match on a creation is undecided (there is no version to name); ConditionalRules assumes one.
      const withoutIfMatch = requests.map((r): HostileRequest => ({
        ...r,
        headers: { ...r.headers, 'If-Match': undefined },
      }));
      await assert(
        withoutIfMatch,
        async (req) => {
          const res = await sendChecked(req);
          if (res.status !== 201) return;
          expect(res.headers.location).toBe(`${req.path}/${res.body.note_template.id}`);
          if (isReplay(res)) return;
          const read = await s.t.http.get(res.headers.location).set('Authorization', req.headers.Authorization!);
          expect(read.status).toBe(200);
          expect(read.body).toEqual(res.body);
        },
        200,
      );
    },
    hostileTimeout(200),
  );

  it(
    'GET list: every answer is 200 or a contract error, only readable templates, and reading changes nothing',
    async () => {
      const query = fc.oneof(
        fc.constantFrom('', '?limit=2', '?limit=1000'),
        fc.string({ maxLength: 30 }).map((q) => `?${encodeURI(q)}`),
        fc.string({ maxLength: 12 }).map((v) => `?limit=${encodeURIComponent(v)}`),
        fc.string({ maxLength: 40 }).map((v) => `?cursor=${encodeURIComponent(v)}`),
      );
      const requests = hostileRequests({
        method: 'get',
        path: { valid: listPath(fc.constant('')), hostile: listPath(query) },
        auth: { valid: [s.ws.auth.member, s.ws.auth.viewer, s.ws.auth.guest], hostile: hostileAuth(s) },
        body: { valid: fc.constant(undefined), hostile: rawNotAnObject },
      });
      await assert(
        requests,
        async (req) => {
          const res = await sendChecked(req);
          if (res.status !== 200) return;
          expect(res.body.count).toBe(res.body.note_templates.length);
          const ids = res.body.note_templates.map((x: { id: string }) => x.id);
          // The owner's private template is theirs to list; everyone else must not see it.
          if (req.headers.Authorization === s.ws.auth.owner) return;
          expect(ids).not.toContain(SEEDED.templates.ownersPrivate);
        },
        200,
      );
    },
    hostileTimeout(200),
  );
  // Last in the file: what it deletes is gone for the properties after it.
  it(
    'DELETE: every answer is 204 or a contract error, a refusal deletes nothing, only the owner deletes, ' +
      'and a deleted template is gone',
    async () => {
      const mine = Array.from({ length: 40 }, (_, n) => `doomed-${n}`);
      const others = ['owners-doomed-1', 'owners-doomed-2'];
      const doomed = (id: string, owner_id: string, is_shared: boolean) => ({
        team_id: s.ws.teamId,
        id,
        owner_id,
        title: `Doomed ${id}`,
        is_shared,
      });
      await importDocument(s.t.app, {
        note_templates: [
          ...mine.map((id, n) => doomed(id, s.ws.users.member, n % 2 === 0)),
          ...others.map((id, n) => doomed(id, s.ws.users.owner, n % 2 === 0)),
        ],
      });
      await scene.tracker.start(); // the import above is not a request's change
      const owners = new Map<string, string>([
        ...mine.map((id): [string, string] => [id, s.ws.users.member]),
        ...others.map((id): [string, string] => [id, s.ws.users.owner]),
        [SEEDED.templates.mine, s.ws.users.member],
        [SEEDED.templates.mineShared, s.ws.users.member],
        [SEEDED.templates.ownersPrivate, s.ws.users.owner],
        [SEEDED.templates.ownersShared, s.ws.users.owner],
      ]);
      // Each token's user: the OAuth and agent tokens act for the member (fixtures.ts).
      const userOf = new Map([
        [s.ws.auth.member, s.ws.users.member],
        [s.ws.auth.oauth, s.ws.users.member],
        [s.ws.auth.agent, s.ws.users.member],
        [s.ws.auth.owner, s.ws.users.owner],
      ]);
      const requests = hostileRequests({
        method: 'delete',
        path: {
          valid: validPath(s, 'notes/templates', [...mine, ...others, SEEDED.templates.builtIn]),
          hostile: hostilePath(s, 'notes/templates', [...ids, ...mine]),
        },
        auth: { valid: [s.ws.auth.member, s.ws.auth.oauth, s.ws.auth.agent], hostile: hostileAuth(s) },
        body: { valid: fc.constant(undefined), hostile: fc.oneof(rawNotAnObject, hostileBody()) },
      });
      await assert(
        requests,
        async (req) => {
          const res = await sendChecked(req);
          if (res.status !== 204) return;
          expect(res.text).toBe('');
          if (isReplay(res)) return;
          if (req.path.startsWith(`/v1/${s.ws.teamId}/`))
            // The scheme's case and surrounding blanks do not matter to the server (Bearer <secret> after that).
            expect(owners.get(requestedId(req))).toBe(
              userOf.get(req.headers.Authorization!.trim().replace(/^bearer/i, 'Bearer')),
            );
          for (const auth of [s.ws.auth.member, s.ws.auth.owner]) {
            const read = await s.t.http.get(req.path).set('Authorization', auth);
            expect(read.status).toBe(404);
          }
        },
        250,
      );
    },
    hostileTimeout(250),
  );
});
