import { pick, randomBelow } from '../support/random';

/** One reorder: PATCH {position} of `page`. */
export interface Reorder {
  page: string;
  position: number;
}

/**
 * Reorders among `children` (in their order) that always move: the order the reorders make is followed
 * here, so the index drawn is never the page's current one. Among 10 siblings a plain random index
 * would be the current one 1 request in 10, a no-op that skips the UPDATE and flatters the small side.
 * Exact when the reorders are applied in turn; at higher concurrency nearly so.
 */
export function followedReorders(random: () => number, children: readonly string[]): () => Reorder {
  const order = [...children];
  return () => {
    const page = pick(random, order);
    const current = order.indexOf(page);
    const drawn = randomBelow(random, order.length - 1);
    const position = drawn >= current ? drawn + 1 : drawn;
    order.splice(current, 1);
    order.splice(position, 0, page);
    return { page, position };
  };
}
