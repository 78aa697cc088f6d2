import { Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppConfig } from '../config/app-config';

const LIFETIME_MS = 60 * 60 * 1000;

export interface CollaborationClaims {
  team_id: string;
  page_id: string;
  user_id: string;
  /** Expiry, STime (ms). */
  exp: number;
}

/**
 * Tokens a real-time collaboration server accepts for one page and one caller: the claims, base64url,
 * signed with HMAC-SHA256 under COLLABORATION_SECRET.
 */
@Injectable()
export class CollaborationTokens {
  constructor(private readonly config: AppConfig) {}

  issue(teamId: string, pageId: string, userId: string, now = Date.now()): string {
    const claims: CollaborationClaims = { team_id: teamId, page_id: pageId, user_id: userId, exp: now + LIFETIME_MS };
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  /** The claims of a valid, unexpired token; null otherwise. */
  verify(token: string, now = Date.now()): CollaborationClaims | null {
    const [body, signature, extra] = token.split('.');
    if (!body || !signature || extra !== undefined) return null;
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as CollaborationClaims;
    return claims.exp > now ? claims : null;
  }

  private sign(body: string): string {
    return createHmac('sha256', this.config.collaborationSecret).update(body).digest('base64url');
  }
}
