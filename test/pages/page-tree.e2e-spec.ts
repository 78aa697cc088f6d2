import { expectError } from '../support/expect-error';
import { useScene } from '../support/scene';
import { pageId, seedFamily, seedPages } from './page-fixtures';

interface Placed {
  parent_page_id: string;
  position?: number;
  project_id: string;
  archived?: { user_id: string; time_archived: number; parent_page_id: string };
}

describe('PATCH /v1/{team_id}/pages/{page_id}: the tree', () => {
  const s = useScene();

  const patch = (id: string, body: object, auth = s.ws.auth.member) =>
    s.t.http.patch(`/v1/${s.ws.teamId}/pages/${id}`).set('Authorization', auth).send(body);
  const get = async (id: string): Promise<Placed> =>
    (await s.t.http.get(`/v1/${s.ws.teamId}/pages/${id}`).set('Authorization', s.ws.auth.member).expect(200)).body.page;
  /** The children of a parent, by position, read back one by one through the API. */
  const order = async (ids: string[]) => {
    const placed = await Promise.all(ids.map(async (id) => ({ id, ...(await get(id)) })));
    return placed
      .filter((p) => !p.archived)
      .sort((a, b) => a.position! - b.position!)
      .map((p) => p.id);
  };

  describe('reordering', () => {
    it('puts the page exactly at the index, the others keeping their order', async () => {
      const {
        children: [a, b, c, d, e],
      } = await seedFamily(s.t.app, s.ws, 5);
      const res = await patch(e, { position: 1 }).expect(200);
      expect(res.body.page).toMatchObject({ position: 1 });
      expect(await order([a, b, c, d, e])).toEqual([a, e, b, c, d]);
      await patch(a, { position: 3 }).expect(200);
      expect(await order([a, b, c, d, e])).toEqual([e, b, c, a, d]);
      await patch(d, { position: 0 }).expect(200);
      expect(await order([a, b, c, d, e])).toEqual([d, e, b, c, a]);
    });

    it('puts a page past the end last, and rejects a position below 0 or past int32', async () => {
      const {
        children: [a, b, c],
      } = await seedFamily(s.t.app, s.ws, 3);
      expect((await patch(a, { position: 99 }).expect(200)).body.page.position).toBe(2);
      expect(await order([a, b, c])).toEqual([b, c, a]);
      expect((await patch(b, { position: 2 ** 31 - 1 }).expect(200)).body.page.position).toBe(2);
      expect(await order([a, b, c])).toEqual([c, a, b]);
      expectError(await patch(a, { position: 2 ** 31 }), 'VALIDATION_FAILED', /^position /);
      expectError(await patch(a, { position: -1 }), 'VALIDATION_FAILED', /^position /);
      expectError(await patch(a, { position: 1.5 }), 'VALIDATION_FAILED', /^position /);
      expectError(await patch(a, { position: '1' }), 'VALIDATION_FAILED', /^position /);
    });

    it('changes nothing, not even time_updated, when the page is already there', async () => {
      const {
        children: [, b],
      } = await seedFamily(s.t.app, s.ws, 3);
      const before = (await s.t.http.get(`/v1/${s.ws.teamId}/pages/${b}`).set('Authorization', s.ws.auth.member)).body
        .page;
      const res = await patch(b, { position: 1, parent_page_id: before.parent_page_id }).expect(200);
      expect(res.body.page).toMatchObject({
        position: 1,
        time_updated: before.time_updated,
        user_updated: before.user_updated,
      });
    });
  });

  describe('ids with leading zeros', () => {
    it('"0002" names page 2: the same parent is no move, and the path restores to the former parent', async () => {
      const {
        root,
        children: [a, b],
      } = await seedFamily(s.t.app, s.ws, 2);
      const before = (await s.t.http.get(`/v1/${s.ws.teamId}/pages/${b}`).set('Authorization', s.ws.auth.member)).body
        .page;
      const same = await patch(`00${b}`, { parent_page_id: `000${root}` }).expect(200);
      expect(same.body.page).toMatchObject({
        id: b,
        parent_page_id: root,
        position: 1,
        time_updated: before.time_updated,
        user_updated: before.user_updated,
      });
      await patch(`0${a}`, { archived: true }).expect(200);
      expect((await patch(`0${a}`, { archived: false }).expect(200)).body.page).toMatchObject({
        id: a,
        parent_page_id: root,
        position: 1,
      });
    });
  });

  describe('moving', () => {
    it('moves a page with its subtree under another parent, last unless position says', async () => {
      const [x, x1, y, y1, y2] = [pageId(), pageId(), pageId(), pageId(), pageId()];
      await seedPages(s.t.app, s.ws, [
        { id: x },
        { id: x1, parent: x },
        { id: y },
        { id: y1, parent: y },
        { id: y2, parent: y },
      ]);
      expect((await patch(x, { parent_page_id: y }).expect(200)).body.page).toMatchObject({
        parent_page_id: y,
        position: 2,
      });
      expect(await get(x1)).toMatchObject({ parent_page_id: x, position: 0 });
      await patch(x, { parent_page_id: y1, position: 0 }).expect(200);
      expect(await get(x)).toMatchObject({ parent_page_id: y1, position: 0 });
      expect(await order([y1, y2])).toEqual([y1, y2]);
    });

    it('moves a page to the root with ""', async () => {
      const {
        root,
        children: [a, b],
      } = await seedFamily(s.t.app, s.ws, 2);
      const res = await patch(a, { parent_page_id: '' }).expect(200);
      expect(res.body.page).toMatchObject({ parent_page_id: '', project_id: s.ws.projectId });
      expect(await get(b)).toMatchObject({ parent_page_id: root, position: 0 });
    });

    it('moves a subtree to another project, by project_id or by a parent there', async () => {
      const [a, a1, a11, target] = [pageId(), pageId(), pageId(), pageId()];
      await seedPages(s.t.app, s.ws, [
        { id: a },
        { id: a1, parent: a },
        { id: a11, parent: a1 },
        { id: target, project: '2' },
      ]);
      expect((await patch(a1, { project_id: '2' }).expect(200)).body.page).toMatchObject({
        project_id: '2',
        parent_page_id: '',
      });
      expect(await get(a11)).toMatchObject({ project_id: '2', parent_page_id: a1 });
      await patch(a1, { parent_page_id: a }).expect(200);
      expect(await get(a11)).toMatchObject({ project_id: s.ws.projectId });
      await patch(a1, { parent_page_id: target, project_id: '2' }).expect(200);
      expect(await get(a11)).toMatchObject({ project_id: '2', parent_page_id: a1 });
      expect((await patch(a, { project_id: s.ws.projectId }).expect(200)).body.page).toMatchObject({
        project_id: s.ws.projectId,
      });
    });

    it('refuses a parent that is the page or below it, and changes nothing', async () => {
      const [a, a1, a11] = [pageId(), pageId(), pageId()];
      await seedPages(s.t.app, s.ws, [{ id: a }, { id: a1, parent: a }, { id: a11, parent: a1 }]);
      expectError(await patch(a, { parent_page_id: a }), 'PAGE_PARENT_CYCLE', new RegExp(`${a}`));
      expectError(
        await patch(a, { parent_page_id: a11, title: 'not this either' }),
        'PAGE_PARENT_CYCLE',
        new RegExp(a11),
      );
      expect(await get(a)).toMatchObject({ parent_page_id: '', title: 'A page' });
    });

    it('refuses unknown and archived parents, unknown projects and a parent outside project_id', async () => {
      const [a, gone, elsewhere] = [pageId(), pageId(), pageId()];
      await seedPages(s.t.app, s.ws, [{ id: a }, { id: gone, archived: true }, { id: elsewhere, project: '2' }]);
      expectError(await patch(a, { parent_page_id: '987654321' }), 'PARENT_PAGE_NOT_FOUND', /987654321/);
      expectError(await patch(a, { parent_page_id: '9999999999999999999' }), 'PARENT_PAGE_NOT_FOUND');
      expectError(await patch(a, { parent_page_id: gone }), 'PARENT_PAGE_ARCHIVED', new RegExp(gone));
      expectError(await patch(a, { project_id: 'nope' }), 'PROJECT_NOT_FOUND', /nope/);
      expectError(await patch(a, { parent_page_id: elsewhere, project_id: s.ws.projectId }), 'PARENT_PROJECT_MISMATCH');
      expectError(await patch(a, { parent_page_id: 'x1' }), 'VALIDATION_FAILED', /^parent_page_id /);
      expect(await get(a)).toMatchObject({ parent_page_id: '', project_id: s.ws.projectId });
    });

    it('refuses a parent of another workspace with the same id', async () => {
      const [mine, theirs] = [pageId(), pageId()];
      await seedPages(s.t.app, s.ws, [{ id: mine }]);
      await seedPages(s.t.app, s.other, [{ id: theirs }]);
      expectError(await patch(mine, { parent_page_id: theirs }), 'PARENT_PAGE_NOT_FOUND');
    });
  });

  describe('archiving', () => {
    it('takes the subtree out of the tree, closes the gap, and remembers where it was', async () => {
      const {
        root,
        children: [a, b, c],
      } = await seedFamily(s.t.app, s.ws, 3);
      const [b1] = await seedPages(s.t.app, s.ws, [{ parent: b }]);
      const res = await patch(b, { archived: true }).expect(200);
      expect(res.body.page.archived).toEqual({
        user_id: s.ws.users.member,
        time_archived: expect.any(Number),
        parent_page_id: root,
      });
      expect(res.body.page.position).toBeUndefined();
      expect((await get(b1)).archived).toMatchObject({ parent_page_id: b });
      expect(await order([a, b, c])).toEqual([a, c]);
      expect((await get(c)).position).toBe(1);
    });

    it('archives the same way through PUT .../archive, with any body or none', async () => {
      const {
        children: [a, b],
      } = await seedFamily(s.t.app, s.ws, 2);
      const url = (id: string) => `/v1/${s.ws.teamId}/pages/${id}/archive`;
      const res = await s.t.http.put(url(a)).set('Authorization', s.ws.auth.member).expect(200);
      expect(res.body.page.archived).toMatchObject({ user_id: s.ws.users.member });
      await s.t.http
        .put(url(b))
        .set('Authorization', s.ws.auth.member)
        .set('Content-Type', 'text/plain')
        .send('whatever')
        .expect(200);
      expectError(await s.t.http.put(url(b)).set('Authorization', s.ws.auth.viewer), 'ACCESS_DENIED');
      expectError(await s.t.http.put(url('424242424')).set('Authorization', s.ws.auth.member), 'PAGE_NOT_FOUND');
    });

    it('changes nothing when archiving an archived page', async () => {
      const [a] = await seedPages(s.t.app, s.ws, [{}]);
      const first = (await patch(a, { archived: true }).expect(200)).body.page;
      const again = (await patch(a, { archived: true }, s.ws.auth.admin).expect(200)).body.page;
      expect(again.archived).toEqual(first.archived);
      expect(again.time_updated).toBe(first.time_updated);
    });

    it('lets an archived page change its own fields but not move, except with archived: false', async () => {
      const {
        children: [a],
      } = await seedFamily(s.t.app, s.ws, 1);
      await patch(a, { archived: true }).expect(200);
      expect((await patch(a, { title: 'Still editable' }).expect(200)).body.page).toMatchObject({
        title: 'Still editable',
      });
      expectError(await patch(a, { position: 0 }), 'PAGE_ARCHIVED', /position/);
      expectError(await patch(a, { parent_page_id: '', title: 'no' }), 'PAGE_ARCHIVED', /parent_page_id/);
      expectError(await patch(a, { project_id: '2' }), 'PAGE_ARCHIVED', /project_id/);
      expect(await get(a)).toMatchObject({ title: 'Still editable' });
    });

    it('brings the page and the pages archived with it back under the former parent, last', async () => {
      const {
        root,
        children: [a, b, c],
      } = await seedFamily(s.t.app, s.ws, 3);
      const [a1] = await seedPages(s.t.app, s.ws, [{ parent: a }]);
      await patch(a, { archived: true }).expect(200);
      const res = await patch(a, { archived: false }).expect(200);
      expect(res.body.page.archived).toBeUndefined();
      expect(res.body.page).toMatchObject({ parent_page_id: root, position: 2 });
      expect(await get(a1)).toMatchObject({ parent_page_id: a, position: 0 });
      expect((await get(a1)).archived).toBeUndefined();
      expect(await order([a, b, c])).toEqual([b, c, a]);
    });

    it('comes back under the former parent, last, when the patch names its own project', async () => {
      const {
        root,
        children: [a, b, c],
      } = await seedFamily(s.t.app, s.ws, 3);
      await patch(a, { archived: true }).expect(200);
      const res = await patch(a, { archived: false, project_id: s.ws.projectId }).expect(200);
      expect(res.body.page).toMatchObject({ parent_page_id: root, position: 2, project_id: s.ws.projectId });
      expect(await order([a, b, c])).toEqual([b, c, a]);
      await patch(a, { archived: true }).expect(200);
      await patch(root, { archived: true }).expect(200);
      expect((await patch(a, { archived: false, project_id: s.ws.projectId }).expect(200)).body.page).toMatchObject({
        parent_page_id: '',
        project_id: s.ws.projectId,
      });
    });

    it('brings a page back at the root when its former parent is archived, or where the patch says', async () => {
      const {
        root,
        children: [a, b],
      } = await seedFamily(s.t.app, s.ws, 2);
      await patch(a, { archived: true }).expect(200);
      await patch(root, { archived: true }).expect(200);
      expect((await patch(a, { archived: false }).expect(200)).body.page).toMatchObject({
        parent_page_id: '',
        project_id: s.ws.projectId,
      });
      expect((await get(b)).archived).toBeDefined();
      await patch(a, { archived: true }).expect(200);
      const [target] = await seedPages(s.t.app, s.ws, [{ project: '2' }]);
      const res = await patch(a, { archived: false, parent_page_id: target, position: 0 }).expect(200);
      expect(res.body.page).toMatchObject({ parent_page_id: target, position: 0, project_id: '2' });
      expectError(await patch(b, { archived: false, parent_page_id: root }), 'PARENT_PAGE_ARCHIVED');
    });

    it('keeps a separately archived subpage archived when its ancestor comes back', async () => {
      const {
        root,
        children: [a],
      } = await seedFamily(s.t.app, s.ws, 1);
      await patch(a, { archived: true }).expect(200);
      await patch(root, { archived: true }).expect(200);
      await patch(root, { archived: false }).expect(200);
      expect((await get(a)).archived).toBeDefined();
    });

    it('archives a page it moves in the same request, remembering the new parent', async () => {
      const [a, b] = await seedPages(s.t.app, s.ws, [{}, {}]);
      const res = await patch(a, { parent_page_id: b, archived: true }).expect(200);
      expect(res.body.page.archived).toMatchObject({ parent_page_id: b });
    });
  });
});
