/**
 * Orders of several books for tests: a seller's (or a charity shop's) books bought
 * together through basket checkout and the test provider's webhook, as a buyer would, then
 * moved on (dispatched, delivered) through the orders service.
 */
import type { ParcelSize } from '@reshelf/contracts';
import {
  applyPaymentEvent,
  type CheckoutDeps,
  dispatchOrder,
  markArrived,
  quoteBasket,
  startBasket,
} from '../commerce/index.ts';
import type { Database } from '../db/index.ts';
import type { TestProvider } from '../platform/payments/test-provider.ts';
import type { TestApp } from './app.ts';
import { createBook, createListing, createPerson } from './catalogue.ts';

const address = {
  fullName: 'Jo March',
  line1: '1 Orchard House',
  line2: null,
  town: 'Bath',
  postcode: 'BA1 1AA',
};
let n = 0;

export function basketDepsFor(t: TestApp): CheckoutDeps {
  return {
    db: t.database.handle.db,
    payments: t.services.payments,
    mailer: t.services.mailer,
    origin: 'http://shop.test',
  };
}

export async function testPerson(db: Database, label: string): Promise<{ id: string; email: string }> {
  n += 1;
  const email = `${label}-${n}-${Math.random().toString(36).slice(2, 8)}@basket-orders.test`;
  return { id: await createPerson(db, email, `${label} ${n}`), email };
}

export interface BasketOrderBook {
  price: number;
  size?: ParcelSize;
  title?: string;
}

export interface PaidBasketOrder {
  orderId: string;
  reference: string;
  seller: { id: string; email: string };
  buyer: { id: string; email: string };
  listingIds: string[];
  /** The order's items, first first. */
  items: {
    id: string;
    listingId: string;
    paidMinor: number;
    protectionMinor: number;
    discountMinor: number;
  }[];
  totalMinor: number;
}

/**
 * One seller's books (their own, or their charity's shop's with `charityId`) bought in one
 * basket order and paid; `to` moves it on to dispatched or delivered. A new buyer's first order
 * gets WELCOME20 unless `buyer` is someone who has ordered before; `tiers` are the seller's
 * (or the shop's).
 */
export async function paidBasketOrder(
  t: TestApp,
  books: BasketOrderBook[],
  options: {
    seller?: { id: string; email: string };
    buyer?: { id: string; email: string };
    charityId?: string | null;
    tiers?: [number, number][];
    to?: 'paid' | 'dispatched' | 'delivered';
  } = {},
): Promise<PaidBasketOrder> {
  const deps = basketDepsFor(t);
  const db = deps.db;
  const seller = options.seller ?? (await testPerson(db, 'seller'));
  const buyer = options.buyer ?? (await testPerson(db, 'buyer'));
  if (options.tiers) {
    const owner = options.charityId ? { charity_id: options.charityId } : { seller_id: seller.id };
    await db
      .deleteFrom('bundle_tiers')
      .where(options.charityId ? 'charity_id' : 'seller_id', '=', options.charityId ?? seller.id)
      .execute();
    if (options.tiers.length > 0) {
      await db
        .insertInto('bundle_tiers')
        .values(options.tiers.map(([minBooks, percent]) => ({ ...owner, min_books: minBooks, percent })))
        .execute();
    }
  }
  const listingIds: string[] = [];
  for (const book of books) {
    n += 1;
    const bookId = await createBook(db, { title: book.title ?? `Basket order book ${n}` });
    const listing = await createListing(db, {
      sellerId: seller.id,
      bookId,
      price: book.price,
      parcelSize: book.size ?? 'small',
      charityId: options.charityId ?? null,
    });
    listingIds.push(listing.id);
  }
  const quote = await quoteBasket(db, buyer.id, listingIds, null);
  const started = await startBasket(deps, buyer, {
    listingIds,
    address,
    promoCode: null,
    quotedTotalMinor: quote.totalMinor,
    quotedGroups: quote.groups.map((group) => ({ key: group.key, totalMinor: group.totalMinor })),
  });
  const payment = await db
    .selectFrom('checkout_payments')
    .select('provider_ref')
    .where('id', '=', started.checkoutPaymentId)
    .executeTakeFirstOrThrow();
  const provider = t.services.payments as TestProvider;
  const signed = provider.signedEvent(payment.provider_ref as string, 'success', started.totalMinor);
  const outcome = await applyPaymentEvent(deps, 'test', provider.parseWebhook(signed.body, signed.headers));
  if (outcome !== 'paid') throw new Error(`payment not applied: ${outcome}`);
  const [order] = started.orders;
  if (!order || started.orders.length !== 1) throw new Error('expected one order for one seller');
  if (options.to === 'dispatched' || options.to === 'delivered') {
    await dispatchOrder({ ...deps }, seller.id, {
      orderId: order.orderId,
      carrier: 'royal_mail_tracked_48',
      trackingRef: `RM${n}GB`,
    });
  }
  if (options.to === 'delivered') await markArrived({ ...deps }, buyer.id, order.orderId);
  // What each book was paid: the money definitions' view (decision 0051).
  const items = await db
    .selectFrom('order_item_money')
    .select(['order_item_id', 'listing_id', 'paid_minor', 'discount_minor', 'protection_minor'])
    .where('order_id', '=', order.orderId)
    .orderBy('position')
    .execute();
  return {
    orderId: order.orderId,
    reference: order.reference,
    seller,
    buyer,
    listingIds,
    items: items.map((item) => ({
      id: item.order_item_id as string,
      listingId: item.listing_id as string,
      paidMinor: item.paid_minor ?? 0,
      protectionMinor: item.protection_minor ?? 0,
      discountMinor: item.discount_minor ?? 0,
    })),
    totalMinor: order.totalMinor,
  };
}
