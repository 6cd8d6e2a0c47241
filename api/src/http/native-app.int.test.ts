/**
 * The Capacitor app against the BFF (decision 0029): it runs on its own origins
 * (capacitor://localhost on iOS, https://localhost on Android), sends no cookies and signs in
 * for tokens. What it may do from there, and what a cookie session from anywhere but the site
 * itself still may not.
 */
import { CLIENT_HEADER } from '@reshelf/contracts';
import sharp from 'sharp';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.ts';
import { createUser, TEST_PASSWORD, type TestUser, WEB } from '../testing/auth.ts';
import { createBook, createListing } from '../testing/catalogue.ts';

const SITE = 'https://reshelf.example';
const IOS = 'capacitor://localhost';
const ANDROID = 'https://localhost';
const EVIL = 'https://evil.example';
const APP = { [CLIENT_HEADER]: 'app' } as const;

let t: TestApp;
let buyer: TestUser;

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_ORIGIN: SITE } });
  buyer = await createUser(t.database.handle.db, t.services.identity, 'app-buyer@example.com');
});

afterAll(async () => {
  await t.close();
});

const post = (path: string) => request(t.app.server).post(path);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function setCookies(response: request.Response): string[] {
  return (response.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
}

describe('signing in from the app', () => {
  it.each([IOS, ANDROID])(
    'signs in from %s for tokens, with no cookie and CORS for the app',
    async (origin) => {
      const response = await post('/trpc/account.auth.signIn')
        .set(APP)
        .set('origin', origin)
        .send({ email: buyer.email, password: TEST_PASSWORD });
      expect(response.status).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBe(origin);
      const tokens = response.body.result.data.tokens;
      expect(tokens).toEqual({
        accessToken: expect.any(String),
        refreshToken: expect.any(String),
        expiresAt: expect.any(Number),
      });
      expect(setCookies(response)).toEqual([]);

      const me = await request(t.app.server)
        .get('/trpc/account.auth.me')
        .set(APP)
        .set('origin', origin)
        .set(bearer(tokens.accessToken));
      expect(me.body.result.data.user).toMatchObject({ email: buyer.email });

      // The refresh token works once, from the app too.
      const refreshed = await post('/trpc/account.auth.refresh')
        .set(APP)
        .set('origin', origin)
        .send({ refreshToken: tokens.refreshToken });
      expect(refreshed.status).toBe(200);
      expect(refreshed.body.result.data.tokens.refreshToken).not.toBe(tokens.refreshToken);

      const signedOut = await post('/trpc/account.auth.signOut')
        .set(APP)
        .set('origin', origin)
        .set(bearer(refreshed.body.result.data.tokens.accessToken))
        .send({ scope: 'local' });
      expect(signedOut.status).toBe(200);
    },
  );

  it('lets a bearer POST from the app through without the cookie checks', async () => {
    const user = await createUser(t.database.handle.db, t.services.identity, 'app-profile@example.com');
    const response = await post('/trpc/account.member.completeSignup')
      .set(APP)
      .set('origin', IOS)
      .set(bearer(user.accessToken))
      .send({ displayName: 'App Person' });
    expect(response.status).toBe(200);
  });

  it('still refuses sign-in, for tokens or cookies, from any other origin', async () => {
    for (const headers of [APP, WEB]) {
      const response = await post('/trpc/account.auth.signIn')
        .set(headers)
        .set('origin', EVIL)
        .send({ email: buyer.email, password: TEST_PASSWORD });
      expect(response.status).toBe(403);
      expect(response.body.message).toBe(`Requests from ${EVIL} are not accepted.`);
    }
  });
});

describe('cookie sessions stay on the site', () => {
  it('refuses a cookie-authenticated POST from a foreign origin, and from the app origins', async () => {
    for (const origin of [EVIL, IOS, ANDROID]) {
      const response = await post('/trpc/account.auth.signOut')
        .set(WEB)
        .set('origin', origin)
        .set('cookie', `reshelf_at=${buyer.accessToken}`)
        .send({ scope: 'global' });
      expect(response.status, origin).toBe(403);
      expect(response.body.message, origin).toBe(`Requests from ${origin} are not accepted.`);
    }
  });

  it('refuses a request carrying both the session cookie and a bearer token from anywhere but the site', async () => {
    const person = await createUser(t.database.handle.db, t.services.identity, 'app-both@example.com');
    for (const origin of [EVIL, IOS]) {
      const response = await post('/trpc/account.auth.signOut')
        .set(APP)
        .set('origin', origin)
        .set(bearer(person.accessToken))
        .set('cookie', `reshelf_rt=${person.refreshToken}`)
        .send({ scope: 'local' });
      expect(response.status, origin).toBe(403);
      expect(response.body.message, origin).toBe(
        `Requests from ${origin} cannot carry the site's session cookies.`,
      );
    }
    // From the site itself both may travel: the bearer token is the one used.
    const own = await post('/trpc/account.member.completeSignup')
      .set(WEB)
      .set('origin', SITE)
      .set(bearer(person.accessToken))
      .set('cookie', 'reshelf_at=not-a-token')
      .send({ displayName: 'Site Person' });
    expect(own.status).toBe(200);
  });

  it('keeps cookie sessions working on the site itself', async () => {
    const person = await createUser(t.database.handle.db, t.services.identity, 'app-site@example.com');
    const response = await post('/trpc/account.member.completeSignup')
      .set(WEB)
      .set('origin', SITE)
      .set('cookie', `reshelf_at=${person.accessToken}`)
      .send({ displayName: 'Site Buyer' });
    expect(response.status).toBe(200);
  });
});

describe('preflight', () => {
  it.each([IOS, ANDROID])('answers %s for the bearer and client headers', async (origin) => {
    const response = await request(t.app.server)
      .options('/trpc/account.auth.signIn')
      .set('Origin', origin)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization, content-type, x-reshelf-client');
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(origin);
    const allowed = String(response.headers['access-control-allow-headers']).split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type', 'x-reshelf-client']));
  });

  it('answers the photo upload route too', async () => {
    const response = await request(t.app.server)
      .options('/api/uploads/listing-photo?listingId=x')
      .set('Origin', IOS)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization, x-reshelf-client');
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(IOS);
  });
});

describe('an access token the BFF no longer takes', () => {
  it('is answered with WWW-Authenticate invalid_token, which the app can read', async () => {
    const expired = await request(t.app.server)
      .get('/trpc/account.auth.me')
      .set(APP)
      .set('origin', ANDROID)
      .set(bearer('not.a.token'));
    expect(expired.status).toBe(200);
    expect(expired.body.result.data.user).toBeNull();
    expect(expired.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect(String(expired.headers['access-control-expose-headers']).split(/,\s*/)).toContain(
      'www-authenticate',
    );

    const authed = await request(t.app.server)
      .get('/trpc/commerce.orders.member.list?input=%7B%22role%22%3A%22buyer%22%7D')
      .set(APP)
      .set('origin', ANDROID)
      .set(bearer('not.a.token'));
    expect(authed.status).toBe(401);
    expect(authed.headers['www-authenticate']).toBe('Bearer error="invalid_token"');

    // A valid token, or none, says nothing of the kind.
    const fine = await request(t.app.server).get('/trpc/account.auth.me').set(bearer(buyer.accessToken));
    expect(fine.headers['www-authenticate']).toBeUndefined();
    const none = await request(t.app.server).get('/trpc/account.auth.me');
    expect(none.headers['www-authenticate']).toBeUndefined();
  });
});

describe('uploads from the app', () => {
  it('takes a photo with a bearer token from the app origin', async () => {
    const seller = await createUser(t.database.handle.db, t.services.identity, 'app-seller@example.com');
    const started = await post('/trpc/selling.listings.start')
      .set(APP)
      .set('origin', ANDROID)
      .set(bearer(seller.accessToken))
      .send({ isbn: null });
    expect(started.status).toBe(200);
    const listingId = started.body.result.data.listing.id;
    const png = await sharp({
      create: { width: 800, height: 600, channels: 3, background: { r: 120, g: 80, b: 40 } },
    })
      .png()
      .toBuffer();
    const response = await post(`/api/uploads/listing-photo?listingId=${listingId}`)
      .set(APP)
      .set('origin', ANDROID)
      .set(bearer(seller.accessToken))
      .attach('photo', png, 'cover.png');
    expect(response.status).toBe(201);
    expect(response.headers['access-control-allow-origin']).toBe(ANDROID);

    const withCookie = await post(`/api/uploads/listing-photo?listingId=${listingId}`)
      .set(WEB)
      .set('origin', ANDROID)
      .set('cookie', `reshelf_at=${seller.accessToken}`)
      .attach('photo', png, 'cover.png');
    expect(withCookie.status).toBe(403);
  });
});

describe('paying from the app', () => {
  const address = { fullName: 'Jo March', line1: '1 Orchard House', town: 'Oxford', postcode: 'ox12jd' };

  async function listing(label: string) {
    const db = t.database.handle.db;
    const seller = await createUser(db, t.services.identity, `${label}-seller@example.com`);
    const bookId = await createBook(db, { title: `Little Women (${label})` });
    return (await createListing(db, { sellerId: seller.id, bookId, price: 900 })).id;
  }

  async function start(origin: string | undefined, label: string) {
    const user = await createUser(t.database.handle.db, t.services.identity, `${label}-buyer@example.com`);
    const listingId = await listing(label);
    const call = post('/trpc/commerce.checkout.start').set(APP).set(bearer(user.accessToken));
    if (origin) call.set('origin', origin);
    const started = await call.send({ listingId, address, idempotencyKey: `${label}-key-00001` });
    expect(started.status).toBe(200);
    return { user, ...(started.body.result.data as { orderId: string; redirectUrl: string }) };
  }

  it.each([
    [IOS, 'ios'],
    [ANDROID, 'android'],
  ])('pays on the BFF’s page and comes back to the app’s own route on %s', async (origin, label) => {
    const { user, orderId, redirectUrl } = await start(origin, label);
    const page = new URL(redirectUrl);
    expect(page.origin).toBe(SITE);
    expect(page.pathname).toMatch(/^\/payments\/test\/tp_[0-9a-f]{24}$/);
    expect(page.searchParams.get('return')).toBe(origin);

    const html = await request(t.app.server).get(`${page.pathname}${page.search}`);
    expect(html.status).toBe(200);
    expect(html.text).toContain(`action="${page.pathname}/success?return=${encodeURIComponent(origin)}"`);

    const paid = await post(`${page.pathname}/success${page.search}`);
    expect(paid.status).toBe(303);
    expect(paid.headers.location).toBe(`${origin}/checkout/success?order=${orderId}`);

    const order = await request(t.app.server)
      .get(`/trpc/commerce.checkout.order?input=${encodeURIComponent(JSON.stringify({ orderId }))}`)
      .set(APP)
      .set('origin', origin)
      .set(bearer(user.accessToken));
    expect(order.body.result.data).toMatchObject({ status: 'paid' });
  });

  it('sends the cancel button back to the app too, and "Finish paying" keeps the app’s return', async () => {
    const { user, orderId, redirectUrl } = await start(IOS, 'cancel');
    const page = new URL(redirectUrl);
    const left = await post(`${page.pathname}/cancel${page.search}`);
    expect(left.headers.location).toBe(`${IOS}/checkout/cancel?order=${orderId}`);
    const resumed = await post('/trpc/commerce.checkout.resume')
      .set(APP)
      .set('origin', IOS)
      .set(bearer(user.accessToken))
      .send({ orderId });
    expect(resumed.status).toBe(200);
    expect(resumed.body.result.data.redirectUrl).toBe(redirectUrl);
  });

  it('returns to the site for the site, for scripts without an Origin, and never to a foreign origin', async () => {
    for (const [origin, label] of [
      [SITE, 'site'],
      [undefined, 'script'],
      [EVIL, 'evil'],
    ] as const) {
      const { orderId, redirectUrl } = await start(origin, label);
      const page = new URL(redirectUrl);
      expect(page.origin, label).toBe(SITE);
      expect(page.search, label).toBe('');
      const paid = await post(`${page.pathname}/success`);
      expect(paid.headers.location, label).toBe(`/checkout/success?order=${orderId}`);
    }
    // A return address slipped into the page's link is ignored unless it is the app's.
    const { orderId, redirectUrl } = await start(undefined, 'forged');
    const page = new URL(redirectUrl);
    const forged = await request(t.app.server).get(`${page.pathname}?return=${encodeURIComponent(EVIL)}`);
    expect(forged.text).toContain(`action="${page.pathname}/success"`);
    const paid = await post(`${page.pathname}/success?return=${encodeURIComponent(EVIL)}`);
    expect(paid.headers.location).toBe(`/checkout/success?order=${orderId}`);
  });
});
