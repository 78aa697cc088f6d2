import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { repoRoot, writeResult } from '../support/report';
import type { GrowthResult } from './growth';
import type { RunFigures } from './load-run';
import type { SoakFigures } from './soak';

/** One row of bench/results/latest.json; the keys are the issue's, in its order. */
export interface ResultRow {
  operation: string;
  concurrency: number;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  round_trips: number;
  rss_mb: number;
  baseline_rps: number;
  baseline_p99_ms: number;
  ratio: number;
}

export interface Latest {
  machine: Record<string, unknown>;
  results: ResultRow[];
}

export interface Extras {
  details: Array<{ operation: string; concurrency: number; app: RunFigures; baseline: RunFigures }>;
  growth: GrowthResult[];
  soak?: SoakFigures;
  operations: Array<{ name: string; description: string }>;
}

/**
 * A full run: writes bench/results/latest.json (+ latest-details.json), BENCHMARKS.md and
 * bench/chart.svg. A partial one (--only): writes bench/results/partial.json (+ partial-details.json)
 * and prints its targets, leaving the published figures alone. Returns the paths written.
 */
export async function publish(latest: Latest, extras: Extras, log: (line: string) => void, partial: boolean): Promise<string[]> {
  const name = partial ? 'partial' : 'latest';
  const json = await writeResult(name, latest);
  const detailsFile = await writeResult(`${name}-details`, { machine: latest.machine, ...extras });
  const table = markdownTable(latest.results, extras);
  console.log(`\n${table}\n`);
  if (partial) {
    for (const line of targets(latest.results, extras)) console.log(line);
    return [json, detailsFile];
  }
  const chart = resolve(repoRoot(), 'bench', 'chart.svg');
  await writeFile(chart, await renderChart(latest.results));
  const markdown = resolve(repoRoot(), 'BENCHMARKS.md');
  await writeFile(markdown, benchmarksMd(latest, extras, table));
  log(`chart ${chart}`);
  return [json, detailsFile, markdown, chart];
}

const fixed = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : '–');

function markdownTable(rows: ResultRow[], extras: Extras): string {
  const details = new Map(extras.details.map((d) => [`${d.operation}@${d.concurrency}`, d]));
  const lines = [
    '| Operation | Conc. | req/s | baseline req/s | ratio | p50 ms | p99 ms | baseline p99 ms | p99 / baseline | round trips (baseline) | CPU ms/req (baseline) | database CPU ms/req (baseline) | peak RSS MB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const d = details.get(`${r.operation}@${r.concurrency}`);
    const pair = (ours: number | null | undefined, floor: number | null | undefined, digits: number) => `${fixed(ours ?? NaN, digits)} (${fixed(floor ?? NaN, digits)})`;
    lines.push(
      `| ${r.operation} | ${r.concurrency} | ${fixed(r.rps, 0)} | ${fixed(r.baseline_rps, 0)} | ${fixed(r.ratio, 2)} | ${fixed(r.p50_ms, 1)} | ${fixed(r.p99_ms, 1)} | ` +
        `${fixed(r.baseline_p99_ms, 1)} | ${fixed(r.p99_ms / r.baseline_p99_ms, 2)} | ${pair(r.round_trips, d?.baseline.round_trips, 1)} | ` +
        `${pair(d?.app.cpu_ms_per_request, d?.baseline.cpu_ms_per_request, 2)} | ${pair(d?.app.database_cpu_ms_per_request, d?.baseline.database_cpu_ms_per_request, 2)} | ${fixed(r.rss_mb, 0)} |`,
    );
  }
  return lines.join('\n');
}

/** The issue's targets, checked on this run's figures (printed, never enforced: timings are not pass/fail). */
function targets(rows: ResultRow[], extras: Extras): string[] {
  const out: string[] = [];
  const mark = (ok: boolean) => (ok ? 'met' : '**not met**');
  for (const concurrency of [16, 64]) {
    const at = rows.filter((r) => r.concurrency === concurrency);
    if (at.length === 0) continue;
    const below = at.filter((r) => r.ratio < 0.7);
    out.push(`- Throughput at concurrency ${concurrency} ≥ 0.7× the baseline: ${mark(below.length === 0)}` +
      (below.length ? ` (below: ${below.map((r) => `${r.operation} ${fixed(r.ratio, 2)}`).join(', ')})` : '') +
      `; ≥ 0.85×: ${at.filter((r) => r.ratio >= 0.85).length} of ${at.length}.`);
  }
  const at16 = rows.filter((r) => r.concurrency === 16);
  if (at16.length) {
    const over = at16.filter((r) => r.p99_ms > 1.5 * r.baseline_p99_ms);
    out.push(`- p99 at concurrency 16 ≤ 1.5× the baseline's: ${mark(over.length === 0)}` +
      (over.length ? ` (over: ${over.map((r) => `${r.operation} ${fixed(r.p99_ms / r.baseline_p99_ms, 2)}×`).join(', ')})` : '') + '.');
  }
  // At concurrency 1 a request's mean time is 1 s / req/s, to a hundredth of a millisecond; autocannon's
  // p50 is whole milliseconds, too coarse for requests of 1 to 6 ms (shown beside it).
  for (const g of extras.growth) {
    out.push(`- ${g.label}: mean time per request at concurrency 1, the two timed in turns, ${fixed(g.large.mean_ms, 2)} vs ${fixed(g.small.mean_ms, 2)} ms = ` +
      `${fixed(g.ratio, 2)}× (p50 ${fixed(g.large.p50_ms, 0)} vs ${fixed(g.small.p50_ms, 0)} ms; target ≤ ${g.limit}×): ${mark(g.ratio <= g.limit)}.`);
  }
  if (extras.soak) {
    const s = extras.soak;
    out.push(
      `- No leak: RSS ${fixed(s.rss_at_end_mb, 0)} MB at the end of ${s.seconds} s at concurrency ${s.concurrency} vs ${fixed(s.rss_after_first_minute_mb, 0)} MB after the first minute ` +
        `(the lowest of a reading every 2 s in the last minute and in the first: what stays after V8's collections) = ${fixed(s.growth, 3)}× (target ≤ 1.10×): ` +
        `${mark(s.growth <= 1.1)}. V8 heap in use, the same way: ${fixed(s.heap_used_at_end_mb, 0)} vs ${fixed(s.heap_used_after_first_minute_mb, 0)} MB.`,
    );
  } else {
    out.push('- No leak (5-minute soak at concurrency 64): not run; `npm run bench -- --soak`.');
  }
  return out;
}

function gaps(rows: ResultRow[], extras: Extras): string[] {
  const loaded = rows.filter((r) => r.concurrency >= 16).sort((a, b) => a.ratio - b.ratio);
  const out = loaded.slice(0, 5).map((r) => `- ${r.operation} at concurrency ${r.concurrency}: ${fixed(r.ratio, 2)}× the baseline's throughput (${fixed(r.rps, 0)} vs ${fixed(r.baseline_rps, 0)} req/s), p99 ${fixed(r.p99_ms, 1)} vs ${fixed(r.baseline_p99_ms, 1)} ms.`);
  const extraTrips = extras.details
    .filter((d) => d.concurrency === 1 && d.app.round_trips - d.baseline.round_trips >= 0.5)
    .map((d) => `${d.operation} ${fixed(d.app.round_trips, 1)} vs ${fixed(d.baseline.round_trips, 1)}`);
  out.push(extraTrips.length ? `- More SQL round trips per request than the baseline: ${extraTrips.join('; ')}.` : '- Round trips per request: never more than the baseline (one fewer: the token is answered from memory), so the gap is CPU in Node, not PostgreSQL.');
  return out;
}

function benchmarksMd(latest: Latest, extras: Extras, table: string): string {
  const m = latest.machine as Record<string, string | number>;
  return `# Benchmarks

<!-- Written by \`npm run bench\` (bench/load/publish.ts); edit that file, not this one. -->

Every benchmarked request, at concurrency 1, 16 and 64, against the service and against the floor: a
minimal \`node:http\` + \`pg\` server (\`bench/baseline/server.ts\`) that makes the same authentication
lookup, the same membership check and the same SQL statements in the same transactions. Both run on
the same database and the same seeded workspace, each in its own process, in turns: for each
operation and concurrency, a warm-up each, then short measured slices taking turns (who goes first
alternating), merged per server, so that a shared machine that slows down or speeds up moves both
sides alike. Both are driven by
[autocannon](https://github.com/mcollina/autocannon) from a third. **ratio** is our requests per second
divided by the baseline's: the figure to read, since absolute numbers drift on a shared machine.

![Throughput and p99 by operation, ours vs baseline](bench/chart.svg)

## Machine and run

${m.cores} cores (${m.cpu}), ${m.memory_gb} GB memory, PostgreSQL ${m.postgres} (${m.database === 'embedded' ? 'the embedded throwaway cluster, on the same machine' : 'DATABASE_URL'}),
Node ${m.node} on ${m.platform}; ${m.date}. Mode **${m.mode}**: ${Number(m.pages).toLocaleString('en')} pages in the large workspace,
${Number(m.warmup_s) >= 1 ? `${m.warmup_s} s` : 'max(100, 10 × concurrency) requests of'} warm-up (discarded) + ${m.duration_s} s measured per operation, concurrency and server, in ${m.slices} turns. The load
generator, both servers and PostgreSQL share these cores.

## Results

${table}

req/s counts successful answers only. p50/p99 are autocannon's, over the measured seconds. Round
trips are the queries the server sent to PostgreSQL during the measured run (its \`pg.Client#query\`
calls, \`START TRANSACTION\` and \`COMMIT\` included) divided by the requests it answered (counted by
the server, so a request still in flight when a turn ends counts with its queries); the service
answers most requests' token from memory (TokenCache), the baseline looks it up every time. CPU
ms/req is the server process's own user + system time (\`process.cpuUsage\`) per request answered;
database CPU ms/req that of every local \`postgres\` process over the same seconds (read from /proc,
ended backends included), background work and all. With the cores saturated, throughput is roughly
the cores divided by the sum of those two and the load generator's share. Peak RSS is the
service's process, sampled every 100 ms over the measured run. All of it is in
\`bench/results/latest.json\` (\`{"machine", "results": [...]}\`) and, with the baseline's round trips and
RSS and the failure counts, \`bench/results/latest-details.json\`.

## Targets of issue 5, on this run

${targets(latest.results, extras).join('\n')}

## Where the gaps are

${gaps(latest.results, extras).join('\n')}

Both servers make the same statements (the service one fewer: the token lookup, answered from memory),
so the difference is what the service does in Node around them, visible in the CPU ms/req column:
Express routing, helmet, the request logger, body reading, Passport and the guards, the
validation pipe (class-transformer + class-validator over the DTOs), Nest's execution context, and
the garbage those allocate. With two cores shared by PostgreSQL and the load generator, CPU per
request is the limit. Profile before cutting: \`--profile DIR\` and bench/README.md, "Finding the cost".

## The operations

| Operation | Each request |
|---|---|
${extras.operations.map((o) => `| ${o.name} | ${o.description} |`).join('\n')}

Seeded through \`ImportService\` (the path of \`npm run cli -- import\`, bench/load/workload.ts): a
workspace of 100 pages with a 10-child parent, and one of ${Number(m.pages).toLocaleString('en')} pages (one parent with 10,000
children, a chain 200 deep, the rest as bushy trees over 8 more projects; \`bench/pages/page-workspace.ts\`)
holding 1,000 note templates, 1,000 workspace-wide tags and 10,000 cards, then \`VACUUM (ANALYZE)\`. The
requests are drawn from one seeded generator per operation shared by both servers, so every write
really writes and neither server repeats the other's. Tag attaches use a fresh (card, tag) pair every
request (cards in turn, the next tags on each pass), so they always insert; reads run before the
attaches, since a card read counts each tag's cards.

## How to run

\`\`\`sh
npm run bench                 # 100,000 pages, 5 s + 10 s per run (about 20 minutes here)
npm run bench -- --quick      # 20,000 pages, 100+ warm-up requests + 2 s per run (under 3 minutes)
npm run bench -- --soak       # adds 5 minutes at concurrency 64 against the service: RSS in the first minute vs the last
npm run bench -- --quick --only "page GET,card GET" --concurrency 16 --duration 5
\`\`\`

Without \`DATABASE_URL\` a throwaway embedded PostgreSQL is started and deleted at the end; with it the
run seeds new workspaces with unique ids on that server and leaves them there. The service runs as
\`npm start\` would (its \`DB_POOL_SIZE\`, ... from the environment; the baseline's pool has the same size
and timeouts) with logging silenced and the rate limit off.

## What the baseline leaves out

It is the floor, kept honest: the same token lookup (SHA-256 of the secret, tokens joined with
members), membership and role check, statements (reused from \`src/pages/page-queries.ts\`,
\`src/cards/card-queries.ts\`, \`sortKeyAt\`), transactions, row and advisory locks, and retries. It leaves
out, as its header says: request validation beyond what the SQL needs (DTOs, unknown fields, length
limits, team_id shape), the error catalogue and its bodies, logging and request ids, security headers,
CORS, the rate limit, the request deadline, content-type and Content-Encoding checks, OpenAPI,
Passport, guards, pipes, interceptors and Express routing, and every page field but title, position
and project_id.
`;
}

/** Throughput and p99 by operation and concurrency, ours beside the baseline's, as SVG (vega-lite → vega, headless). */
async function renderChart(rows: ResultRow[]): Promise<string> {
  // vega and vega-lite are ES modules; this file compiles to CommonJS, whose import() would become require().
  const load = new Function('name', 'return import(name)') as (name: string) => Promise<any>;
  const [vega, vegaLite] = await Promise.all([load('vega'), load('vega-lite')]);
  const values = rows.flatMap((r) => [
    { operation: r.operation, concurrency: `concurrency ${r.concurrency}`, server: 'ours (NestJS)', rps: r.rps, p99: r.p99_ms },
    { operation: r.operation, concurrency: `concurrency ${r.concurrency}`, server: 'baseline (node:http + pg)', rps: r.baseline_rps, p99: r.baseline_p99_ms },
  ]);
  const panel = (field: 'rps' | 'p99', title: string, log: boolean) => ({
    mark: { type: 'bar', tooltip: true },
    width: 260,
    height: 220,
    encoding: {
      row: { field: 'concurrency', type: 'nominal', title: null, header: { labelFontWeight: 'bold' } },
      y: { field: 'operation', type: 'nominal', title: null, sort: null },
      yOffset: { field: 'server', type: 'nominal' },
      x: { field, type: 'quantitative', title, scale: log ? { type: 'log' } : {} },
      color: { field: 'server', type: 'nominal', title: null, scale: { range: ['#4c78a8', '#bab0ac'] } },
    },
  });
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: 'Throughput and p99 latency by operation: ours vs the node:http + pg baseline',
    data: { values },
    hconcat: [panel('rps', 'requests / s (higher is better)', false), panel('p99', 'p99 latency, ms, log scale (lower is better)', true)],
    config: { legend: { orient: 'top' }, font: 'sans-serif' },
  };
  const compiled = vegaLite.compile(spec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  const svg: string = await view.toSVG();
  view.finalize();
  return svg;
}
