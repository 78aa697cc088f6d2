/** One entity tag of a condition header (RFC 9110 §8.8.3): its opaque part, and whether it was weak. */
interface EntityTag {
  weak: boolean;
  opaque: string;
}

/** `*`, or the entity tags of a comma-separated list; null for a value that is neither (it matches nothing). */
function parseConditions(header: string): '*' | EntityTag[] | null {
  if (header.trim() === '*') return '*';
  const tags: EntityTag[] = [];
  const entry = /\s*(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"\s*(,|$)/y;
  let match: RegExpExecArray | null;
  while (entry.lastIndex < header.length && (match = entry.exec(header))) {
    tags.push({ weak: match[1] !== undefined, opaque: match[2] });
    if (match[3] === '') break;
  }
  return entry.lastIndex === header.length && tags.length > 0 ? tags : null;
}

/** The strong entity tag of a version: what the ETag header carries. */
export const entityTag = (version: string) => `"${version}"`;

/** The version a strong entity tag of entityTag's names (its opaque part). */
export const versionOf = (etag: string) => etag.slice(1, -1);

/** If-None-Match: weak comparison (W/ ignored), or `*`. An absent or malformed header matches nothing. */
export function noneMatchHits(header: string | undefined, etag: string): boolean {
  const conditions = header === undefined ? null : parseConditions(header);
  if (conditions === '*') return true;
  return conditions?.some((tag) => entityTag(tag.opaque) === etag) ?? false;
}

/**
 * If-Match as the list of strong entity tags that may match (`*`: any existing resource; undefined:
 * no header, no condition). Weak tags never match strongly, and a malformed value matches nothing.
 */
export function ifMatchTags(header: string | undefined): '*' | string[] | undefined {
  if (header === undefined) return undefined;
  const conditions = parseConditions(header);
  if (conditions === '*') return '*';
  return (conditions ?? []).filter((tag) => !tag.weak).map((tag) => entityTag(tag.opaque));
}
