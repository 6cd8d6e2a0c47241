/** Orders for staff tests: paid through checkout and the test provider's webhook, then moved on. */

import type { Insertable, Selectable, Transaction } from 'kysely';
import {
  applyPaymentEvent,
  type CheckoutDeps,
  confirmOrder,
  dispatchOrder,
  markArrived,
  reportProblem,
  startCheckout,
} from '../commerce/index.ts';
import type { DB } from '../db/database.generated.ts';
import type { Database } from '../db/index.ts';
import type { TestProvider } from '../platform/payments/test-provider.ts';
import type { StoragePort } from '../platform/storage/port.ts';
import type { TestApp } from './app.ts';
import { createBook, createListing, createPerson } from './catalogue.ts';

const address: { fullName: string; line1: string; line2: string | null; town: string; postcode: string } = {
  fullName: 'Jo March',
  line1: '1 Orchard House',
  line2: null,
  town: 'Bath',
  postcode: 'BA1 1AA',
};
let n = 0;

/** What checkout and order steps need, and the storage a job run needs too (JobContext). */
export function orderDepsFor(t: TestApp): CheckoutDeps & { storage: StoragePort } {
  return {
    db: t.database.handle.db,
    payments: t.services.payments,
    mailer: t.services.mailer,
    storage: t.services.storage,
    origin: 'http://shop.test',
  };
}

async function person(db: Database, label: string) {
  n += 1;
  const email = `${label}-${n}-${Math.random().toString(36).slice(2, 8)}@staff-orders.test`;
  return { id: await createPerson(db, email), email };
}

/**
 * A paid order: a seller's book bought through checkout and the webhook, by a new buyer (so
 * WELCOME20 applies, their first order) unless `options.buyer` is given, of a new seller's book
 * unless `options.seller` is given; `options.promoCode` is entered at checkout as a buyer would,
 * and `options.address` is where it goes (Jo March in Bath otherwise).
 */
export async function paidOrder(
  t: TestApp,
  price = 1000,
  title = 'Staff order book',
  options: {
    buyer?: { id: string; email: string };
    seller?: { id: string; email: string };
    promoCode?: string;
    address?: typeof address;
  } = {},
) {
  const deps = orderDepsFor(t);
  const db = deps.db;
  const seller = options.seller ?? (await person(db, 'seller'));
  const buyer = options.buyer ?? (await person(db, 'buyer'));
  const bookId = await createBook(db, { title: `${title} ${n}` });
  const listing = await createListing(db, { sellerId: seller.id, bookId, price, parcelSize: 'small' });
  const started = await startCheckout(deps, buyer, {
    listingId: listing.id,
    address: options.address ?? address,
    promoCode: options.promoCode ?? null,
  });
  const payment = await db
    .selectFrom('payments')
    .select(['id', 'provider_ref'])
    .where('order_id', '=', started.orderId)
    .executeTakeFirstOrThrow();
  const provider = t.services.payments as TestProvider;
  const signed = provider.signedEvent(payment.provider_ref, 'success', started.totalMinor);
  const outcome = await applyPaymentEvent(deps, 'test', provider.parseWebhook(signed.body, signed.headers));
  if (outcome !== 'paid') throw new Error(`payment not applied: ${outcome}`);
  const reference = (
    await db
      .selectFrom('orders')
      .select('reference')
      .where('id', '=', started.orderId)
      .executeTakeFirstOrThrow()
  ).reference;
  return {
    seller,
    buyer,
    listingId: listing.id,
    orderId: started.orderId,
    reference,
    paymentId: payment.id,
    totalMinor: started.totalMinor,
  };
}

/** A paid order whose parcel never came: dispatched, then a shipping dispute. */
export async function disputedOrder(
  t: TestApp,
  kind: 'not_received' | 'item_not_as_described' = 'not_received',
  price = 1000,
) {
  const deps = orderDepsFor(t);
  const order = await paidOrder(t, price);
  await dispatchOrder(deps, order.seller.id, {
    orderId: order.orderId,
    carrier: 'dpd',
    trackingRef: '15501234567890',
  });
  if (kind === 'item_not_as_described') await markArrived(deps, order.buyer.id, order.orderId);
  else {
    // The carrier's window has passed: the buyer may report that nothing arrived.
    await deps.db
      .updateTable('orders')
      .set({ delivery_due_at: new Date(Date.now() - 60_000) })
      .where('id', '=', order.orderId)
      .execute();
  }
  const { disputeId } = await reportProblem(deps, order.buyer.id, {
    orderId: order.orderId,
    problem: kind === 'not_received' ? 'not_received' : 'not_as_described',
    description: kind === 'not_received' ? 'Nothing has arrived after two weeks.' : 'Pages are missing.',
    photos: [],
  });
  return { ...order, disputeId };
}

/** A paid order the buyer has received and confirmed: completed, the seller's payout released. */
export async function completedOrder(
  t: TestApp,
  price = 1000,
  people: { buyer?: { id: string; email: string }; seller?: { id: string; email: string } } = {},
) {
  const deps = orderDepsFor(t);
  const order = await paidOrder(t, price, undefined, people);
  await dispatchOrder(deps, order.seller.id, {
    orderId: order.orderId,
    carrier: 'royal_mail_tracked_48',
    trackingRef: 'AB123456789GB',
  });
  await markArrived(deps, order.buyer.id, order.orderId);
  await confirmOrder(deps, order.buyer.id, order.orderId);
  return order;
}

/**
 * An order row written straight to the tables (tests of what reads orders), with its one book as
 * its order item, as checkout's one insert writes a single book (the item carries the order's
 * price and shares). Answers the order row.
 */
export async function insertOrderRow(
  db: Database | Transaction<DB>,
  values: Insertable<DB['orders']> & { listing_id: string },
): Promise<Selectable<DB['orders']>> {
  if (!db.isTransaction) return db.transaction().execute((trx) => insertOrderRow(trx, values));
  const { listing_id, ...row } = values;
  const order = await db.insertInto('orders').values(row).returningAll().executeTakeFirstOrThrow();
  await db
    .insertInto('order_items')
    .values({
      order_id: order.id,
      listing_id,
      position: 1,
      price_minor: order.item_price_minor,
      bundle_discount_minor: order.bundle_discount_minor,
      discount_minor: order.discount_minor,
      protection_minor: order.buyer_protection_minor,
    })
    .execute();
  return order;
}
