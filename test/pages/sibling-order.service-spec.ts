import { BLOCK_MAX, BLOCK_MIN } from '../../migrations/0006-count-siblings-in-blocks';
import { UpdatePageDto } from '../../src/pages/dto/update-page.dto';
import { LONGEST_KEY } from '../../src/pages/sibling-order';
import { seedWorkspace, Workspace } from '../support/fixtures';
import { callerOf, useServices } from '../support/service-context';
import { seedFamily } from './page-fixtures';
import { treeRows } from './tree-rows';
import { UNCONDITIONAL } from '../../src/safe-writes/write-conditions';

/** Sibling order after `page` moves to `index` (past the end: last), the others keeping theirs. */
function placed(order: string[], page: string, index: number): string[] {
  const rest = order.filter((id) => id !== page);
  return [...rest.slice(0, index), page, ...rest.slice(index)];
}

/** The first index of every block after the first, from the blocks' sizes in key order. */
function blockStarts(blocks: Array<{ size: number }>): number[] {
  let start = 0;
  return blocks.slice(0, -1).map((block) => (start += block.size));
}

describe('PagesService.update orders siblings by sort key, counted in page_sibling_blocks', () => {
  const s = useServices();
  let ws: Workspace;
  let tree: ReturnType<typeof treeRows>;
  let five: { root: string; children: string[] };
  let many: { root: string; children: string[] };
  let two: { root: string; children: string[] };

  beforeAll(async () => {
    ws = await seedWorkspace(s.app);
    five = await seedFamily(s.app, ws, 5);
    many = await seedFamily(s.app, ws, 450);
    two = await seedFamily(s.app, ws, 2);
    tree = treeRows(s.db.plain, ws.teamId);
  });

  const move = (id: string, patch: UpdatePageDto) =>
    s.pages.update(callerOf(ws), ws.teamId, id, patch, UNCONDITIONAL).then((page) => page.body);
  const positionOf = async (id: string) => (await s.pages.get(callerOf(ws), ws.teamId, id)).body.position;

  it('puts the page exactly at the index, the others keeping their order', async () => {
    let order = five.children;
    for (const [page, index] of [
      [4, 1],
      [0, 3],
      [3, 0],
      [2, 4],
      [1, 2],
    ] as const) {
      const id = five.children[page];
      expect((await move(id, { position: index })).position).toBe(index);
      order = placed(order, id, index);
      expect(await tree.children('1', five.root)).toEqual(order);
    }
    for (const [index, id] of order.entries()) expect(await positionOf(id)).toBe(index);
    expect(await tree.problems()).toEqual([]);
  });

  it('puts a page past the end last, and writes nothing when the page is at the index already', async () => {
    const [a, b, c, d, e] = five.children;
    expect((await move(a, { position: 99 })).position).toBe(4);
    expect((await move(b, { position: 1e20 })).position).toBe(4);
    expect(await tree.children('1', five.root)).toEqual([c, d, e, a, b]);
    const before = await tree.all();
    for (const [index, id] of [c, d, e, a, b].entries()) await move(id, { position: index });
    await move(b, { position: 5 });
    expect(await tree.all()).toEqual(before);
  });

  it(
    'lands at every block boundary of a large sibling set, ' + 'from among the siblings and from another parent',
    async () => {
      const blocks = await tree.blocks('1', many.root);
      expect(blocks.length).toBeGreaterThan(2);
      let order = many.children;
      let outsider = two.children[0];
      for (const start of blockStarts(blocks)) {
        for (const index of [start - 1, start, start + 1]) {
          const inside = order[(index + 200) % order.length];
          expect((await move(inside, { position: index })).position).toBe(index);
          order = placed(order, inside, index);
          expect((await move(outsider, { parent_page_id: many.root, position: index })).position).toBe(index);
          order = placed(order, outsider, index);
          expect(await tree.children('1', many.root)).toEqual(order);
          expect([await positionOf(inside), await positionOf(outsider)]).toEqual([order.indexOf(inside), index]);
          // The outsider leaves again, and so does the page now at the index: the next outsider.
          await move(outsider, { parent_page_id: two.root });
          order = order.filter((id) => id !== outsider);
          outsider = order[index];
          await move(outsider, { parent_page_id: two.root });
          order = order.filter((id) => id !== outsider);
          expect(await tree.problems()).toEqual([]);
        }
      }
      expect(await tree.children('1', many.root)).toEqual(order);
    },
  );

  it(
    `cuts a block that grows past ${BLOCK_MAX} and merges one that falls under ${BLOCK_MIN}, ` +
      'positions staying exact',
    async () => {
      const before = await tree.blocks('1', many.root);
      let order = many.children;
      const grown = BLOCK_MAX - before[0].size + 1;
      for (const id of order.slice(-grown)) {
        await move(id, { position: 0 });
        order = placed(order, id, 0);
      }
      const cut = await tree.blocks('1', many.root);
      expect(cut.length).toBeGreaterThan(before.length);
      expect(await tree.problems()).toEqual([]);
      // Empty the last block but BLOCK_MIN - 1 of its pages, into another parent.
      const last = cut.at(-1)!;
      const leaving = order.slice(order.length - last.size, order.length - BLOCK_MIN + 1);
      for (const id of leaving) await move(id, { parent_page_id: two.root });
      order = order.filter((id) => !leaving.includes(id));
      const merged = await tree.blocks('1', many.root);
      expect(merged.length).toBe(cut.length - 1);
      expect(await tree.children('1', many.root)).toEqual(order);
      for (const index of [0, ...blockStarts(merged), order.length - 1]) {
        expect(await positionOf(order[index])).toBe(index);
      }
      expect(await tree.problems()).toEqual([]);
    },
  );

  it('gives every sibling a fresh short key once keys grow too long in one gap, order and blocks kept', async () => {
    let order = many.children;
    let longest = 0;
    let rebalancedBy: 'a page from another parent' | 'a sibling' | null = null;
    for (let moves = 0; moves < 600 && !rebalancedBy; moves++) {
      // Each page lands at index 1, between the first page and the one that landed there before: the gap
      // halves, and its keys grow. Near the limit the pages come from another parent (their old place loses them).
      const fromElsewhere = longest >= LONGEST_KEY - 8;
      const page = fromElsewhere ? (await tree.children('1', two.root))[0] : order.at(-1)!;
      await move(page, { parent_page_id: many.root, position: 1 });
      order = placed(order, page, 1);
      if (fromElsewhere) {
        await move(order.at(-1)!, { parent_page_id: two.root });
        order = order.slice(0, -1);
      }
      const now = await tree.longestKey('1', many.root);
      expect(now).toBeLessThanOrEqual(LONGEST_KEY);
      if (now < longest / 2) rebalancedBy = fromElsewhere ? 'a page from another parent' : 'a sibling';
      longest = now;
    }
    expect(rebalancedBy).toBe('a page from another parent');
    expect(await tree.children('1', many.root)).toEqual(order);
    expect(await tree.children('1', two.root)).toHaveLength(2);
    for (const index of [0, 1, 2, 100, order.length - 1]) expect(await positionOf(order[index])).toBe(index);
    expect(await tree.problems()).toEqual([]);
  });
});
