import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { createSecrets, loadSecrets } from './secrets.ts';

const STRIPE = {
  STRIPE_SECRET_KEY: 'sk_test_offline',
  STRIPE_WEBHOOK_SECRET: 'whsec_offline',
  EASYPOST_API_KEY: 'EZTKoffline0123',
  EASYPOST_WEBHOOK_SECRET: 'carrier-webhook-offline',
  MAIL: 'smtp',
  SMTP_URL: 'smtp://127.0.0.1:9',
  MAIL_FROM: 'no-reply@reshelf.example',
};

describe('secrets', () => {
  it('derives a different key per purpose and verifies only its own signatures', () => {
    const secrets = createSecrets('a'.repeat(40));
    expect(secrets.key('jwt').equals(secrets.key('unsubscribe'))).toBe(false);
    const signature = secrets.sign('unsubscribe', 'user-1');
    expect(secrets.verify('unsubscribe', 'user-1', signature)).toBe(true);
    expect(secrets.verify('unsubscribe', 'user-2', signature)).toBe(false);
    expect(secrets.verify('email-token', 'user-1', signature)).toBe(false);
    expect(secrets.verify('unsubscribe', 'user-1', 'short')).toBe(false);
  });

  it('keeps an embedded secret in DATA_DIR across starts and requires APP_SECRET in production', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'reshelf-secret-'));
    try {
      const config = loadConfig({ DATA_DIR: dir });
      const first = await loadSecrets(config);
      const second = await loadSecrets(config);
      expect(first.sign('jwt', 'x')).toBe(second.sign('jwt', 'x'));
      expect((await readFile(path.join(dir, 'app.secret'), 'utf8')).length).toBeGreaterThanOrEqual(32);
      const production = {
        NODE_ENV: 'production',
        PUBLIC_ORIGIN: 'https://reshelf.example',
        DATABASE_URL: 'postgres://reshelf:pw@db.example/reshelf',
        DATA_DIR: dir,
        ...STRIPE,
      };
      // The configuration refuses it first, among every other problem; loadSecrets still checks.
      expect(() => loadConfig(production)).toThrow(/APP_SECRET is required in production/);
      await expect(
        loadSecrets({ ...loadConfig({ ...production, APP_SECRET: 'x'.repeat(40) }), appSecret: undefined }),
      ).rejects.toThrow(/APP_SECRET is required in production/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
