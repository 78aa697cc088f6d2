import { createHash, randomBytes } from 'node:crypto';

const PREFIX = 'wca_';

/** A new token secret: 256 random bits, base64url, with a prefix that secret scanners can match. */
export function generateTokenSecret(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

/** Tokens are stored and looked up by this hash only. */
export function hashTokenSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}
