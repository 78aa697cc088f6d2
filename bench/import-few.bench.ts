/**
 * A small import into a big workspace: 10 new pages under a parent of 10 children, in a workspace of
 * 50,000 pages, through ImportService (the CLI's path). The import reads only what placing them needs,
 * so it should cost about what it costs in a small workspace. Prints the median and p95 of 30 imports.
 *
 *   tsc -p tsconfig.bench.json && node dist/bench/bench/import-few.bench.js
 */
import { importDocuments, planPageWorkspace } from './pages/page-workspace';
import { startBenchApp } from './support/bench-app';
import { summarize } from './support/latency';

const SIZES = [100, 50_000];
const IMPORTS = 30;
const PAGES = 10;

async function main(): Promise<void> {
  const bench = await startBenchApp();
  try {
    for (const total of SIZES) {
      const ws = planPageWorkspace(`f${total}`, { total, family: 10, chainDepth: 20, otherProjects: 8, seed: 3 });
      for (const doc of importDocuments(ws, 5_000)) {
        await bench.importDocument(doc);
        await bench.db.query('ANALYZE pages');
      }
      await bench.db.query('VACUUM (ANALYZE) pages, page_archives');
      const times: number[] = [];
      for (let round = 0; round < IMPORTS; round++) {
        const pages = Array.from({ length: PAGES }, (_, n) => ({
          ...ws.pages[0],
          id: String(1_000_000 + round * PAGES + n),
          parent_page_id: ws.family.parent,
          title: `New ${round}.${n}`,
        }));
        const start = performance.now();
        await bench.importDocument({ pages });
        times.push(performance.now() - start);
      }
      const { median, p95 } = summarize(times);
      console.log(
        `import ${PAGES} pages into ${total} pages: median ${median.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`,
      );
    }
  } finally {
    await bench.close();
  }
}

void main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
