import { Role } from '../auth/caller';

/** Roles that may write at all. A guest writes only where the resource lists them as a member. */
const WRITERS: ReadonlySet<Role> = new Set(['owner', 'admin', 'member', 'guest']);

export function mayWrite(role: Role): boolean {
  return WRITERS.has(role);
}

/** A guest reads and writes only the pages and cards that list them as a member. */
export function limitedToListedResources(role: Role): boolean {
  return role === 'guest';
}
