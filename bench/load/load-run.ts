import autocannon from 'autocannon';
import type { DatabaseCpu } from './database-cpu';
import type { Operation } from './workload';
import type { ServerProcess, ServerStats } from './servers';

export interface RunFigures {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  requests: number;
  /** Answers other than the operation's success status, connection errors and timeouts. */
  failures: number;
  round_trips: number;
  peak_rss_mb: number;
  /** The server process's CPU time (user + system) per request answered: its own cost, free of the machine's noise. */
  cpu_ms_per_request: number;
  /** CPU time of the database cluster's processes per request answered (null when it is not on this machine). */
  database_cpu_ms_per_request: number | null;
}

type Length = { duration: number } | { amount: number };

/** Documented (autocannon's README, "autocannon.aggregateResult") but missing from @types/autocannon. */
const { aggregateResult } = autocannon as unknown as {
  aggregateResult: (results: autocannon.Result[], options: { url: string; connections: number }) => autocannon.Result;
};

/**
 * autocannon at `connections`, every request drawn from the operation's generator. `raw`: the result
 * is left unaggregated (its histograms encoded), for `autocannon.aggregateResult` to merge with others.
 */
async function cannon(
  server: ServerProcess,
  op: Operation,
  connections: number,
  length: Length,
  raw = false,
): Promise<autocannon.Result> {
  return autocannon({
    url: server.baseUrl,
    connections,
    pipelining: 1,
    ...length,
    timeout: 30,
    skipAggregateResult: raw,
    headers: { authorization: op.auth, 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (request) => {
          const next = op.next();
          const headers = { ...request.headers, ...next.headers };
          return { ...request, method: next.method, path: next.path, body: next.body, headers };
        },
      },
    ],
  });
}

/** One side of a measurement in turns: a server and the operation it is given. */
interface Side {
  server: ServerProcess;
  op: Operation;
}

/**
 * Work a turn leaves behind that belongs to it (the webhook deliveries of its writes): awaited after
 * each measured turn, its time and database CPU counted in that turn's.
 */
export type Settle = () => Promise<void>;

/** What one side's measured turns add up to. */
interface Turns {
  raw: autocannon.Result[];
  seconds: number;
  databaseCpuMs: number | null;
}

/**
 * A warm-up run per side (discarded). autocannon counts time in whole seconds, so a warm-up shorter
 * than 1 s is given as a number of requests instead: `warmupSeconds` < 1 means 10 requests per
 * connection (at least 100).
 */
async function warmUp(sides: readonly Side[], connections: number, warmupSeconds: number): Promise<void> {
  for (const { server, op } of sides) {
    if (warmupSeconds >= 1) await cannon(server, op, connections, { duration: Math.round(warmupSeconds) });
    else if (warmupSeconds > 0) await cannon(server, op, connections, { amount: Math.max(100, 10 * connections) });
  }
}

/**
 * N sides, interleaved: `slices` measured runs each of seconds / slices (whole seconds, at least 1),
 * taking turns, the order rotating by one each slice (with two sides: alternating who goes first), so
 * that a machine that slows down or speeds up during the measurement moves every side alike and no
 * side always runs on what the one before it just warmed.
 */
async function inTurns(
  sides: readonly Side[],
  connections: number,
  seconds: number,
  slices: number,
  databaseCpu: DatabaseCpu | null,
  settle?: Settle,
): Promise<Turns[]> {
  const sliceSeconds = Math.max(1, Math.round(seconds / slices));
  const turns: Turns[] = sides.map(() => ({ raw: [], seconds: 0, databaseCpuMs: databaseCpu ? 0 : null }));
  for (let slice = 0; slice < slices; slice++) {
    for (let k = 0; k < sides.length; k++) {
      const index = (slice + k) % sides.length;
      const { server, op } = sides[index];
      const own = turns[index];
      const databaseBefore = databaseCpu?.ms() ?? null;
      const result = await cannon(server, op, connections, { duration: sliceSeconds }, true);
      const settleStarted = performance.now();
      await settle?.();
      const databaseAfter = databaseCpu?.ms() ?? null;
      own.raw.push(result);
      own.seconds += result.duration + (settle ? (performance.now() - settleStarted) / 1000 : 0);
      own.databaseCpuMs =
        own.databaseCpuMs !== null && databaseBefore !== null && databaseAfter !== null
          ? own.databaseCpuMs + databaseAfter - databaseBefore
          : null;
    }
  }
  return turns;
}

/**
 * One operation on every server: a warm-up each, then in turns (see inTurns; `servers` in the order of
 * the first slice), each server's turns merged (autocannon.aggregateResult: one latency histogram),
 * with its round trips, CPU and peak RSS over all of them, each turn followed by `settle`. The figures
 * are in the order of `servers`.
 */
export async function measureInTurns(
  servers: readonly ServerProcess[],
  op: Operation,
  connections: number,
  warmupSeconds: number,
  seconds: number,
  slices: number,
  databaseCpu: DatabaseCpu | null,
  settle?: Settle,
): Promise<RunFigures[]> {
  const sides = servers.map((server) => ({ server, op }));
  await warmUp(sides, connections, warmupSeconds);
  await settle?.();
  for (const server of servers) await server.reset();
  const turns = await inTurns(sides, connections, seconds, slices, databaseCpu, settle);
  const figures: RunFigures[] = [];
  for (const [index, server] of servers.entries())
    figures.push(toFigures(server, turns[index], await server.stats(), connections));
  return figures;
}

/** Mean time per request (1 s / req/s) and p50 of one side, at concurrency 1. */
export interface SequentialTime {
  mean_ms: number;
  p50_ms: number;
}

/**
 * Two operations on one server, one request at a time, a warm-up each then in turns (see inTurns): the growth targets
 * compare their mean times, which from two runs a minute apart would compare two moments of the machine.
 */
export async function timePair(
  server: ServerProcess,
  ops: readonly [Operation, Operation],
  warmupSeconds: number,
  seconds: number,
  slices: number,
): Promise<[SequentialTime, SequentialTime]> {
  const sides = ops.map((op) => ({ server, op }));
  await warmUp(sides, 1, warmupSeconds);
  const turns = await inTurns(sides, 1, seconds, slices, null);
  return turns.map((own) => {
    const merged = aggregateResult(own.raw, { url: server.baseUrl, connections: 1 });
    return { mean_ms: (1000 * own.seconds) / merged['2xx'], p50_ms: merged.latency.p50 };
  }) as [SequentialTime, SequentialTime];
}

function toFigures(server: ServerProcess, own: Turns, stats: ServerStats, connections: number): RunFigures {
  const merged = aggregateResult(own.raw, { url: server.baseUrl, connections });
  const ok = merged['2xx'];
  const requests = merged.requests.total;
  // Per request the server answered: work of a request still in flight when a turn ended is in every total.
  const perAnswered = (total: number) => (stats.answered > 0 ? total / stats.answered : 0);
  return {
    rps: ok / own.seconds,
    p50_ms: merged.latency.p50,
    p99_ms: merged.latency.p99,
    requests,
    failures: requests - ok + merged.errors + merged.timeouts,
    round_trips: perAnswered(stats.queries),
    peak_rss_mb: stats.peakRssMb,
    cpu_ms_per_request: perAnswered(stats.cpuMs),
    database_cpu_ms_per_request: own.databaseCpuMs === null ? null : perAnswered(own.databaseCpuMs),
  };
}
