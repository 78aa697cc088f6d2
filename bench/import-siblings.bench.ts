/**
 * The CLI import's speed where the tree is big: 5,000 new pages imported (through ImportService, the
 * CLI's path) under a parent that already has 5,000, then 50,000 children. The existing children are
 * inserted 5,000 a statement (the triggers count them as any writer's), so the setup costs seconds.
 * Prints pages per second at each size; an import whose work per page does not grow prints about the same.
 *
 *   tsc -p tsconfig.bench.json && node dist/bench/bench/import-siblings.bench.js
 */
import { generateNKeysBetween } from 'fractional-indexing';
import { importDocuments, planPageWorkspace } from './pages/page-workspace';
import { startBenchApp } from './support/bench-app';

const SIZES = [5_000, 50_000];
const BATCH = 5_000;

async function main(): Promise<void> {
  const bench = await startBenchApp();
  try {
    for (const existing of SIZES) {
      const ws = planPageWorkspace(`i${existing}`, { total: 2, family: 0, chainDepth: 0, otherProjects: 0, seed: 1 });
      for (const doc of importDocuments(ws, BATCH)) await bench.importDocument(doc);
      const parent = ws.pages[0].id;
      const keys = generateNKeysBetween(null, null, existing);
      for (let from = 0; from < existing; from += BATCH) {
        await bench.db.query(
          `INSERT INTO pages (team_id, id, project_id, parent_id, sort_key, owner_id, created_by, updated_by)
           SELECT $1, $5::bigint + n, '1', $2::bigint, k, $3, '{}'::jsonb, '{}'::jsonb
             FROM unnest($4::text[]) WITH ORDINALITY AS s(k, n)`,
          [ws.teamId, parent, ws.userId, keys.slice(from, from + BATCH), 10 + from],
        );
        await bench.db.query('ANALYZE pages');
      }
      await bench.db.query('VACUUM (ANALYZE) pages');
      const pages = Array.from({ length: BATCH }, (_, n) => ({
        ...ws.pages[0],
        id: String(existing + 20 + n),
        parent_page_id: parent,
        title: `New ${n}`,
      }));
      const start = performance.now();
      await bench.importDocument({ pages });
      const seconds = (performance.now() - start) / 1000;
      const rate = (BATCH / seconds).toFixed(0);
      console.log(`import ${BATCH} pages among ${existing} siblings: ${seconds.toFixed(2)} s, ${rate} pages/s`);
    }
  } finally {
    await bench.close();
  }
}

void main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
