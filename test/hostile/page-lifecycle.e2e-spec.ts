import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { importDocument } from '../support/fixtures';
import { treeProblems } from '../pages/tree-problems';
import {
  hostileAuth,
  hostilePath,
  hostileRequests,
  hostileTeam,
  orHostile,
  quoted,
  rawBoolean,
  rawFieldsObject,
  rawImage,
  rawNotAnObject,
  rawNumber,
  rawValidObject,
  validPath,
  validText,
} from './arbitraries';
import { HostileRequest, SEEDED, serverView, useHostileScene } from './hostile-harness';
import { hostileTimeout } from './hostile-runs';

/** Pages seeded for the deletes to take (the seeded tree stays for the other runs). */
const DELETABLE = Array.from({ length: 40 }, (_, n) => String(100 + n));

describe('hostile requests: page create, copy and delete', () => {
  const hostile = useHostileScene('page-lifecycle');
  const { s, sendChecked, assert } = hostile;

  beforeAll(async () => {
    await importDocument(s.t.app, {
      pages: DELETABLE.map((id, n) => ({
        team_id: s.ws.teamId,
        id,
        project_id: '1',
        parent_page_id: n % 4 === 0 ? '' : DELETABLE[n - (n % 4)],
        title: `Deletable ${id}`,
        owner_id: s.ws.users.owner,
        archived: Math.floor(n / 4) % 3 === 1,
        members: [],
      })),
    });
  });

  const writers = () => [s.ws.auth.member, s.ws.auth.owner, s.ws.auth.admin, s.ws.auth.agent, s.ws.auth.guest];
  const pageIds = fc.constantFrom('', '1', '2', '5', '9', '0002', '9223372036854775808', ' 1', '-1').map(quoted);
  const placeFields = {
    project_id: orHostile(fc.constantFrom('1', '2', 'nope', '', 'x'.repeat(65)).map(quoted)),
    parent_page_id: orHostile(pageIds),
    position: orHostile(fc.oneof(fc.nat(6).map(String), rawNumber)),
    title: orHostile(validText(0, 255)),
  };
  const validPlace = {
    project_id: fc.constantFrom('1', '2').map(quoted),
    parent_page_id: fc.constantFrom('', ...SEEDED.pages).map(quoted),
    position: fc.nat(6).map(String),
    title: validText(0, 255),
  };
  const createFields = {
    ...placeFields,
    content: orHostile(fc.constantFrom('', '<p>x</p>', 'x'.repeat(1000)).map(quoted)),
    schema: orHostile(fc.constantFrom('1', '1000', '0', '1001', '1.5').map((v) => v)),
    font: orHostile(fc.constantFrom('sans', 'serif', 'mono', 'comic').map(quoted)),
    icon: orHostile(rawImage()),
    cover_image: orHostile(rawImage(true)),
    is_public: orHostile(rawBoolean),
    hide_table_of_contents: orHostile(rawBoolean),
    hide_subpages: orHostile(rawBoolean),
    archived: rawBoolean,
  };
  const validCreate = rawValidObject({
    ...validPlace,
    content: fc.constantFrom('', '<p>Hello</p>').map(quoted),
    schema: fc.constantFrom('1', '7', '1000'),
    font: fc.constantFrom('sans', 'serif', 'mono').map(quoted),
    is_public: rawBoolean,
  });
  /** The create's body always names a project, as the contract requires, unless hostile. */
  const withProject = validCreate.map((body) =>
    body.includes('"project_id"')
      ? body
      : body.replace(/^\{/, body === '{}' ? '{"project_id":"1"' : '{"project_id":"1",'),
  );
  const hostileBody = (fields: Record<string, fc.Arbitrary<string>>) =>
    fc.oneof({ weight: 4, arbitrary: rawFieldsObject(fields, 4) }, { weight: 1, arbitrary: rawNotAnObject });
  /** A create has no resource to compare If-Match with: the generated one is left out. */
  const withoutIfMatch = (req: HostileRequest): HostileRequest => ({
    ...req,
    headers: { ...req.headers, 'If-Match': undefined },
  });

  const problems = async () => treeProblems(s.t.app.get(DataSource), s.ws.teamId);

  it(
    'POST pages: 201 with what it asked for, or a contract error that changes nothing; the tree stays valid',
    async () => {
      const requests = hostileRequests({
        method: 'post',
        path: {
          valid: fc.constant(`/v1/${s.ws.teamId}/pages`),
          hostile: hostileTeam(s).map((t) => `/v1/${t}/pages`),
        },
        auth: { valid: writers(), hostile: hostileAuth(s) },
        body: { valid: withProject, hostile: hostileBody(createFields) },
      }).map(withoutIfMatch);
      await assert(
        requests,
        async (req) => {
          const res = await sendChecked(req);
          if (res.status !== 201) return;
          const sent = serverView(req);
          const page = res.body.page;
          for (const f of ['title', 'content', 'schema', 'font', 'project_id', 'is_public'] as const)
            if (f in sent) expect(page[f]).toEqual(sent[f]);
          expect(res.headers.location).toBe(`/v1/${s.ws.teamId}/pages/${page.id}`);
        },
        250,
      );
      expect(await problems()).toEqual([]);
    },
    hostileTimeout(250),
  );

  it(
    'POST copy: 201 with a new page, or a contract error that changes nothing; the tree stays valid',
    async () => {
      const requests = hostileRequests({
        method: 'post',
        path: {
          valid: validPath(s, 'pages', SEEDED.pages, '/copy'),
          hostile: hostilePath(s, 'pages', [...SEEDED.pages, '9'], '/copy'),
        },
        auth: { valid: writers(), hostile: hostileAuth(s) },
        body: {
          valid: fc.oneof(fc.constant(undefined), rawValidObject({ ...validPlace, recursive: rawBoolean })),
          hostile: hostileBody({ ...placeFields, recursive: orHostile(rawBoolean) }),
        },
      });
      await assert(
        requests,
        async (req) => {
          const res = await sendChecked(req);
          if (res.status !== 201) return;
          const copied = req.path.split('/').at(-2);
          expect(res.body.page.id).not.toBe(copied);
          const sent = serverView(req);
          if ('title' in sent) expect(res.body.page.title).toBe(sent.title);
          expect(res.body.page.is_public).toBe(false);
        },
        200,
      );
      expect(await problems()).toEqual([]);
    },
    hostileTimeout(200),
  );

  it(
    'DELETE: 204, or a contract error that changes nothing; a deleted page is 404; the tree stays valid',
    async () => {
      const requests = hostileRequests({
        method: 'delete',
        path: { valid: validPath(s, 'pages', DELETABLE), hostile: hostilePath(s, 'pages', DELETABLE) },
        auth: { valid: writers(), hostile: hostileAuth(s) },
        body: { valid: fc.constant(undefined), hostile: fc.oneof(fc.constant(undefined), rawNotAnObject) },
      });
      await assert(
        requests,
        async (req) => {
          const res = await sendChecked(req);
          if (res.status !== 204 || res.headers['idempotent-replayed'] === 'true') return;
          const read = await s.t.http.get(req.path).set('Authorization', s.ws.auth.owner);
          expect(read.status).toBe(404);
        },
        150,
      );
      expect(await problems()).toEqual([]);
    },
    hostileTimeout(150),
  );
});
