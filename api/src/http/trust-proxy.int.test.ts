/**
 * TRUST_PROXY: a forged X-Forwarded-For must not move the address the per-IP limits count,
 * unless the hop that sent it is a proxy the configuration names.
 */
import { CLIENT_HEADER } from '@reshelf/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_LIMITS } from '../account/auth/auth.service.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createTestApp, type TestApp } from '../testing/app.ts';

/** A production configuration (PUBLIC_ORIGIN and Stripe are required there). */
const PRODUCTION = {
  NODE_ENV: 'production',
  PUBLIC_ORIGIN: 'https://reshelf.example',
  APP_SECRET: 'a-production-secret-that-is-long-enough-0123',
  PAYMENTS: 'stripe',
  STRIPE_SECRET_KEY: 'sk_test_trust_proxy',
  STRIPE_WEBHOOK_SECRET: 'whsec_trust_proxy',
  EASYPOST_API_KEY: 'EZTKoffline0123',
  EASYPOST_WEBHOOK_SECRET: 'carrier-webhook-offline',
  // Production mail must leave the building (nothing is sent in these tests).
  MAIL: 'smtp',
  SMTP_URL: 'smtp://127.0.0.1:9/',
  MAIL_FROM: 'Reshelf <no-reply@reshelf.example>',
};

let t: TestApp;
const extra: FastifyInstance[] = [];

beforeAll(async () => {
  t = await createTestApp({ env: PRODUCTION });
});

afterAll(async () => {
  for (const app of extra) await app.close();
  await t.close();
});

/** Another app on the same database with TRUST_PROXY set. */
async function appTrusting(trustProxy: string): Promise<FastifyInstance> {
  const config = loadConfig({
    ...PRODUCTION,
    LOG_LEVEL: 'silent',
    DATABASE_URL: t.database.url,
    WEB_DIST: 'api/.no-web-dist',
    TRUST_PROXY: trustProxy,
  });
  const app = await buildApp({
    config,
    database: t.database.handle,
    secrets: t.secrets,
    services: t.services,
  });
  await app.ready();
  extra.push(app);
  return app;
}

function signIn(app: FastifyInstance, email: string, from: { remoteAddress: string; forwardedFor?: string }) {
  return app.inject({
    method: 'POST',
    url: '/trpc/account.auth.signIn',
    remoteAddress: from.remoteAddress,
    headers: {
      'content-type': 'application/json',
      [CLIENT_HEADER]: 'web',
      ...(from.forwardedFor ? { 'x-forwarded-for': from.forwardedFor } : {}),
    },
    payload: JSON.stringify({ email, password: 'not-the-password' }),
  });
}

/** The addresses the sign-in limit has counted, with their counts. */
async function countedAddresses(): Promise<Record<string, number>> {
  const rows = await t.database.handle.db
    .selectFrom('rate_limits')
    .select(['key', 'hits'])
    .where('bucket', '=', AUTH_LIMITS.signInIp.bucket)
    .execute();
  return Object.fromEntries(rows.map((row) => [row.key, row.hits]));
}

async function forget() {
  await t.database.handle.db.deleteFrom('rate_limits').execute();
}

describe('TRUST_PROXY off (the default, in production too)', () => {
  it('counts the connection’s own address whatever X-Forwarded-For says', async () => {
    await forget();
    for (const [index, forged] of ['198.51.100.1', '198.51.100.2', '203.0.113.9, 198.51.100.3'].entries()) {
      const response = await signIn(t.app, `nobody${index}@example.com`, {
        remoteAddress: '192.0.2.10',
        forwardedFor: forged,
      });
      expect(response.statusCode).toBe(400);
    }
    expect(await countedAddresses()).toEqual({ '192.0.2.10': 3 });
  });

  it('keeps the per-IP sign-in limit biting when every attempt forges another address', async () => {
    await forget();
    // The connection's address has used up its sign-ins for this window...
    await t.database.handle.db
      .insertInto('rate_limits')
      .values({
        bucket: AUTH_LIMITS.signInIp.bucket,
        key: '192.0.2.20',
        window_start: new Date(
          Math.floor(Date.now() / 1000 / AUTH_LIMITS.signInIp.windowSeconds) *
            AUTH_LIMITS.signInIp.windowSeconds *
            1000,
        ),
        hits: AUTH_LIMITS.signInIp.limit,
      })
      .execute();
    // ...so a fresh forged address per attempt changes nothing.
    for (const forged of ['198.51.100.50', '198.51.100.51']) {
      const response = await signIn(t.app, 'someone@example.com', {
        remoteAddress: '192.0.2.20',
        forwardedFor: forged,
      });
      expect(response.statusCode).toBe(429);
      expect(response.json().error.message).toMatch(/^Too many attempts\./);
    }
  });
});

describe('TRUST_PROXY set', () => {
  it('with a hop count of 1 takes the address the one proxy saw (the last hop)', async () => {
    await forget();
    const app = await appTrusting('1');
    const response = await signIn(app, 'hop@example.com', {
      remoteAddress: '10.0.0.5',
      forwardedFor: '198.51.100.77, 203.0.113.40',
    });
    expect(response.statusCode).toBe(400);
    expect(await countedAddresses()).toEqual({ '203.0.113.40': 1 });
  });

  it('with a list of proxies believes only a hop from one of them', async () => {
    await forget();
    const app = await appTrusting('10.0.0.0/8');
    await signIn(app, 'listed@example.com', { remoteAddress: '10.1.2.3', forwardedFor: '203.0.113.41' });
    // Not from a listed proxy: its X-Forwarded-For is the client's own invention.
    await signIn(app, 'unlisted@example.com', { remoteAddress: '192.0.2.30', forwardedFor: '203.0.113.42' });
    expect(await countedAddresses()).toEqual({ '203.0.113.41': 1, '192.0.2.30': 1 });
  });
});
