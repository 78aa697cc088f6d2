import { AppConfig } from '../config/app-config';
import { newWebhookSecret, WebhookSecrets } from './webhook-secrets';

const secrets = (key?: string) => new WebhookSecrets({ webhooks: { secretKey: key } } as AppConfig);
const KEY = 'k'.repeat(32);

describe('WebhookSecrets', () => {
  it('makes whsec_ secrets of 32 random bytes', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('seals with the key and opens again; a fresh IV each time', () => {
    const secret = newWebhookSecret();
    const [a, b] = [secrets(KEY).seal(secret), secrets(KEY).seal(secret)];
    expect(a).toMatch(/^v1:/);
    expect(a).not.toContain(secret.slice(6));
    expect(a).not.toBe(b);
    expect(secrets(KEY).open(a)).toBe(secret);
  });

  it('refuses to open with another key, or without one', () => {
    const sealed = secrets(KEY).seal(newWebhookSecret());
    expect(() => secrets('x'.repeat(32)).open(sealed)).toThrow(/another WEBHOOK_SECRET_KEY/);
    expect(() => secrets().open(sealed)).toThrow(/WEBHOOK_SECRET_KEY is not set/);
  });

  it('without a key stores the secret as it is, still readable once a key is set', () => {
    const secret = newWebhookSecret();
    const stored = secrets().seal(secret);
    expect(stored).toBe(`plain:${secret}`);
    expect(secrets(KEY).open(stored)).toBe(secret);
  });
});
