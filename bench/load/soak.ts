import autocannon from 'autocannon';
import type { ServerProcess } from './servers';
import type { Operation } from './workload';
import { quantile } from '../support/latency';

export interface SoakFigures {
  concurrency: number;
  seconds: number;
  requests: number;
  failures: number;
  /** Median RSS over the 30 s that end at minute 1 (one sample every 5 s). */
  rss_after_first_minute_mb: number;
  /** Median RSS over the last 30 s. */
  rss_at_end_mb: number;
  /** rss_at_end / rss_after_first_minute; the target is at most 1.10. */
  growth: number;
  /** V8's heap in use, the same two windows: a leak of objects grows it, a bigger heap between collections does not for long. */
  heap_used_after_first_minute_mb: number;
  heap_used_at_end_mb: number;
  samples: Array<{ second: number; rss_mb: number; heap_used_mb: number }>;
}

const SAMPLE_EVERY_S = 5;
const WINDOW_S = 30;

/**
 * `seconds` of every operation in turn at `concurrency` against one server; its memory after the first
 * minute and at the end. One RSS reading is a moment of a sawtooth (V8 grows and shrinks its heap
 * around collections: 140 to 240 MB from one cell to the next at concurrency 64), so each end is the
 * median of the readings of a 30 s window.
 */
export async function soak(server: ServerProcess, ops: Operation[], concurrency: number, seconds: number, log: (line: string) => void): Promise<SoakFigures> {
  log(`soak: ${seconds} s at concurrency ${concurrency} against the ${server.kind}, every operation in turn`);
  let turn = 0;
  const samples: SoakFigures['samples'] = [];
  const started = performance.now();
  const sampler = setInterval(() => {
    const second = Math.round((performance.now() - started) / 1000);
    void server.stats().then((s) => samples.push({ second, rss_mb: round1(s.rssMb), heap_used_mb: round1(s.heapUsedMb) }));
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
          return { ...request, method: next.method, path: next.path, body: next.body, headers: { authorization: op.auth, 'content-type': 'application/json' } };
        },
      },
    ],
  });
  clearInterval(sampler);
  const window = (from: number, to: number, key: 'rss_mb' | 'heap_used_mb') =>
    median(samples.filter((s) => s.second > from && s.second <= to).map((s) => s[key]));
  const firstMinute = window(60 - WINDOW_S, 60, 'rss_mb');
  const end = window(seconds - WINDOW_S, seconds, 'rss_mb');
  const figures: SoakFigures = {
    concurrency,
    seconds,
    requests: result.requests.total,
    failures: result.requests.total - result['2xx'] + result.errors + result.timeouts,
    rss_after_first_minute_mb: firstMinute,
    rss_at_end_mb: end,
    growth: end / firstMinute,
    heap_used_after_first_minute_mb: window(60 - WINDOW_S, 60, 'heap_used_mb'),
    heap_used_at_end_mb: window(seconds - WINDOW_S, seconds, 'heap_used_mb'),
    samples,
  };
  log(
    `soak: RSS ${firstMinute.toFixed(0)} MB after 1 min, ${end.toFixed(0)} MB at the end (${figures.growth.toFixed(3)}x; medians of ${WINDOW_S} s), ` +
      `heap used ${figures.heap_used_after_first_minute_mb.toFixed(0)} vs ${figures.heap_used_at_end_mb.toFixed(0)} MB, ${figures.requests} requests, ${figures.failures} failures`,
  );
  return figures;
}

const median = (values: number[]) => quantile([...values].sort((a, b) => a - b), 0.5);
const round1 = (x: number) => Math.round(x * 10) / 10;
