/** Checkout through the real app: procedures, the test provider's page and its webhook. */
import { formatPence, parcelFor, postageFor } from '@reshelf/contracts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser } from '../../testing/auth.ts';
import { createBook, createListing } from '../../testing/catalogue.ts';

/** Home delivery for one paperback-sized test book (no format or pages): the rule's figure. */
const PAPERBACK_HOME = postageFor(
  parcelFor([{ parcelSize: 'small', format: null, pageCount: null }]).band,
  'home',
);

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
      .get(`/trpc/commerce.checkout.quote?input=${encodeURIComponent(JSON.stringify({ listingId }))}`)
      .set(auth);
    expect(q.status).toBe(200);
    expect(q.body.result.data).toMatchObject({
      itemMinor: 800,
      discountCode: 'WELCOME20',
      discountMinor: 160,
    });

    const started = await request(t.app.server)
      .post('/trpc/commerce.checkout.start')
      .set(auth)
      .send({ listingId, address, idempotencyKey: 'happy-path-0001' });
    expect(started.status).toBe(200);
    const { orderId, redirectUrl, totalMinor } = started.body.result.data;
    expect(totalMinor).toBe(800 + PAPERBACK_HOME + 110 - 160);
    const pagePath = new URL(redirectUrl).pathname;
    expect(pagePath).toMatch(/^\/payments\/test\/tp_[0-9a-f]{24}$/);

    const page = await request(t.app.server).get(pagePath);
    expect(page.status).toBe(200);
    expect(page.text).toContain('TEST MODE');
    expect(page.text).toContain(formatPence(totalMinor));

    const paid = await request(t.app.server).post(`${pagePath}/success`);
    expect(paid.status).toBe(303);
    expect(paid.headers.location).toBe(`/checkout/success?order=${orderId}`);

    const order = await request(t.app.server)
      .get(`/trpc/commerce.checkout.order?input=${encodeURIComponent(JSON.stringify({ orderId }))}`)
      .set(auth);
    expect(order.body.result.data).toMatchObject({
      status: 'paid',
      discountCode: 'WELCOME20',
      totalMinor: 800 + PAPERBACK_HOME + 110 - 160,
    });
    const again = await request(t.app.server).get(pagePath);
    expect(again.text).toContain('This payment is succeeded.');
  });

  it('a declined card lands on cancel and the book is back on sale', async () => {
    const { listingId, auth } = await setup('decline');
    const started = await request(t.app.server)
      .post('/trpc/commerce.checkout.start')
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

  it('leaving the payment page keeps the book for the buyer, who finishes paying the same order', async () => {
    const { listingId, auth } = await setup('leave');
    const get = (procedure: string, input: unknown, headers = auth) =>
      request(t.app.server)
        .get(`/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`)
        .set(headers);
    const started = await request(t.app.server)
      .post('/trpc/commerce.checkout.start')
      .set(auth)
      .send({ listingId, address, idempotencyKey: 'leave-path-0001' });
    const { orderId, redirectUrl } = started.body.result.data;
    const pagePath = new URL(redirectUrl).pathname;

    // "Cancel and return to Reshelf": back to the shop, as Stripe's back link does; nothing ends.
    const page = await request(t.app.server).get(pagePath);
    expect(page.text).toContain(`action="${pagePath}/cancel"`);
    const left = await request(t.app.server).post(`${pagePath}/cancel`);
    expect(left.status).toBe(303);
    expect(left.headers.location).toBe(`/checkout/cancel?order=${orderId}`);

    const order = await get('commerce.checkout.order', { orderId });
    expect(order.body.result.data).toMatchObject({ status: 'pending_payment', canFinishPaying: true });
    expect(Date.parse(order.body.result.data.reservedUntil)).toBeGreaterThan(Date.now());
    expect((await get('commerce.checkout.held', { listingId })).body.result.data).toMatchObject({ orderId });
    const mine = await get('commerce.orders.member.list', { role: 'buyer', status: 'open' });
    expect(mine.body.result.data).toEqual([
      expect.objectContaining({ id: orderId, status: 'pending_payment', canFinishPaying: true }),
    ]);
    expect(mine.body.result.data[0].nextStep).toMatch(/^Reserved for you until \d{2}:\d{2}: finish paying$/);

    // Someone else: still reserved, and neither the order nor its payment is theirs.
    const stranger = await createUser(t.database.handle.db, t.services.identity, 'leave-other@example.com');
    const theirs = { authorization: `Bearer ${stranger.accessToken}` };
    expect((await get('commerce.checkout.held', { listingId }, theirs)).body.result.data).toBeNull();
    const refused = await request(t.app.server)
      .post('/trpc/commerce.checkout.resume')
      .set(theirs)
      .send({ orderId });
    expect(refused.status).toBe(404);
    const quoted = await get('commerce.checkout.quote', { listingId }, theirs);
    expect(quoted.status).toBe(409);

    const resumed = await request(t.app.server)
      .post('/trpc/commerce.checkout.resume')
      .set(auth)
      .send({ orderId });
    expect(resumed.status).toBe(200);
    expect(resumed.body.result.data).toMatchObject({ orderId, redirectUrl });
    const paid = await request(t.app.server).post(`${pagePath}/success`);
    expect(paid.headers.location).toBe(`/checkout/success?order=${orderId}`);
    const after = await get('commerce.checkout.order', { orderId });
    expect(after.body.result.data).toMatchObject({
      status: 'paid',
      canFinishPaying: false,
      reservedUntil: null,
    });
    // What happens next: the seller's 5 working days to send it, from payment (never fewer than
    // 5 calendar days: paid on a Sunday, it is the Friday at the same time).
    const { paid_at } = await t.database.handle.db
      .selectFrom('orders')
      .select('paid_at')
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    expect(Date.parse(after.body.result.data.dispatchBy)).toBeGreaterThanOrEqual(
      new Date(paid_at as Date).getTime() + 5 * 86_400_000,
    );
  });

  it('refuses a bad postcode, an unsigned webhook and another person’s order', async () => {
    const { listingId, auth } = await setup('refusals');
    const bad = await request(t.app.server)
      .post('/trpc/commerce.checkout.start')
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
      .post('/trpc/commerce.checkout.start')
      .set(auth)
      .send({ listingId, address, idempotencyKey: 'refusals-path-1' });
    const stranger = await createUser(t.database.handle.db, t.services.identity, 'stranger@example.com');
    const peek = await request(t.app.server)
      .get(
        `/trpc/commerce.checkout.order?input=${encodeURIComponent(JSON.stringify({ orderId: started.body.result.data.orderId }))}`,
      )
      .set('authorization', `Bearer ${stranger.accessToken}`);
    expect(peek.status).toBe(404);
  });
});
