import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { ImportError } from '../../src/import/import-error';
import { importDocument } from '../support/fixtures';
import { useScene } from '../support/scene';
import { pageId, seedPages } from './page-fixtures';
import { treeRows } from './tree-rows';

/**
 * The import reads only the pages its placement needs (src/import/existing-state.ts: the listed pages,
 * their subtrees, parents, siblings, alias holders and ancestors), not the workspace's whole tree. Whatever
 * it re-imports into an existing tree, the tree stays valid: unlisted subtrees follow a listed page into
 * another project and into or out of the archive, new keys fall among unlisted siblings, and a refused
 * document changes nothing.
 */
describe('the import into an existing tree', () => {
  const s = useScene();
  const db = () => s.t.app.get(DataSource);

  it('keeps the tree valid whatever pages it moves, archives, restores or adds', async () => {
    const ws = s.other;
    const tree = treeRows(db(), ws.teamId);
    const ids: string[] = [];
    // 80 pages over two projects, each under a random earlier page of its project or at its root.
    for (let n = 0; n < 80; n++) {
      const project = n % 2 === 0 ? ws.projectId : '2';
      const candidates = ids.filter((_, i) => i % 2 === n % 2);
      const parent = n < 6 || n % 5 === 0 ? '' : candidates[(n * 7) % candidates.length];
      ids.push(...(await seedPages(s.t.app, ws, [{ project, parent }])));
    }
    const stored = (id: string) => tree.page(id);
    const entry = fc.record({
      page: fc.nat({ max: 79 }),
      parent: fc.option(fc.nat({ max: 79 }), { nil: undefined }),
      archived: fc.boolean(),
      fresh: fc.boolean(),
      // One time in ten, the alias of another page: refused, changing nothing.
      alias: fc.nat({ max: 799 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { minLength: 1, maxLength: 6 }), async (entries) => {
        const pages: object[] = [];
        const listed = new Set<string>();
        const fresh: string[] = [];
        for (const e of entries) {
          const id = e.fresh ? pageId() : ids[e.page];
          if (listed.has(id)) continue;
          listed.add(id);
          const parent = e.parent === undefined || ids[e.parent] === id ? '' : ids[e.parent];
          const above = parent ? await stored(parent) : undefined;
          const project = above ? above.project_id : e.page % 2 === 0 ? ws.projectId : '2';
          const alias =
            e.alias >= 80
              ? {}
              : {
                  alias_id: (
                    await db().query('SELECT alias_id::text FROM pages WHERE team_id = $1 AND id = $2', [
                      ws.teamId,
                      ids[e.alias],
                    ])
                  )[0].alias_id,
                };
          pages.push({
            team_id: ws.teamId,
            id,
            project_id: project,
            parent_page_id: parent,
            title: `Imported ${id}`,
            owner_id: ws.users.owner,
            // Under an archived parent a page must be archived too.
            archived: e.archived || !!above?.archive_root_id,
            ...alias,
          });
          if (e.fresh) fresh.push(id);
        }
        const before = await tree.all();
        try {
          await importDocument(s.t.app, { pages });
          ids.push(...fresh);
        } catch (error) {
          if (!(error instanceof ImportError)) throw error;
          expect(await tree.all()).toEqual(before);
        }
        expect(await tree.problems()).toEqual([]);
      }),
      { numRuns: 40 },
    );
  }, 180_000);

  it('places a page among siblings it does not list: after the last of them, whatever the tree holds', async () => {
    const [parent] = await seedPages(s.t.app, s.ws, [{}]);
    const children = await seedPages(
      s.t.app,
      s.ws,
      Array.from({ length: 30 }, () => ({ parent })),
    );
    const [added] = await seedPages(s.t.app, s.ws, [{ parent }]);
    expect(await treeRows(db(), s.ws.teamId).children(s.ws.projectId, parent)).toEqual([...children, added]);
  });
});
