import type { SequentialTime } from './load-run';
import type { Operation } from './workload';

/** A growth target: the large case's mean time per request at most `limit` times the small case's. */
interface GrowthPair {
  label: string;
  large: RegExp;
  small: RegExp;
  limit: number;
}

const GROWTH_PAIRS: readonly GrowthPair[] = [
  {
    label: 'Reorder among 10,000 siblings vs 10',
    large: /^page reorder \(10,000 siblings\)$/,
    small: /^page reorder \(10 siblings\)$/,
    limit: 1.25,
  },
  {
    label: 'Title PATCH at 100,000 pages vs 100',
    large: /^page title PATCH \(\d+k pages\)$/,
    small: /^page title PATCH \(100 pages\)$/,
    limit: 1.25,
  },
  // Each of the 100 rows is written, indexed twice and checked against two foreign keys: PostgreSQL's own cost.
  {
    label: 'Tag attach with 100 ids vs 1',
    large: /^tag attach \(100 ids\)$/,
    small: /^tag attach \(1 id\)$/,
    limit: 4,
  },
  // Keyset: the last answer of a list starts at its index key as the first does.
  {
    label: 'Tag list, last answer of 100 vs first (5,000 tags)',
    large: /^tag list last 100 \(\d+ tags\)$/,
    small: /^tag list first 100 \(\d+ tags\)$/,
    limit: 1.2,
  },
];

export interface GrowthResult {
  label: string;
  limit: number;
  large: SequentialTime;
  small: SequentialTime;
  ratio: number;
}

/** The pairs whose two operations are both among `ops`, with them. */
export function growthPairsIn(
  ops: readonly Operation[],
): Array<{ pair: GrowthPair; small: Operation; large: Operation }> {
  return GROWTH_PAIRS.flatMap((pair) => {
    const small = ops.find((op) => pair.small.test(op.name));
    const large = ops.find((op) => pair.large.test(op.name));
    return small && large ? [{ pair, small, large }] : [];
  });
}
