/**
 * `pnpm ops bootstrap` on a new site: an empty database (no migrations yet), the server's
 * production environment, nobody to ask for a token. It makes the first admin; the link it
 * gives sets the password; that person signs in as an admin with the super_admin tier; a
 * second run is refused; the audit log says who did it.
 */
import { CLIENT_HEADER } from '@reshelf/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOps } from '../scripts/ops.ts';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { createDatabase, type DatabaseHandle } from './db/index.ts';
import { createSecrets } from './secrets.ts';
import { createServices } from './services.ts';
import { createEmptyDatabase } from './testing/db.ts';

/** A client other than the web (which gets cookies): answers carry the tokens. */
const CLIENT = { [CLIENT_HEADER]: 'ops-test' };

const SECRET = 'a-production-secret-for-bootstrap-tests-0123456789';
const ORIGIN = 'https://reshelf.example';

let database: Awaited<ReturnType<typeof createEmptyDatabase>>;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  database = await createEmptyDatabase();
  env = {
    NODE_ENV: 'production',
    DATABASE_URL: database.url,
    APP_SECRET: SECRET,
    PUBLIC_ORIGIN: ORIGIN,
    STRIPE_SECRET_KEY: 'sk_test_bootstrap',
    STRIPE_WEBHOOK_SECRET: 'whsec_bootstrap',
    EASYPOST_API_KEY: 'EZTKoffline0123',
    EASYPOST_WEBHOOK_SECRET: 'carrier-webhook-offline',
    // Production mail must leave the building; these tests print the link instead.
    MAIL: 'smtp',
    SMTP_URL: 'smtp://127.0.0.1:9/',
    MAIL_FROM: 'Reshelf <no-reply@reshelf.example>',
  };
});

afterAll(async () => {
  await database?.drop();
});

async function ops(args: string[], extraEnv: NodeJS.ProcessEnv = {}) {
  let out = '';
  let err = '';
  const code = await runOps(args, {
    env: { ...env, ...extraEnv },
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
  });
  return { code, out, err };
}

/** The app on the bootstrapped database, as the server would run it (bearer tokens, no cookies). */
async function appOn(handle: DatabaseHandle) {
  const config = loadConfig({ ...env, NODE_ENV: 'test', LOG_LEVEL: 'silent', WEB_DIST: 'api/.no-web-dist' });
  const secrets = createSecrets(SECRET);
  const services = await createServices(config, handle, secrets);
  const app = await buildApp({ config, database: handle, secrets, services });
  await app.ready();
  return app;
}

describe('pnpm ops bootstrap', () => {
  it('makes the first admin on an empty database; the link sets the password; a second run is refused', async () => {
    const first = await ops([
      'bootstrap',
      '--email',
      ' First.Admin@Example.com ',
      '--name',
      'First Admin',
      '--print-link',
    ]);
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain(
      'first.admin@example.com is now an admin with the super_admin tier (a new account)',
    );
    // Migrated as a start would (embedded backend: the auth tables first).
    expect(first.err).toMatch(/migrations: [1-9]\d* applied, 0 already in place/);
    const link = /(https:\/\/reshelf\.example\/reset-password\?token=[A-Za-z0-9_-]+)/.exec(first.out)?.[1];
    expect(link, first.out).toBeDefined();

    const handle = createDatabase(database.url, { max: 3 });
    const app = await appOn(handle);
    try {
      const token = new URL(link!).searchParams.get('token');
      const password = 'a-brand-new-passphrase-for-the-admin';
      const reset = await app.inject({
        method: 'POST',
        url: '/trpc/account.auth.resetPassword',
        headers: { ...CLIENT, 'content-type': 'application/json' },
        payload: { token, password },
      });
      expect(reset.statusCode, reset.body).toBe(200);
      // The link works once.
      const again = await app.inject({
        method: 'POST',
        url: '/trpc/account.auth.resetPassword',
        headers: { ...CLIENT, 'content-type': 'application/json' },
        payload: { token, password: 'another-passphrase-entirely-123' },
      });
      expect(again.statusCode).toBe(400);

      const signIn = await app.inject({
        method: 'POST',
        url: '/trpc/account.auth.signIn',
        headers: { ...CLIENT, 'content-type': 'application/json' },
        payload: { email: 'first.admin@example.com', password },
      });
      expect(signIn.statusCode, signIn.body).toBe(200);
      const accessToken = (signIn.json() as { result: { data: { tokens: { accessToken: string } } } }).result
        .data.tokens.accessToken;
      const me = await app.inject({
        method: 'GET',
        url: '/trpc/account.auth.me',
        headers: { authorization: `Bearer ${accessToken}` },
      });
      expect((me.json() as { result: { data: { user: unknown } } }).result.data.user).toMatchObject({
        email: 'first.admin@example.com',
        displayName: 'First Admin',
        isAdmin: true,
        adminTier: 'super_admin',
      });

      const audit = await handle.db
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'admin.bootstrap')
        .execute();
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ actor_email: 'first.admin@example.com', target_type: 'user' });
      expect(audit[0]?.details).toMatchObject({
        role: 'admin',
        tier: 'super_admin',
        accountCreated: true,
        by: expect.stringContaining('(pnpm ops bootstrap)'),
      });
    } finally {
      await app.close();
      await handle.close();
    }

    // An admin exists now: nothing changes, whoever is named.
    const second = await ops(['bootstrap', '--email', 'someone.else@example.com']);
    expect(second.code).toBe(5);
    expect(second.err).toMatch(/Refused: An active admin already exists \(first\.admin@example\.com\)/);
    expect(second.out).toBe('');
    const check = createDatabase(database.url, { max: 1 });
    try {
      const others = await check.db.selectFrom('auth.users').select('email').execute();
      expect(others.map((row) => row.email)).toEqual(['first.admin@example.com']);
    } finally {
      await check.close();
    }
  });

  it('prints the link, and emails nothing, where mail does not leave the building (the dev mailbox)', async () => {
    const empty = await createEmptyDatabase();
    try {
      const run = await ops(['bootstrap', '--email', 'dev.admin@example.com'], {
        NODE_ENV: 'development',
        DATABASE_URL: empty.url,
        PUBLIC_ORIGIN: 'http://localhost:3000',
        PAYMENTS: 'test',
        MAIL: 'dev',
      });
      expect(run.code, run.err).toBe(0);
      expect(run.out).toMatch(
        /it was not emailed\):\n\n {2}http:\/\/localhost:3000\/reset-password\?token=[A-Za-z0-9_-]+\n/,
      );
      const handle = createDatabase(empty.url, { max: 1 });
      try {
        expect(await handle.db.selectFrom('email_outbox').select('id').execute()).toEqual([]);
      } finally {
        await handle.close();
      }
    } finally {
      await empty.drop();
    }
  });

  it('says what is wrong with its input or its configuration', async () => {
    const usage = await ops(['bootstrap']);
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/--email is required/);
    expect((await ops(['bootstrap', '--email', 'not-an-email'])).err).toMatch(
      /--email must be an email address/,
    );
    expect((await ops(['bootstrap', '--email', 'a@example.com', '--tier', 'read_only'])).err).toMatch(
      /--tier must be super_admin for the first admin/,
    );
    expect((await ops(['bootstrap', '--email', 'a@example.com', '--role', 'moderator'])).code).toBe(2);
    const missing = await ops(['bootstrap', '--email', 'a@example.com'], {
      APP_SECRET: '',
      DATABASE_URL: '',
    });
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(
      /DATABASE_URL is required in production[\s\S]*APP_SECRET is required in production/,
    );
  });
});
