import fc from 'fast-check';
import { UpdatePageDto } from '../../src/pages/dto/update-page.dto';
import { DomainError } from '../../src/errors/domain-error';
import { PageDto } from '../../src/pages/dto/page.response';
import { seedWorkspace, Workspace } from '../support/fixtures';
import { callerOf, useServices } from '../support/service-context';
import { pageId, seedPages } from './page-fixtures';
import { StoredPage, treeRows } from './tree-rows';
import { UNCONDITIONAL } from '../../src/safe-writes/write-conditions';

describe('PagesService.update keeps the tree valid whatever the patches', () => {
  const s = useServices();
  let ws: Workspace;
  let tree: ReturnType<typeof treeRows>;
  // Project 1: r > [a, b, c], a > [a1, a2], a1 > a11, b > b1, and z > z1 archived. Project 2: p > [p1, p2].
  const [r, a, b, c, a1, a2, a11, b1, z, z1, p, p1, p2] = Array.from({ length: 13 }, () => pageId());
  const ids = [r, a, b, c, a1, a2, a11, b1, z, z1, p, p1, p2];

  beforeAll(async () => {
    ws = await seedWorkspace(s.app);
    await seedPages(s.app, ws, [
      { id: r },
      { id: a, parent: r },
      { id: b, parent: r },
      { id: c, parent: r },
      { id: a1, parent: a },
      { id: a2, parent: a },
      { id: a11, parent: a1 },
      { id: b1, parent: b },
      { id: z, archived: true },
      { id: z1, parent: z, archived: true },
      { id: p, project: '2' },
      { id: p1, parent: p, project: '2' },
      { id: p2, parent: p, project: '2' },
    ]);
    tree = treeRows(s.db.plain, ws.teamId);
  });

  /** Mostly what exists, now and then what does not. */
  const mostly = <T>(real: fc.Arbitrary<T>, unknown: T) =>
    fc.oneof({ arbitrary: real, weight: 9 }, { arbitrary: fc.constant(unknown), weight: 1 });
  const patches = fc
    .record(
      {
        parent_page_id: mostly(fc.constantFrom('', ...ids), '987654321'),
        position: fc.nat({ max: 5 }),
        project_id: mostly(fc.constantFrom('1', '2'), 'nope'),
        archived: fc.boolean(),
      },
      { requiredKeys: [] },
    )
    .filter((patch) => Object.keys(patch).length > 0);
  const commands = fc.array(fc.tuple(fc.constantFrom(...ids), patches), { minLength: 1, maxLength: 10 });

  /** What a patch that was not refused must have done, as far as the contract says it plainly. */
  async function expectApplied(id: string, patch: UpdatePageDto, before: StoredPage, returned: PageDto) {
    const after = await tree.page(id);
    if (patch.archived === true) expect(after.archive_root_id).toBe(before.archive_root_id ?? id);
    if (patch.archived === false) expect(after.archive_root_id).toBeNull();
    if (after.archive_root_id !== null) return;
    if (patch.parent_page_id !== undefined) expect(after.parent_id).toBe(patch.parent_page_id || null);
    if (patch.project_id !== undefined) expect(after.project_id).toBe(patch.project_id);
    const siblings = await tree.children(after.project_id, after.parent_id);
    if (patch.position !== undefined) expect(siblings.indexOf(id)).toBe(Math.min(patch.position, siblings.length - 1));
    expect(returned.position).toBe(siblings.indexOf(id));
  }

  it(
    'refused patches change nothing; ' + 'the others do what they say, and the tree and its blocks stay exact',
    async () => {
      expect(await tree.problems()).toEqual([]);
      await fc.assert(
        fc.asyncProperty(commands, (run) =>
          s.db.undoing(async () => {
            for (const [id, patch] of run) {
              const before = await tree.all();
              const outcome = await s.pages
                .update(callerOf(ws), ws.teamId, id, patch, UNCONDITIONAL)
                .then((page) => page.body)
                .catch((error: unknown) => error);
              if (outcome instanceof DomainError) {
                expect(await tree.all()).toEqual(before);
                continue;
              }
              if (outcome instanceof Error) throw outcome;
              await expectApplied(
                id,
                patch,
                before.find((page) => page.id === id)!,
                outcome as PageDto,
              );
              expect({ id, patch, problems: await tree.problems() }).toEqual({ id, patch, problems: [] });
            }
          }),
        ),
        { numRuns: 40 },
      );
    },
    60_000,
  );
});
