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
 * A token by the hash of its secret, with its user's role in its workspace: two indexed lookups.
 * Unknown, expired and revoked tokens give no row. The role is a subquery, not a join (every token has
 * its member: foreign key), so that even a plan made while the tables are empty reads each by its key.
 */
export const AUTHENTICATE = statement<{ tokenHash: Buffer }, AuthRow>(
  'authenticate',
  `SELECT t.id, t.team_id, t.user_id, t.actor, t.expires_at,
          (SELECT m.role FROM members m WHERE m.team_id = t.team_id AND m.user_id = t.user_id) AS role
     FROM tokens t
    WHERE t.token_hash = :tokenHash AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())`,
);
