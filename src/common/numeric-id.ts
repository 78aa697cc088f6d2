/** Page, card and tag ids: numerical strings that name a PostgreSQL bigint. */
export const NUMERIC_ID_PATTERN = /^[0-9]{1,19}$/;

const BIGINT_MAX = 9223372036854775807n;

/** A well-formed id too large for the column names nothing (404), rather than breaking the query. */
export function fitsBigint(id: string): boolean {
  return BigInt(id) <= BIGINT_MAX;
}

/** A numerical string that fits the bigint columns. */
export function isNumericId(value: unknown): value is string {
  return typeof value === 'string' && NUMERIC_ID_PATTERN.test(value) && fitsBigint(value);
}
