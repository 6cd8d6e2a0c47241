/**
 * The typed test client (./client.ts) against the real app: it sends what the caller carries
 * (bearer token, cookies, headers), and its refusal readers tell the same status and message as
 * the raw answer does, for tRPC errors and for the app's own refusals (the CSRF guard's) alike.
 */
import { CLIENT_HEADER } from '@reshelf/contracts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { createUser, TEST_PASSWORD, type TestUser, WEB } from './auth.ts';
import { api, failure, refusal, statusOf } from './client.ts';

/** A raw answer's status and message, read as the refusal readers should read a typed call's. */
function errorOf(response: request.Response): { status: number; message: string } {
  return { status: response.status, message: response.body?.error?.message ?? response.body?.message };
}

let t: TestApp;
let person: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  person = await createUser(t.database.handle.db, t.services.identity, 'person@client.test');
});

afterAll(async () => {
  await t.close();
});

describe('the typed test client', () => {
  it('calls as the bearer of a token, or as nobody', async () => {
    expect((await api(t.app, person.accessToken).account.auth.me.query()).user?.email).toBe(person.email);
    expect(await api(t.app).account.auth.me.query()).toEqual({ user: null });
    expect(await api(t.app, { token: person.accessToken }).account.member.profile.query()).toMatchObject({
      displayName: 'person',
    });
  });

  it('carries a browser session’s cookies and extra headers', async () => {
    const signIn = await request(t.app.server)
      .post('/trpc/account.auth.signIn')
      .set(WEB)
      .send({ email: person.email, password: TEST_PASSWORD });
    expect(signIn.status).toBe(200);
    const cookie = (signIn.headers['set-cookie'] as unknown as string[])
      .map((c) => c.split(';')[0])
      .join('; ');
    expect((await api(t.app, { cookie }).account.auth.me.query()).user?.email).toBe(person.email);
    // A mutation with cookies and no client header is refused by the CSRF guard; with it, it passes.
    const bare = api(t.app, { cookie }).account.member.completeOnboarding.mutate({ genreIds: [] });
    expect(await statusOf(bare)).toBe(403);
    const web = api(t.app, { cookie, headers: { [CLIENT_HEADER]: 'web' } });
    expect(await statusOf(web.account.member.completeOnboarding.mutate({ genreIds: [] }))).toBe(200);
  });

  it('reads a refusal as the raw answer tells it: tRPC errors and the app’s own', async () => {
    const input = { listingId: 'not-a-uuid', wished: true };
    const raw = await request(t.app.server)
      .post('/trpc/catalogue.wishlist.toggle')
      .set('authorization', `Bearer ${person.accessToken}`)
      .set('content-type', 'application/json')
      .send(JSON.stringify(input));
    const typed = api(t.app, person.accessToken).catalogue.wishlist.toggle.mutate(input);
    expect(raw.status).toBe(400);
    expect(await refusal(typed)).toEqual(errorOf(raw));
    expect(await failure(typed)).toMatchObject({
      status: 400,
      code: 'BAD_REQUEST',
      message: errorOf(raw).message,
    });

    // The CSRF guard answers before tRPC, in its own shape.
    const guardRaw = await request(t.app.server)
      .post('/trpc/platform.contact.submit')
      .set('content-type', 'application/json')
      .send(JSON.stringify({}));
    const guarded = api(t.app).platform.contact.submit.mutate({} as never);
    expect(guardRaw.status).toBe(403);
    expect(await refusal(guarded)).toEqual(errorOf(guardRaw));
    expect((await failure(guarded)).code).toBeUndefined();

    expect(await statusOf(api(t.app).account.auth.me.query())).toBe(200);
    expect(await statusOf(api(t.app).account.member.profile.query())).toBe(401);
  });

  it('fails a test that expected a refusal when the call succeeded', async () => {
    await expect(failure(api(t.app).account.auth.me.query())).rejects.toThrow(
      /expected the call to be refused/,
    );
    await expect(refusal(api(t.app).account.auth.me.query())).rejects.toThrow(
      /expected the call to be refused/,
    );
  });
});
