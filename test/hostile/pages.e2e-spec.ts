import fc from 'fast-check';
import type { Response } from 'supertest';
import {
  hostileAuth,
  hostilePath,
  hostileRequests,
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
import {
  HostileRequest,
  isReplay,
  requestedId,
  SEEDED,
  send,
  serverView,
  ROBOTS,
  useHostileScene,
} from './hostile-harness';
import { hostileTimeout } from './hostile-runs';

describe('hostile requests: pages', () => {
  const hostile = useHostileScene('pages');
  const { s, sendChecked, assert } = hostile;

  const pagePath = (suffix = '') => validPath(s, 'pages', SEEDED.pages, suffix);
  const hostilePagePath = (suffix = '') => hostilePath(s, 'pages', [...SEEDED.pages, '9'], suffix);
  const writers = () => [
    s.ws.auth.member,
    s.ws.auth.owner,
    s.ws.auth.admin,
    s.ws.auth.oauth,
    s.ws.auth.agent,
    s.ws.auth.guest,
  ];

  const pageIdText = fc
    .constantFrom(
      '',
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      '0',
      '0002',
      '9223372036854775807',
      '9223372036854775808',
      '99999999999999999999',
      ' 1',
      '1 ',
      '-1',
      '1.0',
      '\u0661',
    )
    .map(quoted);
  const publicSettings = rawFieldsObject(
    {
      url: orHostile(
        fc
          .constantFrom(
            'https://example.com/x',
            'http://intranet/x',
            'HTTPS://EXAMPLE.COM',
            'https://ex.com/😀',
            'ftp://example.com',
            'javascript:alert(1)',
            'not a url',
            'http://',
            '//example.com',
            `https://${'a'.repeat(3000)}.com`,
            'http://[::1]:80/x',
            'http://user:pass@host/',
            'http://exa mple.com',
          )
          .map(quoted),
      ),
      robots: orHostile(
        fc
          .array(fc.constantFrom(...ROBOTS, 'NOINDEX', 'index, follow', ''), { maxLength: 4 })
          .map((r) => JSON.stringify(r)),
      ),
    },
    3,
  );
  const hostileFields = {
    title: orHostile(validText(0, 255)),
    font: orHostile(fc.constantFrom('sans', 'serif', 'mono', 'Sans', 'comic', '').map(quoted)),
    icon: orHostile(rawImage()),
    cover_image: orHostile(rawImage(true)),
    project_id: orHostile(fc.constantFrom('1', '2', '3', 'nope', '', '1 ', 'x'.repeat(65), '-').map(quoted)),
    parent_page_id: orHostile(pageIdText),
    position: orHostile(fc.oneof({ weight: 3, arbitrary: fc.nat(6).map(String) }, { weight: 1, arbitrary: rawNumber })),
    is_public: orHostile(rawBoolean),
    public_settings: orHostile(publicSettings),
    archived: orHostile(rawBoolean),
    hide_table_of_contents: orHostile(rawBoolean),
    hide_subpages: orHostile(rawBoolean),
  };
  const validFields = {
    title: validText(0, 255),
    font: fc.constantFrom('sans', 'serif', 'mono').map(quoted),
    icon: fc.oneof(rawImage(false, false), fc.constant('null')),
    cover_image: fc.oneof(rawImage(true, false), fc.constant('null')),
    project_id: fc.constantFrom('1', '2').map(quoted),
    parent_page_id: fc.constantFrom('', ...SEEDED.pages).map(quoted),
    position: fc.oneof(fc.nat(6).map(String), fc.constantFrom('1e308', '9007199254740993', '-0')),
    is_public: rawBoolean,
    public_settings: fc
      .record(
        {
          url: fc.constantFrom('https://example.com/x', 'http://intranet/p', null),
          robots: fc.subarray(ROBOTS, { maxLength: 3 }),
        },
        { requiredKeys: [] },
      )
      .map((settings) => JSON.stringify(settings)),
    archived: rawBoolean,
    hide_table_of_contents: rawBoolean,
    hide_subpages: rawBoolean,
  };
  const validBody = fc.oneof(
    { weight: 8, arbitrary: rawValidObject(validFields) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
  const hostileBody = fc.oneof(
    { weight: 4, arbitrary: rawFieldsObject(hostileFields, 4) },
    { weight: 1, arbitrary: rawNotAnObject },
  );

  /** The GET a client would make next, as the same caller: it must show what the write answered. */
  const expectGetShows = async (req: HostileRequest, res: Response) => {
    // A replay is the answer first given (the harness checks that); the page may have moved on since.
    if (isReplay(res)) return;
    const page = res.body.page;
    const read = await s.t.http
      .get(req.path.replace(/\/archive$/, ''))
      .set('Authorization', req.headers.Authorization!);
    expect(read.status).toBe(200);
    expect(read.body.page).toEqual({ ...page, collaboration: { token: expect.any(String) } });
  };

  it(
    'PATCH: every answer is 200 or a contract error, a refusal changes nothing, ' +
      'a 200 is what it asked for and what a GET then shows',
    async () => {
      const requests = hostileRequests({
        method: 'patch',
        path: { valid: pagePath(), hostile: hostilePagePath() },
        auth: { valid: writers(), hostile: hostileAuth(s) },
        body: { valid: validBody, hostile: hostileBody },
      });
      await assert(
        requests,
        async (req) => {
          const res = await sendChecked(req);
          if (res.status !== 200) return;
          const sent = serverView(req) as Record<string, any>;
          const page = res.body.page;
          const same: Record<string, unknown> = {};
          for (const f of ['title', 'font', 'is_public', 'hide_table_of_contents', 'hide_subpages'] as const)
            if (f in sent) same[f] = sent[f];
          expect(page).toMatchObject(same);
          for (const f of ['icon', 'cover_image'] as const)
            if (f in sent) expect(page[f]).toEqual(sent[f] ?? undefined);
          if (sent.public_settings?.robots) expect(page.public_settings.robots).toEqual(sent.public_settings.robots);
          if (typeof sent.public_settings?.url === 'string')
            expect(page.public_settings.url).toBe(sent.public_settings.url);
          if (sent.public_settings?.url === null)
            expect(page.public_settings.url).toMatch(new RegExp(`/${page.alias_id}$`));
          if ('archived' in sent) expect(page.archived !== undefined).toBe(sent.archived);
          if (page.archived === undefined) {
            expect(page.position).toEqual(expect.any(Number));
            if ('parent_page_id' in sent)
              expect(page.parent_page_id).toBe(
                sent.parent_page_id === '' ? '' : BigInt(sent.parent_page_id).toString(),
              );
            if ('project_id' in sent) expect(page.project_id).toBe(sent.project_id);
            if ('position' in sent) expect(page.position).toBeLessThanOrEqual(sent.position);
          }
          await expectGetShows(req, res);
        },
        600,
      );
    },
    hostileTimeout(600),
  );

  it(
    'PUT archive: whatever the body and its type, 200 with the page archived or a contract error; ' +
      'a refusal changes nothing',
    async () => {
      const requests = hostileRequests({
        method: 'put',
        path: { valid: pagePath('/archive'), hostile: hostilePagePath('/archive') },
        auth: { valid: writers(), hostile: hostileAuth(s) },
        body: {
          valid: fc.oneof(fc.constant(undefined), validBody),
          hostile: fc.oneof(hostileBody, fc.string({ unit: 'binary', maxLength: 50 })),
        },
      });
      await assert(
        requests,
        async (req) => {
          const res = await sendChecked(req);
          if (res.status !== 200) return;
          expect(res.body.page.archived).toEqual({
            user_id: expect.any(String),
            time_archived: expect.any(Number),
            parent_page_id: expect.any(String),
          });
          await expectGetShows(req, res);
          // Bring it back (and its subtree) so that later runs still find active pages.
          const back: HostileRequest = {
            ...req,
            method: 'patch',
            path: req.path.replace(/\/archive$/, ''),
            body: '{"archived": false}',
            compress: true,
          };
          await hostile.tracker.before();
          const restored = await send(s.t, {
            ...back,
            headers: { Authorization: req.headers.Authorization, 'Content-Type': 'application/json' },
          });
          expect(restored.status).toBe(200);
          await hostile.tracker.after(back, restored);
        },
        250,
      );
    },
    hostileTimeout(250),
  );

  it(
    'GET: every answer is 200, 304 (If-None-Match) or a contract error, and reading changes nothing',
    async () => {
      const requests = hostileRequests({
        method: 'get',
        path: { valid: pagePath(), hostile: hostilePagePath() },
        auth: { valid: [...writers(), s.ws.auth.viewer], hostile: hostileAuth(s) },
        body: { valid: fc.constant(undefined), hostile: fc.oneof(rawNotAnObject, hostileBody) },
      });
      await assert(
        requests,
        async (req) => {
          const res = await sendChecked(req);
          if (res.status === 200) expect(BigInt(res.body.page.id)).toBe(BigInt(requestedId(req)));
        },
        300,
      );
    },
    hostileTimeout(300),
  );

  /** GET /pages with a query string of `params` pairs, URL-encoded as a client would. */
  const listPath = (params: fc.Arbitrary<[string, string]>) =>
    fc
      .array(params, { maxLength: 4 })
      .map(
        (pairs) =>
          `/v1/${s.ws.teamId}/pages` +
          (pairs.length ? `?${pairs.map((p) => p.map(encodeURIComponent).join('=')).join('&')}` : ''),
      );
  const listParam = () =>
    fc.constantFrom<[string, string]>(
      ['project_id', s.ws.projectId],
      ['parent_page_id', SEEDED.pages[0]],
      ['archived', 'true'],
      ['archived', 'false'],
      ['updated_recently', 'true'],
      ['limit', '1'],
      ['limit', '100'],
    );
  const hostileListParam = fc.tuple(
    fc.oneof(
      fc.constantFrom('project_id', 'parent_page_id', 'archived', 'updated_recently', 'limit', 'cursor', 'archive'),
      fc.constantFrom('__proto__', 'constructor', 'limit[]', 'LIMIT', ''),
      fc.string({ maxLength: 12 }),
    ),
    fc.oneof(
      fc.constantFrom('', 'yes', '0', '101', '-1', '1e3', 'ten', '99999999999999999999', 'null', 'true', '1'),
      fc.constantFrom(Buffer.from('{"l":"pages","f":"x","p":[]}').toString('base64url'), 'eyJsIjoicGFnZXMifQ'),
      fc.string({ maxLength: 40, unit: 'binary' }),
    ),
  );

  it(
    'GET list: every answer is 200 with pages of this workspace, or a contract error, and reading changes nothing',
    async () => {
      const requests = hostileRequests({
        method: 'get',
        path: { valid: listPath(listParam()), hostile: listPath(fc.oneof(listParam(), hostileListParam)) },
        auth: { valid: [...writers(), s.ws.auth.viewer], hostile: hostileAuth(s) },
        body: { valid: fc.constant(undefined), hostile: fc.oneof(rawNotAnObject, hostileBody) },
      });
      await assert(
        requests,
        async (req) => {
          const res = await sendChecked(req);
          if (res.status !== 200) return;
          expect(res.body.count).toBe(res.body.pages.length);
          for (const page of res.body.pages) expect(page.team_id).toBe(s.ws.teamId);
        },
        200,
      );
    },
    hostileTimeout(200),
  );
});
