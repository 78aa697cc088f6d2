/** Summary of one variant's latencies, in milliseconds. */
export interface LatencySummary {
  n: number;
  median: number;
  p95: number;
  mean: number;
  min: number;
  max: number;
}

/** The q-quantile (0..1) of sorted values, linearly interpolated between closest ranks. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
}

export function summarize(samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    median: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    mean: sorted.reduce((sum, x) => sum + x, 0) / (sorted.length || 1),
    min: sorted[0] ?? NaN,
    max: sorted[sorted.length - 1] ?? NaN,
  };
}

/** One request, timed from before it is sent until its body has been read; milliseconds. */
export async function timed(run: () => Promise<void>): Promise<number> {
  const start = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export interface Variant {
  name: string;
  /** One request; `i` counts this variant's calls from 0 (warm-up included), so each can use fresh data. */
  run(i: number): Promise<void>;
}

/**
 * Runs the variants in rounds, one request of each per round, sequentially (concurrency 1); the order
 * inside a round rotates so no variant always follows the same one. `warmup` rounds are run and
 * discarded, then `n` rounds are measured. Returns each variant's measured latencies (ms).
 */
export async function runInterleaved(
  variants: readonly Variant[],
  options: { warmup: number; n: number },
): Promise<Record<string, number[]>> {
  const samples: Record<string, number[]> = Object.fromEntries(variants.map((v) => [v.name, []]));
  const calls = variants.map(() => 0);
  for (let round = 0; round < options.warmup + options.n; round++) {
    for (let k = 0; k < variants.length; k++) {
      const index = (round + k) % variants.length;
      const ms = await timed(() => variants[index].run(calls[index]++));
      if (round >= options.warmup) samples[variants[index].name].push(ms);
    }
  }
  return samples;
}
