import { Injectable, Logger } from '@nestjs/common';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { AppConfig } from '../config/app-config';

const SEALED = 'v1';
const UNSEALED = 'plain';

/** A new signing secret as Standard Webhooks spells one: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * Keeps signing secrets at rest: sealed with AES-256-GCM under the SHA-256 of WEBHOOK_SECRET_KEY
 * (`v1:` iv, tag, ciphertext in base64), so a copy of the database or a backup alone cannot sign.
 * Without a key they are stored as they are (`plain:`), and a warning says so at boot: unlike a
 * random per-process key, that still lets every instance and every restart sign. Sealed secrets
 * need the key they were sealed with; unsealed ones stay readable once a key is configured.
 */
@Injectable()
export class WebhookSecrets {
  private readonly key: Buffer | null;

  constructor(config: AppConfig) {
    const secret = config.webhooks.secretKey;
    this.key = secret === undefined ? null : createHash('sha256').update(secret).digest();
  }

  /** Says once, at boot, that secrets are stored unsealed. */
  warnIfUnsealed(logger: Logger): void {
    if (!this.key)
      logger.warn('WEBHOOK_SECRET_KEY is not set: webhook signing secrets are stored unencrypted in the database');
  }

  seal(secret: string): string {
    if (!this.key) return `${UNSEALED}:${secret}`;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [SEALED, iv, cipher.getAuthTag(), sealed]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64')))
      .join(':');
  }

  /** The secret, or an Error saying why it cannot be read (no key, another key). */
  open(stored: string): string {
    const [format, ...parts] = stored.split(':');
    if (format === UNSEALED) return parts.join(':');
    if (format !== SEALED || parts.length !== 3) throw new Error('The stored webhook secret has an unknown format');
    if (!this.key) throw new Error('The webhook secret is sealed but WEBHOOK_SECRET_KEY is not set');
    const [iv, tag, sealed] = parts.map((part) => Buffer.from(part, 'base64'));
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8');
    } catch {
      throw new Error('The webhook secret was sealed with another WEBHOOK_SECRET_KEY');
    }
  }
}
