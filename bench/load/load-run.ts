import autocannon from 'autocannon';
import { databaseCpuMs } from './database-cpu';
import type { Operation } from './workload';
import type { ServerProcess } from './servers';

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
  /** CPU time of the local postgres processes per request answered (null when PostgreSQL is not on this machine). */
  database_cpu_ms_per_request: number | null;
}

/** autocannon at `connections` for `seconds`, every request drawn from the operation's generator. */
async function cannon(server: ServerProcess, op: Operation, connections: number, length: { duration: number } | { amount: number }): Promise<autocannon.Result> {
  return autocannon({
    url: server.baseUrl,
    connections,
    pipelining: 1,
    ...length,
    timeout: 30,
    headers: { authorization: op.auth, 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (request) => {
          const next = op.next();
          return { ...request, method: next.method, path: next.path, body: next.body };
        },
      },
    ],
  });
}

/**
 * A warm-up run (discarded), then the measured one, with the server's round trips and peak RSS over it.
 * autocannon counts time in whole seconds, so a warm-up shorter than 1 s is given as a number of
 * requests instead: `warmupSeconds` < 1 means 10 requests per connection (at least 100).
 */
export async function measure(server: ServerProcess, op: Operation, connections: number, warmupSeconds: number, seconds: number): Promise<RunFigures> {
  if (warmupSeconds >= 1) await cannon(server, op, connections, { duration: Math.round(warmupSeconds) });
  else if (warmupSeconds > 0) await cannon(server, op, connections, { amount: Math.max(100, 10 * connections) });
  await server.reset();
  const databaseBefore = databaseCpuMs();
  const result = await cannon(server, op, connections, { duration: Math.max(1, Math.round(seconds)) });
  const databaseAfter = databaseCpuMs();
  const stats = await server.stats();
  const ok = result['2xx'];
  const requests = result.requests.total;
  return {
    rps: ok / result.duration,
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    requests,
    failures: requests - ok + result.errors + result.timeouts,
    round_trips: requests > 0 ? stats.queries / requests : 0,
    peak_rss_mb: stats.peakRssMb,
    cpu_ms_per_request: requests > 0 ? stats.cpuMs / requests : 0,
    database_cpu_ms_per_request: requests > 0 && databaseBefore !== null && databaseAfter !== null ? (databaseAfter - databaseBefore) / requests : null,
  };
}
