/**
 * A token by the hash of its secret, with its user's role in its workspace: one indexed lookup.
 * Unknown, expired and revoked tokens give no row. $1 the SHA-256 of the secret.
 */
export const AUTHENTICATE = `
  SELECT t.id, t.team_id, t.user_id, t.actor, t.expires_at, m.role
    FROM tokens t JOIN members m ON m.team_id = t.team_id AND m.user_id = t.user_id
   WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())`;
