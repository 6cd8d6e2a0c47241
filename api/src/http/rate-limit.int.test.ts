/**
 * Every limiter checks and counts in one step: however many attempts arrive at once, at most
 * the limit's worth is evaluated and the rest are refused (429) without being looked at.
 */
import { CLIENT_HEADER } from '@reshelf/contracts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_LIMITS } from '../account/auth/auth.service.ts';
import { CONTACT_LIMIT, submitContactMessage } from '../platform/contact/contact.service.ts';
import { API_TOKEN_FAILURES } from '../platform/identity/resolve-auth.ts';
import { createTestApp, type TestApp } from '../testing/app.ts';
import { createUser, TEST_PASSWORD } from '../testing/auth.ts';

let t: TestApp;
/** Sign-ins that reached the identity provider, i.e. had their password checked. */
const checked: string[] = [];

beforeAll(async () => {
  t = await createTestApp({
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

function signIn(email: string, password: string) {
  return request(t.app.server).post('/trpc/account.auth.signIn').set(WEB).send({ email, password });
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
    const row = await t.database.handle.db
      .selectFrom('rate_limits')
      .select('hits')
      .where('bucket', '=', AUTH_LIMITS.signInFailures.bucket)
      .where('key', '=', user.email)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });
});

describe('the per-IP limit on API tokens that do not work', () => {
  it('looks up at most the limit’s worth of 40 concurrent forged tokens', async () => {
    await t.database.handle.db
      .deleteFrom('rate_limits')
      .where('bucket', '=', API_TOKEN_FAILURES.bucket)
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
      .where('bucket', '=', API_TOKEN_FAILURES.bucket)
      .execute();
  });

  it('does not count a token that works', async () => {
    await t.database.handle.db
      .deleteFrom('rate_limits')
      .where('bucket', '=', API_TOKEN_FAILURES.bucket)
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
      Array.from({ length: API_TOKEN_FAILURES.limit + 5 }, () =>
        request(t.app.server).get('/trpc/account.auth.me').set('authorization', `Bearer ${token}`),
      ),
    );
    expect(calls.every((response) => response.status === 200)).toBe(true);
    const rows = await t.database.handle.db
      .selectFrom('rate_limits')
      .select('hits')
      .where('bucket', '=', API_TOKEN_FAILURES.bucket)
      .execute();
    expect(rows.reduce((sum, row) => sum + row.hits, 0)).toBe(0);
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
