/** Checkout through the real app: procedures, the test provider's page and its webhook. */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser } from '../../testing/auth.ts';
import { createBook, createListing } from '../../testing/catalogue.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

const address = { fullName: 'Jo March', line1: '1 Orchard House', town: 'Oxford', postcode: 'ox12jd' };

async function setup(label: string) {
  const db = t.database.handle.db;
  const seller = await createUser(db, t.services.identity, `${label}-seller@example.com`);
  const buyer = await createUser(db, t.services.identity, `${label}-buyer@example.com`);
  const bookId = await createBook(db, { title: `Middlemarch (${label})` });
  const listing = await createListing(db, { sellerId: seller.id, bookId, price: 800 });
  return { seller, buyer, listingId: listing.id, auth: { authorization: `Bearer ${buyer.accessToken}` } };
}

describe('checkout over HTTP', () => {
  it('quotes, starts, pays on the provider page and lands on success with the order paid', async () => {
    const { listingId, auth } = await setup('happy');
    const q = await request(t.app.server)
      .get(`/trpc/checkout.quote?input=${encodeURIComponent(JSON.stringify({ listingId }))}`)
      .set(auth);
    expect(q.status).toBe(200);
    expect(q.body.result.data).toMatchObject({
      itemMinor: 800,
      discountCode: 'WELCOME20',
      discountMinor: 160,
    });

    const started = await request(t.app.server)
      .post('/trpc/checkout.start')
      .set(auth)
      .send({ listingId, address, idempotencyKey: 'happy-path-0001' });
    expect(started.status).toBe(200);
    const { orderId, redirectUrl, totalMinor } = started.body.result.data;
    expect(totalMinor).toBe(800 + 299 + 110 - 160);
    const pagePath = new URL(redirectUrl).pathname;
    expect(pagePath).toMatch(/^\/payments\/test\/tp_[0-9a-f]{24}$/);

    const page = await request(t.app.server).get(pagePath);
    expect(page.status).toBe(200);
    expect(page.text).toContain('TEST MODE');
    expect(page.text).toContain('£10.49');

    const paid = await request(t.app.server).post(`${pagePath}/success`);
    expect(paid.status).toBe(303);
    expect(paid.headers.location).toBe(`/checkout/success?order=${orderId}`);

    const order = await request(t.app.server)
      .get(`/trpc/checkout.order?input=${encodeURIComponent(JSON.stringify({ orderId }))}`)
      .set(auth);
    expect(order.body.result.data).toMatchObject({
      status: 'paid',
      discountCode: 'WELCOME20',
      totalMinor: 1049,
    });
    const again = await request(t.app.server).get(pagePath);
    expect(again.text).toContain('This payment is succeeded.');
  });

  it('a declined card lands on cancel and the book is back on sale', async () => {
    const { listingId, auth } = await setup('decline');
    const started = await request(t.app.server)
      .post('/trpc/checkout.start')
      .set(auth)
      .send({ listingId, address, idempotencyKey: 'decline-path-01' });
    const pagePath = new URL(started.body.result.data.redirectUrl).pathname;
    const declined = await request(t.app.server).post(`${pagePath}/decline`);
    expect(declined.headers.location).toMatch(/^\/checkout\/cancel\?order=/);
    const listing = await t.database.handle.db
      .selectFrom('listings')
      .select('status')
      .where('id', '=', listingId)
      .executeTakeFirstOrThrow();
    expect(listing.status).toBe('active');
  });

  it('refuses a bad postcode, an unsigned webhook and another person’s order', async () => {
    const { listingId, auth } = await setup('refusals');
    const bad = await request(t.app.server)
      .post('/trpc/checkout.start')
      .set(auth)
      .send({
        listingId,
        address: { ...address, postcode: 'NOT A CODE' },
        idempotencyKey: 'bad-postcode-01',
      });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('address.postcode: Enter a UK postcode, like SW1A 1AA');

    const unsigned = await request(t.app.server)
      .post('/api/webhooks/payments/test')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ id: 'evt_forged', type: 'payment.succeeded', data: { providerRef: 'tp_x' } }));
    expect(unsigned.status).toBe(400);
    expect((await request(t.app.server).post('/api/webhooks/payments/stripe').send('{}')).status).toBe(404);

    const started = await request(t.app.server)
      .post('/trpc/checkout.start')
      .set(auth)
      .send({ listingId, address, idempotencyKey: 'refusals-path-1' });
    const stranger = await createUser(t.database.handle.db, t.services.identity, 'stranger@example.com');
    const peek = await request(t.app.server)
      .get(
        `/trpc/checkout.order?input=${encodeURIComponent(JSON.stringify({ orderId: started.body.result.data.orderId }))}`,
      )
      .set('authorization', `Bearer ${stranger.accessToken}`);
    expect(peek.status).toBe(404);
  });
});
