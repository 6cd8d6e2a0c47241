/**
 * The hosted identity adapter (BACKEND=supabase) against a local Supabase Auth stand-in
 * (testing/fake-supabase.ts): real requests, ES256 tokens from a JWKS, users in auth.users.
 * Every way Auth can fail to answer is an outage (503 with Retry-After), never a 500 and never
 * "signed out".
 */
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SNAPSHOT_BOOKS } from '../../seed/books.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, TEST_PASSWORD, WEB } from '../../testing/auth.ts';
import { type FakeSupabase, hostedEnv, startFakeSupabase } from '../../testing/fake-supabase.ts';
import { createSupabaseIdentity } from './supabase.ts';

let t: TestApp;
let fake: FakeSupabase;

beforeAll(async () => {
  t = await createTestApp({
    env: async (database) => {
      fake = await startFakeSupabase({ databaseUrl: database.url, snapshot: SNAPSHOT_BOOKS });
      return hostedEnv(fake);
    },
  });
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

beforeEach(() => {
  fake.heal();
});

function me(token: string) {
  return request(t.app.server).get('/trpc/account.auth.me').set('authorization', `Bearer ${token}`);
}

describe('Supabase Auth behind the identity port', () => {
  it('signs in with the password grant and the anon key, and answers auth.me from Auth', async () => {
    expect(t.services.identity.kind).toBe('supabase');
    await createUser(t.database.handle.db, t.services.identity, 'hosted-reader@example.com');
    fake.requests.length = 0;
    const signIn = await request(t.app.server)
      .post('/trpc/account.auth.signIn')
      .set(WEB)
      .send({ email: 'hosted-reader@example.com', password: TEST_PASSWORD });
    expect(signIn.status).toBe(200);
    const token = fake.requests.find((sent) => sent.url === '/auth/v1/token?grant_type=password');
    expect(token?.headers.apikey).toBe(fake.anonKey);
    expect(JSON.parse(token!.body)).toEqual({
      email: 'hosted-reader@example.com',
      password: TEST_PASSWORD,
      gotrue_meta_security: {},
    });
    // The session cookie carries Auth's own ES256 token.
    const cookie = String(signIn.headers['set-cookie']).match(/reshelf_at=([^;]+)/)?.[1];
    expect(cookie && JSON.parse(Buffer.from(cookie.split('.')[0]!, 'base64url').toString()).alg).toBe(
      'ES256',
    );
    const answer = await me(cookie!);
    expect(answer.status).toBe(200);
    expect(answer.body.result.data.user.email).toBe('hosted-reader@example.com');
  });

  it('answers auth.me 503 with Retry-After when Auth cannot be reached, and keeps the session', async () => {
    const user = await createUser(t.database.handle.db, t.services.identity, 'hosted-outage@example.com');
    expect((await me(user.accessToken)).status).toBe(200);
    fake.fail('auth', 'down');
    // The token was checked a moment ago (cached); the user lookup is what finds Auth gone.
    const cached = await me(user.accessToken);
    expect(cached.status).toBe(503);
    expect(cached.headers['retry-after']).toBe('5');
    expect(cached.body.error.message).toBe(
      'We could not reach the sign-in service. Please try again in a moment.',
    );
    // A token not seen before: the check itself cannot be made.
    const fresh = await fake.accessToken(user.id);
    const unchecked = await me(fresh);
    expect(unchecked.status).toBe(503);
    expect(unchecked.headers['www-authenticate']).toBeUndefined();
    fake.heal();
    expect((await me(user.accessToken)).status).toBe(200);
  });

  it('treats an Auth answering 5xx as an outage too (sign-in and auth.me: 503, not 502 or 500)', async () => {
    const user = await createUser(t.database.handle.db, t.services.identity, 'hosted-5xx@example.com');
    fake.fail('auth', 'error');
    const signIn = await request(t.app.server)
      .post('/trpc/account.auth.signIn')
      .set(WEB)
      .send({ email: 'hosted-5xx@example.com', password: TEST_PASSWORD });
    expect(signIn.status).toBe(503);
    expect(signIn.headers['retry-after']).toBe('5');
    const answer = await me(user.accessToken);
    expect(answer.status).toBe(503);
  });

  it('gives up on an Auth that does not answer, as an outage', async () => {
    const identity = createSupabaseIdentity({
      url: fake.url,
      anonKey: fake.anonKey,
      serviceRoleKey: fake.serviceKey,
      db: t.database.handle.db,
      timeoutMs: 300,
    });
    fake.fail('auth', 'hang');
    const started = Date.now();
    await expect(identity.signIn('anyone@example.com', TEST_PASSWORD, {})).rejects.toMatchObject({
      code: 'unavailable',
      upstreamUnavailable: true,
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses a token Auth refuses (expired): signed out, not an outage', async () => {
    const user = await createUser(t.database.handle.db, t.services.identity, 'hosted-expired@example.com');
    const short = await fake.accessToken(user.id, { expiresInSeconds: 60 });
    fake.advanceClock(120);
    const answer = await me(short);
    expect(answer.status).toBe(200);
    expect(answer.body.result.data.user).toBeNull();
    expect(answer.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    fake.advanceClock(-120);
  });

  it('closes an account through Auth: sessions ended, the address freed, sign-in refused, the row kept', async () => {
    const db = t.database.handle.db;
    const user = await createUser(db, t.services.identity, 'hosted-closing@example.com');
    const closed = await request(t.app.server)
      .post('/trpc/account.member.close')
      .set(WEB)
      .set('authorization', `Bearer ${user.accessToken}`)
      .send({ password: TEST_PASSWORD, confirm: 'CLOSE' });
    expect(closed.status).toBe(200);
    expect(fake.requests.some((sent) => sent.method === 'DELETE')).toBe(false);
    // The token of the session that closed it no longer signs anyone in.
    expect((await me(user.accessToken)).body.result?.data.user ?? null).toBeNull();
    const again = await request(t.app.server)
      .post('/trpc/account.auth.signIn')
      .set(WEB)
      .send({ email: 'hosted-closing@example.com', password: TEST_PASSWORD });
    expect(again.status).toBe(400);
    const row = await db
      .selectFrom('auth.users')
      .select(['email', 'banned_until'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.email).toBe(`closed+${user.id}@invalid`);
    expect(row.banned_until!.getTime()).toBeGreaterThan(Date.now() + 50 * 365 * 24 * 3_600_000);
    // The address makes a new account.
    const fresh = await t.services.identity.ensureUser({
      email: 'hosted-closing@example.com',
      password: 'a-brand-new-password',
      displayName: 'New',
    });
    expect(fresh.id).not.toBe(user.id);
  });

  it('makes passwordless people through the admin API, as Auth writes them (no NULL token columns)', async () => {
    fake.requests.length = 0;
    const first = await t.services.identity.ensurePasswordlessUser({
      email: 'Demo.Person@Reshelf.test',
      displayName: 'Demo Person',
    });
    expect(first.created).toBe(true);
    const again = await t.services.identity.ensurePasswordlessUser({
      email: 'demo.person@reshelf.test',
      displayName: 'Demo Person',
    });
    expect(again).toEqual({ id: first.id, created: false });
    const creates = fake.requests.filter(
      (sent) => sent.method === 'POST' && sent.url === '/auth/v1/admin/users',
    );
    expect(creates).toHaveLength(1);
    expect(creates[0]!.headers.apikey).toBe(fake.serviceKey);
    expect(JSON.parse(creates[0]!.body)).toEqual({
      email: 'demo.person@reshelf.test',
      email_confirm: true,
      user_metadata: { display_name: 'Demo Person' },
    });
    // Nobody can sign in as them.
    await expect(t.services.identity.signIn('demo.person@reshelf.test', '', {})).rejects.toMatchObject({
      code: 'invalid_credentials',
    });
  });

  it('stands in faithfully: a user row written by SQL with NULL token columns breaks Auth’s listing', async () => {
    const { rows } = await t.database.handle.pool.query<{ id: string }>(
      `insert into auth.users (email, email_confirmed_at) values ('raw-insert@example.com', now()) returning id`,
    );
    try {
      const listed = await fetch(`${fake.url}/auth/v1/admin/users`, {
        headers: { apikey: fake.serviceKey, authorization: `Bearer ${fake.serviceKey}` },
      });
      expect(listed.status).toBe(500);
      expect(await listed.json()).toEqual({
        code: 500,
        error_code: 'unexpected_failure',
        msg: 'Database error finding users',
      });
    } finally {
      await t.database.handle.pool.query('delete from auth.users where id = $1', [rows[0]!.id]);
    }
  });
});
