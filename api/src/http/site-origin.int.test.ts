/**
 * Every link in an email leads to one configured origin (config.siteOrigin): PUBLIC_ORIGIN,
 * or outside production the address the server listens on. Never the Host of the request that
 * happened to cause the email: the test provider's webhook is delivered inside the process
 * (Host "localhost:80"), and a Host header is whatever the sender says it is.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.ts';
import { createUser, lastEmailTo, WEB } from '../testing/auth.ts';
import { createBook, createListing } from '../testing/catalogue.ts';

const address = { fullName: 'Jo March', line1: '1 Orchard House', town: 'Oxford', postcode: 'OX1 2JD' };

/** Every http(s) link in an email's text. */
function links(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s)]+/g)].map((match) => match[0]);
}

/** A buyer pays for a seller's book on the test provider's page (its webhook runs inside). */
async function buyThroughThePaymentPage(t: TestApp, label: string) {
  const db = t.database.handle.db;
  const seller = await createUser(db, t.services.identity, `${label}-seller@example.com`);
  const buyer = await createUser(db, t.services.identity, `${label}-buyer@example.com`);
  const bookId = await createBook(db, { title: `Persuasion (${label})` });
  const listing = await createListing(db, { sellerId: seller.id, bookId, price: 700 });
  const started = await request(t.app.server)
    .post('/trpc/commerce.checkout.start')
    .set({ authorization: `Bearer ${buyer.accessToken}` })
    // A browser on some other name for this host: it must not decide where links lead.
    .set('host', 'elsewhere.example:8080')
    .send({ listingId: listing.id, address, idempotencyKey: `${label}-origin-key-1` });
  expect(started.status).toBe(200);
  const { orderId, redirectUrl } = started.body.result.data as { orderId: string; redirectUrl: string };
  const paid = await request(t.app.server).post(`${new URL(redirectUrl).pathname}/success`);
  expect(paid.status).toBe(303);
  return { orderId, redirectUrl, seller, buyer };
}

describe('links in emails without PUBLIC_ORIGIN (development)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { NODE_ENV: 'development', PORT: '4321', SEED_DEMO: 'false' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('lead to the address the server listens on, from the webhook and from the payment session', async () => {
    expect(t.config.siteOrigin).toBe('http://localhost:4321');
    const { orderId, redirectUrl, seller, buyer } = await buyThroughThePaymentPage(t, 'dev');
    expect(redirectUrl).toMatch(/^http:\/\/localhost:4321\/payments\/test\/tp_/);

    const confirmed = await lastEmailTo(t.database.handle.db, buyer.email);
    expect(confirmed?.subject).toMatch(/^Order confirmed: /);
    expect(links(confirmed!.text_body)).toEqual([`http://localhost:4321/account/orders/${orderId}`]);
    const sold = await lastEmailTo(t.database.handle.db, seller.email);
    expect(sold?.subject).toMatch(/^You sold .* — please send it$/);
    expect(links(sold!.text_body)).toEqual([`http://localhost:4321/account/sales/${orderId}`]);
    for (const mail of [confirmed!, sold!]) {
      expect(`${mail.text_body}${mail.html_body}`).not.toMatch(/localhost:80\b|elsewhere\.example/);
    }
  });

  it('ignore a forged Host header on sign-up and password reset', async () => {
    const email = 'host-header@example.com';
    const signUp = await request(t.app.server)
      .post('/trpc/account.auth.signUp')
      .set(WEB)
      .set('host', 'evil.example')
      .send({ email, password: 'a-long-new-password', displayName: 'Anne Elliot' });
    expect(signUp.status).toBe(200);
    const confirm = await lastEmailTo(t.database.handle.db, email);
    expect(links(confirm!.text_body)[0]).toMatch(/^http:\/\/localhost:4321\/auth\/confirm\?token=/);

    const user = await createUser(t.database.handle.db, t.services.identity, 'reset-host@example.com');
    const reset = await request(t.app.server)
      .post('/trpc/account.auth.requestPasswordReset')
      .set(WEB)
      .set('host', 'evil.example')
      .send({ email: user.email });
    expect(reset.status).toBe(200);
    const mail = await lastEmailTo(t.database.handle.db, user.email);
    expect(links(mail!.text_body)[0]).toMatch(/^http:\/\/localhost:4321\/reset-password\?token=/);
  });
});

describe('links in emails with PUBLIC_ORIGIN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_ORIGIN: 'https://shop.example/' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('lead to the configured origin, whatever the request said', async () => {
    expect(t.config.siteOrigin).toBe('https://shop.example');
    const { orderId, redirectUrl, buyer } = await buyThroughThePaymentPage(t, 'public');
    expect(redirectUrl).toMatch(/^https:\/\/shop\.example\/payments\/test\/tp_/);
    const confirmed = await lastEmailTo(t.database.handle.db, buyer.email);
    expect(links(confirmed!.text_body)).toEqual([`https://shop.example/account/orders/${orderId}`]);
  });
});
