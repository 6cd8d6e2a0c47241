import { CLIENT_HEADER } from '@reshelf/contracts';
import { sql } from 'kysely';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, lastEmailTo, linkToken, TEST_PASSWORD, WEB } from '../../testing/auth.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

const call = (path: string) => `/trpc/${path}`;

function agent() {
  return request.agent(t.app.server);
}

async function signUp(email: string, password = 'a-long-new-password') {
  return request(t.app.server)
    .post(call('account.auth.signUp'))
    .set(WEB)
    .send({ email, password, displayName: 'Jo March' });
}

function cookieNames(response: request.Response): string[] {
  const raw = response.headers['set-cookie'] as unknown as string[] | undefined;
  return (raw ?? []).map((cookie) => cookie.split('=')[0]!);
}

describe('sign-up and confirmation', () => {
  it('creates an unconfirmed account, emails a link, and the link confirms and signs in', async () => {
    const email = 'jo.march@example.com';
    const response = await signUp(email);
    expect(response.status).toBe(200);
    expect(response.body.result.data).toEqual({ email });

    const refused = await request(t.app.server)
      .post(call('account.auth.signIn'))
      .set(WEB)
      .send({ email, password: 'a-long-new-password' });
    expect(refused.status).toBe(412);
    expect(refused.body.error.message).toMatch(/confirm your email address first/);

    const mail = await lastEmailTo(t.database.handle.db, email);
    expect(mail?.subject).toBe('Confirm your email address');
    expect(mail?.text_body).toContain('Hello Jo March');
    const token = linkToken(mail!.text_body, '/auth/confirm');

    const browser = agent();
    const confirmed = await browser.post(call('account.auth.confirmEmail')).set(WEB).send({ token });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.result.data.user).toMatchObject({
      email,
      emailConfirmed: true,
      displayName: 'Jo March',
    });
    expect(confirmed.body.result.data.tokens).toBeUndefined();
    expect(cookieNames(confirmed)).toEqual(['reshelf_at', 'reshelf_rt']);

    const me = await browser.get(call('account.auth.me'));
    expect(me.body.result.data.user).toMatchObject({ email, signupCompleted: false, onboarded: false });

    // The link works once.
    const again = await request(t.app.server)
      .post(call('account.auth.confirmEmail'))
      .set(WEB)
      .send({ token });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe('This confirmation link is not valid or has already been used.');
  });

  it('says what to fix in a weak password, and saves nothing', async () => {
    const short = await signUp('weak@example.com', 'short');
    expect(short.status).toBe(400);
    expect(short.body.error.message).toBe('password: Use at least 10 characters');
    const common = await signUp('weak@example.com', 'password123');
    expect(common.status).toBe(400);
    expect(common.body.error.message).toMatch(/one of the most common passwords/);
    const users = await t.database.handle.db
      .selectFrom('auth.users')
      .select('id')
      .where('email', '=', 'weak@example.com')
      .execute();
    expect(users).toEqual([]);
  });

  it('answers a second sign-up with the same address the same way, emailing the owner instead', async () => {
    const email = 'twice@example.com';
    await createUser(t.database.handle.db, t.services.identity, email);
    const response = await signUp(email, 'another-long-password');
    expect(response.status).toBe(200);
    expect(response.body.result.data).toEqual({ email });
    const mail = await lastEmailTo(t.database.handle.db, email);
    expect(mail?.subject).toBe('You already have a Reshelf account');
    // The password was not changed by the second sign-up.
    const signIn = await request(t.app.server)
      .post(call('account.auth.signIn'))
      .set(WEB)
      .send({ email, password: TEST_PASSWORD });
    expect(signIn.status).toBe(200);
  });

  it('expires a confirmation link after 24 hours', async () => {
    const email = 'late@example.com';
    await signUp(email);
    const token = linkToken((await lastEmailTo(t.database.handle.db, email))!.text_body, '/auth/confirm');
    await sql`update auth.one_time_tokens set expires_at = now() - interval '1 second'`.execute(
      t.database.handle.db,
    );
    const response = await request(t.app.server)
      .post(call('account.auth.confirmEmail'))
      .set(WEB)
      .send({ token });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toBe('This confirmation link has expired. Please ask for a new one.');
  });

  it('carries `next` (where the person was going) through the emailed link, and its resend', async () => {
    const email = 'buying-on-the-way@example.com';
    const next = '/checkout?listing=middlemarch-1a2b';
    const response = await request(t.app.server)
      .post(call('account.auth.signUp'))
      .set(WEB)
      .send({ email, password: 'a-long-new-password', displayName: 'Dorothea', next });
    expect(response.status).toBe(200);
    const link = (text: string) => /https?:\/\/\S+\/auth\/confirm\?\S+/.exec(text)?.[0] ?? '';
    const first = new URL(link((await lastEmailTo(t.database.handle.db, email))!.text_body));
    expect(first.pathname).toBe('/auth/confirm');
    expect(first.searchParams.get('next')).toBe(next);
    expect(first.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{40,}$/);

    const resent = await request(t.app.server)
      .post(call('account.auth.resendConfirmation'))
      .set(WEB)
      .send({ email, next });
    expect(resent.status).toBe(200);
    const second = new URL(link((await lastEmailTo(t.database.handle.db, email))!.text_body));
    expect(second.searchParams.get('next')).toBe(next);
    expect(second.searchParams.get('token')).not.toBe(first.searchParams.get('token'));
  });

  it.each(['//evil.example/checkout', 'https://evil.example/', 'javascript:alert(1)', 'checkout'])(
    'refuses next=%s as somewhere other than this site, and sends nothing',
    async (next) => {
      const email = `open-redirect-${next.length}@example.com`;
      const response = await request(t.app.server)
        .post(call('account.auth.signUp'))
        .set(WEB)
        .send({ email, password: 'a-long-new-password', displayName: 'Casaubon', next });
      expect(response.status).toBe(400);
      expect(response.body.error.message).toMatch(/next must be a path on this site/);
      expect(await lastEmailTo(t.database.handle.db, email)).toBeUndefined();
    },
  );
});

describe('sessions', () => {
  it('signs in with cookies for the web client and tokens for other clients', async () => {
    const user = await createUser(t.database.handle.db, t.services.identity, 'cookies@example.com');
    const web = await request(t.app.server)
      .post(call('account.auth.signIn'))
      .set(WEB)
      .send({ email: user.email, password: TEST_PASSWORD });
    expect(web.body.result.data.tokens).toBeUndefined();
    const cookies = web.headers['set-cookie'] as unknown as string[];
    expect(cookies.every((cookie) => /HttpOnly/.test(cookie) && /SameSite=Lax/.test(cookie))).toBe(true);

    const app = await request(t.app.server)
      .post(call('account.auth.signIn'))
      .set(CLIENT_HEADER, 'app')
      .send({ email: user.email, password: TEST_PASSWORD });
    const tokens = app.body.result.data.tokens;
    expect(tokens.accessToken.split('.')).toHaveLength(3);
    const me = await request(t.app.server)
      .get(call('account.auth.me'))
      .set('authorization', `Bearer ${tokens.accessToken}`);
    expect(me.body.result.data.user.email).toBe(user.email);
  });

  it('puts Supabase claims in the access token', async () => {
    const user = await createUser(t.database.handle.db, t.services.identity, 'claims@example.com');
    const payload = JSON.parse(Buffer.from(user.accessToken.split('.')[1]!, 'base64url').toString());
    expect(payload).toMatchObject({
      sub: user.id,
      role: 'authenticated',
      email: user.email,
      aud: 'authenticated',
    });
    expect(payload.exp - payload.iat).toBe(15 * 60);
  });

  it('refreshes an expired browser session on the way through, without the person noticing', async () => {
    const user = await createUser(t.database.handle.db, t.services.identity, 'refresh@example.com');
    const response = await request(t.app.server)
      .get(call('account.member.profile'))
      .set('cookie', `reshelf_rt=${user.refreshToken}`);
    expect(response.status).toBe(200);
    expect(cookieNames(response)).toEqual(['reshelf_at', 'reshelf_rt']);
  });

  it('rotates refresh tokens and ends the session when an old one is replayed', async () => {
    const user = await createUser(t.database.handle.db, t.services.identity, 'rotate@example.com');
    const first = await request(t.app.server)
      .post(call('account.auth.refresh'))
      .set(CLIENT_HEADER, 'app')
      .send({ refreshToken: user.refreshToken });
    expect(first.status).toBe(200);
    const next = first.body.result.data.tokens.refreshToken;
    expect(next).not.toBe(user.refreshToken);

    // Replayed after the short grace period for concurrent refreshes: theft.
    await sql`update auth.refresh_tokens set revoked_at = now() - interval '1 minute' where revoked`.execute(
      t.database.handle.db,
    );
    const replay = await request(t.app.server)
      .post(call('account.auth.refresh'))
      .set(CLIENT_HEADER, 'app')
      .send({ refreshToken: user.refreshToken });
    expect(replay.status).toBe(401);
    expect(replay.body.error.message).toBe('Your session has ended for your security. Please sign in again.');
    // The whole session is gone: the newer token and the access token too.
    const after = await request(t.app.server)
      .post(call('account.auth.refresh'))
      .set(CLIENT_HEADER, 'app')
      .send({ refreshToken: next });
    expect(after.status).toBe(400);
    const me = await request(t.app.server)
      .get(call('account.member.profile'))
      .set('authorization', `Bearer ${user.accessToken}`);
    expect(me.status).toBe(401);
  });

  it('signs out this device or everywhere', async () => {
    const email = 'signout@example.com';
    const phone = await createUser(t.database.handle.db, t.services.identity, email);
    const laptop = await t.services.identity.signIn(email, TEST_PASSWORD, {});
    const tablet = await t.services.identity.signIn(email, TEST_PASSWORD, {});
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

    await request(t.app.server)
      .post(call('account.auth.signOut'))
      .set(bearer(phone.accessToken))
      .send({ scope: 'local' });
    expect(
      (await request(t.app.server).get(call('account.member.profile')).set(bearer(phone.accessToken))).status,
    ).toBe(401);
    expect(
      (await request(t.app.server).get(call('account.member.profile')).set(bearer(laptop.accessToken)))
        .status,
    ).toBe(200);

    await request(t.app.server)
      .post(call('account.auth.signOut'))
      .set(bearer(laptop.accessToken))
      .send({ scope: 'global' });
    expect(
      (await request(t.app.server).get(call('account.member.profile')).set(bearer(tablet.accessToken)))
        .status,
    ).toBe(401);
  });

  it('refuses cookies in production without __Host- and Secure, and sets both', async () => {
    const prod = await createTestApp({
      env: {
        NODE_ENV: 'production',
        PUBLIC_ORIGIN: 'https://reshelf.example',
        APP_SECRET: 'p'.repeat(40),
        STRIPE_SECRET_KEY: 'sk_test_offline',
        STRIPE_WEBHOOK_SECRET: 'whsec_offline',
        EASYPOST_API_KEY: 'EZTKoffline0123',
        EASYPOST_WEBHOOK_SECRET: 'carrier-webhook-offline',
        // Production mail must leave the building; nothing here sends any (port 9 discards).
        MAIL: 'smtp',
        SMTP_URL: 'smtp://127.0.0.1:9',
        MAIL_FROM: 'Reshelf <no-reply@reshelf.example>',
      },
    });
    try {
      const user = await createUser(prod.database.handle.db, prod.services.identity, 'prod@example.com');
      const response = await request(prod.app.server)
        .post(call('account.auth.signIn'))
        .set(WEB)
        .send({ email: user.email, password: TEST_PASSWORD });
      const cookies = response.headers['set-cookie'] as unknown as string[];
      expect(cookieNames(response)).toEqual(['__Host-reshelf_at', '__Host-reshelf_rt']);
      expect(cookies.every((cookie) => /; Secure/.test(cookie) && /Path=\//.test(cookie))).toBe(true);
      const demo = await request(prod.app.server)
        .post(call('account.auth.signIn'))
        .set(WEB)
        .send({ email: 'buyer@reshelf.test', password: 'reshelf-demo' });
      expect(demo.status).toBe(403);
      expect(demo.body.error.message).toBe('Demo accounts are not available on this site.');
    } finally {
      await prod.close();
    }
  });
});

describe('password reset', () => {
  it('answers the same whether or not the address exists', async () => {
    const known = await createUser(t.database.handle.db, t.services.identity, 'known@example.com');
    const a = await request(t.app.server)
      .post(call('account.auth.requestPasswordReset'))
      .set(WEB)
      .send({ email: known.email });
    const b = await request(t.app.server)
      .post(call('account.auth.requestPasswordReset'))
      .set(WEB)
      .send({ email: 'nobody@example.com' });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body).toEqual(b.body);
    expect(await lastEmailTo(t.database.handle.db, 'nobody@example.com')).toBeUndefined();
    expect((await lastEmailTo(t.database.handle.db, known.email))?.subject).toBe(
      'Reset your Reshelf password',
    );
  });

  it('resets with a single-use link and signs out every session', async () => {
    const user = await createUser(t.database.handle.db, t.services.identity, 'reset@example.com');
    await request(t.app.server)
      .post(call('account.auth.requestPasswordReset'))
      .set(WEB)
      .send({ email: user.email });
    const token = linkToken(
      (await lastEmailTo(t.database.handle.db, user.email))!.text_body,
      '/reset-password',
    );

    const weak = await request(t.app.server)
      .post(call('account.auth.resetPassword'))
      .set(WEB)
      .send({ token, password: 'qwertyuiop' });
    expect(weak.status).toBe(400);

    const done = await request(t.app.server)
      .post(call('account.auth.resetPassword'))
      .set(WEB)
      .send({ token, password: 'a-brand-new-password' });
    expect(done.status).toBe(200);
    const old = await request(t.app.server)
      .get(call('account.member.profile'))
      .set('authorization', `Bearer ${user.accessToken}`);
    expect(old.status).toBe(401);

    const reused = await request(t.app.server)
      .post(call('account.auth.resetPassword'))
      .set(WEB)
      .send({ token, password: 'yet-another-password' });
    expect(reused.body.error.message).toBe('This password reset link is not valid or has already been used.');

    const signIn = await request(t.app.server)
      .post(call('account.auth.signIn'))
      .set(WEB)
      .send({ email: user.email, password: 'a-brand-new-password' });
    expect(signIn.status).toBe(200);
  });

  it('expires a reset link after 1 hour', async () => {
    const user = await createUser(t.database.handle.db, t.services.identity, 'hour@example.com');
    await request(t.app.server)
      .post(call('account.auth.requestPasswordReset'))
      .set(WEB)
      .send({ email: user.email });
    const token = linkToken(
      (await lastEmailTo(t.database.handle.db, user.email))!.text_body,
      '/reset-password',
    );
    const row = await t.database.handle.db
      .selectFrom('auth.one_time_tokens')
      .select(sql<number>`extract(epoch from expires_at - created_at)::int`.as('ttl'))
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.ttl).toBe(3600);
    await sql`update auth.one_time_tokens set expires_at = now() - interval '1 second' where user_id = ${user.id}`.execute(
      t.database.handle.db,
    );
    const response = await request(t.app.server)
      .post(call('account.auth.resetPassword'))
      .set(WEB)
      .send({ token, password: 'a-brand-new-password' });
    expect(response.body.error.message).toBe(
      'This password reset link has expired. Please ask for a new one.',
    );
  });
});

/** bcrypt (cost 4) of TEST_PASSWORD: what the local provider stored before argon2id. */
const OLD_BCRYPT_HASH = '$2b$04$FzdOmE3y3ejRIPTmxqdpeulgVrXhwARnrNiA4woHgYHsJvsGbzAlm';
const OWASP_ARGON2ID_PREFIX = '$argon2id$v=19$m=19456,t=2,p=1$';

async function storedHash(email: string): Promise<string | null> {
  const row = await t.database.handle.db
    .selectFrom('auth.users')
    .select('encrypted_password')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return row.encrypted_password;
}

describe('password hashing', () => {
  it('stores a new password as argon2id at OWASP parameters', async () => {
    const email = 'argon@example.com';
    await signUp(email);
    expect((await storedHash(email))?.startsWith(OWASP_ARGON2ID_PREFIX)).toBe(true);
  });

  it('replaces an old bcrypt hash at the next correct sign-in, and keeps it on a wrong one', async () => {
    const user = await createUser(t.database.handle.db, t.services.identity, 'bcrypt-era@example.com');
    await t.database.handle.db
      .updateTable('auth.users')
      .set({ encrypted_password: OLD_BCRYPT_HASH })
      .where('id', '=', user.id)
      .execute();
    const wrong = await request(t.app.server)
      .post(call('account.auth.signIn'))
      .set(WEB)
      .send({ email: user.email, password: 'not-the-password' });
    expect(wrong.status).toBe(400);
    expect(await storedHash(user.email)).toBe(OLD_BCRYPT_HASH);

    const right = await request(t.app.server)
      .post(call('account.auth.signIn'))
      .set(WEB)
      .send({ email: user.email, password: TEST_PASSWORD });
    expect(right.status).toBe(200);
    const rehashed = await storedHash(user.email);
    expect(rehashed?.startsWith(OWASP_ARGON2ID_PREFIX)).toBe(true);
    // And the new hash works.
    const again = await request(t.app.server)
      .post(call('account.auth.signIn'))
      .set(WEB)
      .send({ email: user.email, password: TEST_PASSWORD });
    expect(again.status).toBe(200);
    expect(await storedHash(user.email)).toBe(rehashed);
  });
});

describe('rate limits', () => {
  it('allows at most 10 failed sign-ins per account per 15 minutes, with Retry-After', async () => {
    const user = await createUser(t.database.handle.db, t.services.identity, 'guessed@example.com');
    for (let attempt = 1; attempt <= 10; attempt++) {
      const wrong = await request(t.app.server)
        .post(call('account.auth.signIn'))
        .set(WEB)
        .send({ email: user.email, password: `wrong-guess-${attempt}` });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error.message).toBe('Incorrect email or password.');
    }
    const blocked = await request(t.app.server)
      .post(call('account.auth.signIn'))
      .set(WEB)
      .send({ email: user.email, password: TEST_PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.message).toMatch(/^Too many attempts\. Try again in (\d+) minutes?\.$/);
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  });

  it('limits resending the confirmation email per account', async () => {
    const email = 'resend@example.com';
    await signUp(email);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await request(t.app.server)
        .post(call('account.auth.resendConfirmation'))
        .set(WEB)
        .send({ email });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('CSRF', () => {
  it('refuses a cookie-authenticated mutation without the client header or from another origin', async () => {
    const noHeader = await request(t.app.server)
      .post(call('account.auth.signOut'))
      .set('cookie', 'reshelf_at=x')
      .send({ scope: 'global' });
    expect(noHeader.status).toBe(403);
    expect(noHeader.body.message).toMatch(/must send the x-reshelf-client header/);

    const foreign = await request(t.app.server)
      .post(call('account.auth.signOut'))
      .set(WEB)
      .set('origin', 'https://evil.example')
      .send({ scope: 'global' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.message).toBe('Requests from https://evil.example are not accepted.');
  });

  it('lets bearer-token clients through without the header', async () => {
    const user = await createUser(t.database.handle.db, t.services.identity, 'bearer@example.com');
    const response = await request(t.app.server)
      .post(call('account.member.completeSignup'))
      .set('authorization', `Bearer ${user.accessToken}`)
      .send({ displayName: 'Bearer Person' });
    expect(response.status).toBe(200);
  });
});

describe('logs', () => {
  it('never contain a password, token or cookie value', async () => {
    const user = await createUser(t.database.handle.db, t.services.identity, 'logs@example.com');
    await request(t.app.server)
      .post(call('account.auth.signIn'))
      .set(WEB)
      .send({ email: user.email, password: TEST_PASSWORD });
    await request(t.app.server)
      .get(call('account.member.profile'))
      .set('cookie', `reshelf_rt=${user.refreshToken}`);
    await request(t.app.server).get(`${call('account.auth.me')}?token=${user.refreshToken}`);
    await request(t.app.server)
      .get(call('account.auth.me'))
      .set('authorization', `Bearer ${user.accessToken}`);
    const text = t.logs.join('\n');
    expect(text.length).toBeGreaterThan(0);
    for (const secret of [
      TEST_PASSWORD,
      user.refreshToken,
      user.accessToken,
      user.accessToken.split('.')[2]!,
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});
