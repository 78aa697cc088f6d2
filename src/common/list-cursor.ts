import { createHash } from 'node:crypto';
import { CommonErrors } from '../errors/common-errors';
import { CURSOR_MAX_LENGTH } from './list-query';

/** The filters a list was asked for, by query parameter name; a cursor is valid only for the same ones. */
export type ListFilters = Record<string, string | boolean | undefined>;

/** What a cursor holds: the list it belongs to, a fingerprint of its filters, and where the answer stopped. */
interface CursorBody {
  l: string;
  f: string;
  p: unknown[];
}

const fingerprint = (filters: ListFilters): string =>
  createHash('sha256')
    .update(
      JSON.stringify(
        Object.entries(filters)
          .filter(([, value]) => value !== undefined)
          .sort(),
      ),
    )
    .digest('base64url')
    .slice(0, 16);

/**
 * The opaque `cursor` of every list (decisions.md, The content lifecycle): the keyset position after
 * the last item of an answer, bound to its list and filters, base64url-encoded JSON. A cursor is not
 * signed: a hand-made one that decodes to a valid position of the same list only picks a place to
 * resume, which a client may do anyway.
 */
export const ListCursor = {
  encode(list: string, filters: ListFilters, position: unknown[]): string {
    const body: CursorBody = { l: list, f: fingerprint(filters), p: position };
    return Buffer.from(JSON.stringify(body)).toString('base64url');
  },

  /** The position a cursor holds, when it was made for this list and these filters and `isPosition` accepts it. */
  decode<Position extends unknown[]>(
    cursor: string,
    list: string,
    filters: ListFilters,
    isPosition: (position: unknown[]) => position is Position,
  ): Position {
    const body = parse(cursor);
    if (body?.l !== list || body.f !== fingerprint(filters) || !isPosition(body.p)) throw CommonErrors.invalidCursor();
    return body.p;
  },
};

function parse(cursor: string): CursorBody | undefined {
  if (cursor.length > CURSOR_MAX_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  try {
    const body: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const ok = typeof body === 'object' && body !== null && 'l' in body && 'f' in body && 'p' in body;
    return ok && Array.isArray(body.p) ? (body as CursorBody) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One answer of a keyset list read with one row more than `limit` (the extra row only tells that more
 * follow): the rows it shows, and the position after the last of them, or null at the end.
 */
export function keysetAnswer<Row, Position>(
  rows: Row[],
  limit: number,
  positionAfter: (last: Row) => Position,
): { shown: Row[]; next: Position | null } {
  const shown = rows.slice(0, limit);
  return { shown, next: rows.length > limit ? positionAfter(shown[limit - 1]) : null };
}
