/**
 * Every limiter checks and counts in one step: however many attempts arrive at once, at most
 * the limit's worth is evaluated and the rest are refused (429) without being looked at.
 */
import { CLIENT_HEADER } from '@reshelf/contracts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_LIMITS, SIGN_IN_FAILURES } from '../account/auth/auth.service.ts';
import { CONTACT_LIMIT, submitContactMessage } from '../platform/contact/contact.service.ts';
import { API_TOKEN_FAILURES, API_TOKEN_REFUSALS } from '../platform/identity/resolve-auth.ts';
import { createTestApp, type TestApp } from '../testing/app.ts';
import { createUser, lastEmailTo, linkToken, TEST_PASSWORD } from '../testing/auth.ts';
import { api, failure } from '../testing/client.ts';

let t: TestApp;
/** Sign-ins that reached the identity provider, i.e. had their password checked. */
const checked: string[] = [];

beforeAll(async () => {
  t = await createTestApp({
    // The attacker's addresses ride in X-Forwarded-For from the test's own connection.
    env: { TRUST_PROXY: 'loopback' },
    services: (defaults) => ({
      ...defaults,
      identity: {
        ...defaults.identity,
        signIn(email, password, info) {
          checked.push(email);
          return defaults.identity.signIn(email, password, info);
        },
      },
    }),
  });
});

afterAll(async () => {
  await t.close();
});

const WEB = { [CLIENT_HEADER]: 'web' };

function signIn(email: string, password: string, from?: string) {
  return request(t.app.server)
    .post('/trpc/account.auth.signIn')
    .set({ ...WEB, ...(from ? { 'x-forwarded-for': from } : {}) })
    .send({ email, password });
}

function counts(statuses: number[]): Record<number, number> {
  const result: Record<number, number> = {};
  for (const status of statuses) result[status] = (result[status] ?? 0) + 1;
  return result;
}

describe('the per-account wrong-password limit', () => {
  it('checks at most the limit’s worth of 40 concurrent wrong passwords and refuses the rest', async () => {
    const user = await createUser(t.database.handle.db, t.services.identity, 'stormed@example.com');
    checked.length = 0;
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, index) => signIn(user.email, `wrong-guess-${index}`)),
    );
    const limit = AUTH_LIMITS.signInFailures.limit;
    expect(checked.filter((email) => email === user.email)).toHaveLength(limit);
    expect(counts(responses.map((response) => response.status))).toEqual({ 400: limit, 429: 40 - limit });
    for (const response of responses.filter((each) => each.status === 429)) {
      expect(response.body.error.message).toMatch(/^Too many attempts\. Try again in \d+ minutes?\.$/);
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }

    // The right password is refused too until the window passes, without being checked.
    const right = await signIn(user.email, TEST_PASSWORD);
    expect(right.status).toBe(429);
    expect(checked.filter((email) => email === user.email)).toHaveLength(limit);
  });

  it('gives the slot back when the password was right, so only wrong ones count', async () => {
    const user = await createUser(t.database.handle.db, t.services.identity, 'forgetful@example.com');
    // A fresh window for this address's sign-ins (the test above used most of it).
    await t.database.handle.db
      .deleteFrom('rate_limits')
      .where('bucket', '=', AUTH_LIMITS.signInIp.bucket)
      .execute();
    const limit = AUTH_LIMITS.signInFailures.limit;
    for (let round = 0; round < 3; round += 1) {
      const wrong = await Promise.all(
        Array.from({ length: limit - 1 }, (_, index) => signIn(user.email, `nearly-${round}-${index}`)),
      );
      expect(wrong.every((response) => response.status === 400)).toBe(true);
      // A success forgets the failures before it.
      expect((await signIn(user.email, TEST_PASSWORD)).status).toBe(200);
    }
    const rows = await t.database.handle.db
      .selectFrom('rate_limits')
      .select(['bucket', 'key', 'hits'])
      .where('bucket', 'in', [AUTH_LIMITS.signInFailures.bucket, AUTH_LIMITS.signInAccountFailures.bucket])
      .where('key', 'like', `${user.email}%`)
      .execute();
    expect(rows).toEqual([]);
  });
});

describe('an attacker who knows the address', () => {
  it('cannot lock the owner out with wrong passwords from rotating addresses', async () => {
    const user = await createUser(t.database.handle.db, t.services.identity, 'targeted@example.com');
    checked.length = 0;
    // The probe: ten wrong passwords, each from a new address, then a few more.
    for (let n = 1; n <= 12; n += 1) {
      expect((await signIn(user.email, `wrong-${n}`, `198.51.100.${n}`)).status).toBe(400);
    }
    // An address that failed at this account is now refused, unchecked, even with the right password.
    const known = await signIn(user.email, TEST_PASSWORD, '198.51.100.3');
    expect(known.status).toBe(429);
    expect(known.body.error.message).toMatch(
      /^Too many attempts\. Try again in \d+ minutes?, or reset your password to sign in now\.$/,
    );
    expect(checked.filter((email) => email === user.email)).toHaveLength(12);
    // The owner, from an address with no failures at the account, gets in.
    const owner = await signIn(user.email, TEST_PASSWORD, '203.0.113.10');
    expect(owner.status).toBe(200);
  });

  it('gets one guess per new address once the account is under attack, none past the ceiling; a reset lets the owner in', async () => {
    const user = await createUser(t.database.handle.db, t.services.identity, 'besieged@example.com');
    const { freshOnlyAfter } = SIGN_IN_FAILURES;
    const ceiling = SIGN_IN_FAILURES.account.limit;
    // Past the soft line, an address that has failed once is refused on its second guess.
    for (let n = 1; n <= freshOnlyAfter; n += 1) {
      expect((await signIn(user.email, `wrong-${n}`, '192.0.2.1')).status).toBe(400);
    }
    expect((await signIn(user.email, 'wrong-again', '192.0.2.1')).status).toBe(429);
    for (let n = freshOnlyAfter + 1; n <= ceiling; n += 1) {
      const from = `10.1.${Math.floor(n / 250)}.${n % 250}`;
      expect((await signIn(user.email, `wrong-${n}`, from)).status, `guess ${n}`).toBe(400);
      expect((await signIn(user.email, `wrong-${n}-again`, from)).status, `guess ${n} again`).toBe(429);
    }
    // The ceiling: nothing is checked now, the owner's right password from a new address included.
    checked.length = 0;
    const locked = await signIn(user.email, TEST_PASSWORD, '203.0.113.20');
    expect(locked.status).toBe(429);
    expect(locked.body.error.message).toContain('or reset your password to sign in now');
    expect(checked).toEqual([]);

    // The emailed reset link proves who they are: the lock goes with the old password.
    await request(t.app.server)
      .post('/trpc/account.auth.requestPasswordReset')
      .set({ ...WEB, 'x-forwarded-for': '203.0.113.20' })
      .send({ email: user.email })
      .expect(200);
    const mail = await lastEmailTo(t.database.handle.db, user.email);
    const token = linkToken(mail!.text_body, '/reset-password');
    await request(t.app.server)
      .post('/trpc/account.auth.resetPassword')
      .set({ ...WEB, 'x-forwarded-for': '203.0.113.20' })
      .send({ token, password: 'a-brand-new-password' })
      .expect(200);
    expect((await signIn(user.email, 'a-brand-new-password', '203.0.113.20')).status).toBe(200);
  });

  it('cannot stop the owner closing their account with wrong passwords from rotating addresses', async () => {
    const user = await createUser(
      t.database.handle.db,
      t.services.identity,
      'closing-under-fire@example.com',
    );
    const close = (password: string, from: string) =>
      api(t.app, {
        token: user.accessToken,
        headers: { 'x-forwarded-for': from },
      }).account.member.close.mutate({
        password,
        confirm: 'CLOSE',
      });
    for (let n = 1; n <= 12; n += 1) {
      expect((await failure(close(`wrong-${n}`, `198.51.100.${100 + n}`))).status).toBe(400);
    }
    expect((await failure(close(TEST_PASSWORD, '198.51.100.101'))).status).toBe(429);
    await close(TEST_PASSWORD, '203.0.113.30');
    const profile = await t.database.handle.db
      .selectFrom('profiles')
      .select('closed_at')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(profile.closed_at).not.toBeNull();
  });
});

describe('the per-IP limit on API tokens that do not work', () => {
  it('looks up at most the limit’s worth of 40 concurrent forged tokens', async () => {
    await t.database.handle.db
      .deleteFrom('rate_limits')
      .where('bucket', 'in', [API_TOKEN_FAILURES.bucket, API_TOKEN_REFUSALS.bucket])
      .execute();
    const before = t.logs.filter((line) => line.includes('API token refused')).length;
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        request(t.app.server)
          .get('/trpc/account.auth.me')
          .set('authorization', `Bearer rsk_${String(index).padStart(40, 'A')}`),
      ),
    );
    const refusedLookups = t.logs.filter((line) => line.includes('API token refused')).length - before;
    expect(refusedLookups).toBe(API_TOKEN_FAILURES.limit);
    expect(counts(responses.map((response) => response.status))).toEqual({
      401: API_TOKEN_FAILURES.limit,
      429: 40 - API_TOKEN_FAILURES.limit,
    });
    await t.database.handle.db
      .deleteFrom('rate_limits')
      .where('bucket', 'in', [API_TOKEN_FAILURES.bucket, API_TOKEN_REFUSALS.bucket])
      .execute();
  });

  it('does not count a token that works, and serves a burst of working calls bigger than the limit', async () => {
    await t.database.handle.db
      .deleteFrom('rate_limits')
      .where('bucket', 'in', [API_TOKEN_FAILURES.bucket, API_TOKEN_REFUSALS.bucket])
      .execute();
    const owner = await createUser(t.database.handle.db, t.services.identity, 'scripter@example.com', {
      roles: ['moderator'],
    });
    const created = await request(t.app.server)
      .post('/trpc/account.apiTokens.create')
      .set('authorization', `Bearer ${owner.accessToken}`)
      .send({ name: 'Nightly export', scope: 'read', expiresInDays: 30 });
    expect(created.status).toBe(200);
    const token = created.body.result.data.token as string;
    const calls = await Promise.all(
      Array.from({ length: API_TOKEN_FAILURES.limit * 3 }, () =>
        request(t.app.server).get('/trpc/account.auth.me').set('authorization', `Bearer ${token}`),
      ),
    );
    expect(counts(calls.map((response) => response.status))).toEqual({ 200: API_TOKEN_FAILURES.limit * 3 });
    const rows = await t.database.handle.db
      .selectFrom('rate_limits')
      .select('hits')
      .where('bucket', 'in', [API_TOKEN_FAILURES.bucket, API_TOKEN_REFUSALS.bucket])
      .execute();
    expect(rows.reduce((sum, row) => sum + row.hits, 0)).toBe(0);
  });

  it('waits for lookups still under way instead of refusing a token that works', async () => {
    const db = t.database.handle.db;
    await db
      .deleteFrom('rate_limits')
      .where('bucket', 'in', [API_TOKEN_FAILURES.bucket, API_TOKEN_REFUSALS.bucket])
      .execute();
    const owner = await createUser(db, t.services.identity, 'burst-script@example.com', {
      roles: ['moderator'],
    });
    const created = await request(t.app.server)
      .post('/trpc/account.apiTokens.create')
      .set('authorization', `Bearer ${owner.accessToken}`)
      .send({ name: 'Burst', scope: 'read', expiresInDays: 30 });
    const token = created.body.result.data.token as string;
    // One token that does not work makes this address's rows in both counts.
    const bad = await request(t.app.server)
      .get('/trpc/account.auth.me')
      .set('authorization', `Bearer rsk_${'B'.repeat(40)}`);
    expect(bad.status).toBe(401);
    // Every slot of the window taken by lookups that have not answered yet (none has failed).
    await db
      .updateTable('rate_limits')
      .set({ hits: 0 })
      .where('bucket', '=', API_TOKEN_REFUSALS.bucket)
      .execute();
    const slots = await db
      .updateTable('rate_limits')
      .set({ hits: API_TOKEN_FAILURES.limit })
      .where('bucket', '=', API_TOKEN_FAILURES.bucket)
      .executeTakeFirst();
    expect(Number(slots.numUpdatedRows)).toBe(1);
    const waiting = request(t.app.server)
      .get('/trpc/account.auth.me')
      .set('authorization', `Bearer ${token}`);
    const answered = waiting.then((response) => response.status);
    let early: number | undefined;
    void answered.then((status) => {
      early = status;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // While the slots are held it is not answered (a refusal would have come at once)…
    expect(early).toBeUndefined();
    // …and once one lookup gives its slot back (its token worked), it goes through.
    await db
      .updateTable('rate_limits')
      .set((eb) => ({ hits: eb('hits', '-', 1) }))
      .where('bucket', '=', API_TOKEN_FAILURES.bucket)
      .execute();
    expect(await answered).toBe(200);
    // When those lookups had failed instead, the address is refused at once.
    await db
      .updateTable('rate_limits')
      .set({ hits: API_TOKEN_FAILURES.limit })
      .where('bucket', 'in', [API_TOKEN_FAILURES.bucket, API_TOKEN_REFUSALS.bucket])
      .execute();
    const refused = await request(t.app.server)
      .get('/trpc/account.auth.me')
      .set('authorization', `Bearer ${token}`);
    expect(refused.status).toBe(429);
    await db
      .deleteFrom('rate_limits')
      .where('bucket', 'in', [API_TOKEN_FAILURES.bucket, API_TOKEN_REFUSALS.bucket])
      .execute();
  });
});

describe('limits that count every attempt', () => {
  it('sends at most the limit’s worth of 20 concurrent confirmation resends for one account', async () => {
    const email = 'resend-storm@example.com';
    const signUp = await request(t.app.server)
      .post('/trpc/account.auth.signUp')
      .set(WEB)
      .send({ email, password: 'a-long-new-password', displayName: 'Resend Storm' });
    expect(signUp.status).toBe(200);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        request(t.app.server).post('/trpc/account.auth.resendConfirmation').set(WEB).send({ email }),
      ),
    );
    expect(counts(responses.map((response) => response.status))).toEqual({
      200: AUTH_LIMITS.resendAccount.limit,
      429: 20 - AUTH_LIMITS.resendAccount.limit,
    });
    const mails = await t.database.handle.db
      .selectFrom('email_outbox')
      .select('id')
      .where('to_address', '=', email)
      .execute();
    // The sign-up's own email and one per resend let through.
    expect(mails).toHaveLength(1 + AUTH_LIMITS.resendAccount.limit);
  });
});

describe('the contact form’s limit per sender', () => {
  it('keeps at most the limit’s worth of 20 concurrent messages from one sender', async () => {
    const message = {
      name: 'Storm Sender',
      email: 'storm@example.com',
      topic: 'other' as const,
      message: 'Hello, this message is long enough to be sent.',
    };
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        submitContactMessage(t.database.handle.db, message, { senderKey: 'storm-sender' }),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(CONTACT_LIMIT.messages);
    for (const result of results.filter((each) => each.status === 'rejected')) {
      expect((result as PromiseRejectedResult).reason).toMatchObject({ code: 'RATE_LIMITED' });
    }
    const stored = await t.database.handle.db
      .selectFrom('contact_messages')
      .select('id')
      .where('sender_key', '=', 'storm-sender')
      .execute();
    expect(stored).toHaveLength(CONTACT_LIMIT.messages);
  });
});
