import { statement } from '../database/statement';
import { TokenActor } from '../common/actor';
import { Role } from './caller';

export interface AuthRow {
  id: string;
  team_id: string;
  user_id: string;
  actor: TokenActor;
  expires_at: Date | null;
  role: Role;
}

/**
 * A token by the hash of its secret, with its user's role in its workspace: one indexed lookup.
 * Unknown, expired and revoked tokens give no row.
 */
export const AUTHENTICATE = statement<{ tokenHash: Buffer }, AuthRow>(
  'authenticate',
  `SELECT t.id, t.team_id, t.user_id, t.actor, t.expires_at, m.role
     FROM tokens t JOIN members m ON m.team_id = t.team_id AND m.user_id = t.user_id
    WHERE t.token_hash = :tokenHash AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())`,
);
