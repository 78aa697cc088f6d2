import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { repoRoot, writeResult } from '../support/report';
import type { GrowthResult } from './growth';
import type { RunFigures } from './load-run';
import type { SoakFigures } from './soak';
import { FLOOR_P99_TARGETS, FLOOR_TARGETS, ROUND_TRIP_LIMITS, STRUCTURAL_TARGETS } from './targets';

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
  /** rps / baseline_rps: the same SQL without the framework. */
  ratio: number;
  floor_rps: number;
  floor_p99_ms: number;
  /** rps / floor_rps: the least a correct answer needs; the targets are set against it. */
  floor_ratio: number;
}

export interface Latest {
  machine: Record<string, unknown>;
  results: ResultRow[];
}

export interface Extras {
  details: Array<{ operation: string; concurrency: number; app: RunFigures; baseline: RunFigures; floor: RunFigures }>;
  growth: GrowthResult[];
  soak?: SoakFigures;
  operations: Array<{ name: string; description: string }>;
}

/**
 * Prints the table and the targets. A full run: writes bench/results/latest.json (+ latest-details.json),
 * BENCHMARKS.md and bench/chart.svg. A partial one (--only): writes bench/results/partial.json
 * (+ partial-details.json), leaving the published figures alone. Returns the paths written.
 */
export async function publish(
  latest: Latest,
  extras: Extras,
  log: (line: string) => void,
  partial: boolean,
): Promise<string[]> {
  const name = partial ? 'partial' : 'latest';
  const json = await writeResult(name, latest);
  const detailsFile = await writeResult(`${name}-details`, { machine: latest.machine, ...extras });
  const table = markdownTable(latest.results, extras);
  console.log(`\n${table}\n`);
  for (const line of targets(latest.results, extras)) console.log(line);
  if (partial) return [json, detailsFile];
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
    '| Operation | Conc. | req/s | baseline req/s | floor req/s | ratio | floor ratio | p50 ms | p99 ms | ' +
      'baseline p99 ms | floor p99 ms | p99 / floor | ' +
      'round trips (baseline, floor) | CPU ms/req (baseline, floor) | ' +
      'database CPU ms/req (baseline, floor) | peak RSS MB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const d = details.get(`${r.operation}@${r.concurrency}`);
    const three = (figure: (f: RunFigures) => number | null, digits: number) =>
      d
        ? `${fixed(figure(d.app) ?? NaN, digits)} (${fixed(figure(d.baseline) ?? NaN, digits)}, ` +
          `${fixed(figure(d.floor) ?? NaN, digits)})`
        : '–';
    lines.push(
      `| ${r.operation} | ${r.concurrency} | ${fixed(r.rps, 0)} | ${fixed(r.baseline_rps, 0)} | ` +
        `${fixed(r.floor_rps, 0)} | ${fixed(r.ratio, 2)} | ${fixed(r.floor_ratio, 2)} | ` +
        `${fixed(r.p50_ms, 1)} | ${fixed(r.p99_ms, 1)} | ${fixed(r.baseline_p99_ms, 1)} | ` +
        `${fixed(r.floor_p99_ms, 1)} | ${fixed(r.p99_ms / r.floor_p99_ms, 2)} | ` +
        `${three((f) => f.round_trips, 1)} | ${three((f) => f.cpu_ms_per_request, 2)} | ` +
        `${three((f) => f.database_cpu_ms_per_request, 2)} | ${fixed(r.rss_mb, 0)} |`,
    );
  }
  return lines.join('\n');
}

/** The targets, checked on this run's figures (printed, never enforced: timings are not pass/fail). */
function targets(rows: ResultRow[], extras: Extras): string[] {
  const out: string[] = [];
  const mark = (ok: boolean) => (ok ? 'met' : '**not met**');
  const listed = (label: string, items: string[]) => (items.length ? ` (${label}: ${items.join(', ')})` : '');
  const near = rows.filter((r) => FLOOR_TARGETS.some((name) => name.test(r.operation)));
  for (const concurrency of [16, 64]) {
    const at = near.filter((r) => r.concurrency === concurrency);
    if (at.length === 0) continue;
    const below = at.filter((r) => r.floor_ratio < 0.5);
    out.push(
      `- GETs, title PATCHes and the 1-id tag attach at concurrency ${concurrency}, throughput ≥ 0.5× the floor's: ` +
        `${mark(below.length === 0)}` +
        `${listed(
          'below',
          below.map((r) => `${r.operation} ${fixed(r.floor_ratio, 2)}×`),
        )}; ${at.length - below.length} of ${at.length}.`,
    );
  }
  const near16 = rows.filter(
    (r) => r.concurrency === 16 && [...FLOOR_TARGETS, ...FLOOR_P99_TARGETS].some((name) => name.test(r.operation)),
  );
  if (near16.length) {
    const over = near16.filter((r) => r.p99_ms > 3 * r.floor_p99_ms);
    out.push(
      `- The same and the page list at concurrency 16, p99 ≤ 3× the floor's: ${mark(over.length === 0)}` +
        `${listed(
          'over',
          over.map((r) => `${r.operation} ${fixed(r.p99_ms / r.floor_p99_ms, 2)}×`),
        )}; ${near16.length - over.length} of ${near16.length}.`,
    );
  }
  const structural = rows.filter(
    (r) => r.concurrency === 16 && STRUCTURAL_TARGETS.operations.some((name) => name.test(r.operation)),
  );
  if (structural.length) {
    const reference = rows.find((r) => r.concurrency === 16 && STRUCTURAL_TARGETS.reference.test(r.operation));
    if (!reference) {
      out.push(
        `- Reorders and moves at concurrency 16 ≥ ${STRUCTURAL_TARGETS.share}× the floor's page title PATCH: ` +
          `not checked (the page title PATCH of the large workspace was not run at 16).`,
      );
    } else {
      const share = (r: ResultRow) => r.rps / reference.floor_rps;
      const below = structural.filter((r) => share(r) < STRUCTURAL_TARGETS.share);
      out.push(
        `- Reorders and moves at concurrency 16 ≥ ${STRUCTURAL_TARGETS.share}× the floor's ${reference.operation} ` +
          `(${fixed(reference.floor_rps, 0)} req/s): ${mark(below.length === 0)} ` +
          `(${structural.map((r) => `${r.operation} ${fixed(r.rps, 0)} req/s = ${fixed(share(r), 3)}×`).join(', ')}).`,
      );
    }
  }
  // Per operation at its lowest concurrency run: requests in flight when a turn ends count their queries
  // but not their answer.
  const trips = [...lowestConcurrency(extras.details).values()].flatMap((row) => {
    const limit = ROUND_TRIP_LIMITS.find(({ operation }) => operation.test(row.operation))?.limit;
    return limit === undefined ? [] : [{ row, limit }];
  });
  if (trips.length) {
    const over = trips.filter(({ row, limit }) => Number(row.app.round_trips.toFixed(1)) > limit);
    out.push(
      `- Round trips per request, ours (baseline, floor): ${mark(over.length === 0)}${listed(
        'over',
        over.map(({ row }) => row.operation),
      )}; ` +
        trips
          .map(
            ({ row, limit }) =>
              `${row.operation} ${fixed(row.app.round_trips, 1)} (${fixed(row.baseline.round_trips, 1)}, ` +
              `${fixed(row.floor.round_trips, 1)}), target ≤ ${limit}`,
          )
          .join('; ') +
        '.',
    );
  }
  // At concurrency 1 a request's mean time is 1 s / req/s, to a hundredth of a millisecond; autocannon's
  // p50 is whole milliseconds, too coarse for requests of 1 to 6 ms (shown beside it).
  for (const g of extras.growth) {
    out.push(
      `- ${g.label}: mean time per request at concurrency 1, the two timed in turns, ` +
        `${fixed(g.large.mean_ms, 2)} vs ${fixed(g.small.mean_ms, 2)} ms = ` +
        `${fixed(g.ratio, 2)}× (p50 ${fixed(g.large.p50_ms, 0)} vs ${fixed(g.small.p50_ms, 0)} ms; ` +
        `target ≤ ${g.limit}×): ` +
        `${mark(g.ratio <= g.limit)}.`,
    );
  }
  if (extras.soak) {
    const s = extras.soak;
    out.push(
      `- No leak: RSS ${fixed(s.rss_at_end_mb, 0)} MB at the end of ${s.seconds} s at concurrency ${s.concurrency} ` +
        `vs ${fixed(s.rss_after_first_minute_mb, 0)} MB after the first minute ` +
        `(the lowest of a reading every 2 s in the last minute and in the first: what stays after V8's collections) ` +
        `= ${fixed(s.growth, 3)}× (target ≤ 1.10×): ` +
        `${mark(s.growth <= 1.1)}. V8 heap in use, the same way: ${fixed(s.heap_used_at_end_mb, 0)} ` +
        `vs ${fixed(s.heap_used_after_first_minute_mb, 0)} MB.`,
    );
  } else {
    out.push('- No leak (5-minute soak at concurrency 64): not run; `npm run bench -- --soak`.');
  }
  return out;
}

/** Each operation's run at the lowest concurrency measured, where round trips are counted best. */
function lowestConcurrency(details: Extras['details']): Map<string, Extras['details'][number]> {
  const lowest = new Map<string, Extras['details'][number]>();
  for (const d of details)
    if ((lowest.get(d.operation)?.concurrency ?? Infinity) > d.concurrency) lowest.set(d.operation, d);
  return lowest;
}

function gaps(rows: ResultRow[], extras: Extras): string[] {
  const loaded = rows.filter((r) => r.concurrency >= 16).sort((a, b) => a.floor_ratio - b.floor_ratio);
  const out = loaded
    .slice(0, 5)
    .map(
      (r) =>
        `- ${r.operation} at concurrency ${r.concurrency}: ${fixed(r.floor_ratio, 2)}× the floor's throughput ` +
        `(${fixed(r.rps, 0)} vs ${fixed(r.floor_rps, 0)} req/s; the baseline ${fixed(r.baseline_rps, 0)}), ` +
        `p99 ${fixed(r.p99_ms, 1)} vs ${fixed(r.floor_p99_ms, 1)} ms.`,
    );
  const extraTrips = [...lowestConcurrency(extras.details).values()]
    .filter((d) => d.app.round_trips - d.floor.round_trips >= 0.5)
    .map((d) => `${d.operation} ${fixed(d.app.round_trips, 1)} vs ${fixed(d.floor.round_trips, 1)}`);
  out.push(
    extraTrips.length
      ? `- More SQL round trips per request than the floor: ${extraTrips.join('; ')}.`
      : '- Round trips per request: never more than the floor.',
  );
  return out;
}

function benchmarksMd(latest: Latest, extras: Extras, table: string): string {
  const m = latest.machine as Record<string, string | number>;
  return (
    `# Benchmarks

<!-- Written by \`npm run bench\` (bench/load/publish.ts); edit that file, not this one. -->

Every benchmarked request, at concurrency 1, 16 and 64, against the service and two frameworkless
\`node:http\` + \`pg\` servers: the **floor** (\`bench/floor/server.ts\`), which does the least a correct
answer needs with its own minimal SQL, every statement prepared; and the **baseline**
(\`bench/baseline/server.ts\`), which runs the service's own services, so it sends the very statements
the service sends, in the same transactions. The three run on the same database and the same seeded workspace, ` +
    `each in its own
process, in turns: for each operation and concurrency, a warm-up each, then short measured slices
taking turns (the order rotating), merged per server, so that a shared machine that slows down or
speeds up moves all three alike. All are driven by [autocannon](https://github.com/mcollina/autocannon)
from a fourth. **floor ratio** is our requests per second divided by the floor's: what our SQL design
and our Node code cost together, the figure the targets are set against. **ratio** divides by the
baseline's: what our Node code costs around the same SQL. Absolute numbers drift on a shared machine;
the ratios are the point.

![Throughput and p99 by operation: ours, the baseline and the floor](bench/chart.svg)

## Machine and run

${m.cores} cores (${m.cpu}), ${m.memory_gb} GB memory, PostgreSQL ${m.postgres} (` +
    `${m.database === 'embedded' ? 'the embedded throwaway cluster, on the same machine' : 'DATABASE_URL'}),
Node ${m.node} on ${m.platform}; ${m.date}. ` +
    `Mode **${m.mode}**: ${Number(m.pages).toLocaleString('en')} pages in the large workspace,
${Number(m.warmup_s) >= 1 ? `${m.warmup_s} s` : 'max(100, 10 × concurrency) requests of'} warm-up (discarded) + ` +
    `${m.duration_s} s measured per operation, concurrency and server, in ${m.slices} turns. The load
generator, the three servers and PostgreSQL share these cores.

## Results

${table}

req/s counts successful answers only. p50/p99 are autocannon's, over the measured seconds. Round
trips are the queries the server sent to PostgreSQL during the measured run (its \`pg.Client#query\`
calls, \`BEGIN\`/\`START TRANSACTION\` and \`COMMIT\` included; a prepared statement is one) divided by the
requests it answered (counted by the server, so a request still in flight when a turn ends counts
with its queries); the service answers most requests' token from memory (TokenCache), the baseline
and the floor look it up every time. CPU ms/req is the server process's own user + system time
(\`process.cpuUsage\`) per request answered; database CPU ms/req that of the cluster's processes
over the same seconds (read from /proc, ended backends included), background work and all.
With the cores saturated, throughput is roughly the cores divided by the sum of those two and the
load generator's share. Peak RSS is the service's process, sampled every 100 ms over the measured
run. All of it is in \`bench/results/latest.json\` (\`{"machine", "results": [...]}\`) and, with the
other servers' round trips, CPU and RSS and the failure counts, \`bench/results/latest-details.json\`.

## Targets, on this run

${targets(latest.results, extras).join('\n')}

## Where the gaps are

${gaps(latest.results, extras).join('\n')}

Between the baseline and the floor lies our SQL design: wider statements (every field of the view, the
counted \`position\`, the joins for members, bookmarks and comments, the sibling blocks' triggers) and,
for reorders and moves, the statements that check a move before it is made. Between the service and the baseline lies
what it does in Node around the same statements, visible in the CPU ms/req column: Express routing,
helmet, the request logger, body reading, authentication and the guards, the rate limiter, the
validation pipe (class-transformer + class-validator over the DTOs), Nest's execution context, and
the garbage those allocate. With two cores shared by PostgreSQL and the load generator, CPU per
request is the limit. Profile before cutting: \`--profile DIR\` and bench/README.md, "Finding the cost".

## The operations

| Operation | Each request |
|---|---|
${extras.operations.map((o) => `| ${o.name} | ${o.description} |`).join('\n')}

Seeded through \`ImportService\` (the path of \`npm run cli -- import\`, bench/load/workload.ts): a
workspace of 100 pages with a 10-child parent, and one of ` +
    `${Number(m.pages).toLocaleString('en')} pages (one parent with 10,000
children, a chain 200 deep, the rest as bushy trees over 8 more projects; \`bench/pages/page-workspace.ts\`)
holding 1,000 note templates, 1,000 workspace-wide tags and 10,000 cards, then \`VACUUM (ANALYZE)\`. The
requests are drawn from one seeded generator per operation shared by the three servers, so every write
really writes and no server repeats another's. Tag attaches use a fresh (card, tag) pair every
request (cards in turn, the next tags on each pass), so they always insert; reads run before the
attaches, since a card read counts each tag's cards.

## How to run

\`\`\`sh
npm run bench                 # 100,000 pages, 5 s + 10 s per run
npm run bench -- --quick      # 20,000 pages, 100+ warm-up requests + 2 s per run
npm run bench -- --soak       # adds 5 minutes at concurrency 64 against the service: ` +
    `RSS in the first minute vs the last
npm run bench -- --quick --only "page GET,card GET" --concurrency 16 --duration 5
\`\`\`

Without \`DATABASE_URL\` a throwaway embedded PostgreSQL is started and deleted at the end; with it the
run seeds new workspaces with unique ids on that server and leaves them there. The service runs as
users run it: its settings at their defaults or as the environment gives them (\`DB_POOL_SIZE\`, ...;
the baseline's pool has the app's settings, the floor's the same size and statement timeout), logging at \`info\`
(a line per request, written to /dev/null), the rate limiter on at 1,000,000 requests per minute
per token (the most it accepts; above any load here), the token cache at its default.

## What the two yardsticks leave out

The **floor** does per request: the token lookup by the SHA-256 of the secret joined with its
membership (one prepared \`SELECT\`, no cache), the workspace and role check; then for a GET one
\`SELECT\` by key (a card with its tags); for a title PATCH \`BEGIN\`, \`UPDATE ... RETURNING *\`,
\`COMMIT\`; for a tag attach \`BEGIN\`, one \`INSERT ... ON CONFLICT DO NOTHING\` of the tags the card's
project may use, \`COMMIT\`; for a reorder or move \`BEGIN\`, the project's advisory lock, the
neighbour sort keys at the index (through the sibling blocks), one \`UPDATE\` (a move carries the
subtree), \`COMMIT\`. It leaves out, as its header says: validation beyond the types the SQL needs,
the error catalogue and its bodies, logging, helmet, CORS, the rate limit, the request deadline,
ETags, the counted \`position\`, the collaboration token, the joins for members, bookmarks, watchers,
comments, favourites and tags' card counts, the card's update stamp on attach, guests (refused),
archived pages, rebalancing long sort keys, and skipping a write that changes nothing.

The **baseline** makes the service's token lookup (no cache), the membership and role check, then
calls the service's own \`NotesService\`, \`PagesService\` and \`CardsService\`: the same statements,
transactions, row and advisory locks, and retries. It leaves out request validation (the parsed body
goes to the service as it is), the error catalogue's bodies, logging and request ids, security
headers, CORS, the rate limit, the request deadline, content-type and Content-Encoding checks,
OpenAPI, Passport, guards, pipes, interceptors and Express routing.
`
  );
}

/** What renderChart uses of vega-lite and vega (vega-lite's own types need moduleResolution node16 or later). */
interface VegaLite {
  compile(spec: object): { spec: object };
}
interface Vega {
  parse(spec: object): object;
  View: new (runtime: object, options: { renderer: 'none' }) => { toSVG(): Promise<string>; finalize(): void };
}

/**
 * Throughput and p99 by operation and concurrency, ours beside the baseline's and the floor's, as SVG
 * (vega-lite → vega, headless).
 */
async function renderChart(rows: ResultRow[]): Promise<string> {
  // vega and vega-lite are ES modules; this file compiles to CommonJS, whose import() would become require().
  /* eslint-disable-next-line @typescript-eslint/no-implied-eval --
     a Function hides import() from tsc, which would turn it into require() */
  const load = new Function('name', 'return import(name)') as <Module>(name: string) => Promise<Module>;
  const [vega, vegaLite] = await Promise.all([load<Vega>('vega'), load<VegaLite>('vega-lite')]);
  const values = rows.flatMap((r) => [
    {
      operation: r.operation,
      concurrency: `concurrency ${r.concurrency}`,
      server: 'ours (NestJS)',
      rps: r.rps,
      p99: r.p99_ms,
    },
    {
      operation: r.operation,
      concurrency: `concurrency ${r.concurrency}`,
      server: 'baseline (our SQL, node:http + pg)',
      rps: r.baseline_rps,
      p99: r.baseline_p99_ms,
    },
    {
      operation: r.operation,
      concurrency: `concurrency ${r.concurrency}`,
      server: 'floor (least SQL, node:http + pg)',
      rps: r.floor_rps,
      p99: r.floor_p99_ms,
    },
  ]);
  const panel = (field: 'rps' | 'p99', title: string, log: boolean) => ({
    mark: { type: 'bar', tooltip: true },
    width: 260,
    height: 300,
    encoding: {
      row: { field: 'concurrency', type: 'nominal', title: null, header: { labelFontWeight: 'bold' } },
      y: { field: 'operation', type: 'nominal', title: null, sort: null },
      yOffset: { field: 'server', type: 'nominal', sort: null },
      x: { field, type: 'quantitative', title, scale: log ? { type: 'log' } : {} },
      color: {
        field: 'server',
        type: 'nominal',
        title: null,
        sort: null,
        scale: { range: ['#4c78a8', '#bab0ac', '#54a24b'] },
      },
    },
  });
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: 'Throughput and p99 latency by operation: ours, the same-SQL baseline and the floor',
    data: { values },
    hconcat: [
      panel('rps', 'requests / s (higher is better)', false),
      panel('p99', 'p99 latency, ms, log scale (lower is better)', true),
    ],
    config: { legend: { orient: 'top' }, font: 'sans-serif' },
  };
  const compiled = vegaLite.compile(spec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  const svg: string = await view.toSVG();
  view.finalize();
  return svg;
}
