import { hash, randomBytes } from 'node:crypto';

const PREFIX = 'wca_';

/** A new token secret: 256 random bits, base64url, with a prefix that secret scanners can match. */
export function generateTokenSecret(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

/** Tokens are stored and looked up by this hash only. One-shot: a Hash object per request costs five times as much. */
export function hashTokenSecret(secret: string): Buffer {
  return hash('sha256', secret, 'buffer');
}
