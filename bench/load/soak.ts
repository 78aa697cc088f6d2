import autocannon from 'autocannon';
import type { ServerProcess } from './servers';
import type { Operation } from './workload';

export interface SoakFigures {
  concurrency: number;
  seconds: number;
  requests: number;
  failures: number;
  rss_after_first_minute_mb: number;
  rss_at_end_mb: number;
  /** rss_at_end / rss_after_first_minute; the target is at most 1.10. */
  growth: number;
}

/** `seconds` of every operation in turn at `concurrency` against one server; its RSS after the first minute and at the end. */
export async function soak(server: ServerProcess, ops: Operation[], concurrency: number, seconds: number, log: (line: string) => void): Promise<SoakFigures> {
  log(`soak: ${seconds} s at concurrency ${concurrency} against the ${server.kind}, every operation in turn`);
  let turn = 0;
  let firstMinute = NaN;
  const timer = setTimeout(() => void server.stats().then((s) => (firstMinute = s.rssMb)), 60_000);
  const result = await autocannon({
    url: server.baseUrl,
    connections: concurrency,
    duration: seconds,
    timeout: 30,
    requests: [
      {
        setupRequest: (request) => {
          const op = ops[turn++ % ops.length];
          const next = op.next();
          return { ...request, method: next.method, path: next.path, body: next.body, headers: { authorization: op.auth, 'content-type': 'application/json' } };
        },
      },
    ],
  });
  clearTimeout(timer);
  const end = (await server.stats()).rssMb;
  const figures = {
    concurrency,
    seconds,
    requests: result.requests.total,
    failures: result.requests.total - result['2xx'] + result.errors + result.timeouts,
    rss_after_first_minute_mb: firstMinute,
    rss_at_end_mb: end,
    growth: end / firstMinute,
  };
  log(`soak: RSS ${firstMinute.toFixed(0)} MB after 1 min, ${end.toFixed(0)} MB at the end (${figures.growth.toFixed(3)}x), ${figures.requests} requests, ${figures.failures} failures`);
  return figures;
}
