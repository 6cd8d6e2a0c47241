/**
 * One application secret, from APP_SECRET or (embedded backend, outside production) kept in
 * DATA_DIR/app.secret, created on first start. Every use derives its own key with HKDF, so
 * a token signed for one purpose (an unsubscribe link) is worthless for another (a session).
 */
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type AppConfig, ConfigError } from './config.ts';

export type SecretPurpose =
  | 'jwt'
  | 'refresh-token'
  | 'email-token'
  | 'unsubscribe'
  | 'webhook'
  | 'api-token'
  /** The test payment provider's onboarding links (as Stripe's account links: short-lived, per account). */
  | 'onboarding-link'
  /** Short-lived addresses of private stored files (a conversation's photos). */
  | 'storage-url'
  /** Salted hashes that stand in for a visitor (view counting, contact-form flood control). */
  | 'visitor'
  /** The test carrier's signed scan webhooks (its own key: a payment webhook's signature is worthless here). */
  | 'carrier-webhook';

export interface Secrets {
  key(purpose: SecretPurpose): Buffer;
  /** base64url HMAC-SHA256 of `value` under the purpose's key. */
  sign(purpose: SecretPurpose, value: string): string;
  verify(purpose: SecretPurpose, value: string, signature: string): boolean;
}

export function createSecrets(master: string): Secrets {
  if (master.length < 32) throw new Error('APP_SECRET must be at least 32 characters');
  const cache = new Map<SecretPurpose, Buffer>();
  const key = (purpose: SecretPurpose) => {
    let derived = cache.get(purpose);
    if (!derived) {
      derived = Buffer.from(hkdfSync('sha256', master, 'reshelf', purpose, 32));
      cache.set(purpose, derived);
    }
    return derived;
  };
  const sign = (purpose: SecretPurpose, value: string) =>
    createHmac('sha256', key(purpose)).update(value).digest('base64url');
  return {
    key,
    sign,
    verify(purpose, value, signature) {
      const expected = Buffer.from(sign(purpose, value));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}

export async function loadSecrets(config: AppConfig): Promise<Secrets> {
  if (config.appSecret) return createSecrets(config.appSecret);
  if (config.env === 'production') {
    // loadConfig refuses this first; kept for configurations made another way.
    throw new ConfigError(['APP_SECRET is required in production (at least 32 random characters)']);
  }
  const file = path.join(config.dataDir, 'app.secret');
  try {
    return createSecrets((await readFile(file, 'utf8')).trim());
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const fresh = randomBytes(48).toString('base64url');
  await mkdir(config.dataDir, { recursive: true });
  await writeFile(file, fresh, { mode: 0o600, flag: 'wx' }).catch(async (error: NodeJS.ErrnoException) => {
    // Another instance created it first: use theirs.
    if (error.code !== 'EEXIST') throw error;
  });
  return createSecrets((await readFile(file, 'utf8')).trim());
}
