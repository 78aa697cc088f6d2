import { Actor } from '../common/actor';
import { Role } from '../workspaces/roles';

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
