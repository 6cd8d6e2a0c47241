/**
 * Security headers on a production configuration: the pages' Content-Security-Policy (with the
 * sha256 of any inline script the built index.html has), HSTS, Referrer-Policy, and
 * Cache-Control: no-store on every API answer that is not public.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.ts';
import { createUser } from '../testing/auth.ts';
import { PUBLIC_CACHE_CONTROL } from './public-answers.ts';

const PRODUCTION = {
  NODE_ENV: 'production',
  PUBLIC_ORIGIN: 'https://reshelf.example',
  APP_SECRET: 'a-production-secret-that-is-long-enough-0123',
  PAYMENTS: 'stripe',
  STRIPE_SECRET_KEY: 'sk_test_headers',
  STRIPE_WEBHOOK_SECRET: 'whsec_headers',
  EASYPOST_API_KEY: 'EZTKoffline0123',
  EASYPOST_WEBHOOK_SECRET: 'carrier-webhook-offline',
  // Production mail must leave the building (nothing is sent in these tests).
  MAIL: 'smtp',
  SMTP_URL: 'smtp://127.0.0.1:9/',
  MAIL_FROM: 'Reshelf <no-reply@reshelf.example>',
};
const INLINE = 'window.__boot = { theme: "light" };';

let web: string;
let production: TestApp;
let test: TestApp;

beforeAll(async () => {
  // A built web client whose index.html has one inline script (and a data block, which runs nothing).
  web = await mkdtemp(path.join(tmpdir(), 'reshelf-web-'));
  await writeFile(
    path.join(web, 'index.html'),
    `<!doctype html><html><head><script>${INLINE}</script><script type="application/ld+json">{"@type":"Book"}</script><script type="module" src="/assets/index.js"></script></head><body><div id="root"></div></body></html>`,
  );
  production = await createTestApp({ env: { ...PRODUCTION, WEB_DIST: web } });
  test = await createTestApp({ env: { WEB_DIST: web } });
});

afterAll(async () => {
  await production?.close();
  await test?.close();
  await rm(web, { recursive: true, force: true });
});

function directives(csp: string): Record<string, string[]> {
  return Object.fromEntries(
    csp.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

describe('pages in production', () => {
  it('send a Content-Security-Policy without inline script, HSTS and Referrer-Policy', async () => {
    const page = await production.app.inject({ method: 'GET', url: '/listing/some-book' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = directives(String(page.headers['content-security-policy']));
    const hash = `'sha256-${createHash('sha256').update(INLINE).digest('base64')}'`;
    expect(csp['script-src']).toEqual(["'self'", hash]);
    expect(csp['default-src']).toEqual(["'self'"]);
    expect(csp['frame-ancestors']).toEqual(["'self'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['connect-src']).toEqual(["'self'"]);
    expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https:']);
    expect(csp['base-uri']).toEqual(["'self'"]);
    expect(csp['upgrade-insecure-requests']).toEqual([]);
    expect(Object.values(csp).flat()).not.toContain("'unsafe-eval'");
    expect(page.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(page.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('API answers', () => {
  it('are no-store unless public', async () => {
    const user = await createUser(
      production.database.handle.db,
      production.services.identity,
      'headers@example.com',
    );
    const bearer = { authorization: `Bearer ${user.accessToken}` };
    for (const [url, headers] of [
      ['/trpc/account.auth.me', bearer],
      ['/trpc/account.member.profile', bearer],
      ['/trpc/account.member.profile', {}],
      ['/trpc/catalogue.taxonomy.public.categories,account.auth.me?batch=1&input=%7B%7D', bearer],
      ['/api/v1/me/tokens', bearer],
      ['/healthz', {}],
      ['/readyz', {}],
    ] as const) {
      const response = await production.app.inject({ method: 'GET', url, headers });
      expect.soft(response.headers['cache-control'], url).toBe('no-store');
      expect.soft(response.headers['strict-transport-security'], url).toBe('max-age=31536000');
    }
    const signIn = await production.app.inject({
      method: 'POST',
      url: '/trpc/account.auth.signIn',
      headers: { 'content-type': 'application/json', 'x-reshelf-client': 'web' },
      payload: JSON.stringify({ email: 'headers@example.com', password: 'wrong-password-here' }),
    });
    expect(signIn.headers['cache-control']).toBe('no-store');
  });

  it('let shared caches keep public catalogue answers briefly (decision 0042)', async () => {
    for (const url of ['/trpc/catalogue.taxonomy.public.categories', '/api/v1/categories']) {
      const response = await production.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe(PUBLIC_CACHE_CONTROL);
      expect(response.headers.etag, url).toMatch(/^W\//);
    }
  });
});

describe('outside production', () => {
  it('sends the same policy (so the browser tests run under it) but no HSTS', async () => {
    const page = await test.app.inject({ method: 'GET', url: '/' });
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self' 'sha256-/);
    expect(page.headers['content-security-policy']).not.toMatch(/upgrade-insecure-requests/);
    expect(page.headers['strict-transport-security']).toBeUndefined();
  });
});
