import { generateNKeysBetween } from 'fractional-indexing';

/**
 * Sort keys for the listed children of one parent, in the order listed. A child that already has a
 * key under this parent keeps it while the listed order allows (so re-importing changes nothing);
 * the others get new keys just before the next kept child, or after every sibling at the end.
 * `others` are the keys of the siblings the document does not list; no new key equals any of them.
 */
export function siblingKeys(
  listed: string[],
  currentKey: (id: string) => string | null,
  others: string[],
): Map<string, string> {
  const keys = new Map<string, string>();
  let last: string | null = null;
  for (const id of listed) {
    const key = currentKey(id);
    if (key !== null && (last === null || key > last)) keys.set(id, (last = key));
  }
  const fixed = [...others, ...keys.values()].sort();
  let run: string[] = [];
  for (let i = 0; i <= listed.length; i++) {
    if (i < listed.length && !keys.has(listed[i])) {
      run.push(listed[i]);
      continue;
    }
    if (run.length === 0) continue;
    const upper = i < listed.length ? keys.get(listed[i])! : null;
    const lower = fixed.filter((key) => upper === null || key < upper).pop() ?? null;
    generateNKeysBetween(lower, upper, run.length).forEach((key, n) => keys.set(run[n], key));
    run = [];
  }
  return keys;
}
