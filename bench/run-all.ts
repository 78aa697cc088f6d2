/**
 * Every operation under load against the service, the same-SQL baseline and the floor.
 *
 *   npm run bench                  100,000 pages; 5 s warm-up + 10 s per operation, concurrency and server
 *   npm run bench -- --quick       20,000 pages; 10 requests per connection (at least 100) + 2 s each, about 5 minutes
 *   npm run bench -- --soak        also 5 minutes at concurrency 64 against the app: its lowest RSS in the first
 *                                  minute vs the last
 *   options: --duration S --warmup S (whole seconds; a warm-up under 1 s is a count of requests)
 *            --concurrency 1,16,64 --only "page GET,card GET"
 *            --slices N (the measured seconds of each server, in N turns; default duration / 2)
 *            --profile DIR (every server runs under `node --cpu-prof`; DIR/app.cpuprofile,
 *            DIR/baseline.cpuprofile, DIR/floor.cpuprofile)
 *            --tracing (the app traced as OTEL_EXPORTER_OTLP_ENDPOINT traces it, exporting to a stand-in
 *            collector on loopback that keeps nothing: what tracing costs)
 *            --webhook (a webhook subscribed to every event of the bench workspaces, delivered by the app to a
 *            sink on loopback: what the writes cost with one subscription; each turn ends when its events
 *            are delivered, and its time counts until then)
 *
 * Seeds through ImportService (bench/load/workload.ts), starts three servers each in its own process on
 * the same database: the app as users run it (logging at info, the rate limiter on), the baseline
 * (bench/baseline/server.ts: the service's own SQL without the framework) and the floor
 * (bench/floor/server.ts: the least SQL a correct answer needs, every statement prepared). Drives each
 * operation with autocannon at each concurrency against the three, in turns of 2 s
 * (bench/load/load-run.ts), prints the targets and writes bench/results/latest.json, BENCHMARKS.md and
 * bench/chart.svg (bench/load/publish.ts). With --only or --tracing, the run is partial: it writes
 * bench/results/partial.json and prints its targets, the published files untouched.
 */
import { cpus, totalmem } from 'node:os';
import { loadConfig } from '../src/config/app-config';
import { startCollectorStandIn } from './load/collector-stand-in';
import { openBenchDatabase } from './support/bench-database';
import { startBenchApp } from './support/bench-app';
import { postgresVersion } from './support/report';
import { databaseCpu } from './load/database-cpu';
import { GrowthResult, growthPairsIn } from './load/growth';
import { measureInTurns, RunFigures, timePair } from './load/load-run';
import { publish, ResultRow } from './load/publish';
import { startServer, ServerProcess } from './load/servers';
import { soak, SoakFigures } from './load/soak';
import { deliveriesSettled, subscribeToSink } from './load/webhook-sink';
import { operations, seed } from './load/workload';

interface Options {
  quick: boolean;
  soak: boolean;
  duration: number;
  warmup: number;
  concurrency: number[];
  only: string[] | null;
  /** Measured slices per server, taken in turns (their seconds add up to duration). */
  slices: number;
  profile?: string;
  /** Subscribe a webhook to every event of the bench workspaces (webhook-sink.ts). */
  webhook: boolean;
  /** Trace the app, exporting to a stand-in collector (load/collector-stand-in.ts). */
  tracing: boolean;
}

function parseOptions(argv: string[]): Options {
  const options: Options = {
    quick: false,
    soak: false,
    duration: NaN,
    warmup: NaN,
    concurrency: [1, 16, 64],
    only: null,
    slices: NaN,
    webhook: false,
    tracing: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s);
    const value = () => inline ?? argv[++i];
    if (flag === '--quick') options.quick = true;
    else if (flag === '--soak') options.soak = true;
    else if (flag === '--duration') options.duration = Number(value());
    else if (flag === '--warmup') options.warmup = Number(value());
    else if (flag === '--concurrency') options.concurrency = value().split(',').map(Number);
    // A comma before a digit is part of a name ("page reorder (10,000 siblings)").
    else if (flag === '--only')
      options.only = value()
        .split(/,(?!\d)/)
        .map((s) => s.trim());
    else if (flag === '--slices') options.slices = Number(value());
    else if (flag === '--profile') options.profile = value();
    else if (flag === '--webhook') options.webhook = true;
    else if (flag === '--tracing') options.tracing = true;
    else
      throw new Error(
        `Unknown argument ${argv[i]}; known: --quick, --soak, --duration S, --warmup S, --concurrency 1,16,64, ` +
          '--only "op,op", --slices N, --profile DIR, --webhook, --tracing',
      );
  }
  if (Number.isNaN(options.duration)) options.duration = options.quick ? 2 : 10;
  if (Number.isNaN(options.warmup)) options.warmup = options.quick ? 0.3 : 5;
  // Slices of 2 s: short enough that both servers see the same machine, long enough to reach a steady state.
  if (Number.isNaN(options.slices)) options.slices = Math.max(1, Math.round(options.duration / 2));
  return options;
}

/** How many times the cells' measured seconds (and turns) each growth pair is timed for. */
const GROWTH_LENGTH = 3;

const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const started = performance.now();
  const database = await openBenchDatabase();
  // The seeding app and the three servers all use this database; the embedded one is deleted at the end.
  process.env.DATABASE_URL = database.url;
  const servers: ServerProcess[] = [];
  const stopAll = async () => {
    for (const server of servers) await server.stop().catch(() => undefined);
    await database.close();
  };
  process.once('SIGINT', () => void stopAll().finally(() => process.exit(130)));
  // With WEBHOOK_DELIVERY=false nothing is delivered: the run measures what the outbox adds to the writes.
  const delivered = options.webhook && loadConfig().webhooks.deliver ? deliveriesSettled(database.url) : null;
  try {
    const clusterCpu = await databaseCpu(database.url);
    log(
      clusterCpu
        ? `database CPU: postmaster ${clusterCpu.postmaster} and its children, from /proc`
        : 'database CPU: not measured, PostgreSQL is not on this machine',
    );
    // A seed imports thousands of rows per statement: on a busy machine, more than a request's time limit.
    const seeder = await startBenchApp({ DB_STATEMENT_TIMEOUT_MS: '600000' });
    const workspaces = await seed(seeder, options.quick, log);
    if (options.webhook) {
      const sink = await subscribeToSink(seeder, [workspaces.a.teamId, workspaces.b.teamId]);
      sink.server.unref();
      // The floor delivers its events too (bench/floor/announcer.ts), when the app does.
      if (delivered) process.env.BENCH_WEBHOOKS = 'true';
      log(`webhooks of both workspaces deliver to ${sink.url}`);
    }
    const postgres = await postgresVersion(seeder.db);
    await seeder.app.close();

    const collector = options.tracing ? await startCollectorStandIn() : null;
    collector?.server.unref();
    const profileDir = options.profile;
    const app = await startServer('app', database.url, { profileDir, tracingEndpoint: collector?.url });
    servers.push(app);
    const baseline = await startServer('baseline', database.url, { profileDir });
    servers.push(baseline);
    const floor = await startServer('floor', database.url, { profileDir });
    servers.push(floor);
    log(
      `app ${app.baseUrl}, baseline ${baseline.baseUrl}, floor ${floor.baseUrl}; ` +
        `${options.warmup} s warm-up + ${options.duration} s per run in ${options.slices} turns`,
    );

    const ops = operations(workspaces, options.quick).filter((op) => !options.only || options.only.includes(op.name));
    const rows: ResultRow[] = [];
    const details: Array<{
      operation: string;
      concurrency: number;
      app: RunFigures;
      baseline: RunFigures;
      floor: RunFigures;
    }> = [];
    const three = [app, baseline, floor];
    let turn = 0;
    for (const op of ops) {
      for (const concurrency of options.concurrency) {
        // Rotate who goes first, so no server always runs on the tables another just warmed.
        const order = three.map((_, k) => three[(turn + k) % three.length]);
        turn++;
        const figures = await measureInTurns(
          order,
          op,
          concurrency,
          options.warmup,
          options.duration,
          options.slices,
          clusterCpu,
          delivered?.settle,
        );
        const [ours, same, least] = three.map((server) => figures[order.indexOf(server)]);
        rows.push({
          operation: op.name,
          concurrency,
          rps: round(ours.rps, 1),
          p50_ms: round(ours.p50_ms, 2),
          p99_ms: round(ours.p99_ms, 2),
          round_trips: round(ours.round_trips, 2),
          rss_mb: round(ours.peak_rss_mb, 1),
          baseline_rps: round(same.rps, 1),
          baseline_p99_ms: round(same.p99_ms, 2),
          ratio: round(ours.rps / same.rps, 3),
          floor_rps: round(least.rps, 1),
          floor_p99_ms: round(least.p99_ms, 2),
          floor_ratio: round(ours.rps / least.rps, 3),
        });
        details.push({ operation: op.name, concurrency, app: ours, baseline: same, floor: least });
        const failed =
          ours.failures + same.failures + least.failures > 0
            ? `  FAILURES app ${ours.failures}, baseline ${same.failures}, floor ${least.failures}`
            : '';
        const each = (figure: (f: RunFigures) => number | null, digits: number) =>
          [ours, same, least].map((f) => figure(f)?.toFixed(digits) ?? '-').join(' / ');
        log(
          `${op.name.padEnd(32)} c=${String(concurrency).padStart(2)}  ` +
            `app / baseline / floor: rps ${each((f) => f.rps, 0)}` +
            ` (${(ours.rps / same.rps).toFixed(2)}x baseline, ${(ours.rps / least.rps).toFixed(2)}x floor)` +
            `  p99 ${each((f) => f.p99_ms, 1)} ms` +
            `  round trips ${each((f) => f.round_trips, 1)}  cpu/req ${each((f) => f.cpu_ms_per_request, 2)} ms` +
            `  db cpu/req ${each((f) => f.database_cpu_ms_per_request, 2)} ms` +
            `  rss ${ours.peak_rss_mb.toFixed(0)} MB${failed}`,
        );
      }
      if (op.exhausted?.()) log(`${op.name}: ran past its fresh (card, tag) pairs; later requests re-attached`);
    }

    // The growth targets compare two operations: timed in turns, one request at a time, on the app. Three
    // times the cells' seconds and turns: a turn now and then runs a quarter slower than its neighbours
    // (autovacuum, a checkpoint, the other tenants of this machine), and a ratio near its limit should
    // not hang on where those turns fell.
    const growth: GrowthResult[] = [];
    for (const { pair, small, large } of growthPairsIn(ops)) {
      const [smallTime, largeTime] = await timePair(
        app,
        [small, large],
        options.warmup,
        GROWTH_LENGTH * options.duration,
        GROWTH_LENGTH * options.slices,
      );
      const ratio = largeTime.mean_ms / smallTime.mean_ms;
      growth.push({ label: pair.label, limit: pair.limit, small: smallTime, large: largeTime, ratio });
      log(
        `${pair.label}: ${largeTime.mean_ms.toFixed(2)} vs ${smallTime.mean_ms.toFixed(2)} ms per request ` +
          `at concurrency 1, in turns = ${ratio.toFixed(2)}x (target <= ${pair.limit}x)`,
      );
    }

    let soakFigures: SoakFigures | undefined;
    if (options.soak) soakFigures = await soak(app, ops, 64, 300, log);

    const machine = {
      cores: cpus().length,
      cpu: cpus()[0]?.model ?? 'unknown',
      memory_gb: round(totalmem() / 1024 ** 3, 1),
      postgres,
      database: database.kind,
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      date: new Date().toISOString(),
      mode: options.quick ? 'quick' : 'full',
      pages: workspaces.b.pages.length,
      warmup_s: options.warmup,
      duration_s: options.duration,
      slices: options.slices,
    };
    if (collector) {
      const { exports, bytes } = collector.received();
      log(`tracing: the stand-in collector received ${exports} exports (${(bytes / 1e6).toFixed(1)} MB)`);
    }
    const files = await publish(
      { machine, results: rows },
      {
        details,
        growth,
        soak: soakFigures,
        operations: ops.map((o) => ({ name: o.name, description: o.description })),
      },
      log,
      options.only !== null || options.tracing, // a traced run never replaces the published figures
    );
    log(`wrote ${files.join(', ')} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    if (details.some((d) => d.app.failures + d.baseline.failures + d.floor.failures > 0)) {
      log(`some requests failed (see ${files.find((f) => f.endsWith('-details.json'))})`);
      process.exitCode = 1;
    }
  } finally {
    await delivered?.close();
    await stopAll();
  }
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
