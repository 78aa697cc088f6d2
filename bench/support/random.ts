/**
 * A seeded random number generator (mulberry32): the same seed gives the same sequence, so two runs send
 * the same requests.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A whole number in [0, n). */
export const randomBelow = (random: () => number, n: number): number => Math.floor(random() * n);

/** One item of a non-empty list. */
export const pick = <T>(random: () => number, items: readonly T[]): T => items[randomBelow(random, items.length)];
