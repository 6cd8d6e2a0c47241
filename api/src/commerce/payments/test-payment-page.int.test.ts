/**
 * The test provider's payment page takes only the outcomes it offers: anything else (an
 * inherited property name such as __proto__ included) is a 400 naming the choices, and nothing
 * is stored or changed. Its signed webhook carries only the events it knows.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SIGNATURE_HEADER } from '../../platform/payments/test-provider.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createBook, createListing, createPerson } from '../../testing/catalogue.ts';
import { orderDepsFor } from '../../testing/orders.ts';
import { startCheckout } from '../checkout/checkout.service.ts';

let t: TestApp;
let ref = '';

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.handle.db;
  const sellerId = await createPerson(db, 'page-seller@example.com');
  const buyerId = await createPerson(db, 'page-buyer@example.com');
  const bookId = await createBook(db, { title: 'The Payment Page' });
  const listing = await createListing(db, { sellerId, bookId, price: 700, parcelSize: 'small' });
  const started = await startCheckout(
    orderDepsFor(t),
    { id: buyerId, email: 'page-buyer@example.com' },
    {
      listingId: listing.id,
      address: {
        fullName: 'Jo March',
        line1: '1 Orchard House',
        line2: null,
        town: 'Bath',
        postcode: 'BA1 1AA',
      },
    },
  );
  const payment = await db
    .selectFrom('payments')
    .select('provider_ref')
    .where('order_id', '=', started.orderId)
    .executeTakeFirstOrThrow();
  ref = payment.provider_ref;
});

afterAll(async () => {
  await t.close();
});

async function state() {
  const db = t.database.handle.db;
  const events = await db.selectFrom('payment_events').select(['event_id', 'type']).execute();
  const payment = await db
    .selectFrom('payments')
    .select('status')
    .where('provider_ref', '=', ref)
    .executeTakeFirstOrThrow();
  return { events, status: payment.status };
}

describe('the test payment page', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'abandon', 'SUCCESS'])(
    'refuses the outcome %s with a 400 and stores nothing',
    async (choice) => {
      const before = await state();
      const response = await request(t.app.server).post(`/payments/test/${ref}/${choice}`);
      expect(response.status).toBe(400);
      expect(response.body.message).toBe('choice: Choose success, decline or cancel');
      expect(await state()).toEqual(before);
      expect(before.status).toBe('pending');
    },
  );

  it('still takes the outcomes it offers', async () => {
    const declined = await request(t.app.server).post(`/payments/test/${ref}/decline`);
    expect(declined.status).toBe(303);
    const after = await state();
    expect(after.events.map((event) => event.type)).toEqual(['payment.failed']);
  });
});

describe('the test provider’s webhook', () => {
  function signed(body: string) {
    const timestamp = Math.floor(Date.now() / 1000);
    return {
      [TEST_SIGNATURE_HEADER]: `t=${timestamp},v1=${t.secrets.sign('webhook', `${timestamp}.${body}`)}`,
      'content-type': 'application/json',
    };
  }

  it.each([
    ['an unknown event type', { id: 'evt_junk_1', type: '__proto__', data: { providerRef: 'tp_x' } }],
    ['an event without an id', { type: 'payment.succeeded', data: { providerRef: 'tp_x' } }],
    ['an event type that is an object', { id: 'evt_junk_2', type: {}, data: { providerRef: 'tp_x' } }],
    ['a reference that is not text', { id: 'evt_junk_3', type: 'payment.failed', data: { providerRef: 7 } }],
  ])('refuses %s, even signed, and stores nothing', async (_label, event) => {
    const before = await state();
    const body = JSON.stringify(event);
    const response = await request(t.app.server)
      .post('/api/webhooks/payments/test')
      .set(signed(body))
      .send(body);
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/^The webhook event is not one we know: /);
    expect(await state()).toEqual(before);
  });
});
