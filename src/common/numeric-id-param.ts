import { NUMERIC_ID_SHAPE } from './id-shapes';
import { canonicalId } from './numeric-id';
import { PathParam } from './path-param';

/** A path parameter naming a page, card or tag: a numerical string, handed on without leading zeros. */
export const NumericIdParam = (name: string, description: string) =>
  PathParam(name, { ...NUMERIC_ID_SHAPE, description, canonical: canonicalId });
