import { Actor } from '../common/actor';

export const ROLES = ['owner', 'admin', 'member', 'guest', 'viewer'] as const;
/** A member's role in a workspace; what each role may do is in workspaces/role-permissions.ts. */
export type Role = (typeof ROLES)[number];

/** The authenticated principal of a request: a token's user in the token's workspace. */
export interface Caller {
  tokenId: string;
  teamId: string;
  userId: string;
  /** The caller's role in teamId. */
  role: Role;
  /** Written into user_updated by the caller's changes. */
  actor: Actor;
}
