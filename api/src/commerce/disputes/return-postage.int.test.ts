/**
 * Return postage on a return that is the seller's fault (decision 0049), against real
 * PostgreSQL: the buyer enters what they paid to post the book back with the tracking; when the
 * seller confirms it came, the refund includes it (capped at PROTECTION_RULES.returnPostageCapMinor,
 * and at what is left of the card payment), taken from the seller's payout through the refund
 * command; the ledger still balances to the penny.
 */
import { DEFAULT_POSTAGE_RATES, PROTECTION_RULES } from '@reshelf/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { type PaidBasketOrder, paidBasketOrder } from '../../testing/basket-orders.ts';
import { rejects } from '../../testing/errors.ts';
import { orderDepsFor } from '../../testing/orders.ts';
import { reconciliation } from '../money/ledger.ts';
import {
  addReturnTracking,
  confirmReturn,
  type DisputeDeps,
  getDisputeCase,
  reportProblem,
  respondAsSeller,
} from './disputes.service.ts';

let t: TestApp;
let db: Database;
let deps: DisputeDeps;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  deps = { ...orderDepsFor(t), storage: t.services.storage };
});

afterAll(async () => {
  await t?.close();
});

async function money(orderId: string) {
  const payment = await db
    .selectFrom('payments')
    .select(['amount_minor', 'refunded_minor'])
    .where('order_id', '=', orderId)
    .executeTakeFirstOrThrow();
  const payout = await db
    .selectFrom('payouts')
    .select(['amount_minor', 'reversed_minor', 'status'])
    .where('order_id', '=', orderId)
    .executeTakeFirstOrThrow();
  const refunds = await db
    .selectFrom('refunds')
    .select(['amount_minor', 'reason'])
    .where('order_id', '=', orderId)
    .orderBy('created_at')
    .execute();
  const items = await db
    .selectFrom('order_items')
    .select(['id', 'price_minor', 'bundle_discount_minor'])
    .where('order_id', '=', orderId)
    .orderBy('position')
    .execute();
  return { payment, payout, refunds, items };
}

/** A delivered two-book order whose buyer reports the second book; the seller asks for it back. */
async function returnAsked(
  problem: 'damaged' | 'not_as_described' | 'wrong_book' | 'missing_pages',
): Promise<PaidBasketOrder & { disputeId: string }> {
  const paid = await paidBasketOrder(t, [{ price: 1200 }, { price: 850 }], { to: 'delivered' });
  const { disputeId } = await reportProblem(deps, paid.buyer.id, {
    orderId: paid.orderId,
    problem,
    description: 'The book is not the one the listing showed at all.',
    photos: [],
    itemIds: [paid.items[1]!.id],
  });
  const asked = await respondAsSeller(deps, paid.seller.id, { disputeId, response: 'ask_return' });
  expect(asked).toMatchObject({ stage: 'return', returnPostageBy: 'seller' });
  return { ...paid, disputeId };
}

const buyerEmail = (email: string, template: string) =>
  db
    .selectFrom('email_outbox')
    .select(['subject', 'text_body'])
    .where('to_address', '=', email)
    .where('template', '=', template)
    .executeTakeFirstOrThrow();

describe('return postage paid by the seller', () => {
  it('the cap is the dearest label on the rate card, and every problem the seller caused is theirs', () => {
    expect(PROTECTION_RULES.returnPostageCapMinor).toBe(
      Math.max(...Object.values(DEFAULT_POSTAGE_RATES).flatMap((byMethod) => Object.values(byMethod))),
    );
    expect(PROTECTION_RULES.returnPostageBy).toMatchObject({
      not_as_described: 'seller',
      damaged: 'seller',
      wrong_book: 'seller',
      missing_pages: 'seller',
    });
    expect(PROTECTION_RULES.changeOfMindReturnPostageBy).toBe('buyer');
  });

  it('“damaged”: the refund includes the buyer’s return postage, taken from the seller’s payout', async () => {
    const r = await returnAsked('damaged');
    const before = await money(r.orderId);
    const sent = await addReturnTracking(deps, r.buyer.id, {
      disputeId: r.disputeId,
      carrier: 'royal_mail_tracked_48',
      trackingRef: 'RT100000001GB',
      postageMinor: 385,
    });
    expect(sent).toMatchObject({ returnPostageMinor: 385 });
    const back = await confirmReturn(deps, r.seller.id, { disputeId: r.disputeId });
    const book = r.items[1]!;
    expect(back).toMatchObject({ status: 'resolved_refund', refundedMinor: book.paidMinor + 385 });
    const after = await money(r.orderId);
    expect(after.payment.refunded_minor).toBe(book.paidMinor + 385);
    expect(after.refunds.map((row) => row.amount_minor)).toEqual([book.paidMinor, 385]);
    expect(after.refunds[1]!.reason).toContain('Return postage');
    // The seller gives back what they were paid for the book, and the buyer's return postage.
    const item = after.items[1]!;
    expect(after.payout).toMatchObject({
      status: 'released',
      amount_minor: before.payout.amount_minor,
      reversed_minor: item.price_minor - item.bundle_discount_minor + 385,
    });
    const mail = await buyerEmail(r.buyer.email, 'order.dispute_return_received');
    expect(mail.text_body).toContain('£3.85 for your return postage');
    const sellerMail = await buyerEmail(r.seller.email, 'order.dispute_return_received');
    expect(sellerMail.text_body).toContain('£3.85 for the return postage');
    const ledger = await reconciliation(db);
    expect(ledger.rows.find((row) => row.orderId === r.orderId)).toMatchObject({
      problems: [],
      refundedMinor: book.paidMinor + 385,
    });
  });

  it('postage above the cap is paid up to the cap', async () => {
    const r = await returnAsked('not_as_described');
    await addReturnTracking(deps, r.buyer.id, {
      disputeId: r.disputeId,
      carrier: 'evri',
      trackingRef: 'H0100000000001',
      postageMinor: 1250,
    });
    const back = await confirmReturn(deps, r.seller.id, { disputeId: r.disputeId });
    const cap = PROTECTION_RULES.returnPostageCapMinor;
    expect(back.refundedMinor).toBe(r.items[1]!.paidMinor + cap);
    expect((await money(r.orderId)).payment.refunded_minor).toBe(r.items[1]!.paidMinor + cap);
    const ledger = await reconciliation(db);
    expect(ledger.rows.find((row) => row.orderId === r.orderId)?.problems).toEqual([]);
  });

  it('a one-book order: everything paid goes back, and a card refund cannot exceed the payment', async () => {
    const paid = await paidBasketOrder(t, [{ price: 900 }], { to: 'delivered' });
    const { disputeId } = await reportProblem(deps, paid.buyer.id, {
      orderId: paid.orderId,
      problem: 'missing_pages',
      description: 'Pages 40 to 72 are missing from the middle.',
      photos: [],
    });
    await respondAsSeller(deps, paid.seller.id, { disputeId, response: 'ask_return' });
    await addReturnTracking(deps, paid.buyer.id, {
      disputeId,
      carrier: 'royal_mail_tracked_48',
      trackingRef: 'RT100000009GB',
      postageMinor: 320,
    });
    const back = await confirmReturn(deps, paid.seller.id, { disputeId });
    expect(back).toMatchObject({ refundedMinor: paid.totalMinor, returnPostageMinor: 320 });
    const after = await money(paid.orderId);
    expect(after.payment.refunded_minor).toBe(paid.totalMinor);
    expect(after.refunds).toHaveLength(1);
    const mail = await buyerEmail(paid.buyer.email, 'order.dispute_return_received');
    expect(mail.text_body).toContain('The £3.20 return postage could not be added');
    const ledger = await reconciliation(db);
    expect(ledger.rows.find((row) => row.orderId === paid.orderId)?.problems).toEqual([]);
  });

  it('refuses a postage amount that is not whole pence or is negative', async () => {
    const r = await returnAsked('wrong_book');
    await rejects(
      addReturnTracking(deps, r.buyer.id, {
        disputeId: r.disputeId,
        carrier: 'evri',
        trackingRef: 'H0100000000002',
        postageMinor: -1,
      }),
      'BAD_INPUT',
    );
    const view = await getDisputeCase(db, { id: r.buyer.id }, r.disputeId);
    expect(view).toMatchObject({ returnTrackingRef: null, returnPostageMinor: null });
  });
});
