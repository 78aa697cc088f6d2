/**
 * The operations held to the floor (publish.ts checks them): ≥ 0.5× its throughput at 16 and 64,
 * p99 ≤ 3× its at 16.
 */
export const FLOOR_TARGETS: readonly RegExp[] = [
  /^template GET$/,
  /^page GET$/,
  /^card GET$/,
  /^template PATCH title$/,
  /^page title PATCH \(/,
  /^tag attach \(1 id\)$/,
  /^tag remove \(1 id\)$/,
  /^public page GET/,
];

/** Held to the floor's p99 only (≤ 3× at 16): the page list (issue 30). */
export const FLOOR_P99_TARGETS: readonly RegExp[] = [/^page list /];

/**
 * Reorders and moves hold a project's lock, so their throughput is one over that hold time: held to a
 * share of the floor's page title PATCH at concurrency 16 (the issue measured them at about 0.025×).
 */
export const STRUCTURAL_TARGETS = {
  operations: [
    /^page reorder \(10 siblings\)$/,
    /^page reorder \(10,000 siblings\)$/,
    /^page move across projects$/,
  ] as readonly RegExp[],
  reference: /^page title PATCH \(\d+k pages\)$/,
  share: 0.1,
};

/** The most SQL round trips a request of ours may take (a GET's token comes from the cache). */
export const ROUND_TRIP_LIMITS: ReadonlyArray<{ operation: RegExp; limit: number }> = [
  { operation: /^(template|page|card) GET$/, limit: 1 },
  { operation: /^public page GET/, limit: 1 },
  { operation: /^(template PATCH title|page title PATCH \(.*\))$/, limit: 3 },
  { operation: /^tag attach \(/, limit: 3 },
  { operation: /^tag remove \(/, limit: 3 },
  { operation: /^tag list /, limit: 1 },
];
