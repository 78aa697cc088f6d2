import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import type { SqlSession } from '../database/statement';
import { NeighbourKeys, SET_SORT_KEYS, SIBLING_IDS } from './page-queries';
import { Step, step } from './page-plan';

/** Keys grow when pages keep landing in the same gap; past this length the siblings get fresh, short keys. */
export const LONGEST_KEY = 48;

/** A place in the tree: the children of `parentId` (null: the project root) in `projectId`. */
export interface Place {
  projectId: string;
  parentId: string | null;
}

/** Where a page lands among its siblings: its sort key, its position, and what must run first. */
export interface Slot {
  key: string;
  position: number;
  /** Statements that give the siblings fresh keys first (the rare rebalancing), else none. */
  steps: Step[];
}

/** How the sibling statements spell a place's parent: -1 stands for the root. */
export const parentKeyOf = (place: Place) => place.parentId ?? '-1';

/**
 * The index the neighbour keys are read at: past the end means last; a huge index (1e20 is valid JSON)
 * must not overflow bigint.
 */
export const indexOf = (position: number | null | undefined) =>
  Math.min(position ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);

/**
 * The sort key that puts the page at `position` (undefined or past the end: last) among the siblings
 * whose keys around that index are `keys`, the others keeping their order; null when `currentKey`
 * (the page's key, if it is already among these siblings) is at that index already. Keys that grew
 * too long make the siblings get fresh keys, once: that reads their ids in order.
 */
export async function slotAt(
  tx: SqlSession,
  teamId: string,
  pageId: string,
  place: Place,
  keys: NeighbourKeys,
  position: number | undefined,
  currentKey: string | null,
): Promise<Slot | null> {
  const index = indexOf(position);
  const window = keys.window ?? [];
  // From index 0 the window is [at, next]; from any other index it is [before, at].
  const [before, at]: Array<string | null> =
    index === 0 ? [null, window[0] ?? null] : [window[0] ?? null, window[1] ?? null];
  const lower = at === null ? keys.last : before;
  if (currentKey !== null && (lower === null || lower < currentKey) && (at === null || currentKey < at)) return null;
  const key = generateKeyBetween(lower, at);
  const rank = at === null ? (keys.total ?? 0) : index;
  if (key.length <= LONGEST_KEY) return { key, position: rank, steps: [] };
  return rebalance(tx, teamId, pageId, place, rank);
}

/** Evenly spread keys for every sibling, leaving `rank` for the page. */
async function rebalance(tx: SqlSession, teamId: string, pageId: string, place: Place, rank: number): Promise<Slot> {
  const ids = (
    await tx.query(SIBLING_IDS, { teamId, pageId, projectId: place.projectId, parentKey: parentKeyOf(place) })
  ).map((row) => row.id);
  const keys = generateNKeysBetween(null, null, ids.length + 1);
  const [key] = keys.splice(rank, 1);
  // Cleared first (the page too): the unique sibling index must not see two equal keys halfway through.
  const everyone = [...ids, pageId];
  return {
    key,
    position: rank,
    steps: [
      step(SET_SORT_KEYS, { teamId, ids: everyone, sortKeys: everyone.map(() => null) }),
      step(SET_SORT_KEYS, { teamId, ids, sortKeys: keys }),
    ],
  };
}
