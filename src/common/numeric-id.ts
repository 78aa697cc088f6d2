import { Transform } from 'class-transformer';
import { NUMERIC_ID_SHAPE } from './id-shapes';

const BIGINT_MAX = 9223372036854775807n;

/** A well-formed id too large for the column names nothing (404), rather than breaking the query. */
export function fitsBigint(id: string): boolean {
  return BigInt(id) <= BIGINT_MAX;
}

/** A numerical string that fits the bigint columns. */
export function isNumericId(value: unknown): value is string {
  return typeof value === 'string' && NUMERIC_ID_SHAPE.pattern.test(value) && fitsBigint(value);
}

/** "0002" and "2" name the same row; its canonical spelling has no leading zeros. `id` matches the pattern. */
export function canonicalId(id: string): string {
  return BigInt(id).toString();
}

function canonical(value: unknown): unknown {
  return typeof value === 'string' && NUMERIC_ID_SHAPE.pattern.test(value) ? canonicalId(value) : value;
}

/**
 * Spells a well-formed id (or each id of a list) canonically, before validation, so that the code
 * behind the DTO can compare ids as strings. Anything else is left as sent, for the validators to refuse.
 */
export const CanonicalId = () =>
  Transform(({ value }) => (Array.isArray(value) ? value.map(canonical) : canonical(value)));
