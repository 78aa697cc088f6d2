/**
 * Pages coming and going: does a create cost the same among 10,000 siblings as among 10, what does a
 * copy of one page and a create cost next to a title PATCH, and how long does the delete of a page with
 * 100 descendants take?
 *
 *   npm run bench:page-lifecycle [-- --n 100 --warmup 10]
 *
 * Seeds through ImportService two workspaces: A (100 pages, one parent with 10 children, and for each
 * round a root with 10 children of 9 children each: 100 descendants) and B (10,100 pages, one parent
 * with 10,000 children). Variants, interleaved round by round, sequential (concurrency 1), over HTTP:
 *   create among 10 / 10,000   POST /pages {project_id, parent_page_id: the family's parent, position: random}
 *   copy (one page)            POST /pages/{id}/copy {} of a random child of A's family: lands right after it
 *   title PATCH                PATCH {title: new} of a random page of A (the reference the floor ratios use)
 *   delete, 100 descendants    DELETE of this round's root: 101 pages go
 * Reports median and p95 per variant and the ratios; writes bench/results/page-lifecycle.json.
 */
import type { PageResponse } from '../src/pages/dto/page.response';
import { importDocuments, PageWorkspace, planPageWorkspace } from './pages/page-workspace';
import { startBenchApp } from './support/bench-app';
import { send } from './support/http';
import { runInterleaved, summarize, Variant } from './support/latency';
import { pick, randomBelow, seededRandom } from './support/random';
import { environment, latencyTable, parseArgs, postgresVersion, writeResult } from './support/report';

const SMALL = { total: 100, family: 10, chainDepth: 20, otherProjects: 2, seed: 1 };
const LARGE = { total: 10_100, family: 10_000, chainDepth: 20, otherProjects: 1, seed: 2 };
/** Ids of the delete subtrees: far above the planned workspaces' 1..total. */
const SUBTREE_IDS_FROM = 1_000_000;

/** One root per round with 10 children of 9 children each: 100 descendants. */
function subtreeDocuments(ws: PageWorkspace, rounds: number): object[] {
  const docs: object[] = [];
  let id = SUBTREE_IDS_FROM;
  for (let round = 0; round < rounds; round++) {
    const entry = (parent: string) => ({
      team_id: ws.teamId,
      id: String(id++),
      project_id: '1',
      parent_page_id: parent,
      title: `Subtree ${round}`,
      owner_id: ws.userId,
    });
    const root = entry('');
    const children = Array.from({ length: 10 }, () => entry(root.id));
    const grandchildren = children.flatMap((child) => Array.from({ length: 9 }, () => entry(child.id)));
    docs.push({ pages: [root, ...children, ...grandchildren] });
  }
  return docs;
}

const rootOf = (round: number) => String(SUBTREE_IDS_FROM + round * 101);

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2), { n: 100, warmup: 10 });
  const rounds = options.warmup + options.n;
  const bench = await startBenchApp();
  try {
    const a = planPageWorkspace('a', SMALL);
    const b = planPageWorkspace('b', LARGE);
    const start = performance.now();
    for (const doc of [...importDocuments(a, 5000), ...subtreeDocuments(a, rounds), ...importDocuments(b, 5000)]) {
      await bench.importDocument(doc);
      // As bench:pages does: on a never-analyzed pages table each foreign-key check of the next import scans it.
      await bench.db.query('ANALYZE pages');
    }
    await bench.db.query('VACUUM (ANALYZE) pages, page_archives, page_members, page_sibling_blocks, projects');
    console.log(`page-lifecycle: seeded in ${((performance.now() - start) / 1000).toFixed(1)} s`);

    const random = seededRandom(7);
    const base = (ws: PageWorkspace) => `${bench.baseUrl}/v1/${ws.teamId}/pages`;
    const post = async (ws: PageWorkspace, path: string, body: object) =>
      (
        JSON.parse(
          (await send(`${base(ws)}${path}`, { method: 'POST', auth: ws.auth, body: JSON.stringify(body), expect: 201 }))
            .text,
        ) as PageResponse
      ).page;
    const create = (ws: PageWorkspace): Variant['run'] => {
      const positions = Array.from({ length: rounds }, () => randomBelow(random, ws.family.children.length));
      return async (i) => {
        const page = await post(ws, '', { project_id: '1', parent_page_id: ws.family.parent, position: positions[i] });
        if (page.position !== positions[i]) throw new Error(`create at ${positions[i]} answered ${page.position}`);
      };
    };
    const sources = Array.from({ length: rounds }, () => pick(random, a.family.children));
    const titled = Array.from({ length: rounds }, () => pick(random, a.pageIds));
    const variants: Variant[] = [
      { name: 'create among 10', run: create(a) },
      { name: 'create among 10,000', run: create(b) },
      { name: 'copy (one page)', run: async (i) => void (await post(a, `/${sources[i]}/copy`, {})) },
      {
        name: 'title PATCH',
        run: async (i) =>
          void (await send(`${base(a)}/${titled[i]}`, {
            method: 'PATCH',
            auth: a.auth,
            body: JSON.stringify({ title: `Title ${i}` }),
            expect: 200,
          })),
      },
      {
        name: 'delete, 100 descendants',
        run: async (i) => void (await send(`${base(a)}/${rootOf(i)}`, { method: 'DELETE', auth: a.auth, expect: 204 })),
      },
    ];
    const samples = await runInterleaved(variants, options);
    const summaries = Object.fromEntries(Object.entries(samples).map(([name, ms]) => [name, summarize(ms)]));
    console.log(latencyTable(Object.entries(summaries).map(([name, summary]) => ({ name, summary }))));
    const ratio = (x: string, y: string) => summaries[x].median / summaries[y].median;
    const ratios = {
      'create among 10,000 / among 10 (target <= 1.2)': ratio('create among 10,000', 'create among 10'),
      'create / title PATCH': ratio('create among 10', 'title PATCH'),
      'copy / title PATCH': ratio('copy (one page)', 'title PATCH'),
    };
    for (const [name, value] of Object.entries(ratios)) console.log(`${name}: ${value.toFixed(2)}`);
    console.log(
      `delete of a page with 100 descendants, p50: ${summaries['delete, 100 descendants'].median.toFixed(2)} ms`,
    );
    const file = await writeResult('page-lifecycle', {
      environment: environment({ postgres: await postgresVersion(bench.db) }),
      options,
      summaries,
      ratios,
    });
    console.log(`written to ${file}`);
  } finally {
    await bench.close();
  }
}

void main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
