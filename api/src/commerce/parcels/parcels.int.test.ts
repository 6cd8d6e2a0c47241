/**
 * Parcels against real PostgreSQL (issue 37): "Get label" buys one label however often it is
 * pressed, an outage keeps the sale and a retry succeeds; the carrier's scans move the order
 * (dispatched on the first scan, delivered, then completed by the job with the payout released),
 * repeats and late scans change nothing, a scan for a parcel not known yet waits for its label;
 * a failed delivery and a returned parcel tell both sides, and the seller's "It came back"
 * refunds the buyer; the label's cost is in the ledger and reconciliation still balances.
 */
import { ADD_SENDER_ADDRESS, LABEL_UNAVAILABLE, NOTIFICATION_KINDS } from '@reshelf/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser } from '../../testing/auth.ts';
import { type CarrierDouble, createCarrierDouble, type ScanInput } from '../../testing/carrier-double.ts';
import { api, failure } from '../../testing/client.ts';
import { rejects } from '../../testing/errors.ts';
import { orderDepsFor, paidOrder } from '../../testing/orders.ts';
import { reconciliation } from '../money/ledger.ts';
import { orderMoneyOf } from '../money/order-money.ts';
import { autoComplete } from '../orders/orders.service.ts';
import { recordCarrierWebhook } from './carrier-webhooks.ts';
import { confirmReturned, getLabel, NOT_RETURNED } from './outbound.ts';
import { shipmentsForOrder } from './shipment-view.ts';
import type { ParcelDeps } from './shipments.ts';

let t: TestApp;
let db: Database;
let carrier: CarrierDouble;
let deps: ParcelDeps & ReturnType<typeof orderDepsFor>;
let events = 0;

beforeAll(async () => {
  // The app's carrier is the double: its webhooks are signed its way, its labels counted.
  carrier = createCarrierDouble('test');
  t = await createTestApp({ services: (defaults) => ({ ...defaults, carriers: carrier }) });
  db = t.database.handle.db;
  deps = { ...orderDepsFor(t), carriers: carrier };
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  carrier.down = false;
  carrier.delayMs = 0;
  carrier.calls = 0;
});

async function addressFor(userId: string) {
  await db
    .insertInto('addresses')
    .values({
      user_id: userId,
      full_name: 'Beth March',
      line1: '2 Plumfield',
      line2: null,
      town: 'Concord',
      postcode: 'BA2 2BB',
      is_default: true,
    })
    .execute();
}

/** A paid sale whose seller has an address to post from. */
async function sale(price = 1200) {
  const order = await paidOrder(t, price, 'Parcel book');
  await addressFor(order.seller.id);
  return order;
}

async function orderRow(orderId: string) {
  return db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
}

const HOUR = 3_600_000;
function scan(
  trackingRef: string,
  status: ScanInput['status'],
  hoursAgo: number,
  extra: Partial<ScanInput> = {},
) {
  events += 1;
  return {
    eventId: `scan-${events}`,
    trackingRef,
    providerRef: null,
    status,
    occurredAt: new Date(Date.now() - hoursAgo * HOUR),
    location: extra.location ?? null,
    description: extra.description ?? `${status} scan`,
  };
}
async function post(...scans: ReturnType<typeof scan>[]) {
  events += 1;
  return recordCarrierWebhook(db, 'test', { eventId: `webhook-${events}`, scans, payload: null });
}

async function templatesSentTo(email: string): Promise<string[]> {
  const rows = await db
    .selectFrom('email_outbox')
    .select('template')
    .where('to_address', '=', email)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => row.template);
}

describe('Get label', () => {
  it('buys one label when the button is pressed five times at once', async () => {
    const order = await sale();
    carrier.delayMs = 300;
    const views = await Promise.all(
      Array.from({ length: 5 }, () => getLabel(deps, order.seller.id, order.orderId)),
    );
    expect(carrier.calls).toBe(1);
    expect(views.map((view) => view.status)).toEqual(Array(5).fill('label_ready'));
    expect(new Set(views.map((view) => view.trackingRef)).size).toBe(1);
    expect(views[0]).toMatchObject({
      direction: 'outbound',
      network: 'royal_mail',
      method: 'home',
      labelAvailable: true,
    });
    const rows = await db
      .selectFrom('shipments')
      .select('id')
      .where('order_id', '=', order.orderId)
      .execute();
    expect(rows).toHaveLength(1);
    const labels = await db
      .selectFrom('ledger_entries')
      .select('kind')
      .where('order_id', '=', order.orderId)
      .where('kind', '=', 'carrier_label')
      .execute();
    expect(labels).toHaveLength(1);
    // Pressed again later: the same label, no second purchase.
    await getLabel(deps, order.seller.id, order.orderId);
    expect(carrier.calls).toBe(1);
  });

  it('keeps the sale through a carrier outage and buys the label on the next press', async () => {
    const order = await sale();
    carrier.down = true;
    await rejects(
      getLabel(deps, order.seller.id, order.orderId),
      'UNAVAILABLE',
      new RegExp(LABEL_UNAVAILABLE.slice(0, 40)),
    );
    expect((await orderRow(order.orderId)).status).toBe('paid');
    const failed = await db
      .selectFrom('shipments')
      .select(['status', 'last_error'])
      .where('order_id', '=', order.orderId)
      .executeTakeFirstOrThrow();
    expect(failed.status).toBe('label_failed');
    const [seen] = await shipmentsForOrder(db, order.seller.id, order.orderId);
    expect(seen).toMatchObject({ status: 'label_failed', canRetry: true, labelAvailable: false });

    carrier.down = false;
    const view = await getLabel(deps, order.seller.id, order.orderId);
    expect(view.status).toBe('label_ready');
    expect(carrier.calls).toBe(2);
  });

  it('is the seller’s: the buyer and a stranger are told there is no such order', async () => {
    const order = await sale();
    await rejects(getLabel(deps, order.buyer.id, order.orderId), 'NOT_FOUND');
    const stranger = await paidOrder(t, 500);
    await rejects(getLabel(deps, stranger.seller.id, order.orderId), 'NOT_FOUND');
    expect(carrier.calls).toBe(0);
  });

  it('asks a seller with no address to add the one they post from, writing nothing', async () => {
    const order = await paidOrder(t, 800);
    await rejects(
      getLabel(deps, order.seller.id, order.orderId),
      'BAD_INPUT',
      /Add the address you post from/,
    );
    expect(ADD_SENDER_ADDRESS).toMatch(/Add the address you post from/);
    const rows = await db
      .selectFrom('shipments')
      .select('id')
      .where('order_id', '=', order.orderId)
      .execute();
    expect(rows).toHaveLength(0);
    expect(carrier.calls).toBe(0);
  });

  it('takes the postage out of the seller’s earnings as the label’s cost, and reconciliation balances', async () => {
    const withLabel = await sale(1500);
    const without = await sale(1500);
    const before = await db
      .selectFrom('payouts')
      .select('amount_minor')
      .where('order_id', '=', withLabel.orderId)
      .executeTakeFirstOrThrow();
    const view = await getLabel(deps, withLabel.seller.id, withLabel.orderId);
    const order = await orderRow(withLabel.orderId);
    expect(view.costMinor).toBe(order.postage_minor);
    const after = await db
      .selectFrom('payouts')
      .select('amount_minor')
      .where('order_id', '=', withLabel.orderId)
      .executeTakeFirstOrThrow();
    expect(before.amount_minor - after.amount_minor).toBe(order.postage_minor);
    const entries = await db
      .selectFrom('ledger_entries')
      .select(['kind', 'amount_minor', 'shipment_id'])
      .where('order_id', '=', withLabel.orderId)
      .where('shipment_id', 'is not', null)
      .orderBy('kind')
      .execute();
    expect(entries).toEqual([
      { kind: 'carrier_label', amount_minor: order.postage_minor, shipment_id: view.id },
      { kind: 'seller_debit', amount_minor: -order.postage_minor, shipment_id: view.id },
    ]);
    // The seller's money reads the same story: earnings − the label = what they receive.
    const money = await orderMoneyOf(db, withLabel.orderId);
    expect(money.seller.labelMinor).toBe(order.postage_minor);
    expect(money.seller.earningsMinor - money.seller.labelMinor).toBe(money.seller.netMinor);
    expect((await orderMoneyOf(db, without.orderId)).seller.labelMinor).toBe(0);
    const { rows } = await reconciliation(db);
    for (const id of [withLabel.orderId, without.orderId]) {
      const row = rows.find((candidate) => candidate.orderId === id);
      expect(row?.problems).toEqual([]);
    }
  });
});

describe('the carrier’s scans move the order', () => {
  it('dispatches on the first scan, delivers on "delivered", and the job completes it and releases the payout', async () => {
    const order = await sale();
    const label = await getLabel(deps, order.seller.id, order.orderId);
    const ref = label.trackingRef as string;

    expect(await post(scan(ref, 'accepted', 30, { location: 'Bath Mail Centre' }))).toBe('applied');
    let row = await orderRow(order.orderId);
    expect(row).toMatchObject({ status: 'dispatched', carrier: 'royal_mail_tracked_48', tracking_ref: ref });

    // The same scan again (a new webhook carrying it): nothing moves twice.
    const again = scan(ref, 'in_transit', 20);
    expect(await post(again)).toBe('applied');
    expect(
      await recordCarrierWebhook(db, 'test', { eventId: 'repeat-1', scans: [again], payload: null }),
    ).toBe('duplicate');

    expect(await post(scan(ref, 'delivered', 2))).toBe('applied');
    row = await orderRow(order.orderId);
    expect(row.status).toBe('delivered');
    expect(row.complete_after).not.toBeNull();

    // An older scan arriving late does not undo delivery.
    expect(await post(scan(ref, 'out_for_delivery', 5))).toBe('applied');
    expect((await orderRow(order.orderId)).status).toBe('delivered');
    const [view] = await shipmentsForOrder(db, order.buyer.id, order.orderId);
    expect(view?.status).toBe('delivered');
    expect(view?.labelAvailable).toBe(false);
    expect(view?.scans.map((s) => s.status)).toEqual([
      'delivered',
      'out_for_delivery',
      'in_transit',
      'accepted',
    ]);
    expect(view?.scans[0]?.text).toBe('Delivered');

    const events = await db
      .selectFrom('order_events')
      .select(['to_status', 'actor_kind'])
      .where('order_id', '=', order.orderId)
      .where('actor_kind', '=', 'provider')
      .where('to_status', 'in', ['dispatched', 'delivered'])
      .execute();
    expect(events.map((event) => event.to_status).sort()).toEqual(['delivered', 'dispatched']);

    // Nobody taps anything: after the buyer's window the job completes it and releases the payout.
    const later = new Date(Date.now() + 3 * 24 * HOUR);
    expect(await autoComplete(deps, later)).toBeGreaterThanOrEqual(1);
    expect((await orderRow(order.orderId)).status).toBe('completed');
    const payout = await db
      .selectFrom('payouts')
      .select('status')
      .where('order_id', '=', order.orderId)
      .executeTakeFirstOrThrow();
    expect(payout.status).toBe('released');
  });

  it('delivers a paid order whose first scan is "delivered" (dispatching it first), once', async () => {
    const order = await sale();
    const ref = (await getLabel(deps, order.seller.id, order.orderId)).trackingRef as string;
    await post(scan(ref, 'delivered', 1), scan(ref, 'accepted', 20));
    const row = await orderRow(order.orderId);
    expect(row.status).toBe('delivered');
    const moves = await db
      .selectFrom('order_events')
      .select('to_status')
      .where('order_id', '=', order.orderId)
      .where('actor_kind', '=', 'provider')
      .where('from_status', '!=', 'pending_payment')
      .execute();
    expect(moves.map((move) => move.to_status)).toEqual(['dispatched', 'delivered']);
  });

  it('keeps a scan for a parcel not known yet and applies it when the label is recorded', async () => {
    const order = await sale();
    carrier.nextTrackingRef = 'EARLY0000001GB';
    expect(await post(scan('EARLY0000001GB', 'accepted', 1))).toBe('unknown_parcel');
    expect((await orderRow(order.orderId)).status).toBe('paid');
    const view = await getLabel(deps, order.seller.id, order.orderId);
    expect(view.trackingRef).toBe('EARLY0000001GB');
    expect(view.status).toBe('accepted');
    expect((await orderRow(order.orderId)).status).toBe('dispatched');
    const logged = await db
      .selectFrom('carrier_webhook_events')
      .select('outcome')
      .where('tracking_ref', '=', 'EARLY0000001GB')
      .execute();
    expect(logged.map((event) => event.outcome)).toEqual(['applied']);
  });

  it('tells both sides when the carrier cannot deliver, with where to collect it', async () => {
    const order = await sale();
    const ref = (await getLabel(deps, order.seller.id, order.orderId)).trackingRef as string;
    await post(
      scan(ref, 'accepted', 30),
      scan(ref, 'delivery_failed', 2, { location: 'Bath Delivery Office' }),
    );
    expect((await orderRow(order.orderId)).status).toBe('dispatched');
    expect(await templatesSentTo(order.buyer.email)).toContain('order.delivery_failed');
    expect(await templatesSentTo(order.seller.email)).toContain('order.delivery_failed');
    const mail = await db
      .selectFrom('email_outbox')
      .select('text_body')
      .where('to_address', '=', order.buyer.email)
      .where('template', '=', 'order.delivery_failed')
      .executeTakeFirstOrThrow();
    expect(mail.text_body).toContain('The carrier could not deliver');
    expect(mail.text_body).toContain('Bath Delivery Office');
    expect(NOTIFICATION_KINDS).toContain('parcel_problem');
    const notices = await db
      .selectFrom('notifications')
      .select('user_id')
      .where('kind', '=', 'parcel_problem')
      .where('user_id', 'in', [order.buyer.id, order.seller.id])
      .execute();
    expect(notices).toHaveLength(2);
  });

  it('returned to the sender: both told; the seller confirms it came back and the buyer is refunded in full', async () => {
    const order = await sale();
    const ref = (await getLabel(deps, order.seller.id, order.orderId)).trackingRef as string;
    await post(scan(ref, 'accepted', 40));
    await rejects(
      confirmReturned(deps, order.seller.id, order.orderId),
      'PRECONDITION_FAILED',
      new RegExp(NOT_RETURNED),
    );
    await post(scan(ref, 'returned_to_sender', 2));
    expect(await templatesSentTo(order.buyer.email)).toContain('order.returned_to_sender');
    expect(await templatesSentTo(order.seller.email)).toContain('order.returned_to_sender');
    await rejects(confirmReturned(deps, order.buyer.id, order.orderId), 'NOT_FOUND');

    await confirmReturned(deps, order.seller.id, order.orderId);
    const row = await orderRow(order.orderId);
    expect(row.status).toBe('refunded');
    const refunded = await db
      .selectFrom('refunds')
      .select((eb) => eb.fn.sum<number>('amount_minor').as('total'))
      .where('order_id', '=', order.orderId)
      .executeTakeFirstOrThrow();
    expect(Number(refunded.total)).toBe(order.totalMinor);
    expect(await templatesSentTo(order.buyer.email)).toContain('order.returned_parcel_refunded');
    // A second press finds it moved on.
    await rejects(confirmReturned(deps, order.seller.id, order.orderId), 'PRECONDITION_FAILED');
  });
});

describe('the routes', () => {
  async function people() {
    const n = Math.random().toString(36).slice(2, 8);
    const seller = await createUser(db, t.services.identity, `label-seller-${n}@parcels.test`);
    const buyer = await createUser(db, t.services.identity, `label-buyer-${n}@parcels.test`);
    const order = await paidOrder(t, 900, 'Route book', { seller, buyer });
    await addressFor(seller.id);
    return { seller, buyer, order };
  }
  const webhook = (body: string, headers: Record<string, string>, provider = 'test') =>
    t.app.inject({ method: 'POST', url: `/webhooks/carriers/${provider}`, headers, payload: body });
  const logged = async () =>
    Number(
      (
        await db
          .selectFrom('carrier_webhook_events')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('takes signed scans: a bad signature is refused and writes nothing; a repeat and an unknown parcel are 200', async () => {
    const { seller, order } = await people();
    const view = await api(t.app, seller.accessToken).commerce.parcels.seller.getLabel.mutate({
      orderId: order.orderId,
    });
    expect(view.status).toBe('label_ready');
    const ref = view.trackingRef as string;
    const signed = carrier.signed('route-1', [
      { eventId: 'route-scan-1', trackingRef: ref, status: 'accepted', occurredAt: new Date() },
    ]);

    const before = await logged();
    const forged = await webhook(signed.body, { ...signed.headers, 'x-double-signature': 'f'.repeat(64) });
    expect(forged.statusCode).toBe(400);
    expect(await logged()).toBe(before);
    expect((await orderRow(order.orderId)).status).toBe('paid');
    expect((await webhook(signed.body, signed.headers, 'someone-else')).statusCode).toBe(404);

    const first = await webhook(signed.body, signed.headers);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ outcome: 'applied' });
    expect((await orderRow(order.orderId)).status).toBe('dispatched');
    const repeat = await webhook(signed.body, signed.headers);
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json()).toMatchObject({ outcome: 'duplicate' });

    const stray = carrier.signed('route-2', [
      { eventId: 'route-scan-2', trackingRef: 'NOSUCH0000GB', status: 'in_transit', occurredAt: new Date() },
    ]);
    const unknown = await webhook(stray.body, stray.headers);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toMatchObject({ outcome: 'unknown_parcel' });

    // Both sides see the timeline; only the seller may download the label.
    const buyerSees = await api(t.app, (await people()).buyer.accessToken);
    expect(
      await failure(buyerSees.commerce.parcels.member.forOrder.query({ orderId: order.orderId })),
    ).toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('downloads the label PDF and the QR code for the sender and staff only', async () => {
    const { seller, buyer, order } = await people();
    const view = await api(t.app, seller.accessToken).commerce.parcels.seller.getLabel.mutate({
      orderId: order.orderId,
    });
    const get = (token: string, file: string) =>
      t.app.inject({
        method: 'GET',
        url: `/labels/${view.id}/${file}`,
        headers: { authorization: `Bearer ${token}` },
      });

    const a4 = await get(seller.accessToken, 'a4.pdf');
    expect(a4.statusCode).toBe(200);
    expect(a4.headers['content-type']).toBe('application/pdf');
    expect(a4.headers['content-disposition']).toBe(
      `attachment; filename="reshelf-label-${order.reference}-a4.pdf"`,
    );
    expect(a4.rawPayload.subarray(0, 4).toString('latin1')).toBe('%PDF');
    const thermal = await get(seller.accessToken, 'thermal_4x6.pdf');
    expect(thermal.statusCode).toBe(200);
    expect(thermal.headers['content-disposition']).toContain('-thermal_4x6.pdf"');
    const qr = await get(seller.accessToken, 'qr.svg');
    expect(qr.statusCode).toBe(200);
    expect(qr.headers['content-type']).toContain('image/svg+xml');
    expect(qr.body).toContain('<svg');

    expect((await get(buyer.accessToken, 'a4.pdf')).statusCode).toBe(404);
    expect((await get(buyer.accessToken, 'qr.svg')).statusCode).toBe(404);
    const staff = await createUser(
      db,
      t.services.identity,
      `label-staff-${view.id.slice(0, 6)}@parcels.test`,
      {
        roles: ['admin'],
      },
    );
    expect((await get(staff.accessToken, 'a4.pdf')).statusCode).toBe(200);
    expect((await get(seller.accessToken, 'label.exe')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/labels/${view.id}/a4.pdf` })).statusCode).toBe(401);

    // The buyer sees the parcel and its tracking, without the label.
    const [seen] = await api(t.app, buyer.accessToken).commerce.parcels.member.forOrder.query({
      orderId: order.orderId,
    });
    expect(seen).toMatchObject({ id: view.id, labelAvailable: false, trackingRef: view.trackingRef });
    expect(seen?.trackingUrl).toMatch(/^https:/);
  });
});
