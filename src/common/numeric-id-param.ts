import { PathParam } from './path-param';
import { canonicalId, NUMERIC_ID_PATTERN } from './numeric-id';

/** A path parameter naming a page, card or tag: a numerical string, handed on without leading zeros. */
export const NumericIdParam = (name: string, description: string) =>
  PathParam(name, { pattern: NUMERIC_ID_PATTERN, description, mustBe: 'a numerical string of 1 to 19 digits', canonical: canonicalId });
