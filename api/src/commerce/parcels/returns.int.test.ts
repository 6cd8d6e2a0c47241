/**
 * Return labels (issue 37), against real PostgreSQL through the real app's wiring: an accepted
 * return opens one return shipment in its step's transaction, paid by the rule's payer (the
 * seller for a fault, the buyer for a change of mind), from the buyer's delivery address to the
 * seller's; the label is bought once after the commit, a carrier outage leaves "Try again" for
 * the buyer; the return label's scans send the return and, on "delivered", refund it through the
 * seller's own "it came back" path, once, whatever order the scans arrive in.
 */
import { PROTECTION_RULES, parcelFor, postageFor } from '@reshelf/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import {
  type BoughtLabel,
  type CarrierProvider,
  CarrierUnavailableError,
  type LabelRequest,
  type VerifiedWebhook,
} from '../../platform/carriers/port.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser } from '../../testing/auth.ts';
import { paidBasketOrder } from '../../testing/basket-orders.ts';
import { createCharity } from '../../testing/catalogue.ts';
import { rejects } from '../../testing/errors.ts';
import { orderDepsFor } from '../../testing/orders.ts';
import { type DisputeDeps, reportProblem, respondAsSeller } from '../disputes/disputes.service.ts';
import { acceptReturn, requestReturn } from '../disputes/returns.service.ts';
import { reconciliation } from '../money/ledger.ts';
import { recordCarrierWebhook } from './carrier-webhooks.ts';
import { retryReturnLabel } from './returns.ts';

/** A carrier that sells labels (or is down) and counts what it was asked. */
function stubCarrier() {
  const asked: LabelRequest[] = [];
  let n = 0;
  const carrier = {
    down: false as boolean,
    asked,
    name: 'stub',
    async dropOffPoints() {
      return [];
    },
    async dropOffPoint() {
      return null;
    },
    async buyLabel(request: LabelRequest): Promise<BoughtLabel> {
      asked.push(request);
      if (carrier.down) throw new CarrierUnavailableError('The stub carrier is down');
      n += 1;
      const pdf = new TextEncoder().encode(`%PDF-1.4 stub label ${request.reference} ${'x'.repeat(120)}`);
      return {
        providerRef: `shp_${request.shipmentId}`,
        trackingRef: `RR${String(n).padStart(9, '0')}GB`,
        trackingUrl: `https://track.test/RR${n}`,
        qrCode: `QR-${request.shipmentId}`,
        costMinor: request.expectedCostMinor,
        labels: { a4: pdf, thermal_4x6: pdf },
      };
    },
    verifyWebhook(): VerifiedWebhook {
      throw new Error('not used');
    },
  } satisfies CarrierProvider & { down: boolean; asked: LabelRequest[] };
  return carrier;
}

let t: TestApp;
let db: Database;
let deps: DisputeDeps;
const carrier = stubCarrier();

beforeAll(async () => {
  t = await createTestApp({ services: (defaults) => ({ ...defaults, carriers: carrier }) });
  db = t.database.handle.db;
  deps = { ...orderDepsFor(t), carriers: carrier };
});

afterAll(async () => {
  await t?.close();
});

beforeEach(() => {
  carrier.down = false;
  carrier.asked.length = 0;
});

let event = 0;
/** The carrier reports one scan of a parcel (a verified webhook). */
function scan(
  trackingRef: string,
  status: 'accepted' | 'in_transit' | 'delivered' | 'returned_to_sender',
  at: string,
) {
  event += 1;
  return recordCarrierWebhook(t.database.appHandle.db, 'stub', {
    eventId: `wh-${event}`,
    scans: [
      {
        eventId: `scan-${event}`,
        trackingRef,
        providerRef: null,
        status,
        occurredAt: new Date(at),
        location: 'Reading Mail Centre',
        description: status,
      },
    ],
    payload: { event },
  });
}

async function giveAddress(userId: string, line1: string) {
  await db
    .insertInto('addresses')
    .values({
      user_id: userId,
      full_name: 'Sam Seller',
      line1,
      line2: null,
      town: 'Reading',
      postcode: 'RG1 1AA',
      is_default: true,
    })
    .execute();
}

const returnShipments = (orderId: string) =>
  db
    .selectFrom('shipments')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('direction', '=', 'return')
    .execute();

const templates = async (email: string) =>
  (await db.selectFrom('email_outbox').select('template').where('to_address', '=', email).execute()).map(
    (row) => row.template,
  );

describe('a return the seller caused: prepaid by the seller', () => {
  it('opens one return shipment, buys its label once, and its scans send it back and refund it once, in any order', async () => {
    const paid = await paidBasketOrder(t, [{ price: 900 }], { to: 'delivered' });
    await giveAddress(paid.seller.id, '4 Castle Street');
    const { disputeId } = await reportProblem(deps, paid.buyer.id, {
      orderId: paid.orderId,
      problem: 'damaged',
      description: 'The spine is split and the pages are falling out.',
      photos: [],
    });
    const asked = await respondAsSeller(deps, paid.seller.id, { disputeId, response: 'ask_return' });
    expect(asked).toMatchObject({ stage: 'return', returnPostageBy: 'seller', returnSentAt: null });

    const [shipment, ...others] = await returnShipments(paid.orderId);
    expect(others).toEqual([]);
    const parcel = parcelFor([{ format: null, pageCount: null, parcelSize: 'small' }]);
    expect(shipment).toMatchObject({
      dispute_id: disputeId,
      return_request_id: null,
      paid_by: PROTECTION_RULES.returnPostageBy.damaged,
      method: 'home',
      network: 'royal_mail',
      band: parcel.band,
      weight_g: parcel.weightG,
      cost_minor: postageFor(parcel.band, 'home'),
      status: 'label_ready',
    });
    // Bought once, from the buyer's door to the seller's address.
    expect(carrier.asked).toHaveLength(1);
    expect(carrier.asked[0]!.from).toMatchObject({ line1: expect.any(String) });
    expect(carrier.asked[0]!.to).toMatchObject({
      fullName: 'Sam Seller',
      line1: '4 Castle Street',
      postcode: 'RG1 1AA',
    });
    const mail = await db
      .selectFrom('email_outbox')
      .select('text_body')
      .where('to_address', '=', paid.buyer.email)
      .where('template', '=', 'order.dispute_return')
      .executeTakeFirstOrThrow();
    expect(mail.text_body).toContain('prepaid return label');
    expect(mail.text_body).toContain('The seller pays for it');

    // "Delivered" arrives before "accepted": the return is sent and received, refunded once.
    const trackingRef = shipment!.tracking_ref!;
    expect(await scan(trackingRef, 'delivered', '2026-12-03T10:00:00Z')).toBe('applied');
    const settled = await db
      .selectFrom('disputes')
      .selectAll()
      .where('id', '=', disputeId)
      .executeTakeFirstOrThrow();
    expect(settled).toMatchObject({
      status: 'resolved_refund',
      return_carrier: 'royal_mail_tracked_48',
      return_tracking_ref: trackingRef,
      return_postage_refunded_minor: 0,
    });
    expect(settled.return_sent_at?.toISOString()).toBe('2026-12-03T10:00:00.000Z');
    expect(settled.return_received_at).not.toBeNull();
    const refunds = () =>
      db.selectFrom('refunds').select('amount_minor').where('order_id', '=', paid.orderId).execute();
    expect(await refunds()).toEqual([{ amount_minor: paid.totalMinor }]);
    expect(await templates(paid.buyer.email)).toEqual(
      expect.arrayContaining(['order.dispute_return_sent', 'order.dispute_return_received']),
    );
    // The late "accepted", another "delivered", and the same webhook again change nothing.
    expect(await scan(trackingRef, 'accepted', '2026-12-02T09:00:00Z')).toBe('applied');
    expect(await scan(trackingRef, 'delivered', '2026-12-03T11:00:00Z')).toBe('applied');
    expect(
      await recordCarrierWebhook(t.database.appHandle.db, 'stub', {
        eventId: `wh-${event}`,
        scans: [],
        payload: {},
      }),
    ).toBe('duplicate');
    expect(await refunds()).toHaveLength(1);
    const order = await db
      .selectFrom('orders')
      .select('status')
      .where('id', '=', paid.orderId)
      .executeTakeFirstOrThrow();
    expect(order.status).toBe('refunded');
    const events = await db
      .selectFrom('order_events')
      .select('note')
      .where('order_id', '=', paid.orderId)
      .where('note', 'like', 'The buyer sent the book back%')
      .execute();
    expect(events).toHaveLength(1);
    expect(
      (await reconciliation(db, { problemsOnly: true })).rows.filter((r) => r.orderId === paid.orderId),
    ).toEqual([]);
  });

  it('without the seller’s address there is no label: the buyer posts it their own way', async () => {
    const paid = await paidBasketOrder(t, [{ price: 650 }], { to: 'delivered' });
    const { disputeId } = await reportProblem(deps, paid.buyer.id, {
      orderId: paid.orderId,
      problem: 'wrong_book',
      description: 'This is a different book from the one I ordered.',
      photos: [],
    });
    await respondAsSeller(deps, paid.seller.id, { disputeId, response: 'ask_return' });
    expect(await returnShipments(paid.orderId)).toEqual([]);
    expect(carrier.asked).toHaveLength(0);
  });
});

describe('a change-of-mind return: the buyer pays for the label', () => {
  it('a carrier outage at acceptance leaves "Try again" for the buyer; the scans then send it and refund it', async () => {
    const owner = await createUser(db, t.services.identity, 'owner@return-labels.test');
    const charityId = await createCharity(db, {
      slug: 'return-labels',
      name: 'Kennet Books',
      ownerId: owner.id,
    });
    await db
      .updateTable('charities')
      .set({ address_line1: '9 Bridge Street', town: 'Newbury', postcode: 'RG14 5BE' })
      .where('id', '=', charityId)
      .execute();
    const buyer = await createUser(db, t.services.identity, 'buyer@return-labels.test');
    const paid = await paidBasketOrder(t, [{ price: 700 }, { price: 500, size: 'medium' }], {
      seller: { id: owner.id, email: owner.email },
      buyer: { id: buyer.id, email: buyer.email },
      charityId,
      to: 'delivered',
    });
    const requested = await requestReturn(
      deps,
      { userId: buyer.id },
      { orderId: paid.orderId, reason: 'Changed my mind' },
    );
    carrier.down = true;
    await acceptReturn(deps, owner.id, requested.request!.id);
    const [failed] = await returnShipments(paid.orderId);
    const parcel = parcelFor([
      { format: null, pageCount: null, parcelSize: 'small' },
      { format: null, pageCount: null, parcelSize: 'medium' },
    ]);
    expect(failed).toMatchObject({
      return_request_id: requested.request!.id,
      paid_by: PROTECTION_RULES.changeOfMindReturnPostageBy,
      band: parcel.band,
      cost_minor: postageFor(parcel.band, 'home'),
      status: 'label_failed',
      tracking_ref: null,
    });
    expect(carrier.asked[0]!.to).toMatchObject({ fullName: 'Kennet Books', line1: '9 Bridge Street' });
    const notice = await db
      .selectFrom('notifications')
      .select('body')
      .where('user_id', '=', buyer.id)
      .where('title', 'like', 'Your return was accepted%')
      .executeTakeFirstOrThrow();
    expect(notice.body).toContain('Its cost comes off your refund');

    // Only the buyer may try again, and it is bought once.
    await rejects(retryReturnLabel(deps, owner.id, failed!.id), 'NOT_FOUND');
    carrier.down = false;
    const ready = await retryReturnLabel(deps, buyer.id, failed!.id);
    expect(ready).toMatchObject({ status: 'label_ready', last_error: null });
    await rejects(retryReturnLabel(deps, buyer.id, failed!.id), 'CONFLICT');
    expect(carrier.asked).toHaveLength(2);

    // The first scan sends it back, as typed tracking does; "delivered" refunds it.
    expect(await scan(ready.tracking_ref!, 'accepted', '2026-12-05T09:00:00Z')).toBe('applied');
    const sent = await db
      .selectFrom('return_requests')
      .select(['status', 'return_sent_at', 'return_tracking_ref', 'return_carrier'])
      .where('id', '=', requested.request!.id)
      .executeTakeFirstOrThrow();
    expect(sent).toMatchObject({
      status: 'accepted',
      return_tracking_ref: ready.tracking_ref,
      return_carrier: 'royal_mail_tracked_48',
    });
    expect(await templates(owner.email)).toContain('order.return_sent');
    expect(await scan(ready.tracking_ref!, 'in_transit', '2026-12-05T18:00:00Z')).toBe('applied');
    expect(await scan(ready.tracking_ref!, 'delivered', '2026-12-06T11:00:00Z')).toBe('applied');
    const refunded = await db
      .selectFrom('return_requests')
      .select(['status', 'refund_minor'])
      .where('id', '=', requested.request!.id)
      .executeTakeFirstOrThrow();
    // The books and their postage, not the protection fee, less the label the buyer pays for.
    const protection = paid.items.reduce((sum, item) => sum + item.protectionMinor, 0);
    const label = postageFor(parcel.band, 'home');
    expect(refunded).toEqual({ status: 'refunded', refund_minor: paid.totalMinor - protection - label });
    const kept = await db
      .selectFrom('ledger_entries')
      .select(['amount_minor', 'shipment_id'])
      .where('order_id', '=', paid.orderId)
      .where('kind', '=', 'carrier_label')
      .execute();
    expect(kept).toEqual([{ amount_minor: label, shipment_id: ready.id }]);
    const refundNotice = await db
      .selectFrom('notifications')
      .select('body')
      .where('user_id', '=', buyer.id)
      .where('kind', '=', 'refund')
      .executeTakeFirstOrThrow();
    expect(refundNotice.body).toContain(`less £${(label / 100).toFixed(2)} for your return label`);
    expect(await scan(ready.tracking_ref!, 'delivered', '2026-12-06T12:00:00Z')).toBe('applied');
    expect(
      await db.selectFrom('refunds').select('id').where('order_id', '=', paid.orderId).execute(),
    ).toHaveLength(1);
    const order = await db
      .selectFrom('orders')
      .select('status')
      .where('id', '=', paid.orderId)
      .executeTakeFirstOrThrow();
    expect(order.status).toBe('refunded');
    expect(
      (await reconciliation(db, { problemsOnly: true })).rows.filter((r) => r.orderId === paid.orderId),
    ).toEqual([]);
  });
});
