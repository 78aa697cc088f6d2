import { UpdatePageDto } from '../../src/pages/dto/update-page.dto';
import { RoleName, seedWorkspace, Workspace } from '../support/fixtures';
import { callerOf, useServices } from '../support/service-context';
import { pageId, seedPages } from './page-fixtures';
import { treeRows } from './tree-rows';
import { UNCONDITIONAL } from '../../src/safe-writes/write-conditions';

describe('PagesService.update archives and brings back pages with their subtrees', () => {
  const s = useServices();
  let ws: Workspace;
  let tree: ReturnType<typeof treeRows>;
  // Project 1: r > [a, b, c], a > a1 > a11, b > b1. Project 2: t.
  const [r, a, b, c, a1, a11, b1, t] = Array.from({ length: 8 }, () => pageId());

  beforeAll(async () => {
    ws = await seedWorkspace(s.app);
    await seedPages(s.app, ws, [
      { id: r },
      { id: a, parent: r },
      { id: b, parent: r },
      { id: c, parent: r },
      { id: a1, parent: a },
      { id: a11, parent: a1 },
      { id: b1, parent: b },
      { id: t, project: '2' },
    ]);
    tree = treeRows(s.db.plain, ws.teamId);
  });

  const update = (id: string, patch: UpdatePageDto, role: RoleName = 'member') =>
    s.pages.update(callerOf(ws, role), ws.teamId, id, patch, UNCONDITIONAL).then((page) => page.body);
  const archivedUnder = async (ids: string[]) => (await tree.pages(ids)).map((page) => page.archive_root_id);
  const projectsAndRoots = async (ids: string[]) =>
    (await tree.pages(ids)).map((page) => [page.project_id, page.archive_root_id]);

  it('takes the page and its subtree out of the tree, each remembering its parent, and closes the gap', async () => {
    const page = await update(b, { archived: true });
    expect(page.archived).toEqual({ user_id: ws.users.member, parent_page_id: r, time_archived: expect.any(Number) });
    expect(page.position).toBeUndefined();
    const [archivedRoot, archivedChild] = await tree.pages([b, b1]);
    expect(archivedRoot).toMatchObject({ parent_id: null, sort_key: null, archive_root_id: b, former_parent_id: r });
    expect(archivedChild).toMatchObject({ parent_id: b, archive_root_id: b, former_parent_id: b });
    expect(await tree.children('1', r)).toEqual([a, c]);
    expect((await s.pages.get(callerOf(ws), ws.teamId, c)).body.position).toBe(1);
    expect(await tree.problems()).toEqual([]);
  });

  it('brings the page back last under its former parent, with the pages archived with it', async () => {
    await update(a, { archived: true });
    expect(await archivedUnder([a, a1, a11])).toEqual([a, a, a]);
    const page = await update(a, { archived: false });
    expect(page).toMatchObject({ parent_page_id: r, position: 2 });
    expect(page.archived).toBeUndefined();
    expect(await tree.children('1', r)).toEqual([b, c, a]);
    expect(await archivedUnder([a, a1, a11])).toEqual([null, null, null]);
    expect(await tree.children('1', a)).toEqual([a1]);
    expect(await tree.problems()).toEqual([]);
  });

  it('keeps a subpage archived on its own archived when its ancestor comes back', async () => {
    await update(a1, { archived: true });
    await update(a, { archived: true });
    await update(a, { archived: false });
    expect(await archivedUnder([a, a1, a11])).toEqual([null, a1, a1]);
    expect(await tree.children('1', a)).toEqual([]);
    expect(await tree.problems()).toEqual([]);
  });

  it('brings a page back at the root when its former parent is archived', async () => {
    await update(a, { archived: true });
    await update(r, { archived: true });
    expect(await update(a, { archived: false })).toMatchObject({ parent_page_id: '', project_id: '1' });
    expect(await tree.children('1', null)).toEqual([a]);
    expect(await archivedUnder([r, b, c])).toEqual([r, r, r]);
    expect(await tree.problems()).toEqual([]);
  });

  it(
    'brings a page archived with an ancestor back at the root with its subtree, ' + 'the ancestor later without it',
    async () => {
      await update(r, { archived: true });
      expect(await archivedUnder([r, a, a1, a11, b, b1, c])).toEqual([r, r, r, r, r, r, r]);
      await update(a, { archived: false });
      expect(await tree.children('1', null)).toEqual([a]);
      expect(await archivedUnder([a, a1, a11, r, b, b1, c])).toEqual([null, null, null, r, r, r, r]);
      await update(r, { archived: false });
      expect(await tree.children('1', null)).toEqual([a, r]);
      expect(await tree.children('1', r)).toEqual([b, c]);
      expect(await archivedUnder([r, b, b1, c])).toEqual([null, null, null, null]);
      expect(await tree.problems()).toEqual([]);
    },
  );

  it('brings a page back where the patch says, into another project with its subtree', async () => {
    await update(a, { archived: true });
    const page = await update(a, { archived: false, parent_page_id: t, position: 0 });
    expect(page).toMatchObject({ project_id: '2', parent_page_id: t, position: 0 });
    expect(await tree.children('2', t)).toEqual([a]);
    expect(await projectsAndRoots([a, a1, a11])).toEqual([
      ['2', null],
      ['2', null],
      ['2', null],
    ]);
    expect(await tree.children('1', r)).toEqual([b, c]);
    expect(await tree.problems()).toEqual([]);
  });

  it(
    'archives a page it moves in the same request, ' + 'remembering the new parent, the subtree carried along',
    async () => {
      await update(a, { parent_page_id: c, archived: true });
      expect(await tree.page(a)).toMatchObject({ parent_id: null, sort_key: null, former_parent_id: c });
      expect(await tree.children('1', c)).toEqual([]);
      await update(b, { project_id: '2', archived: true });
      expect(await projectsAndRoots([b, b1])).toEqual([
        ['2', b],
        ['2', b],
      ]);
      expect(await tree.children('1', r)).toEqual([c]);
      expect(await tree.problems()).toEqual([]);
    },
  );

  it('lets an archived page change its own fields, and archiving it again changes nothing', async () => {
    await update(a, { archived: true });
    await update(a, { title: 'Still editable' });
    expect(await tree.page(a)).toMatchObject({ title: 'Still editable', archive_root_id: a, former_parent_id: r });
    const before = await tree.all();
    await update(a, { archived: true }, 'admin');
    expect(await tree.all()).toEqual(before);
  });

  describe('refusals change nothing', () => {
    const refusals: Array<[string, string, UpdatePageDto]> = [
      ['a move without archived: false', 'PAGE_ARCHIVED', { position: 0 }],
      ['a new project without archived: false', 'PAGE_ARCHIVED', { project_id: '2', title: 'no' }],
      ['coming back under a page archived with it', 'PAGE_PARENT_CYCLE', { archived: false, parent_page_id: a1 }],
      ['coming back under an archived page', 'PARENT_PAGE_ARCHIVED', { archived: false, parent_page_id: b }],
      ['coming back into a project that does not exist', 'PROJECT_NOT_FOUND', { archived: false, project_id: 'nope' }],
    ];

    it.each(refusals)('%s: %s', async (_, code, patch) => {
      await update(b, { archived: true });
      await update(a, { archived: true });
      const before = await tree.all();
      await expect(update(a, patch)).rejects.toMatchObject({ code });
      expect(await tree.all()).toEqual(before);
    });
  });
});
