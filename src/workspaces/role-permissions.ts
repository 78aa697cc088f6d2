import { SetMetadata } from '@nestjs/common';
import { Caller, Role } from '../auth/caller';
import { CommonErrors } from '../errors/common-errors';

/** Roles that may write at all. A guest writes only where the resource lists them as a member. */
const WRITERS: ReadonlySet<Role> = new Set(['owner', 'admin', 'member', 'guest']);

export function mayWrite(role: Role): boolean {
  return WRITERS.has(role);
}

/** A guest reads and writes only the pages and cards that list them as a member. */
export function limitedToListedResources(role: Role): boolean {
  return role === 'guest';
}

/** Refuses (403) a caller limited to listed resources on a page or card that does not list them. */
export function assertListedAccess(caller: Caller, listed: boolean): void {
  if (limitedToListedResources(caller.role) && !listed) throw CommonErrors.accessDenied();
}

/** Roles that manage the workspace's integrations (webhooks). */
const MANAGERS: ReadonlySet<Role> = new Set(['owner', 'admin']);

export function mayManage(role: Role): boolean {
  return MANAGERS.has(role);
}

export const MANAGERS_ONLY = 'wca:managers-only';
export const NOT_FOR_GUESTS = 'wca:not-for-guests';
/** A write that makes or removes resources (creating, copying, deleting pages): guests get 403 like viewers. */
export const NotForGuests = () => SetMetadata(NOT_FOR_GUESTS, true);
/** A route (or controller) for owners and admins only: WorkspaceAccessGuard refuses others, reads included. */
export const ManagersOnly = () => SetMetadata(MANAGERS_ONLY, true);
