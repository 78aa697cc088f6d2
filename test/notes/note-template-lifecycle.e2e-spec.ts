import { DataSource } from 'typeorm';
import { expectError } from '../support/expect-error';
import { seedWorkspace, Workspace } from '../support/fixtures';
import { useScene } from '../support/scene';
import { seedTemplate } from './note-template-fixtures';

describe('Note templates: create, list, delete', () => {
  const s = useScene();

  const base = (ws: Workspace) => `/v1/${ws.teamId}/notes/templates`;
  const create = (body: unknown, auth = s.ws.auth.member, ws = s.ws) =>
    s.t.http
      .post(base(ws))
      .set('Authorization', auth)
      .send(body as object);
  const remove = (id: string, auth = s.ws.auth.member, ws = s.ws) =>
    s.t.http.delete(`${base(ws)}/${id}`).set('Authorization', auth);
  const list = (query: string, auth: string, ws: Workspace) =>
    s.t.http.get(`${base(ws)}${query}`).set('Authorization', auth);
  const rows = (ws: Workspace) =>
    s.t.app
      .get(DataSource)
      .query<Array<{ id: string }>>(`SELECT id FROM note_templates WHERE team_id = $1 ORDER BY id`, [ws.teamId]);

  describe('POST', () => {
    it('creates a template the caller owns, with Location and ETag, as GET shows it', async () => {
      const body = {
        title: 'Retro',
        context: 'Collect what went well',
        icon: { type: 'emoji', src: '🗒️', emoji: 'spiral_note_pad' },
        sections: [{ title: 'Went well', description: 'Wins' }, { title: 'To improve' }],
        ai_actions: true,
        is_shared: true,
      };
      const res = await create(body, s.ws.auth.agent).expect(201);
      const template = res.body.note_template;
      expect(template).toEqual({
        id: expect.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
        title: 'Retro',
        context: 'Collect what went well',
        icon: { type: 'emoji', src: '🗒️', emoji: 'spiral_note_pad' },
        sections: [
          { title: 'Went well', description: 'Wins' },
          { title: 'To improve', description: '' },
        ],
        ai_actions: true,
        is_shared: true,
        is_favourited: false,
        user: { type: 'robot', user_id: s.ws.users.member, source: expect.objectContaining({ agent_id: 'agent-7' }) },
        user_updated: template.user,
        time_created: expect.any(Number),
        time_updated: template.time_created,
      });
      expect(String(template.time_created)).toHaveLength(13);
      expect(res.headers.location).toBe(`${base(s.ws)}/${template.id}`);
      const read = await s.t.http.get(res.headers.location).set('Authorization', s.ws.auth.member).expect(200);
      expect(read.body.note_template).toEqual(template);
      expect(read.headers.etag).toBe(res.headers.etag);
    });

    it('defaults what is left out: empty context and sections, false flags, no icon', async () => {
      const res = await create({ title: 'Bare' }).expect(201);
      expect(res.body.note_template).toMatchObject({ title: 'Bare', context: '', sections: [], ai_actions: false });
      expect(res.body.note_template.is_shared).toBe(false);
      expect(res.body.note_template).not.toHaveProperty('icon');
    });

    it('takes a new id each time, never one the workspace used', async () => {
      const ids = new Set<string>();
      for (let i = 0; i < 5; i++) ids.add((await create({ title: `T${i}` }).expect(201)).body.note_template.id);
      expect(ids.size).toBe(5);
    });

    it.each([
      ['no title', {}, 'VALIDATION_FAILED', /title/],
      ['a null title', { title: null }, 'VALIDATION_FAILED', /title/],
      ['an empty title', { title: '' }, 'VALIDATION_FAILED', /title/],
      ['a title of 256 code points', { title: 'x'.repeat(256) }, 'VALIDATION_FAILED', /title/],
      [
        'a context past 102400 code points',
        { title: 't', context: 'x'.repeat(102401) },
        'VALIDATION_FAILED',
        /context/,
      ],
      ['101 sections', { title: 't', sections: Array(101).fill({ title: 's' }) }, 'VALIDATION_FAILED', /sections/],
      ['a section with an unknown key', { title: 't', sections: [{ title: 's', x: 1 }] }, 'UNKNOWN_FIELD', /x/],
      ['a null icon', { title: 't', icon: null }, 'VALIDATION_FAILED', /icon/],
      ['an unknown field', { title: 't', id: 'mine' }, 'UNKNOWN_FIELD', /id/],
    ] as const)('refuses %s with 400 and creates nothing', async (_case, body, code, message) => {
      const ws = await seedWorkspace(s.t.app);
      expectError(await create(body, ws.auth.member, ws), code, message);
      expect(await rows(ws)).toEqual([]);
    });

    it('lets every role but viewer create (a guest too); a viewer gets 403', async () => {
      for (const role of ['owner', 'admin', 'member', 'guest'] as const)
        await create({ title: role }, s.ws.auth[role]).expect(201);
      expectError(
        await create({ title: 'v' }, s.ws.auth.viewer),
        'ACCESS_DENIED',
        'You do not have access to this resource',
      );
    });

    it('refuses a token of another workspace with 403, before reading the body', async () => {
      expectError(await create({}, s.other.auth.owner), 'ACCESS_DENIED');
    });

    it('with an Idempotency-Key, a retry answers the first template and makes no second', async () => {
      const ws = await seedWorkspace(s.t.app);
      const send = () => create({ title: 'Once' }, ws.auth.member, ws).set('Idempotency-Key', 'create-once');
      const first = await send().expect(201);
      const again = await send().expect(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect(again.headers.location).toBe(first.headers.location);
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(await rows(ws)).toEqual([{ id: first.body.note_template.id }]);
    });
  });

  describe('DELETE', () => {
    it('deletes the owner’s template: 204, then 404 to GET and to DELETE', async () => {
      const id = await seedTemplate(s.t.app, s.ws, { favourited_by: [s.ws.users.member, s.ws.users.admin] });
      const res = await remove(id).expect(204);
      expect(res.text).toBe('');
      expectError(
        await s.t.http.get(`${base(s.ws)}/${id}`).set('Authorization', s.ws.auth.member),
        'NOTE_TEMPLATE_NOT_FOUND',
      );
      expectError(await remove(id), 'NOTE_TEMPLATE_NOT_FOUND', `Note template ${id} was not found`);
    });

    it.each([
      ['another member’s shared template', { owner_id: 'admin', is_shared: true }],
      ['a built-in template', { owner_id: null }],
    ] as const)('refuses %s with 403 and keeps it', async (_case, seed) => {
      const owner = seed.owner_id === null ? null : s.ws.users[seed.owner_id];
      const id = await seedTemplate(s.t.app, s.ws, { ...seed, owner_id: owner });
      expectError(await remove(id), 'ACCESS_DENIED', 'You do not have access to this resource');
      await s.t.http
        .get(`${base(s.ws)}/${id}`)
        .set('Authorization', s.ws.auth.member)
        .expect(200);
    });

    it('refuses a viewer even their own template (roles first)', async () => {
      const id = await seedTemplate(s.t.app, s.ws, { owner_id: s.ws.users.viewer });
      expectError(await remove(id, s.ws.auth.viewer), 'ACCESS_DENIED');
    });

    it('lets a guest delete their own', async () => {
      const id = await seedTemplate(s.t.app, s.ws, { owner_id: s.ws.users.guest });
      await remove(id, s.ws.auth.guest).expect(204);
    });

    it('is 404 for an unknown id and for a template of another workspace, 400 for a malformed id', async () => {
      const theirs = await seedTemplate(s.t.app, s.other);
      expectError(await remove('nothing-here'), 'NOTE_TEMPLATE_NOT_FOUND');
      expectError(await remove(theirs), 'NOTE_TEMPLATE_NOT_FOUND');
      expectError(await remove('bad id!'), 'INVALID_PATH_PARAMETER');
      await s.t.http
        .get(`${base(s.other)}/${theirs}`)
        .set('Authorization', s.other.auth.member)
        .expect(200);
    });

    it('with If-Match: deletes only at the current ETag (412 otherwise, and it stays)', async () => {
      const id = await seedTemplate(s.t.app, s.ws);
      const { etag } = (await s.t.http.get(`${base(s.ws)}/${id}`).set('Authorization', s.ws.auth.member)).headers;
      expectError(await remove(id).set('If-Match', '"999"'), 'PRECONDITION_FAILED');
      await remove(id).set('If-Match', etag).expect(204);
    });

    it('with an Idempotency-Key, a repeat gets the kept 204', async () => {
      const id = await seedTemplate(s.t.app, s.ws);
      await remove(id).set('Idempotency-Key', `delete-${id}`).expect(204);
      const again = await remove(id).set('Idempotency-Key', `delete-${id}`).expect(204);
      expect(again.headers['idempotent-replayed']).toBe('true');
    });
  });

  describe('GET (the list)', () => {
    it('shows own, shared and built-in: built-in first, then by title ignoring case, then id', async () => {
      const ws = await seedWorkspace(s.t.app);
      const seed = (title: string, owner: string | null, shared = false) =>
        seedTemplate(s.t.app, ws, { title, owner_id: owner, is_shared: shared });
      const builtInB = await seed('beta', null);
      const builtInA = await seed('Alpha', null);
      const mine = await seed('charlie', ws.users.member);
      const sharedByAdmin = await seed('Bravo', ws.users.admin, true);
      await seed('aaa private of the admin', ws.users.admin);
      const res = await list('', ws.auth.member, ws).expect(200);
      expect(res.body.note_templates.map((t: { id: string }) => t.id)).toEqual([
        builtInA,
        builtInB,
        sharedByAdmin,
        mine,
      ]);
      expect(res.body).toMatchObject({ count: 4, cursor: null });
      const [first] = res.body.note_templates;
      expect(first).toEqual(
        (await s.t.http.get(`${base(ws)}/${builtInA}`).set('Authorization', ws.auth.member)).body.note_template,
      );
    });

    it('ignores case by Unicode letter, in code point order, whatever the database locale', async () => {
      const ws = await seedWorkspace(s.t.app);
      for (const title of ['Éclair', 'éa', 'Zebra', '\u01C5x', 'alpha']) await seedTemplate(s.t.app, ws, { title });
      const res = await list('', ws.auth.member, ws).expect(200);
      expect(res.body.note_templates.map((t: { title: string }) => t.title)).toEqual([
        'alpha',
        'Zebra',
        'éa',
        'Éclair',
        '\u01C5x',
      ]);
    });

    it('walks the list with cursor, every template once, in order', async () => {
      const ws = await seedWorkspace(s.t.app);
      const titles = ['b', 'B', 'a', 'A', 'c', 'c', 'd'];
      for (const title of titles) await seedTemplate(s.t.app, ws, { title });
      const whole = (await list('', ws.auth.member, ws).expect(200)).body.note_templates.map(
        (t: { id: string }) => t.id,
      );
      const walked: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
        const res = await list(query, ws.auth.member, ws).expect(200);
        expect(res.body.count).toBe(res.body.note_templates.length);
        walked.push(...res.body.note_templates.map((t: { id: string }) => t.id));
        cursor = res.body.cursor;
      } while (cursor);
      expect(walked).toEqual(whole);
      expect(walked).toHaveLength(titles.length);
    });

    it.each([
      ['an unknown parameter', '?owner=me', 'UNKNOWN_QUERY_PARAMETER', /owner/],
      ['limit=ten', '?limit=ten', 'VALIDATION_FAILED', /limit/],
      ['limit=0', '?limit=0', 'VALIDATION_FAILED', /limit/],
      ['limit=1001', '?limit=1001', 'VALIDATION_FAILED', /limit/],
      ['a repeated limit', '?limit=1&limit=2', 'VALIDATION_FAILED', /limit/],
      ['a cursor it did not make', '?cursor=abc', 'INVALID_CURSOR', /cursor/],
    ] as const)('refuses %s with 400', async (_case, query, code, message) => {
      expectError(await list(query, s.ws.auth.member, s.ws), code, message);
    });

    it('refuses a token of another workspace with 403', async () => {
      expectError(await list('', s.other.auth.member, s.ws), 'ACCESS_DENIED');
    });
  });
});
