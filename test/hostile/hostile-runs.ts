import fc from 'fast-check';

/** HOSTILE_RUNS scales every property's run count (10 for the nightly run); time limits and timeouts follow it. */
const RUN_SCALE = Number(process.env.HOSTILE_RUNS ?? '1');
/** The mean time a generated request may take before its property stops where it is, on a loaded machine. */
const MS_PER_RUN = 200;
/** What a test needs past its properties' time limits: each one's last run, and the test's own checks after them. */
const TEST_MARGIN_MS = 60_000;

const scaled = (numRuns: number) => Math.round(numRuns * RUN_SCALE);

/** How long a property of `numRuns` runs may go on before fast-check stops it (a pass, if nothing failed by then). */
function hostileTimeLimit(numRuns: number): number {
  return scaled(numRuns) * MS_PER_RUN;
}

/**
 * fast-check's parameters for every hostile property. A random seed each run (more inputs over time); on failure
 * fast-check prints the seed, the path and the shrunk counterexample, and HOSTILE_SEED=<seed> HOSTILE_PATH=<path>
 * replays it (run that one spec with -t). The run stops at its time limit, shrinking included, so that a slow
 * machine runs fewer requests instead of failing the test on its timeout.
 */
function hostileParams<T>(numRuns: number): fc.Parameters<T> {
  const seed = process.env.HOSTILE_SEED === undefined ? undefined : Number(process.env.HOSTILE_SEED);
  return {
    numRuns: scaled(numRuns),
    seed,
    path: process.env.HOSTILE_PATH,
    // The plugin acts on runs, whatever their values: its type says unknown.
    plugins: [fc.interruptAfterTimeLimit(hostileTimeLimit(numRuns), { failOnInterrupt: false }) as fc.Plugin<T>],
  };
}

/** The jest timeout of a test whose properties total `numRuns` runs: their time limits, and the margin to end. */
export function hostileTimeout(numRuns: number): number {
  return hostileTimeLimit(numRuns) + TEST_MARGIN_MS;
}

/**
 * Runs a spec file's properties so that nothing one started outlives its test. fast-check stops waiting for a run at
 * its time limit but cannot stop it, and jest moves on from a timed-out test while the test goes on: so a property
 * resolves only once its last run has ended, `end()` waits for what is still running, and nothing starts after it.
 */
export class HostileRuns {
  /** The margin a test has past its time limits, which `end()` may need after a timeout. */
  static readonly endTimeout = TEST_MARGIN_MS;
  private readonly pending = new Set<Promise<unknown>>();
  private ended = false;

  /** Call before each test. */
  begin(): void {
    this.ended = false;
  }

  /** fc.assert of `predicate` over `values`, `numRuns` times at most (hostileParams). */
  async assert<T>(values: fc.Arbitrary<T>, predicate: (value: T) => Promise<unknown>, numRuns: number): Promise<void> {
    this.refuseAfterEnd();
    const running = new Set<Promise<unknown>>();
    let started = 0;
    const run = async (value: T): Promise<void> => {
      this.refuseAfterEnd();
      started++;
      const one = predicate(value);
      running.add(one);
      try {
        await one;
      } finally {
        running.delete(one);
      }
    };
    const property = fc.assert(fc.asyncProperty(values, run), hostileParams(numRuns));
    const settled = property.finally(() => Promise.allSettled([...running]));
    this.pending.add(settled);
    try {
      await settled;
    } finally {
      this.pending.delete(settled);
      if (process.env.HOSTILE_VERBOSE === '1')
        console.log(`${expect.getState().currentTestName}: ${started} runs of ${scaled(numRuns)} asked`);
    }
  }

  /** Call after each test: what its properties started has ended when this resolves. */
  async end(): Promise<void> {
    this.ended = true;
    await Promise.allSettled([...this.pending]);
  }

  private refuseAfterEnd(): void {
    if (this.ended) throw new Error('Its test has ended: a hostile property starts nothing after that');
  }
}
