import { DataSource } from 'typeorm';
import { ExportService } from '../../src/export/export.service';
import { expectError } from '../support/expect-error';
import { importDocument } from '../support/fixtures';
import { useScene } from '../support/scene';
import { holdFor } from '../support/wait-for';
import { lifecycle, pageCounts, seedHigh } from './lifecycle-fixtures';
import { treeRows } from './tree-rows';

describe('POST /v1/{team_id}/pages', () => {
  const s = useScene();
  const api = () => lifecycle(s.t.http, s.ws);
  const tree = () => treeRows(s.t.app.get(DataSource), s.ws.teamId);

  it('creates a page with every default, the creator its one member, with Location and ETag', async () => {
    const res = await api().create({ project_id: s.ws.projectId }).expect(201);
    const { page } = res.body;
    const actor = { type: 'user', user_id: s.ws.users.member };
    expect(page).toEqual({
      id: expect.stringMatching(/^[0-9]+$/),
      alias_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      title: '',
      font: 'sans',
      content: '',
      schema: 1,
      collaboration: { token: expect.any(String) },
      project_id: s.ws.projectId,
      standalone: false,
      user_id: s.ws.users.member,
      user_id_updated: s.ws.users.member,
      user: expect.objectContaining(actor),
      user_updated: expect.objectContaining(actor),
      team_id: s.ws.teamId,
      time_created: expect.any(Number),
      time_updated: page.time_created,
      members: [{ user_id: s.ws.users.member, assigned_date: page.time_created, role: 'admin' }],
      bookmarked: false,
      is_public: false,
      public_settings: { url: `http://localhost:3000/p/${page.alias_id}`, robots: [] },
      total_comments: 0,
      is_watching: false,
      is_bookmarked: false,
      hide_table_of_contents: false,
      hide_subpages: false,
      parent_page_id: '',
      position: expect.any(Number),
    });
    expect(String(page.time_created)).toHaveLength(13);
    expect(res.headers.location).toBe(`/v1/${s.ws.teamId}/pages/${page.id}`);
    const read = await api().get(page.id).expect(200);
    expect(res.headers.etag).toBe(read.headers.etag);
    const { collaboration: _a, ...stored } = read.body.page;
    const { collaboration: _b, ...answered } = page;
    expect(stored).toEqual(answered);
  });

  it('takes every field, with the update rules', async () => {
    const [parent] = await seedHigh(s.t.app, s.ws, [{ title: 'Parent' }, {}, {}]);
    const body = {
      project_id: s.ws.projectId,
      title: 'Runbook ✓',
      content: '<p>Hello</p>',
      schema: 7,
      font: 'mono',
      icon: { type: 'emoji', src: '📘' },
      cover_image: { type: 'image', src: 'https://example.com/c.png', positionY: 12 },
      parent_page_id: parent,
      position: 0,
      is_public: true,
      public_settings: { url: 'https://docs.example.com/runbook', robots: ['noindex', 'nofollow'] },
      hide_table_of_contents: true,
      hide_subpages: true,
    };
    const { page } = (await api().create(body, s.ws.auth.agent).expect(201)).body;
    expect(page).toMatchObject({
      title: 'Runbook ✓',
      content: '<p>Hello</p>',
      schema: 7,
      font: 'mono',
      icon: { type: 'emoji', src: '📘' },
      cover_image: { type: 'image', src: 'https://example.com/c.png', positionY: 12 },
      parent_page_id: parent,
      position: 0,
      is_public: true,
      public_settings: { url: 'https://docs.example.com/runbook', robots: ['noindex', 'nofollow'] },
      hide_table_of_contents: true,
      hide_subpages: true,
      user: { type: 'robot', source: { type: 'agent', agent_id: 'agent-7' } },
    });
    expect(await tree().problems()).toEqual([]);
  });

  it('goes last by default, at position among the siblings, past the end last; positions stay 0..n-1', async () => {
    const [parent] = await seedHigh(s.t.app, s.ws, [{ title: 'Family' }]);
    const kids = await seedHigh(s.t.app, s.ws, [{ parent }, { parent }, { parent }]);
    const make = async (extra: object) =>
      (
        await api()
          .create({ project_id: s.ws.projectId, parent_page_id: parent, ...extra })
          .expect(201)
      ).body.page;
    const last = await make({});
    expect(last.position).toBe(3);
    const first = await make({ position: 0 });
    const middle = await make({ position: 2 });
    const far = await make({ position: 1000 });
    expect(far.position).toBe(6);
    expect(await tree().children(s.ws.projectId, parent)).toEqual([
      first.id,
      kids[0],
      middle.id,
      kids[1],
      kids[2],
      last.id,
      far.id,
    ]);
    for (const [i, id] of (await tree().children(s.ws.projectId, parent)).entries())
      expect((await api().get(id).expect(200)).body.page.position).toBe(i);
    expect(await tree().problems()).toEqual([]);
  });

  it('"" as parent_page_id is the root of the project', async () => {
    const { page } = (await api().create({ project_id: s.ws.projectId, parent_page_id: '' }).expect(201)).body;
    expect(page.parent_page_id).toBe('');
  });

  it('gives each page an id past every imported one, never one used before (deleted included)', async () => {
    const ws = s.ws;
    const first = (await api().create({ project_id: ws.projectId }).expect(201)).body.page.id;
    const high = String(BigInt(first) + 1000n);
    await importDocument(s.t.app, {
      pages: [
        {
          team_id: ws.teamId,
          id: high,
          project_id: ws.projectId,
          parent_page_id: '',
          title: 'Imported',
          owner_id: ws.users.owner,
          archived: false,
          members: [],
        },
      ],
    });
    const second = (await api().create({ project_id: ws.projectId }).expect(201)).body.page.id;
    expect(BigInt(second)).toBeGreaterThan(BigInt(high));
    await api().remove(second).expect(204);
    const third = (await api().create({ project_id: ws.projectId }).expect(201)).body.page.id;
    expect(BigInt(third)).toBeGreaterThan(BigInt(second));
  });

  it('the export carries created and copied pages, and imports again as itself', async () => {
    const made = (await api().create({ project_id: s.ws.projectId, title: 'Made', content: '<p>c</p>' }).expect(201))
      .body.page;
    const copy = (await api().copy(made.id).expect(201)).body.page;
    const exported = await s.t.app.get(ExportService).exportWorkspace(s.ws.teamId);
    const ids = (exported.pages ?? []).map((p) => p.id);
    expect(ids).toEqual(expect.arrayContaining([made.id, copy.id]));
    await importDocument(s.t.app, exported);
    expect(await s.t.app.get(ExportService).exportWorkspace(s.ws.teamId)).toEqual(exported);
  });

  describe('refusals change nothing', () => {
    const refuses = async (body: object, code: Parameters<typeof expectError>[1], auth?: string) => {
      const before = await pageCounts(s.t.app, s.ws);
      expectError(await api().create(body, auth), code);
      expect(await pageCounts(s.t.app, s.ws)).toEqual(before);
    };

    it('403 for a guest and a viewer, before the body is read', async () => {
      await refuses({ project_id: s.ws.projectId }, 'ACCESS_DENIED', s.ws.auth.guest);
      await refuses({ project_id: s.ws.projectId }, 'ACCESS_DENIED', s.ws.auth.viewer);
      await refuses({ nonsense: true }, 'ACCESS_DENIED', s.ws.auth.guest);
      const res = await s.t.http.post(`/v1/${s.other.teamId}/pages`).set('Authorization', s.ws.auth.owner).send({});
      expectError(res, 'ACCESS_DENIED');
    });

    it('401 without a token', async () => {
      expectError(
        await s.t.http.post(`/v1/${s.ws.teamId}/pages`).send({ project_id: s.ws.projectId }),
        'UNAUTHENTICATED',
      );
    });

    it('400 for each invalid field', async () => {
      const p = s.ws.projectId;
      await refuses({}, 'VALIDATION_FAILED');
      expectError(await api().create({ title: 'x' }), 'VALIDATION_FAILED', /^project_id is required$/);
      await refuses({ project_id: null }, 'VALIDATION_FAILED');
      await refuses({ project_id: 'a b' }, 'VALIDATION_FAILED');
      await refuses({ project_id: p, title: null }, 'VALIDATION_FAILED');
      await refuses({ project_id: p, title: 'x'.repeat(256) }, 'VALIDATION_FAILED');
      await refuses({ project_id: p, content: 'x'.repeat(500_001) }, 'VALIDATION_FAILED');
      await refuses({ project_id: p, content: 7 }, 'VALIDATION_FAILED');
      await refuses({ project_id: p, schema: 0 }, 'VALIDATION_FAILED');
      await refuses({ project_id: p, schema: 1001 }, 'VALIDATION_FAILED');
      await refuses({ project_id: p, schema: 1.5 }, 'VALIDATION_FAILED');
      await refuses({ project_id: p, font: 'comic' }, 'VALIDATION_FAILED');
      await refuses({ project_id: p, position: -1 }, 'VALIDATION_FAILED');
      await refuses({ project_id: p, parent_page_id: 'x' }, 'VALIDATION_FAILED');
      await refuses({ project_id: p, public_settings: { robots: ['sometimes'] } }, 'VALIDATION_FAILED');
      await refuses({ project_id: p, is_public: 'yes' }, 'VALIDATION_FAILED');
      await refuses({ project_id: p, archived: false }, 'UNKNOWN_FIELD');
      await refuses({ project_id: p, tilte: 'typo' }, 'UNKNOWN_FIELD');
    });

    it('500,000 code points of content are accepted', async () => {
      const content = '€'.repeat(100_000) + 'x'.repeat(400_000);
      const { page } = (await api().create({ project_id: s.ws.projectId, content }).expect(201)).body;
      expect(page.content).toHaveLength(500_000);
    });

    it('404 for an unknown project and an unknown parent; 400 for an archived parent and another project', async () => {
      const [archived] = await seedHigh(s.t.app, s.ws, [{ archived: true }]);
      const [elsewhere] = await seedHigh(s.t.app, s.ws, [{ project: '2' }]);
      await refuses({ project_id: 'nope' }, 'PROJECT_NOT_FOUND');
      await refuses({ project_id: s.ws.projectId, parent_page_id: '123456789012345' }, 'PARENT_PAGE_NOT_FOUND');
      await refuses({ project_id: s.ws.projectId, parent_page_id: '99999999999999999999' }, 'VALIDATION_FAILED');
      await refuses({ project_id: s.ws.projectId, parent_page_id: '9999999999999999999' }, 'PARENT_PAGE_NOT_FOUND');
      await refuses({ project_id: s.ws.projectId, parent_page_id: archived }, 'PARENT_PAGE_ARCHIVED');
      await refuses({ project_id: s.ws.projectId, parent_page_id: elsewhere }, 'PARENT_PROJECT_MISMATCH');
      await refuses({ project_id: 'nope', parent_page_id: elsewhere }, 'PROJECT_NOT_FOUND');
    });
  });

  describe('Idempotency-Key', () => {
    it('a retry gets the first page and never makes a second', async () => {
      const before = await pageCounts(s.t.app, s.ws);
      const send = () =>
        api().create({ project_id: s.ws.projectId, title: 'Once' }).set('Idempotency-Key', `create-${s.ws.teamId}`);
      const first = await send().expect(201);
      await holdFor(5, 'a later clock: the replay is the kept answer still');
      const again = await send().expect(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.text).toBe(first.text); // to the byte, its collaboration token too
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(again.headers.location).toBe(first.headers.location);
      expect(await pageCounts(s.t.app, s.ws)).toEqual({ pages: before.pages + 1, members: before.members + 1 });
      const other = await api()
        .create({ project_id: s.ws.projectId, title: 'Twice' })
        .set('Idempotency-Key', `create-${s.ws.teamId}`);
      expectError(other, 'IDEMPOTENCY_KEY_REUSED');
    });

    it('a failed create keeps nothing: the retry runs afresh', async () => {
      const key = `create-fail-${s.ws.teamId}`;
      expectError(await api().create({ project_id: 'nope' }).set('Idempotency-Key', key), 'PROJECT_NOT_FOUND');
      await api().create({ project_id: 'nope' }).set('Idempotency-Key', key).expect(404);
    });
  });
});
