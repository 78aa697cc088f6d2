/**
 * The page list (GET /pages, 50 per answer) over a workspace of 100,000 pages: does the 1,000th answer
 * cost what the first does (keyset, never OFFSET; target within 1.2x), and what is its p99 at c=16.
 *
 *   npm run bench:page-list [-- --n 100 --warmup 10 --concurrent 400]
 *
 * Seeds through ImportService (bench/pages/page-workspace.ts, a 20-deep chain: see docs/page-list.md on
 * the cursor's length), walks the list once to collect the cursors of answers 1 to 1,000, then times
 * the first and the 1,000th answer interleaved at c=1, then 16 clients fetching answers at random cursors.
 */
import { importDocuments, planPageWorkspace } from './pages/page-workspace';
import { startBenchApp } from './support/bench-app';
import { send } from './support/http';
import { quantile, runInterleaved, summarize, timed } from './support/latency';
import { pick, seededRandom } from './support/random';
import { latencyTable, parseArgs } from './support/report';

const SHAPE = { total: 100_000, family: 10_000, chainDepth: 20, otherProjects: 8, seed: 2 };
const ANSWERS = 1000;

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2), { n: 100, warmup: 10, concurrent: 400, batch: 5000 });
  const bench = await startBenchApp();
  try {
    const ws = planPageWorkspace('list', SHAPE);
    const seedStart = performance.now();
    for (const doc of importDocuments(ws, options.batch)) {
      await bench.importDocument(doc);
      await bench.db.query('ANALYZE pages');
    }
    await bench.db.query('VACUUM (ANALYZE) pages, page_archives, page_members, page_moves, projects');
    console.log(`seeded ${ws.pages.length} pages in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

    const list = async (cursor: string | null) => {
      const url = `${bench.baseUrl}/v1/${ws.teamId}/pages?limit=50${cursor ? `&cursor=${cursor}` : ''}`;
      return JSON.parse((await send(url, { method: 'GET', auth: ws.auth, expect: 200 })).text) as {
        count: number;
        cursor: string | null;
      };
    };
    const cursors: Array<string | null> = [null];
    const walkStart = performance.now();
    while (cursors.length < ANSWERS) {
      const answer = await list(cursors[cursors.length - 1]);
      if (answer.count !== 50 || !answer.cursor) throw new Error(`answer ${cursors.length}: ${answer.count} pages`);
      cursors.push(answer.cursor);
    }
    console.log(`walked ${ANSWERS} answers in ${((performance.now() - walkStart) / 1000).toFixed(1)} s`);

    const samples = await runInterleaved(
      [
        { name: 'first answer', run: async () => void (await list(null)) },
        { name: '1,000th answer', run: async () => void (await list(cursors[ANSWERS - 1])) },
      ],
      { warmup: options.warmup, n: options.n },
    );
    const summaries = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, summarize(v)]));
    console.log(latencyTable(Object.entries(summaries).map(([name, summary]) => ({ name, summary }))));
    console.log(
      `1,000th / first: median ${(summaries['1,000th answer'].median / summaries['first answer'].median).toFixed(2)}`,
    );

    const random = seededRandom(7);
    const plan = Array.from({ length: options.concurrent }, () => pick(random, cursors));
    const latencies: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < plan.length) {
          const cursor = plan[next++];
          latencies.push(await timed(async () => void (await list(cursor))));
        }
      }),
    );
    latencies.sort((x, y) => x - y);
    console.log(
      `c=16, ${latencies.length} answers at random cursors: p50 ${quantile(latencies, 0.5).toFixed(1)} ms, ` +
        `p99 ${quantile(latencies, 0.99).toFixed(1)} ms`,
    );
  } finally {
    await bench.close();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
