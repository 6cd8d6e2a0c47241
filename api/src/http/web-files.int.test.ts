/**
 * What the BFF serves besides the API: a missing file under the built assets is a
 * 404, never the app's shell with 200; the development mailbox (its page and the
 * `platform.dev.*` procedures), which holds every email the site sent, password-reset links
 * included, answers only a client on this machine (loopback), and nobody in production.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.ts';

let web: string;
let t: TestApp;
let production: TestApp;
const SHELL = '<!doctype html><html><head></head><body><div id="root"></div></body></html>';

beforeAll(async () => {
  web = await mkdtemp(path.join(tmpdir(), 'reshelf-web-files-'));
  await mkdir(path.join(web, 'assets'));
  await writeFile(path.join(web, 'index.html'), SHELL);
  await writeFile(path.join(web, 'assets', 'app-1a2b3c.js'), 'console.log("app")');
  t = await createTestApp({ env: { WEB_DIST: web } });
  production = await createTestApp({
    env: {
      NODE_ENV: 'production',
      WEB_DIST: web,
      APP_SECRET: 'a-production-secret-that-is-long-enough-0123',
      PUBLIC_ORIGIN: 'https://reshelf.example',
      STRIPE_SECRET_KEY: 'sk_test_web_files',
      STRIPE_WEBHOOK_SECRET: 'whsec_web_files',
      EASYPOST_API_KEY: 'EZTKoffline0123',
      EASYPOST_WEBHOOK_SECRET: 'carrier-webhook-offline',
      MAIL: 'smtp',
      SMTP_URL: 'smtp://user:pw@mail.example:587',
      MAIL_FROM: 'no-reply@reshelf.example',
    },
  });
});

afterAll(async () => {
  await t?.close();
  await production?.close();
  await rm(web, { recursive: true, force: true });
});

describe('the built web’s files', () => {
  it.each(['/assets/missing-9z8y7x.js', '/assets/nested/missing.css', '/assets/missing.woff2'])(
    '%s missing is a 404, not the app',
    async (url) => {
      for (const method of ['GET', 'HEAD'] as const) {
        const response = await t.app.inject({ method, url, headers: { accept: '*/*' } });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.body).not.toContain('<div id="root">');
      }
    },
  );

  it('serves a file that is there, and the app for a page', async () => {
    const file = await t.app.inject({ method: 'GET', url: '/assets/app-1a2b3c.js' });
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe('console.log("app")');
    const page = await t.app.inject({
      method: 'GET',
      url: '/account/orders',
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
  });
});

describe('the development mailbox', () => {
  const mailbox = '/trpc/platform.dev.mailbox';

  it.each(['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1'])(
    'answers a client on this machine (%s)',
    async (from) => {
      const page = await t.app.inject({ method: 'GET', url: '/dev/mailbox', remoteAddress: from });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<div id="root">');
      const messages = await t.app.inject({ method: 'GET', url: mailbox, remoteAddress: from });
      expect(messages.statusCode).toBe(200);
    },
  );

  it.each(['203.0.113.9', '10.0.0.7', '::ffff:192.168.1.20', '2001:db8::1'])(
    'is not there for anyone else (%s)',
    async (from) => {
      const page = await t.app.inject({ method: 'GET', url: '/dev/mailbox', remoteAddress: from });
      expect(page.statusCode).toBe(404);
      expect(page.body).not.toContain('<div id="root">');
      const messages = await t.app.inject({ method: 'GET', url: mailbox, remoteAddress: from });
      expect(messages.statusCode).toBe(404);
      // Nor inside a batch.
      const batch = await t.app.inject({
        method: 'GET',
        url: `/trpc/platform.flags.public,platform.dev.mailbox?batch=1&input=${encodeURIComponent('{}')}`,
        remoteAddress: from,
      });
      const answers = JSON.parse(batch.body) as { error?: { data?: { httpStatus?: number } } }[];
      expect(answers[1]?.error?.data?.httpStatus).toBe(404);
    },
  );

  it('is not there in production, even on this machine', async () => {
    expect((await production.app.inject({ method: 'GET', url: mailbox })).statusCode).toBe(404);
    const page = await production.app.inject({ method: 'GET', url: '/dev/mailbox' });
    expect(page.statusCode).toBe(404);
  });
});
