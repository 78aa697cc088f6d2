import autocannon from 'autocannon';
import type { ServerProcess } from './servers';
import type { Operation } from './workload';

export interface SoakFigures {
  concurrency: number;
  seconds: number;
  requests: number;
  failures: number;
  /** The lowest RSS read in the first minute (a reading every 2 s): what stays after V8's collections. */
  rss_after_first_minute_mb: number;
  /** The lowest RSS read in the last minute. */
  rss_at_end_mb: number;
  /** rss_at_end / rss_after_first_minute; the target is at most 1.10. */
  growth: number;
  /** V8's heap in use, the lowest of the same two minutes: what a leak of objects would grow. */
  heap_used_after_first_minute_mb: number;
  heap_used_at_end_mb: number;
  samples: Array<{ second: number; rss_mb: number; heap_used_mb: number }>;
}

const SAMPLE_EVERY_S = 2;
const WINDOW_S = 60;

/**
 * `seconds` of every operation in turn at `concurrency` against one server; its memory in the first
 * minute and in the last. RSS is a sawtooth: V8 grows its heap between collections and gives it back
 * after, 150 to 230 MB within half a minute at concurrency 64. One reading, or the median of a few,
 * lands anywhere on it; the lowest reading of a minute is what stays after the collections, and a
 * leak is what raises it.
 */
export async function soak(
  server: ServerProcess,
  ops: Operation[],
  concurrency: number,
  seconds: number,
  log: (line: string) => void,
): Promise<SoakFigures> {
  log(`soak: ${seconds} s at concurrency ${concurrency} against the ${server.kind}, every operation in turn`);
  let turn = 0;
  const samples: SoakFigures['samples'] = [];
  const started = performance.now();
  const sampler = setInterval(() => {
    const second = Math.round((performance.now() - started) / 1000);
    void server
      .stats()
      .then((s) => samples.push({ second, rss_mb: round1(s.rssMb), heap_used_mb: round1(s.heapUsedMb) }));
  }, SAMPLE_EVERY_S * 1000);
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
          return {
            ...request,
            method: next.method,
            path: next.path,
            body: next.body,
            headers: { authorization: op.auth, 'content-type': 'application/json' },
          };
        },
      },
    ],
  });
  clearInterval(sampler);
  const lowest = (from: number, to: number, key: 'rss_mb' | 'heap_used_mb') =>
    Math.min(...samples.filter((s) => s.second > from && s.second <= to).map((s) => s[key]));
  const firstMinute = lowest(0, WINDOW_S, 'rss_mb');
  const end = lowest(seconds - WINDOW_S, seconds, 'rss_mb');
  const figures: SoakFigures = {
    concurrency,
    seconds,
    requests: result.requests.total,
    failures: result.requests.total - result['2xx'] + result.errors + result.timeouts,
    rss_after_first_minute_mb: firstMinute,
    rss_at_end_mb: end,
    growth: end / firstMinute,
    heap_used_after_first_minute_mb: lowest(0, WINDOW_S, 'heap_used_mb'),
    heap_used_at_end_mb: lowest(seconds - WINDOW_S, seconds, 'heap_used_mb'),
    samples,
  };
  log(
    `soak: RSS ${firstMinute.toFixed(0)} MB after 1 min, ${end.toFixed(0)} MB at the end ` +
      `(${figures.growth.toFixed(3)}x; the lowest reading of each minute), ` +
      `heap used ${figures.heap_used_after_first_minute_mb.toFixed(0)} ` +
      `vs ${figures.heap_used_at_end_mb.toFixed(0)} MB, ` +
      `${figures.requests} requests, ${figures.failures} failures`,
  );
  return figures;
}

const round1 = (x: number) => Math.round(x * 10) / 10;
