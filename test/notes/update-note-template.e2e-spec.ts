import { expectError } from '../support/expect-error';
import { useScene } from '../support/scene';
import { seedTemplate } from './note-template-fixtures';

describe('PATCH /v1/{team_id}/notes/templates/{template_id}', () => {
  const s = useScene();

  const url = (id: string, team = s.ws.teamId) => `/v1/${team}/notes/templates/${id}`;
  const patch = (id: string, body: unknown, auth = s.ws.auth.member) =>
    s.t.http
      .patch(url(id))
      .set('Authorization', auth)
      .send(body as object);
  const read = async (id: string, auth = s.ws.auth.member) =>
    (await s.t.http.get(url(id)).set('Authorization', auth).expect(200)).body.note_template;

  describe('success', () => {
    it('changes every field and answers the whole template', async () => {
      const id = await seedTemplate(s.t.app, s.ws, { favourited_by: [s.ws.users.member] });
      const before = await read(id);
      const body = {
        title: 'Retro',
        context: 'Collect what went well',
        icon: { type: 'emoji', src: '🗒️', emoji: 'spiral_note_pad' },
        sections: [{ title: 'Went well', description: 'Wins' }, { title: 'To improve' }],
        ai_actions: true,
        is_shared: true,
      };
      const res = await patch(id, body).expect(200);
      expect(res.body).toEqual({
        note_template: {
          id,
          title: 'Retro',
          context: 'Collect what went well',
          icon: { type: 'emoji', src: '🗒️', emoji: 'spiral_note_pad' },
          sections: [
            { title: 'Went well', description: 'Wins' },
            { title: 'To improve', description: '' },
          ],
          ai_actions: true,
          is_shared: true,
          is_favourited: true,
          user: before.user,
          user_updated: { user_id: s.ws.users.member, type: 'user' },
          time_created: before.time_created,
          time_updated: expect.any(Number),
        },
      });
      expect(res.body.note_template.time_updated).toBeGreaterThan(before.time_updated);
      expect(String(res.body.note_template.time_updated)).toHaveLength(13);
      expect(await read(id)).toEqual(res.body.note_template);
    });

    it('changes only the fields sent', async () => {
      const id = await seedTemplate(s.t.app, s.ws, { ai_actions: true, is_shared: true });
      const before = await read(id);
      const res = await patch(id, { title: 'Only the title' }).expect(200);
      expect(res.body.note_template).toEqual({
        ...before,
        title: 'Only the title',
        user_updated: { user_id: s.ws.users.member, type: 'user' },
        time_updated: expect.any(Number),
      });
    });

    it.each([
      ['context ""', { context: '' }, { context: '' }],
      ['context null', { context: null }, { context: '' }],
      ['sections []', { sections: [] }, { sections: [] }],
      ['sections null', { sections: null }, { sections: [] }],
      ['ai_actions null', { ai_actions: null }, { ai_actions: false }],
      ['is_shared null', { is_shared: null }, { is_shared: false }],
    ])('clears with %s', async (_, body, expected) => {
      const id = await seedTemplate(s.t.app, s.ws, { ai_actions: true, is_shared: true });
      const res = await patch(id, body).expect(200);
      expect(res.body.note_template).toMatchObject(expected);
      expect(await read(id)).toMatchObject(expected);
    });

    it('accepts a context of exactly 102400 code points, astral ones included', async () => {
      const id = await seedTemplate(s.t.app, s.ws);
      const context = '𝄞'.repeat(102400);
      const res = await patch(id, { context }).expect(200);
      expect(res.body.note_template.context).toBe(context);
    });

    it('replaces sections as an ordered whole', async () => {
      const id = await seedTemplate(s.t.app, s.ws);
      const sections = ['c', 'a', 'b'].map((title) => ({ title, description: `about ${title}` }));
      await patch(id, { sections }).expect(200);
      expect((await read(id)).sections).toEqual(sections);
    });

    it('leaves time_updated and user_updated alone when nothing changes', async () => {
      const id = await seedTemplate(s.t.app, s.ws);
      const before = await read(id);
      for (const body of [
        {},
        {
          title: before.title,
          context: before.context,
          sections: before.sections,
          ai_actions: false,
          is_shared: false,
        },
      ]) {
        const res = await patch(id, body, s.ws.auth.oauth).expect(200);
        expect(res.body.note_template).toEqual(before);
      }
    });

    it('records an OAuth app and an agent as the updater, with their source', async () => {
      const id = await seedTemplate(s.t.app, s.ws);
      const viaOauth = await patch(id, { title: 'By an app' }, s.ws.auth.oauth).expect(200);
      expect(viaOauth.body.note_template.user_updated).toEqual({
        user_id: s.ws.users.member,
        type: 'user',
        source: { type: 'oauth', client_id: 'client-42' },
      });
      const viaAgent = await patch(id, { title: 'By an agent' }, s.ws.auth.agent).expect(200);
      expect(viaAgent.body.note_template.user_updated).toEqual({
        user_id: s.ws.users.member,
        type: 'robot',
        source: { type: 'agent', agent_id: 'agent-7', on_behalf_of: s.ws.users.owner },
      });
    });

    it('loses no field under concurrent patches of different fields', async () => {
      for (let round = 0; round < 5; round++) {
        const id = await seedTemplate(s.t.app, s.ws);
        const bodies = [
          { title: `T${round}` },
          { context: `C${round}` },
          { sections: [{ title: `S${round}`, description: '' }] },
          { ai_actions: true },
          { is_shared: true },
          { icon: { type: 'icon', src: `i${round}` } },
        ];
        const responses = await Promise.all(bodies.map((b) => patch(id, b)));
        expect(responses.map((r) => r.status)).toEqual(bodies.map(() => 200));
        expect(await read(id)).toMatchObject(Object.assign({}, ...bodies));
      }
    });
  });

  describe('validation (400), and nothing changes', () => {
    let id: string;
    let before: object;
    beforeAll(async () => {
      id = await seedTemplate(s.t.app, s.ws);
      before = await read(id);
    });
    afterEach(async () => expect(await read(id)).toEqual(before));

    it.each([
      ['title null', { title: null }, 'VALIDATION_FAILED', /^title /],
      ['title empty', { title: '' }, 'VALIDATION_FAILED', /^title /],
      ['title too long', { title: 'x'.repeat(256) }, 'VALIDATION_FAILED', /^title .*255/],
      ['title a number', { title: 7 }, 'VALIDATION_FAILED', /^title must be a string/],
      ['context too long', { context: 'x'.repeat(102401) }, 'VALIDATION_FAILED', /^context .*102400/],
      ['context a number', { context: 1 }, 'VALIDATION_FAILED', /^context /],
      ['icon null', { icon: null }, 'VALIDATION_FAILED', /^icon /],
      ['icon of an unknown type', { icon: { type: 'gif', src: 'x' } }, 'VALIDATION_FAILED', /^icon\.type /],
      ['icon without src', { icon: { type: 'emoji' } }, 'VALIDATION_FAILED', /^icon\.src /],
      ['icon a string', { icon: 'x' }, 'VALIDATION_FAILED', /^icon /],
      ['an unknown icon field', { icon: { type: 'emoji', src: 'x', size: 3 } }, 'UNKNOWN_FIELD', /icon\.size/],
      ['sections not an array', { sections: {} }, 'VALIDATION_FAILED', /^sections /],
      [
        '101 sections',
        { sections: Array.from({ length: 101 }, () => ({ title: 's' })) },
        'VALIDATION_FAILED',
        /^sections .*100/,
      ],
      ['a section without title', { sections: [{ description: 'd' }] }, 'VALIDATION_FAILED', /^sections\[0\]\.title /],
      ['a section that is a string', { sections: ['s'] }, 'VALIDATION_FAILED', /^sections/],
      [
        'a section with an unknown field',
        { sections: [{ title: 's', emoji: 'x' }] },
        'UNKNOWN_FIELD',
        /sections\[0\]\.emoji/,
      ],
      ['ai_actions a string', { ai_actions: 'yes' }, 'VALIDATION_FAILED', /^ai_actions /],
      ['is_shared a number', { is_shared: 1 }, 'VALIDATION_FAILED', /^is_shared /],
      ['an unknown field', { titel: 'typo' }, 'UNKNOWN_FIELD', /titel/],
    ] as const)('rejects %s', async (_, body, code, message) => {
      expectError(await patch(id, body), code, message);
    });

    it('rejects a body that is an array', async () => {
      expectError(await patch(id, [{ title: 'x' }]), 'MALFORMED_JSON', /JSON object/);
    });

    it('rejects a template_id of the wrong shape', async () => {
      expectError(await patch('bad.id', { title: 'x' }), 'INVALID_PATH_PARAMETER', /template_id/);
      expectError(await patch('x'.repeat(65), { title: 'x' }), 'INVALID_PATH_PARAMETER', /template_id/);
    });

    it('rejects a team_id of the wrong shape before looking at membership', async () => {
      const res = await s.t.http
        .patch(url(id, 'not-alnum'))
        .set('Authorization', s.ws.auth.member)
        .send({ title: 'x' });
      expectError(res, 'INVALID_TEAM_ID', /team_id/);
    });
  });

  describe('who may write', () => {
    it('answers 401 without a valid token', async () => {
      const id = await seedTemplate(s.t.app, s.ws);
      expectError(await s.t.http.patch(url(id)).send({ title: 'x' }), 'UNAUTHENTICATED');
      expectError(await patch(id, { title: 'x' }, 'Bearer nope'), 'UNAUTHENTICATED');
    });

    it.each([
      ["someone else's shared template", { owner: 'admin', is_shared: true }],
      ["someone else's private template", { owner: 'admin', is_shared: false }],
      ['a built-in template', { owner: null, is_shared: false }],
    ] as const)('refuses %s with 403 and changes nothing', async (_, { owner, is_shared }) => {
      const id = await seedTemplate(s.t.app, s.ws, { owner_id: owner && s.ws.users[owner], is_shared });
      const reader = owner ? s.ws.auth[owner] : s.ws.auth.member;
      const before = await read(id, reader);
      const res = await patch(id, { title: 'Mine now' });
      expectError(res, 'ACCESS_DENIED', /^You do not have access to this resource$/);
      expect(await read(id, reader)).toEqual(before);
    });

    it('refuses a viewer, even on a template of their own, before validating the body', async () => {
      const id = await seedTemplate(s.t.app, s.ws, { owner_id: s.ws.users.viewer });
      expectError(await patch(id, { title: 'x' }, s.ws.auth.viewer), 'ACCESS_DENIED');
      expectError(await patch(id, { title: null }, s.ws.auth.viewer), 'ACCESS_DENIED');
    });

    it('refuses a token of another workspace before any lookup', async () => {
      const id = await seedTemplate(s.t.app, s.ws);
      expectError(
        await patch(id, { title: 'x' }, s.other.auth.owner),
        'ACCESS_DENIED',
        'You do not have access to this resource',
      );
      expectError(await patch('does-not-exist', { title: 'x' }, s.other.auth.owner), 'ACCESS_DENIED');
    });
  });

  describe('existence (404)', () => {
    it('answers 404 for an id that names nothing in this workspace', async () => {
      expectError(await patch('no-such-template', { title: 'x' }), 'NOTE_TEMPLATE_NOT_FOUND', /no-such-template/);
    });

    it("answers 404 for another workspace's template id", async () => {
      const foreign = await seedTemplate(s.t.app, s.other);
      expectError(await patch(foreign, { title: 'x' }), 'NOTE_TEMPLATE_NOT_FOUND', foreign);
    });
  });
});
