import { DataSource } from 'typeorm';
import { expectError } from '../support/expect-error';
import { useScene } from '../support/scene';
import { lifecycle, pageCounts, seedHigh } from './lifecycle-fixtures';
import { treeRows } from './tree-rows';

describe('POST /v1/{team_id}/pages/{page_id}/copy', () => {
  const s = useScene();
  const api = () => lifecycle(s.t.http, s.ws);
  const tree = () => treeRows(s.t.app.get(DataSource), s.ws.teamId);

  /** A parent with children a, b, c; b has the display options and content a copy takes. */
  const family = async () => {
    const [parent] = await seedHigh(s.t.app, s.ws, [{ title: 'Parent' }]);
    const [a, b, c] = await seedHigh(s.t.app, s.ws, [
      { parent, title: 'A' },
      {
        parent,
        title: 'B',
        content: '<p>Body</p>',
        font: 'serif',
        icon: { type: 'emoji', src: '📘' },
        cover_image: { type: 'image', src: 'https://example.com/c.png' },
        is_public: true,
        hide_table_of_contents: true,
        hide_subpages: true,
        members: [{ user_id: s.ws.users.guest, role: 'editor' }],
        bookmarked_by: [s.ws.users.member],
        watched_by: [s.ws.users.member],
        comments: [{ id: `c-${Math.random()}`, user_id: s.ws.users.admin, text: 'Hi' }],
      },
      { parent, title: 'C' },
    ]);
    return { parent, a, b, c };
  };

  it('copies one page right after the original, with its content and options, and nothing personal', async () => {
    const { parent, a, b, c } = await family();
    const res = await api().copy(b).expect(201);
    const { page } = res.body;
    const original = (await api().get(b).expect(200)).body.page;
    expect(page).toMatchObject({
      title: 'B',
      content: '<p>Body</p>',
      schema: 1,
      font: 'serif',
      icon: { type: 'emoji', src: '📘' },
      cover_image: original.cover_image,
      hide_table_of_contents: true,
      hide_subpages: true,
      is_public: false,
      total_comments: 0,
      bookmarked: false,
      is_bookmarked: false,
      is_watching: false,
      members: [{ user_id: s.ws.users.member, assigned_date: page.time_created, role: 'admin' }],
      user_id: s.ws.users.member,
      user: expect.objectContaining({ user_id: s.ws.users.member }),
      parent_page_id: parent,
      position: 2,
      project_id: s.ws.projectId,
    });
    expect(page.id).not.toBe(b);
    expect(page.alias_id).not.toBe(original.alias_id);
    expect(page.public_settings.url).toContain(page.alias_id);
    expect(res.headers.location).toBe(`/v1/${s.ws.teamId}/pages/${page.id}`);
    expect(res.headers.etag).toBe((await api().get(page.id).expect(200)).headers.etag);
    expect(await tree().children(s.ws.projectId, parent)).toEqual([a, b, page.id, c]);
    expect(await tree().problems()).toEqual([]);
  });

  it('title, parent_page_id, project_id and position say where it goes (elsewhere: last)', async () => {
    const { parent, a, b, c } = await family();
    const [other] = await seedHigh(s.t.app, s.ws, [{ project: '2' }]);
    const titled = (await api().copy(a, { title: 'Renamed' }).expect(201)).body.page;
    expect(titled).toMatchObject({ title: 'Renamed', position: 1 });
    const first = (await api().copy(c, { position: 0 }).expect(201)).body.page;
    expect(first.position).toBe(0);
    const atRoot = (await api().copy(a, { parent_page_id: '' }).expect(201)).body.page;
    expect(atRoot).toMatchObject({ parent_page_id: '', project_id: s.ws.projectId });
    const under = (await api().copy(a, { parent_page_id: other }).expect(201)).body.page;
    expect(under).toMatchObject({ parent_page_id: other, project_id: '2', position: 0 });
    const inProject = (await api().copy(b, { project_id: '2' }).expect(201)).body.page;
    expect(inProject).toMatchObject({ parent_page_id: '', project_id: '2' });
    expect(await tree().children('2', null)).toEqual(expect.arrayContaining([inProject.id]));
    expect((await tree().children('2', null)).at(-1)).toBe(inProject.id);
    const sameProject = (await api().copy(b, { project_id: s.ws.projectId }).expect(201)).body.page;
    expect(sameProject.parent_page_id).toBe(parent);
    expect(await tree().children(s.ws.projectId, parent)).toEqual([first.id, a, titled.id, b, sameProject.id, c]);
    expect(await tree().problems()).toEqual([]);
  });

  it('recursive: a 3-level subtree in order, with content, new ids and alias ids, nothing shared', async () => {
    const [top] = await seedHigh(s.t.app, s.ws, [{ title: 'Top', content: 'top' }]);
    const [x, y] = await seedHigh(s.t.app, s.ws, [
      { parent: top, title: 'X', content: 'x' },
      { parent: top, title: 'Y', content: 'y' },
    ]);
    const [x1, x2] = await seedHigh(s.t.app, s.ws, [
      { parent: x, title: 'X1', content: 'x1' },
      { parent: x, title: 'X2', content: 'x2' },
    ]);
    await seedHigh(s.t.app, s.ws, [{ parent: y, title: 'Y-archived', archived: true }]);
    const before = await tree().all();
    const { page } = (await api().copy(top, { recursive: true, title: 'Top copy' }).expect(201)).body;
    expect(page).toMatchObject({ title: 'Top copy', content: 'top' });
    const kids = await tree().children(s.ws.projectId, page.id);
    const got = await Promise.all(kids.map(async (id) => (await api().get(id).expect(200)).body.page));
    expect(got.map((p) => [p.title, p.content, p.position])).toEqual([
      ['X', 'x', 0],
      ['Y', 'y', 1],
    ]);
    expect(await tree().children(s.ws.projectId, got[1].id)).toEqual([]); // the archived one stays behind
    const grand = await tree().children(s.ws.projectId, got[0].id);
    const grandPages = await Promise.all(grand.map(async (id) => (await api().get(id).expect(200)).body.page));
    expect(grandPages.map((p) => [p.title, p.content, p.position])).toEqual([
      ['X1', 'x1', 0],
      ['X2', 'x2', 1],
    ]);
    const copies = [page, ...got, ...grandPages];
    const originals = await Promise.all([top, x, y, x1, x2].map(async (id) => (await api().get(id)).body.page));
    const originalIds = new Set(originals.map((p) => p.id));
    const originalAliases = new Set(originals.map((p) => p.alias_id));
    for (const copy of copies) {
      expect(originalIds.has(copy.id)).toBe(false);
      expect(originalAliases.has(copy.alias_id)).toBe(false);
      expect(copy.members).toEqual([expect.objectContaining({ user_id: s.ws.users.member, role: 'admin' })]);
    }
    // The originals are as they were.
    const after = await tree().all();
    expect(after.filter((row) => before.some((b) => b.id === row.id))).toEqual(before);
    // A change to a copy leaves its original alone.
    await api().patch(got[0].id, { title: 'X changed' }).expect(200);
    expect((await api().get(x).expect(200)).body.page.title).toBe('X');
    expect(await tree().problems()).toEqual([]);
  });

  it('takes the schema too', async () => {
    const created = await api().create({ project_id: s.ws.projectId, schema: 7, content: 'v7' }).expect(201);
    const { page } = (await api().copy(created.body.page.id).expect(201)).body;
    expect(page).toMatchObject({ schema: 7, content: 'v7', position: created.body.page.position + 1 });
  });

  it('a body is optional; without recursive only the page is copied', async () => {
    const [top] = await seedHigh(s.t.app, s.ws, [{}]);
    await seedHigh(s.t.app, s.ws, [{ parent: top }]);
    const { page } = (await api().copy(top).expect(201)).body;
    expect(await tree().children(s.ws.projectId, page.id)).toEqual([]);
    const empty = (await api().copy(top, {}).expect(201)).body.page;
    expect(await tree().children(s.ws.projectId, empty.id)).toEqual([]);
  });

  describe('refusals change nothing', () => {
    const refuses = async (res: Promise<import('supertest').Response>, code: Parameters<typeof expectError>[1]) => {
      const before = await pageCounts(s.t.app, s.ws);
      expectError(await res, code);
      expect(await pageCounts(s.t.app, s.ws)).toEqual(before);
    };

    it('403 for a guest (even one the page lists) and a viewer; 404 for an unknown page', async () => {
      const { b } = await family();
      await refuses(api().copy(b, {}, s.ws.auth.guest), 'ACCESS_DENIED');
      await refuses(api().copy(b, {}, s.ws.auth.viewer), 'ACCESS_DENIED');
      await refuses(api().copy('123456789012'), 'PAGE_NOT_FOUND');
      await refuses(api().copy('9999999999999999999'), 'PAGE_NOT_FOUND');
      await refuses(api().copy('x1'), 'INVALID_PATH_PARAMETER');
    });

    it('400 for bad fields, unknown fields, an archived page; 404/400 for where it would go', async () => {
      const { b } = await family();
      const [archived] = await seedHigh(s.t.app, s.ws, [{ archived: true }]);
      await refuses(api().copy(b, { recursive: 'yes' }), 'VALIDATION_FAILED');
      await refuses(api().copy(b, { title: null }), 'VALIDATION_FAILED');
      await refuses(api().copy(b, { position: -1 }), 'VALIDATION_FAILED');
      await refuses(api().copy(b, { content: 'x' }), 'UNKNOWN_FIELD');
      await refuses(api().copy(archived), 'PAGE_ARCHIVED');
      await refuses(api().copy(b, { project_id: 'nope' }), 'PROJECT_NOT_FOUND');
      await refuses(api().copy(b, { parent_page_id: '123456789012' }), 'PARENT_PAGE_NOT_FOUND');
      await refuses(api().copy(b, { parent_page_id: archived }), 'PARENT_PAGE_ARCHIVED');
      await refuses(api().copy(b, { parent_page_id: b, project_id: '2' }), 'PARENT_PROJECT_MISMATCH');
    });

    it('recursive over more than 1,000 pages is a 400', async () => {
      const [top] = await seedHigh(s.t.app, s.ws, [{}]);
      await seedHigh(
        s.t.app,
        s.ws,
        Array.from({ length: 1000 }, () => ({ parent: top })),
      );
      await refuses(api().copy(top, { recursive: true }), 'PAGE_COPY_TOO_LARGE');
      await api().copy(top).expect(201);
    });
  });

  describe('If-Match and Idempotency-Key', () => {
    it("compares the original's ETag: a stale one is 412 and copies nothing", async () => {
      const { b } = await family();
      const etag = (await api().get(b).expect(200)).headers.etag;
      await api().copy(b).set('If-Match', etag).expect(201);
      await api().patch(b, { title: 'Changed' }).expect(200);
      const before = await pageCounts(s.t.app, s.ws);
      expectError(await api().copy(b).set('If-Match', etag), 'PRECONDITION_FAILED');
      expect(await pageCounts(s.t.app, s.ws)).toEqual(before);
    });

    it('a retried copy returns the first copy and never makes a second', async () => {
      const { b } = await family();
      const key = `copy-${b}`;
      const first = await api().copy(b, { recursive: true }).set('Idempotency-Key', key).expect(201);
      const before = await pageCounts(s.t.app, s.ws);
      const again = await api().copy(b, { recursive: true }).set('Idempotency-Key', key).expect(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body.page.id).toBe(first.body.page.id);
      expect(await pageCounts(s.t.app, s.ws)).toEqual(before);
    });
  });
});
