/** Fault specs measure latencies and recovery times; with FAULTS_VERBOSE=1 they print them. */
export function report(scenario: string, figures: Record<string, unknown>): void {
  if (process.env.FAULTS_VERBOSE) process.stdout.write(`\n[faults] ${scenario}: ${JSON.stringify(figures, null, 2)}\n`);
}

export function percentile(values: number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
