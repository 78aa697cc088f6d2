import { hashTokenSecret } from '../auth/token-secret';
import { Row, Statement, TableSpec, upsert } from './bulk-statements';
import { TokenEntry } from './dto/token-entry.dto';
import { ExistingState, StoredToken, teamKey } from './existing-state';
import { ImportError } from './import-error';
import { Listed } from './listed-document';
import { References } from './references';

const TOKENS: TableSpec = {
  table: 'tokens',
  key: { team_id: 'text', id: 'text' },
  fields: {
    user_id: 'text',
    token_hash: 'bytea',
    name: 'text',
    actor: 'jsonb',
    expires_at: 'timestamptz',
    revoked_at: 'timestamptz',
  },
};

/** Tokens, stored as the SHA-256 of their secret. */
export function planTokens(
  tokens: Listed<TokenEntry>[],
  refs: References,
  existing: ExistingState,
  now: Date,
): Statement[] {
  const stored = new Map(existing.tokens.map((t) => [teamKey(t.teamId, t.id), t]));
  const holders = new Map(existing.tokens.map((t) => [t.tokenHash.toString('hex'), teamKey(t.teamId, t.id)]));
  const rows = tokens.map(({ entry, label }): Row => {
    refs.member(label, entry.team_id, entry.user_id, 'user_id');
    const onBehalfOf = entry.actor?.source?.on_behalf_of;
    if (onBehalfOf) refs.member(label, entry.team_id, onBehalfOf, 'actor.source.on_behalf_of');
    const key = teamKey(entry.team_id, entry.id);
    const previous = stored.get(key);
    const tokenHash = tokenHashFor(entry, label, previous);
    const holder = holders.get(tokenHash.toString('hex'));
    if (holder !== undefined && holder !== key)
      throw ImportError.at(label, 'this token secret is already used by another token');
    holders.set(tokenHash.toString('hex'), key);
    return {
      entry: label,
      team_id: entry.team_id,
      id: entry.id,
      user_id: entry.user_id,
      token_hash: `\\x${tokenHash.toString('hex')}`,
      name: entry.name ?? null,
      actor: entry.actor ?? { type: 'user' },
      expires_at: entry.expires_at == null ? null : new Date(entry.expires_at),
      // Revocation sticks: re-importing an older document must not bring a revoked token back to life.
      revoked_at: previous?.revokedAt ?? (entry.revoked ? now : null),
    };
  });
  return [upsert(TOKENS, rows)];
}

function tokenHashFor(entry: TokenEntry, label: string, previous: StoredToken | undefined): Buffer {
  if (entry.token !== undefined) return hashTokenSecret(entry.token);
  if (previous) return previous.tokenHash;
  throw ImportError.at(label, 'token (the secret) is required for a token that does not exist yet');
}
