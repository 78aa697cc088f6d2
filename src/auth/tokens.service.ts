import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { retryOnConflict } from '../database/retry-on-conflict';
import { TokenActor } from '../common/actor';
import { Sql } from '../database/sql';
import { Caller } from './caller';
import { generateTokenSecret, hashTokenSecret } from './token-secret';
import { Token } from './token.entity';
import { TokenCache } from './token-cache';
import { AUTHENTICATE } from './token-queries';
import { named } from '../database/named-parameters';

export interface NewToken {
  teamId: string;
  userId: string;
  name?: string | null;
  expiresAt?: Date | null;
  actor?: TokenActor;
}

export interface IssuedToken {
  id: string;
  token: string;
  team_id: string;
  user_id: string;
  name: string | null;
  expires_at: number | null;
}

@Injectable()
export class TokensService {
  constructor(
    private readonly db: DataSource,
    private readonly sql: Sql,
    private readonly cache: TokenCache,
  ) {}

  /**
   * One indexed lookup by the secret's hash, remembered by the TokenCache; unknown, expired and
   * revoked tokens all give null.
   */
  async authenticate(secret: string): Promise<Caller | null> {
    const hash = hashTokenSecret(secret);
    const key = hash.toString('base64');
    const cached = this.cache.get(key);
    if (cached) return cached;
    const generation = this.cache.begin();
    const [row] = await this.sql.query(AUTHENTICATE, { tokenHash: hash });
    if (!row) return null;
    const caller: Caller = {
      tokenId: row.id,
      teamId: row.team_id,
      userId: row.user_id,
      role: row.role,
      actor: { user_id: row.user_id, ...row.actor },
    };
    this.cache.remember(key, caller, row.expires_at, generation);
    return caller;
  }

  /** Issues a token; the secret is returned here once and stored only as its hash. */
  async create(spec: NewToken, tx: EntityManager = this.db.manager): Promise<IssuedToken> {
    const secret = generateTokenSecret();
    const token = tx.create(Token, {
      teamId: spec.teamId,
      id: `tok_${randomBytes(8).toString('hex')}`,
      userId: spec.userId,
      tokenHash: hashTokenSecret(secret),
      name: spec.name ?? null,
      actor: spec.actor ?? { type: 'user' },
      expiresAt: spec.expiresAt ?? null,
      revokedAt: null,
    });
    await tx.insert(Token, token);
    return {
      id: token.id,
      token: secret,
      team_id: token.teamId,
      user_id: token.userId,
      name: token.name,
      expires_at: token.expiresAt?.getTime() ?? null,
    };
  }

  /** Revokes by id; returns how many tokens that id names (0: unknown; over 1: ambiguous, nothing revoked). */
  async revoke(id: string, teamId?: string): Promise<number> {
    // On Citus tokens are written on every node, and two writers can wait on each other: the loser runs again.
    const [{ found }] = await retryOnConflict(() =>
      this.db.query<Array<{ found: number }>>(
        ...named(
          `WITH named AS (SELECT team_id, id FROM tokens
                           WHERE id = :id AND (:teamId::text IS NULL OR team_id = :teamId)),
            revoked AS (
              UPDATE tokens t SET revoked_at = now()
                FROM named n WHERE (SELECT count(*) FROM named) = 1 AND t.team_id = n.team_id AND t.id = n.id
                 AND t.revoked_at IS NULL
            )
       SELECT count(*)::int AS found FROM named`,
          { id, teamId: teamId ?? null },
        ),
      ),
    );
    // Every instance forgets on the notification (migration 0005); this one also at once, for its next request.
    this.cache.invalidate();
    return found;
  }
}
