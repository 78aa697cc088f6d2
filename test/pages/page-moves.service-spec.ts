import { UpdatePageDto } from '../../src/pages/dto/update-page.dto';
import { RoleName, seedWorkspace, Workspace } from '../support/fixtures';
import { callerOf, useServices } from '../support/service-context';
import { pageId, seedPages } from './page-fixtures';
import { treeRows } from './tree-rows';
import { UNCONDITIONAL } from '../../src/safe-writes/write-conditions';

const DEPTH = 30;

describe('PagesService.update moves pages in the tree', () => {
  const s = useServices();
  let ws: Workspace;
  let tree: ReturnType<typeof treeRows>;
  // Project 1: x > x1 > x11, y > [y1, y2], a chain d[0] > d[1] > ... > d[DEPTH - 1], an archived page, a
  // page that lists the guest. Project 2: t > t1. The other workspace: a page of its own.
  const [x, x1, x11, y, y1, y2, gone, listed, t, t1, elsewhere] = Array.from({ length: 11 }, () => pageId());
  const d = Array.from({ length: DEPTH }, () => pageId());

  beforeAll(async () => {
    ws = await seedWorkspace(s.app);
    await seedPages(s.app, ws, [
      { id: x },
      { id: x1, parent: x },
      { id: x11, parent: x1 },
      { id: y },
      { id: y1, parent: y },
      { id: y2, parent: y },
      ...d.map((id, i) => ({ id, parent: d[i - 1] })),
      { id: gone, archived: true },
      { id: listed, members: [{ user_id: ws.users.guest }] },
      { id: t, project: '2' },
      { id: t1, parent: t, project: '2' },
    ]);
    await seedPages(s.app, await seedWorkspace(s.app), [{ id: elsewhere }]);
    tree = treeRows(s.db.plain, ws.teamId);
  });

  const move = (id: string, patch: UpdatePageDto, role: RoleName = 'member') =>
    s.pages.update(callerOf(ws, role), ws.teamId, id, patch, UNCONDITIONAL).then((page) => page.body);

  describe('within a project', () => {
    it('puts the page last under its new parent, its subtree following, its old siblings closing up', async () => {
      const page = await move(x, { parent_page_id: y });
      expect(page).toMatchObject({ parent_page_id: y, position: 2, project_id: '1' });
      expect(await tree.children('1', y)).toEqual([y1, y2, x]);
      expect(await tree.children('1', null)).toEqual([y, d[0], listed]);
      expect(await tree.children('1', x)).toEqual([x1]);
      expect(await tree.children('1', x1)).toEqual([x11]);
      expect(await tree.problems()).toEqual([]);
    });

    it('puts the page at the position asked, the new siblings keeping their order', async () => {
      expect(await move(x, { parent_page_id: y, position: 1 })).toMatchObject({ position: 1 });
      expect(await tree.children('1', y)).toEqual([y1, x, y2]);
      await move(x1, { parent_page_id: y, position: 0 });
      expect(await tree.children('1', y)).toEqual([x1, y1, x, y2]);
      expect(await tree.children('1', x)).toEqual([]);
      expect(await tree.problems()).toEqual([]);
    });

    it('moves a page to the root of its project with ""', async () => {
      expect(await move(x1, { parent_page_id: '' })).toMatchObject({ parent_page_id: '', position: 4 });
      expect(await tree.children('1', null)).toEqual([x, y, d[0], listed, x1]);
      expect(await tree.children('1', x1)).toEqual([x11]);
      expect(await tree.problems()).toEqual([]);
    });

    it('moves the top of a deep chain, every level below it staying in place', async () => {
      await move(d[0], { parent_page_id: y2 });
      expect(await tree.page(d[0])).toMatchObject({ parent_id: y2, project_id: '1' });
      for (let i = 1; i < DEPTH; i++) expect(await tree.children('1', d[i - 1])).toEqual([d[i]]);
      expect(await tree.problems()).toEqual([]);
    });

    it('writes nothing, not even time_updated, when the page is where the patch puts it', async () => {
      const before = await tree.all();
      for (const patch of [{ parent_page_id: y }, { parent_page_id: y, position: 0 }, { project_id: '1' }])
        await move(y1, patch);
      await move(y1, { archived: false });
      await move(x, { parent_page_id: '', position: 0 });
      expect(await tree.all()).toEqual(before);
    });
  });

  describe('across projects', () => {
    it('carries the whole subtree to the root of the project named, last, keys and parents kept', async () => {
      const before = await tree.pages([x, x1, x11]);
      const page = await move(x, { project_id: '2' });
      expect(page).toMatchObject({ project_id: '2', parent_page_id: '', position: 1 });
      expect(await tree.children('2', null)).toEqual([t, x]);
      expect(await tree.children('1', null)).toEqual([y, d[0], listed]);
      const after = await tree.pages([x1, x11]);
      expect(after).toEqual(before.slice(1).map((page) => ({ ...page, project_id: '2' })));
      expect(await tree.blocks('1', x)).toEqual([]);
      expect(await tree.blocks('2', x)).toEqual([{ lower_key: '', size: 1 }]);
      expect(await tree.problems()).toEqual([]);
    });

    it('carries the subtree under a parent in another project, and back under a parent in its own', async () => {
      await move(x1, { parent_page_id: t, position: 0 });
      expect(await tree.children('2', t)).toEqual([x1, t1]);
      expect(await tree.page(x11)).toMatchObject({ project_id: '2', parent_id: x1 });
      expect(await tree.children('1', x)).toEqual([]);
      await move(x1, { parent_page_id: y });
      expect(await tree.page(x11)).toMatchObject({ project_id: '1', parent_id: x1 });
      expect(await tree.children('2', t)).toEqual([t1]);
      expect(await tree.problems()).toEqual([]);
    });

    it('carries only what lies below the page: the middle of a deep chain takes the levels under it', async () => {
      const middle = DEPTH / 2;
      await move(d[middle], { parent_page_id: t1, project_id: '2' });
      const projects = (await tree.pages(d)).map((page) => page.project_id);
      expect(projects).toEqual(d.map((_, i) => (i < middle ? '1' : '2')));
      expect(await tree.children('1', d[middle - 1])).toEqual([]);
      expect(await tree.problems()).toEqual([]);
    });
  });

  it('lets a guest move only the pages that list them', async () => {
    await expect(move(x, { parent_page_id: y }, 'guest')).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    expect(await tree.page(x)).toMatchObject({ parent_id: null });
    await move(listed, { parent_page_id: y }, 'guest');
    expect(await tree.children('1', y)).toEqual([y1, y2, listed]);
  });

  describe('refusals change nothing', () => {
    const refusals: Array<[string, string, string, UpdatePageDto]> = [
      ['the page as its own parent', 'PAGE_PARENT_CYCLE', x, { parent_page_id: x }],
      ['a subpage as the parent', 'PAGE_PARENT_CYCLE', x, { parent_page_id: x11, title: 'not this either' }],
      [`the end of a ${DEPTH}-page chain under its top`, 'PAGE_PARENT_CYCLE', d[0], { parent_page_id: d[DEPTH - 1] }],
      ['a parent that does not exist', 'PARENT_PAGE_NOT_FOUND', x, { parent_page_id: '987654321' }],
      ['a parent id past bigint', 'PARENT_PAGE_NOT_FOUND', x, { parent_page_id: '9999999999999999999' }],
      ["another workspace's page as the parent", 'PARENT_PAGE_NOT_FOUND', x, { parent_page_id: elsewhere }],
      ['an archived parent', 'PARENT_PAGE_ARCHIVED', x, { parent_page_id: gone }],
      ['a project that does not exist', 'PROJECT_NOT_FOUND', x, { project_id: 'nope', parent_page_id: '' }],
      ['a parent outside the project named', 'PARENT_PROJECT_MISMATCH', x, { parent_page_id: t, project_id: '1' }],
      ['an archived page moved without archived: false', 'PAGE_ARCHIVED', gone, { parent_page_id: y }],
      ['a page that does not exist', 'PAGE_NOT_FOUND', '424242424', { parent_page_id: y }],
    ];

    it.each(refusals)('%s: %s', async (_, code, id, patch) => {
      const before = await tree.all();
      await expect(move(id, patch)).rejects.toMatchObject({ code });
      expect(await tree.all()).toEqual(before);
    });
  });
});
