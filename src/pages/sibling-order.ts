import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import type { SqlSession } from '../database/sql';
import { NEIGHBOUR_KEYS, SET_SORT_KEYS, SIBLING_IDS } from './page-queries';

/** Keys grow when pages keep landing in the same gap; past this length the siblings get fresh, short keys. */
const LONGEST_KEY = 48;

/** Where a page lands among its siblings: its sort key and, when known without counting, its position. */
export interface Slot {
  key: string;
  position: number | null;
}

/** A place in the tree: the children of `parentId` (null: the project root) in `projectId`. */
export interface Place {
  projectId: string;
  parentId: string | null;
}

/**
 * The sort key that puts page `pageId` at `index` (null or past the end: last) among the active
 * siblings of `place`, the others keeping their order; null when `currentKey` (the page's key, if it
 * is already among these siblings) is at that index already. Costs O(√siblings) (the index is found
 * through page_sibling_blocks), and one write per move; only when keys have grown too long are the siblings rewritten, once.
 * Callers hold the project's lock, so the siblings cannot change meanwhile.
 */
export async function sortKeyAt(
  tx: SqlSession,
  teamId: string,
  place: Place,
  pageId: string,
  index: number | null,
  currentKey: string | null,
): Promise<Slot | null> {
  // Past the end means last; a huge index (1e20 is a valid JSON integer) must not overflow bigint.
  const offset = Math.min(index ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  const [{ window, last }] = await tx.query(NEIGHBOUR_KEYS, [teamId, place.projectId, place.parentId ?? '-1', pageId, offset]);
  // From index 0 the window is [at, next]; from any other index it is [before, at].
  const [before, at]: Array<string | null> = offset === 0 ? [null, window[0] ?? null] : [window[0] ?? null, window[1] ?? null];
  const lower = at === null ? last : before;
  if (currentKey !== null && (lower === null || lower < currentKey) && (at === null || currentKey < at)) return null;
  const key = generateKeyBetween(lower, at);
  // With a sibling at the index, the page's rank is the index; past the end it would take a count.
  const position = at === null ? null : offset;
  return { key: key.length <= LONGEST_KEY ? key : await rebalance(tx, teamId, place, pageId, index), position };
}

/** Gives every sibling an evenly spread key, leaving `index` for the page; returns the page's key. */
async function rebalance(tx: SqlSession, teamId: string, place: Place, pageId: string, index: number | null): Promise<string> {
  const rows: Array<{ id: string }> = await tx.query(SIBLING_IDS, [teamId, place.projectId, place.parentId ?? '-1', pageId]);
  const ids = rows.map((row) => row.id);
  const slot = Math.min(index ?? ids.length, ids.length);
  const keys = generateNKeysBetween(null, null, ids.length + 1);
  const pageKey = keys.splice(slot, 1)[0];
  // Clear first (the page too): the unique sibling index must not see two equal keys halfway through.
  await tx.query(SET_SORT_KEYS, [teamId, [...ids, pageId], [...ids, pageId].map(() => null)]);
  await tx.query(SET_SORT_KEYS, [teamId, ids, keys]);
  return pageKey;
}
