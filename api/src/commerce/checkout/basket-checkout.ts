/**
 * Checkout of basket groups (decision 0043): several books, one order per seller group
 * (one parcel), one payment for them all.
 *
 * The price is `priceGroup` from packages/contracts (what the web shows is what is charged): the
 * seller's bundle tier, one parcel's postage, protection on the discounted subtotal, one
 * discount code per checkout (on the group where it takes the most off). `startBasket` prices
 * again inside its transaction and refuses with the new quote when it differs from the one the
 * buyer saw. Reservation is all or none: every book is locked in listing-id order (`for update`,
 * so two baskets sharing books queue in the same order and cannot deadlock), every one must be
 * on sale, then all are reserved and the orders written, in one transaction.
 */
import {
  type AddressInput,
  BASKET_LIMITS,
  type BasketQuote,
  type BasketStartResult,
  type BundleTier,
  COMMERCIAL_DEFAULTS,
  type DeliveryChoice,
  type GroupQuote,
  type ParcelSize,
  plural,
} from '@reshelf/contracts';
import { sql, type Transaction } from 'kysely';
import { tradersOfListings } from '../../catalogue/index.ts';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import type { CarrierProvider } from '../../platform/carriers/index.ts';
import type { CheckoutSession } from '../../platform/payments/port.ts';
import { insertOrder } from '../orders/insert.ts';
import { type PricedGroup, type PricingGroup, priceOrders } from '../pricing/quote.ts';
import {
  type CheckoutDeps,
  cancelPendingOrder,
  describePayment,
  type IdempotentAttempt,
  INTERRUPTED_REASON,
  LAPSED_REASON,
  lapseOwnOverdue,
  paymentOrders,
  recordSessionPayments,
  resumeCheckout,
} from './checkout.service.ts';
import {
  deliveryColumns,
  deliveryQuote,
  deliveryRegion,
  type GroupDeliveries,
  resolveGroupDeliveries,
} from './delivery.ts';

type Executor = Database | Transaction<DB>;

export const QUOTE_CHANGED_MESSAGE =
  'The price has changed since you looked: check the new total below and pay again.';

interface BasketListing {
  listingId: string;
  sellerId: string;
  charityId: string | null;
  charityName: string | null;
  charitySlug: string | null;
  sellerName: string;
  title: string;
  status: string;
  priceMinor: number;
  parcelSize: ParcelSize;
  format: string | null;
  pageCount: number | null;
}

/** The listings, in the order asked (unknown ids are refused). */
async function loadListings(db: Executor, listingIds: string[]): Promise<BasketListing[]> {
  const rows = await db
    .selectFrom('listings as l')
    .innerJoin('books as b', 'b.id', 'l.book_id')
    .innerJoin('profiles as p', 'p.id', 'l.seller_id')
    .leftJoin('charities as ch', 'ch.id', 'l.charity_id')
    .select([
      'l.id',
      'l.seller_id',
      'l.charity_id',
      'l.status',
      'l.price_minor',
      'l.parcel_size',
      'l.format',
      'b.title',
      'b.page_count',
      'p.display_name',
      'ch.name as charity_name',
      'ch.slug as charity_slug',
    ])
    .where('l.id', 'in', listingIds)
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return listingIds.map((id) => {
    const row = byId.get(id);
    if (!row || row.status === 'draft')
      throw new AppError('NOT_FOUND', 'We could not find one of those books.');
    return {
      listingId: row.id,
      sellerId: row.seller_id,
      charityId: row.charity_id,
      charityName: row.charity_name,
      charitySlug: row.charity_slug,
      sellerName: row.charity_name ?? row.display_name,
      title: row.title,
      status: row.status,
      priceMinor: row.price_minor ?? 0,
      parcelSize: (row.parcel_size ?? 'small') as ParcelSize,
      format: row.format,
      pageCount: row.page_count,
    };
  });
}

/** No choice made: every group by home delivery (the preselected choice). */
const NO_CHOICE: GroupDeliveries = { choices: {}, points: new Map() };

/** A group's key: one seller, and one charity's shop for a charity's books (one parcel). */
export function groupKey(listing: { sellerId: string; charityId: string | null }): string {
  return listing.charityId ? `${listing.sellerId}:${listing.charityId}` : listing.sellerId;
}

/** Bundle tiers of these sellers (their own) and charities (their shop's), lowest first. */
export async function tiersFor(
  db: Executor,
  owners: { sellerIds: string[]; charityIds: string[] },
): Promise<{ bySeller: Map<string, BundleTier[]>; byCharity: Map<string, BundleTier[]> }> {
  const bySeller = new Map<string, BundleTier[]>();
  const byCharity = new Map<string, BundleTier[]>();
  if (owners.sellerIds.length + owners.charityIds.length === 0) return { bySeller, byCharity };
  const rows = await db
    .selectFrom('bundle_tiers')
    .select(['seller_id', 'charity_id', 'min_books', 'percent'])
    .where((eb) =>
      eb.or([
        ...(owners.sellerIds.length ? [eb('seller_id', 'in', owners.sellerIds)] : []),
        ...(owners.charityIds.length ? [eb('charity_id', 'in', owners.charityIds)] : []),
      ]),
    )
    .orderBy('min_books')
    .execute();
  for (const row of rows) {
    const tier = { minBooks: row.min_books, percent: row.percent };
    if (row.charity_id) byCharity.set(row.charity_id, [...(byCharity.get(row.charity_id) ?? []), tier]);
    else if (row.seller_id) bySeller.set(row.seller_id, [...(bySeller.get(row.seller_id) ?? []), tier]);
  }
  return { bySeller, byCharity };
}

interface Group extends PricingGroup {
  listings: BasketListing[];
}

export interface PricedBasket {
  quote: BasketQuote;
  groups: { group: Group; priced: PricedGroup }[];
  /** The promotion the checkout uses, when the entered code won (decision 0019). */
  promotionId: string | null;
  /** Why the entered code cannot be used at all (not "WELCOME20 was better"). */
  promoRefusal: string | null;
}

/**
 * Prices the books a buyer asks about as one order per seller group (the one quote,
 * commerce/pricing/quote.ts). Books that cannot be bought now (sold, reserved, withdrawn, the
 * buyer's own) are listed as gone and not priced. With `lock` (inside checkout's transaction) a
 * promotion row is locked while its uses count.
 */
export async function priceBasket(
  db: Executor,
  buyerId: string,
  listingIds: string[],
  promoCode: string | null,
  deliveries: GroupDeliveries = NO_CHOICE,
  options: { lock?: boolean } = {},
): Promise<PricedBasket> {
  const ids = [...new Set(listingIds)];
  const listings = await loadListings(db, ids);
  const gone = listings.filter((listing) => listing.status !== 'active' || listing.sellerId === buyerId);
  const groups: Group[] = [];
  for (const listing of listings) {
    if (gone.includes(listing)) continue;
    const key = groupKey(listing);
    let group = groups.find((candidate) => candidate.key === key);
    if (!group) {
      group = {
        key,
        sellerId: listing.sellerId,
        charityId: listing.charityId,
        sellerName: listing.sellerName,
        books: [],
        tiers: [],
        agreedMinor: null,
        offerId: null,
        method: deliveries.choices[key]?.method ?? 'home',
        listings: [],
      };
      groups.push(group);
    }
    group.listings.push(listing);
  }
  for (const group of groups) {
    if (group.listings.length > BASKET_LIMITS.maxGroupItems) {
      throw new AppError(
        'BAD_INPUT',
        `One order holds at most ${BASKET_LIMITS.maxGroupItems} books: check out ${group.sellerName}’s books in two goes.`,
      );
    }
    group.books = group.listings.map((listing) => ({
      listingId: listing.listingId,
      title: listing.title,
      priceMinor: listing.priceMinor,
      parcelSize: listing.parcelSize,
      format: listing.format,
      pageCount: listing.pageCount,
    }));
  }
  const tiers = await tiersFor(db, {
    sellerIds: [...new Set(groups.filter((g) => !g.charityId).map((g) => g.sellerId))],
    charityIds: [...new Set(groups.flatMap((g) => (g.charityId ? [g.charityId] : [])))],
  });
  for (const group of groups) {
    group.tiers =
      (group.charityId ? tiers.byCharity.get(group.charityId) : tiers.bySeller.get(group.sellerId)) ?? [];
  }
  const priced = await priceOrders(db, buyerId, groups, promoCode, options);
  const entries = groups.map((group, index) => ({ group, priced: priced.groups[index] as PricedGroup }));
  const traders = await tradersOfListings(
    db,
    groups.flatMap((group) => group.listings.slice(0, 1).map((listing) => listing.listingId)),
  );
  return {
    quote: {
      groups: entries.map(({ group, priced: order }): GroupQuote => {
        const { price } = order;
        const point = deliveries.points.get(group.key) ?? null;
        return {
          key: group.key,
          sellerId: group.sellerId,
          charityId: group.charityId,
          sellerName: group.sellerName,
          items: group.listings.map((listing, i) => {
            const item = price.items[i] as (typeof price.items)[number];
            return {
              listingId: listing.listingId,
              title: listing.title,
              priceMinor: item.priceMinor,
              parcelSize: listing.parcelSize,
              bundleDiscountMinor: item.bundleDiscountMinor,
              discountMinor: item.discountMinor,
              protectionMinor: item.protectionMinor,
              paidMinor: item.paidMinor,
            };
          }),
          bookCount: price.bookCount,
          itemSubtotalMinor: price.itemSubtotalMinor,
          bundlePercent: price.bundlePercent,
          bundleDiscountMinor: price.bundleDiscountMinor,
          discountedSubtotalMinor: price.discountedSubtotalMinor,
          postageMinor: price.postageMinor,
          delivery: deliveryQuote(order, point, deliveryRegion(point, deliveries.postcode)),
          protectionMinor: price.protectionMinor,
          protectionVatMinor: price.protectionVatMinor,
          discountMinor: price.discountMinor,
          discountCode: order.discountCode,
          discountLabel: order.discountLabel,
          totalMinor: price.totalMinor,
          singleOrdersMinor: order.singleOrdersMinor,
          savingMinor: order.savingMinor,
          trader: traders.get(group.listings[0]?.listingId ?? '') ?? null,
        };
      }),
      totalMinor: priced.totalMinor,
      promo: priced.promo,
      gone: gone.map((listing) => ({ listingId: listing.listingId, title: listing.title })),
    },
    groups: entries,
    promotionId: priced.promotionId,
    promoRefusal: priced.promoRefusal,
  };
}

/** What the buyer would pay now for these books, group by group; the server's figures. */
export async function quoteBasket(
  db: Database,
  buyerId: string,
  listingIds: string[],
  promoCode: string | null,
  delivery: {
    choices?: Record<string, DeliveryChoice> | undefined;
    carriers?: CarrierProvider | undefined;
  } = {},
): Promise<BasketQuote> {
  const deliveries = await resolveGroupDeliveries(delivery.carriers, delivery.choices);
  // Their own run-out reservations are let go first: the books may be back on sale.
  await lapseOwnOverdue(db, buyerId, listingIds);
  return (await priceBasket(db, buyerId, listingIds, promoCode, deliveries)).quote;
}

function sameQuote(
  quote: BasketQuote,
  quoted: { totalMinor: number; groups: { key: string; totalMinor: number }[] },
): boolean {
  if (quote.gone.length > 0 || quote.totalMinor !== quoted.totalMinor) return false;
  if (quote.groups.length !== quoted.groups.length) return false;
  return quote.groups.every((group) =>
    quoted.groups.some((seen) => seen.key === group.key && seen.totalMinor === group.totalMinor),
  );
}

/** The refusal that carries the new quote (the tRPC error's data.quote). */
export class QuoteChangedError extends AppError {
  constructor(message: string, quote: BasketQuote) {
    super('PRECONDITION_FAILED', message, { quote, reason: 'QUOTE_CHANGED' });
  }
}

export interface BasketStartInput {
  listingIds: string[];
  address: AddressInput;
  promoCode: string | null;
  /** Each seller group's delivery choice by its key (home delivery when not named). */
  deliveries?: Record<string, DeliveryChoice> | undefined;
  quotedTotalMinor: number;
  quotedGroups: { key: string; totalMinor: number }[];
}

/**
 * A retried checkout whose first attempt died (decision 0024): back to that payment while it is
 * held, or, when its payment never opened, its orders are let go and the caller starts afresh.
 */
async function continueBasket(
  deps: CheckoutDeps,
  buyer: { id: string; email: string },
  checkoutPaymentId: string,
): Promise<BasketStartResult | null> {
  const payment = await deps.db
    .selectFrom('checkout_payments')
    .select(['id', 'buyer_id', 'provider_ref', 'amount_minor'])
    .where('id', '=', checkoutPaymentId)
    .executeTakeFirst();
  if (!payment || payment.buyer_id !== buyer.id) return null;
  const orders = await deps.db
    .selectFrom('orders')
    .select(['id', 'reference', 'status', 'reserved_until', 'total_minor'])
    .where('checkout_payment_id', '=', payment.id)
    .orderBy('payment_position')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const first = orders[0];
  if (!first || orders.some((order) => order.status === 'cancelled')) return null;
  const result = (redirectUrl: string): BasketStartResult => ({
    checkoutPaymentId: payment.id,
    orders: orders.map((order) => ({
      orderId: order.id,
      reference: order.reference,
      totalMinor: order.total_minor,
    })),
    redirectUrl,
    totalMinor: payment.amount_minor,
  });
  if (first.status !== 'pending_payment') {
    return result(`${deps.origin}/checkout/success?order=${first.id}&payment=${payment.id}`);
  }
  if (!payment.provider_ref || !first.reserved_until || first.reserved_until <= new Date()) {
    await cancelPendingOrder(deps.db, first.id, payment.provider_ref ? LAPSED_REASON : INTERRUPTED_REASON, {
      id: null,
      kind: 'system',
    });
    return null;
  }
  return result((await resumeCheckout(deps, buyer, first.id)).redirectUrl);
}

/**
 * Checks out basket groups: one payment, one order per seller group, every book reserved or
 * none. Refuses with the new quote when the price is not the one the buyer was shown.
 */
export async function startBasket(
  deps: CheckoutDeps,
  buyer: { id: string; email: string },
  input: BasketStartInput,
  attempt?: IdempotentAttempt,
): Promise<BasketStartResult> {
  const earlier = attempt?.progress?.checkoutPaymentId;
  if (typeof earlier === 'string') {
    const continued = await continueBasket(deps, buyer, earlier);
    if (continued) return continued;
  }
  const listingIds = [...new Set(input.listingIds)];
  const deliveries = {
    ...(await resolveGroupDeliveries(deps.carriers, input.deliveries)),
    postcode: input.address.postcode,
  };
  await lapseOwnOverdue(deps.db, buyer.id, listingIds);
  const reservedUntil = new Date(Date.now() + COMMERCIAL_DEFAULTS.reservationMinutes * 60 * 1000);
  const created = await deps.db.transaction().execute(async (trx) => {
    // One checkout at a time per buyer (WELCOME20, a promotion's per-buyer limit).
    await sql`select pg_advisory_xact_lock(hashtext(${`checkout:${buyer.id}`}))`.execute(trx);
    // Every book locked in listing-id order: two baskets sharing books queue, never deadlock.
    await sql`select id from public.listings where id = any(${sql.val(listingIds)}::uuid[]) order by id for update`.execute(
      trx,
    );
    const priced = await priceBasket(trx, buyer.id, listingIds, input.promoCode, deliveries, { lock: true });
    if (priced.quote.gone.length > 0) {
      const [first] = priced.quote.gone;
      throw new QuoteChangedError(
        plural(
          priced.quote.gone.length,
          `“${first?.title}” has just been sold, so it is no longer in your checkout. Check the new total and pay again.`,
          `${priced.quote.gone.length} of your books have just been sold, so they are no longer in your checkout. Check the new total and pay again.`,
        ),
        priced.quote,
      );
    }
    // A code that stopped working since the quote is refused, not silently dropped.
    if (priced.promoRefusal) throw new AppError('PRECONDITION_FAILED', priced.promoRefusal);
    if (!sameQuote(priced.quote, { totalMinor: input.quotedTotalMinor, groups: input.quotedGroups })) {
      throw new QuoteChangedError(QUOTE_CHANGED_MESSAGE, priced.quote);
    }
    const reserved = await trx
      .updateTable('listings')
      .set({ status: 'reserved' })
      .where('id', 'in', listingIds)
      .where('status', '=', 'active')
      .returning('id')
      .execute();
    if (reserved.length !== listingIds.length) {
      // Cannot happen under the row locks; refused rather than half-reserved all the same.
      throw new AppError(
        'CONFLICT',
        'Some of these books have just been sold. Nothing was reserved or charged.',
      );
    }
    const payment = await trx
      .insertInto('checkout_payments')
      .values({ buyer_id: buyer.id, provider: deps.payments.kind, amount_minor: priced.quote.totalMinor })
      .returning('id')
      .executeTakeFirstOrThrow();
    const orders: { orderId: string; reference: string; totalMinor: number; titles: string[] }[] = [];
    for (const [index, { priced: order }] of priced.groups.entries()) {
      const created = await insertOrder(trx, {
        delivery: deliveryColumns((priced.quote.groups[index] as GroupQuote).delivery),
        buyerId: buyer.id,
        priced: order,
        promotionId: priced.promotionId,
        reservedUntil,
        address: input.address,
        checkoutPaymentId: payment.id,
        paymentPosition: orders.length + 1,
      });
      orders.push({
        orderId: created.id,
        reference: created.reference,
        totalMinor: order.price.totalMinor,
        titles: order.group.books.map((book) => book.title),
      });
    }
    await attempt?.checkpoint(trx, { checkoutPaymentId: payment.id });
    return { checkoutPaymentId: payment.id, orders, totalMinor: priced.quote.totalMinor };
  });

  const first = created.orders[0] as (typeof created.orders)[number];
  const back = deps.returnOrigin ?? deps.origin;
  const described = describePayment(created.orders);
  let session: CheckoutSession;
  try {
    session = await deps.payments.createCheckout({
      orderId: first.orderId,
      reference: described.reference,
      amountMinor: created.totalMinor,
      description:
        `${described.title} (${plural(created.orders.length, 'order', 'orders')} ${described.reference})`.slice(
          0,
          500,
        ),
      customerEmail: buyer.email,
      successUrl: `${back}/checkout/success?order=${first.orderId}&payment=${created.checkoutPaymentId}`,
      cancelUrl: `${back}/checkout/cancel?order=${first.orderId}&payment=${created.checkoutPaymentId}`,
      siteOrigin: deps.origin,
      expiresAt: reservedUntil,
    });
  } catch (error) {
    // Every order of the payment is cancelled and every book released (all or none).
    await cancelPendingOrder(deps.db, first.orderId, 'The payment service could not be reached', {
      id: null,
      kind: 'system',
    });
    throw new AppError(
      'UNAVAILABLE',
      'We could not reach the payment service. Nothing was charged: please try again.',
      { cause: String(error) },
    );
  }
  await deps.db.transaction().execute((trx) =>
    recordSessionPayments(trx, {
      buyerId: buyer.id,
      provider: deps.payments.kind,
      providerRef: session.providerRef,
      orders: created.orders.map((order) => ({ id: order.orderId, totalMinor: order.totalMinor })),
      checkoutPaymentId: created.checkoutPaymentId,
    }),
  );
  return {
    checkoutPaymentId: created.checkoutPaymentId,
    orders: created.orders.map(({ orderId, reference, totalMinor }) => ({ orderId, reference, totalMinor })),
    redirectUrl: session.redirectUrl,
    totalMinor: created.totalMinor,
  };
}

/** The orders of a payment, for the success page (the buyer's own only). */
export async function basketPaymentOrders(db: Database, buyerId: string, checkoutPaymentId: string) {
  const payment = await db
    .selectFrom('checkout_payments')
    .select(['buyer_id', 'amount_minor'])
    .where('id', '=', checkoutPaymentId)
    .executeTakeFirst();
  if (!payment || payment.buyer_id !== buyerId)
    throw new AppError('NOT_FOUND', 'We could not find that payment.');
  return { totalMinor: payment.amount_minor, orders: await paymentOrders(db, checkoutPaymentId) };
}
