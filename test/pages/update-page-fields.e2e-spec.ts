import { expectError } from '../support/expect-error';
import { useScene } from '../support/scene';
import { seedPages } from './page-fixtures';

describe("PATCH /v1/{team_id}/pages/{page_id}: the page's own fields", () => {
  const s = useScene();
  const patch = (id: string, body: unknown, auth = s.ws.auth.member) =>
    s.t.http
      .patch(`/v1/${s.ws.teamId}/pages/${id}`)
      .set('Authorization', auth)
      .send(body as object);
  const read = async (id: string) =>
    (await s.t.http.get(`/v1/${s.ws.teamId}/pages/${id}`).set('Authorization', s.ws.auth.member).expect(200)).body.page;

  it('changes every field sent and nothing else', async () => {
    const [id] = await seedPages(s.t.app, s.ws, [{}]);
    const before = await read(id);
    const body = {
      title: 'Handbook',
      font: 'mono',
      icon: { type: 'icon', src: 'book', color: 'blue' },
      cover_image: { type: 'image', src: 'https://example.com/c.png', positionY: 40, object_fit: 'cover' },
      is_public: true,
      public_settings: { url: 'https://docs.example.com/handbook', robots: ['noindex', 'nofollow'] },
      hide_table_of_contents: true,
      hide_subpages: true,
    };
    const res = await patch(id, body).expect(200);
    expect(res.body.page).toEqual({
      ...before,
      ...body,
      collaboration: { token: expect.any(String) },
      user_updated: { user_id: s.ws.users.member, type: 'user' },
      user_id_updated: s.ws.users.member,
      time_updated: expect.any(Number),
    });
    expect(res.body.page.time_updated).toBeGreaterThanOrEqual(before.time_updated);
    expect(await read(id)).toEqual({ ...res.body.page, collaboration: { token: expect.any(String) } });
  });

  it('shares a page at {PUBLIC_PAGES_BASE_URL}/{alias_id} when no URL is given, and null goes back to it', async () => {
    const [id] = await seedPages(s.t.app, s.ws, [{}]);
    const shared = (await patch(id, { is_public: true, public_settings: { robots: ['all'] } }).expect(200)).body.page;
    expect(shared.public_settings).toEqual({ url: `http://localhost:3000/p/${shared.alias_id}`, robots: ['all'] });
    await patch(id, { public_settings: { url: 'http://intranet/x' } }).expect(200);
    const reset = (await patch(id, { public_settings: { url: null } }).expect(200)).body.page;
    expect(reset.public_settings.url).toBe(`http://localhost:3000/p/${shared.alias_id}`);
  });

  it('clears icon and cover_image with null', async () => {
    const [id] = await seedPages(s.t.app, s.ws, [
      { icon: { type: 'emoji', src: 'x' }, cover_image: { type: 'image', src: 'y' } },
    ]);
    const page = (await patch(id, { icon: null, cover_image: null }).expect(200)).body.page;
    expect(page.icon).toBeUndefined();
    expect(page.cover_image).toBeUndefined();
  });

  it('leaves time_updated and user_updated alone when nothing changes', async () => {
    const [id] = await seedPages(s.t.app, s.ws, [{ title: 'Same' }]);
    const before = await read(id);
    for (const body of [
      {},
      { title: 'Same', font: 'sans', is_public: false, hide_subpages: false, public_settings: { robots: [] } },
    ]) {
      const res = await patch(id, body).expect(200);
      expect(res.body.page).toEqual({ ...before, collaboration: { token: expect.any(String) } });
    }
  });

  it('loses no field under concurrent patches of different fields', async () => {
    for (let round = 0; round < 5; round++) {
      const [id] = await seedPages(s.t.app, s.ws, [{}]);
      const bodies = [
        { title: `T${round}` },
        { font: 'serif' },
        { is_public: true },
        { hide_subpages: true },
        { hide_table_of_contents: true },
        { position: 0 },
      ];
      const statuses = (await Promise.all(bodies.map((b) => patch(id, b)))).map((r) => r.status);
      expect(statuses).toEqual(bodies.map(() => 200));
      expect(await read(id)).toMatchObject(Object.assign({}, ...bodies));
    }
  });

  describe('refusals change nothing', () => {
    let id: string;
    let before: object;
    beforeAll(async () => {
      [id] = await seedPages(s.t.app, s.ws, [{ members: [{ user_id: s.ws.users.guest }] }]);
      before = await read(id);
    });
    afterEach(async () => expect(await read(id)).toEqual({ ...before, collaboration: { token: expect.any(String) } }));

    it.each([
      ['title null', { title: null }, 'VALIDATION_FAILED', /^title /],
      ['title too long', { title: 'x'.repeat(256) }, 'VALIDATION_FAILED', /^title .*255/],
      ['title a number', { title: 1 }, 'VALIDATION_FAILED', /^title must be a string/],
      ['an unknown font', { font: 'comic' }, 'VALIDATION_FAILED', /^font /],
      ['font null', { font: null }, 'VALIDATION_FAILED', /^font /],
      ['an icon of an unknown type', { icon: { type: 'svg', src: 'x' } }, 'VALIDATION_FAILED', /^icon\.type /],
      [
        'a cover with a bad object_fit',
        { cover_image: { type: 'image', src: 'x', object_fit: 'stretch' } },
        'VALIDATION_FAILED',
        /^cover_image\.object_fit /,
      ],
      [
        'a cover with a fractional positionY',
        { cover_image: { type: 'image', src: 'x', positionY: 1.5 } },
        'VALIDATION_FAILED',
        /^cover_image\.positionY /,
      ],
      ['is_public null', { is_public: null }, 'VALIDATION_FAILED', /^is_public /],
      ['is_public a string', { is_public: 'true' }, 'VALIDATION_FAILED', /^is_public /],
      ['a relative public URL', { public_settings: { url: '/p/x' } }, 'VALIDATION_FAILED', /public_settings\.url/],
      [
        'a ftp public URL',
        { public_settings: { url: 'ftp://example.com/x' } },
        'VALIDATION_FAILED',
        /public_settings\.url/,
      ],
      [
        'an unknown robots directive',
        { public_settings: { robots: ['index', 'crawl-me'] } },
        'VALIDATION_FAILED',
        /robots/,
      ],
      ['public_settings null', { public_settings: null }, 'VALIDATION_FAILED', /^public_settings /],
      ['an unknown public_settings field', { public_settings: { urls: [] } }, 'UNKNOWN_FIELD', /public_settings\.urls/],
      ['archived null', { archived: null }, 'VALIDATION_FAILED', /^archived /],
      ['hide_subpages a number', { hide_subpages: 0 }, 'VALIDATION_FAILED', /^hide_subpages /],
      ['project_id a number', { project_id: 2 }, 'VALIDATION_FAILED', /^project_id /],
      ['an unknown field', { content: 'x' }, 'UNKNOWN_FIELD', /content/],
    ] as const)('rejects %s with 400', async (_, body, code, message) => {
      expectError(await patch(id, body), code, message);
    });

    it('refuses a viewer, another workspace, and a guest not listed on the page', async () => {
      expectError(await patch(id, { title: 'x' }, s.ws.auth.viewer), 'ACCESS_DENIED');
      expectError(await patch(id, { title: 'x' }, s.other.auth.owner), 'ACCESS_DENIED');
      const [unlisted] = await seedPages(s.t.app, s.ws, [{}]);
      expectError(await patch(unlisted, { title: 'x' }, s.ws.auth.guest), 'ACCESS_DENIED');
    });

    it('answers 401 without a token and 404 for an unknown page', async () => {
      expectError(await s.t.http.patch(`/v1/${s.ws.teamId}/pages/${id}`).send({ title: 'x' }), 'UNAUTHENTICATED');
      expectError(await patch('55555555555', { title: 'x' }), 'PAGE_NOT_FOUND', /55555555555/);
    });
  });

  it('lets a guest listed on the page change it', async () => {
    const [id] = await seedPages(s.t.app, s.ws, [{ members: [{ user_id: s.ws.users.guest }] }]);
    expect((await patch(id, { title: 'By a guest' }, s.ws.auth.guest).expect(200)).body.page.user_updated.user_id).toBe(
      s.ws.users.guest,
    );
  });
});
