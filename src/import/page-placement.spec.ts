import { PageEntry } from './dto/page-entry.dto';
import { StoredPage } from './existing-state';
import { planPagePlacement } from './page-placement';
import { siblingKeys } from './sibling-keys';

const stored = (
  id: string,
  parentId: string | null,
  sortKey: string | null,
  extra: Partial<StoredPage> = {},
): StoredPage => ({
  id,
  projectId: '1',
  parentId,
  sortKey,
  aliasId: `alias-${id}`,
  archive: null,
  ...extra,
});
const listed = (pages: Array<Partial<PageEntry> & { id: string }>) =>
  pages.map((page, i) => ({
    entry: { team_id: 'acme', project_id: '1', owner_id: 'u1', ...page },
    label: `pages[${i}] (id "${page.id}")`,
  }));

describe('siblingKeys', () => {
  it('gives new pages keys in the order listed, after the unlisted siblings', () => {
    const keys = siblingKeys(['3', '4'], () => null, ['a0', 'a1']);
    expect(keys.get('3')! > 'a1').toBe(true);
    expect(keys.get('3')! < keys.get('4')!).toBe(true);
  });

  it('keeps the keys of pages already in the listed order, and fits a new one between them', () => {
    const current: Record<string, string> = { '1': 'a0', '2': 'a5' };
    const keys = siblingKeys(['1', 'new', '2'], (id) => current[id] ?? null, ['a3']);
    expect(keys.get('1')).toBe('a0');
    expect(keys.get('2')).toBe('a5');
    expect(keys.get('new')! > 'a3' && keys.get('new')! < 'a5').toBe(true);
  });

  it('moves a page listed out of its stored order', () => {
    const current: Record<string, string> = { '1': 'a0', '2': 'a1' };
    const keys = siblingKeys(['2', '1'], (id) => current[id] ?? null, []);
    expect(keys.get('2')! < keys.get('1')!).toBe(true);
  });
});

describe('planPagePlacement', () => {
  it('places listed children in the order listed and archives a subtree root out of the tree', () => {
    const plan = planPagePlacement(
      'acme',
      [],
      listed([
        { id: '10' },
        { id: '12', parent_page_id: '10' },
        { id: '11', parent_page_id: '10', archived: true },
        { id: '13', parent_page_id: '11', archived: true },
      ]),
    );
    expect(plan.placed.get('11')).toEqual({ projectId: '1', parentId: null, sortKey: null });
    expect(plan.placed.get('13')).toMatchObject({ parentId: '11' });
    expect(plan.archives).toEqual([
      { pageId: '11', rootId: '11', formerParentId: '10', archivedBy: 'u1' },
      { pageId: '13', rootId: '11', formerParentId: '11', archivedBy: 'u1' },
    ]);
  });

  it('takes the unlisted subtree along into another project and into the archive', () => {
    const plan = planPagePlacement(
      'acme',
      [stored('10', null, 'a0'), stored('11', '10', 'a0')],
      listed([{ id: '10', project_id: '2', archived: true }]),
    );
    expect(plan.projectMoves).toEqual([{ id: '11', projectId: '2' }]);
    expect(plan.archives.map((a) => [a.pageId, a.rootId])).toEqual([
      ['10', '10'],
      ['11', '10'],
    ]);
  });

  it('brings back the pages archived with a root the document makes active', () => {
    const archive = { rootId: '10', formerParentId: null, archivedBy: 'u2' };
    const plan = planPagePlacement(
      'acme',
      [
        stored('10', null, null, { archive }),
        stored('11', '10', 'a0', { archive: { ...archive, formerParentId: '10' } }),
      ],
      listed([{ id: '10' }]),
    );
    expect(plan.unarchived.sort()).toEqual(['10', '11']);
    expect(plan.placed.get('10')).toMatchObject({ parentId: null, sortKey: expect.any(String) });
  });

  it.each([
    [[{ id: '10', parent_page_id: '99' }], 'pages[0] (id "10"): parent_page_id "99" is not a page of workspace acme'],
    [
      [{ id: '20', parent_page_id: '21' }, { id: '21' }],
      'pages[0] (id "20"): parent_page_id "21" is listed after this page; list parents first',
    ],
    [
      [{ id: '10', parent_page_id: '11' }],
      'pages[0] (id "10"): parent_page_id "11" is this page or one of its subpages',
    ],
    [
      [{ id: '12', parent_page_id: '10', project_id: '2' }],
      'pages[0] (id "12"): project_id "2" differs from project "1" of its parent page "10"',
    ],
  ])('refuses a page whose parent does not fit: %j', (pages, message) => {
    expect(() =>
      planPagePlacement('acme', [stored('10', null, 'a0'), stored('11', '10', 'a0')], listed(pages)),
    ).toThrow(message);
  });
});
