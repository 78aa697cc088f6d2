import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { TokenActor } from '../common/actor';
import { Role } from '../workspaces/roles';
import { Caller } from './caller';
import { generateTokenSecret, hashTokenSecret } from './token-secret';
import { Token } from './token.entity';

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

interface AuthRow {
  id: string;
  team_id: string;
  user_id: string;
  actor: TokenActor;
  role: Role;
}

@Injectable()
export class TokensService {
  constructor(private readonly db: DataSource) {}

  /** One indexed lookup by the secret's hash; unknown, expired and revoked tokens all give null. */
  async authenticate(secret: string): Promise<Caller | null> {
    const rows: AuthRow[] = await this.db.query(
      `SELECT t.id, t.team_id, t.user_id, t.actor, m.role
         FROM tokens t JOIN members m ON m.team_id = t.team_id AND m.user_id = t.user_id
        WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())`,
      [hashTokenSecret(secret)],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      tokenId: row.id,
      teamId: row.team_id,
      userId: row.user_id,
      role: row.role,
      actor: { user_id: row.user_id, ...row.actor },
    };
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
    const [{ found }] = await this.db.query(
      `WITH named AS (SELECT team_id, id FROM tokens WHERE id = $1 AND ($2::text IS NULL OR team_id = $2)),
            revoked AS (
              UPDATE tokens t SET revoked_at = COALESCE(t.revoked_at, now())
                FROM named n WHERE (SELECT count(*) FROM named) = 1 AND t.team_id = n.team_id AND t.id = n.id
            )
       SELECT count(*)::int AS found FROM named`,
      [id, teamId ?? null],
    );
    return found;
  }
}
