/**
 * Checkout (brief §4–§5). A quote prices a listing (or an accepted offer) for a buyer; start
 * reserves the listing for 15 minutes, creates the pending order and the provider's payment
 * session; the provider's webhook then makes the order paid, or releases the listing.
 *
 * Invariants held by the database, not by this process: a listing has at most one live
 * order (the conditional reserve and a partial unique index), WELCOME20 is on at most one
 * live order per buyer (a per-buyer lock and a partial unique index), a promotion's limits
 * hold (the same per-buyer lock, and a row lock on the promotion while its uses are counted),
 * a webhook event is applied once (its id is the key of payment_events), a refund never
 * exceeds the payment (a check constraint), and every state change writes an order event.
 * Order status changes go through the orders state machine (orders/order-machine.ts); refunds
 * through the refund command (refunds/refund.ts).
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  type AddressInput,
  COMMERCIAL_DEFAULTS,
  type DeliveryChoice,
  type DropOffPoint,
  paymentTotal,
  plural,
  type Quote,
} from '@reshelf/contracts';
import { sql, type Transaction } from 'kysely';
import { traderOfListing } from '../../catalogue/index.ts';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import type { CarrierProvider } from '../../platform/carriers/index.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type {
  CheckoutSession,
  CheckoutSessionInput,
  PaymentEvent,
  PaymentProvider,
} from '../../platform/payments/port.ts';
import { holdEarnings } from '../money/payouts.ts';
import { refundPayment } from '../money/refund.ts';
import { closeOffersForSoldListing } from '../offers/offers.service.ts';
import { insertOrder } from '../orders/insert.ts';
import { type Actor, type LockedOrder, lockOrderRow, transition } from '../orders/order-machine.ts';
import { queueOrderMail } from '../orders/order-mail.ts';
import { type PricedGroup, type PricingGroup, priceOrders } from '../pricing/quote.ts';
import { deliveryColumns, deliveryQuote, deliveryRegion, resolveDropOffPoint } from './delivery.ts';

export const JUST_SOLD_MESSAGE = 'This book has just been sold. Take a look at similar books instead.';
/** To the buyer who reserved the book and comes back to buy it again instead of finishing. */
export const OWN_RESERVATION_MESSAGE =
  'You’ve already started buying this book, and it’s held for you while you pay: finish paying for that order rather than starting again.';
export const LAPSED_REASON = 'The 15-minute reservation lapsed before payment';
const LAPSED_MESSAGE =
  'The 15 minutes we held this book for you have run out, so that order was cancelled and nothing was taken. If the book is still for sale, you can buy it again.';

type Executor = Database | Transaction<DB>;

export interface CheckoutDeps {
  db: Database;
  payments: PaymentProvider;
  mailer: Mailer;
  /** Drop-off points for the buyer's delivery choice (decision 0083). */
  carriers?: CarrierProvider;
  /** The site's origin, for the provider's return URLs. */
  origin: string;
  /**
   * Where the provider sends the buyer back when it is not the site: the Capacitor app's own
   * origin for a checkout started in the app (decision 0029).
   */
  returnOrigin?: string;
  log?: (message: string, error?: unknown) => void;
}

interface Book {
  listingId: string;
  title: string;
  status: string;
  priceMinor: number;
  parcelSize: 'small' | 'medium' | 'large';
  format: string | null;
  pageCount: number | null;
}

interface Purchasable {
  listingId: string;
  sellerId: string;
  charityId: string | null;
  charitySale: boolean;
  title: string;
  status: string;
  priceMinor: number;
  parcelSize: 'small' | 'medium' | 'large';
  offerId: string | null;
  offerAmountMinor: number | null;
  /**
   * Every book bought: the one listing, or an accepted bundle offer's books (its offer_items,
   * decision 0043), first to last. One order, one parcel.
   */
  books: Book[];
}

async function purchasable(
  db: Executor,
  buyerId: string,
  source: { listingId: string } | { offerId: string },
): Promise<Purchasable> {
  let listingId: string;
  let offer: { id: string; amount_minor: number } | undefined;
  if ('offerId' in source) {
    const row = await db
      .selectFrom('offers')
      .select(['id', 'listing_id', 'amount_minor', 'status', 'buyer_id', 'checkout_deadline'])
      .where('id', '=', source.offerId)
      .executeTakeFirst();
    if (!row || row.buyer_id !== buyerId) throw new AppError('NOT_FOUND', 'We could not find that offer.');
    if (row.status !== 'accepted' || !row.checkout_deadline || row.checkout_deadline.getTime() < Date.now()) {
      throw new AppError(
        'PRECONDITION_FAILED',
        'This offer can no longer be bought at its price: accepted offers must be paid within 24 hours.',
      );
    }
    listingId = row.listing_id;
    offer = row;
  } else {
    listingId = source.listingId;
  }
  const bundle = offer
    ? await db
        .selectFrom('offer_items')
        .select('listing_id')
        .where('offer_id', '=', offer.id)
        .orderBy('position')
        .execute()
    : [];
  const ids = bundle.length > 0 ? bundle.map((row) => row.listing_id) : [listingId];
  const rows = await db
    .selectFrom('listings as l')
    .innerJoin('books as b', 'b.id', 'l.book_id')
    .select([
      'l.id',
      'l.seller_id',
      'l.status',
      'l.price_minor',
      'l.parcel_size',
      'l.format',
      'l.charity_id',
      'b.title',
      'b.page_count',
    ])
    .where('l.id', 'in', ids)
    .execute();
  const listing = rows.find((row) => row.id === ids[0]);
  if (!listing || rows.length !== ids.length) throw new AppError('NOT_FOUND', 'We could not find that book.');
  if (listing.seller_id === buyerId) throw new AppError('BAD_INPUT', 'You cannot buy your own book.');
  const books = ids.map((id) => {
    const row = rows.find((candidate) => candidate.id === id) as (typeof rows)[number];
    return {
      listingId: row.id,
      title: row.title,
      status: row.status,
      priceMinor: row.price_minor ?? 0,
      parcelSize: (row.parcel_size ?? 'small') as Book['parcelSize'],
      format: row.format,
      pageCount: row.page_count,
    };
  });
  return {
    books,
    listingId: listing.id,
    sellerId: listing.seller_id,
    charityId: listing.charity_id,
    charitySale: listing.charity_id !== null,
    title: listing.title,
    status: listing.status,
    priceMinor: listing.price_minor ?? 0,
    parcelSize: (listing.parcel_size ?? 'small') as Purchasable['parcelSize'],
    offerId: offer?.id ?? null,
    offerAmountMinor: offer?.amount_minor ?? null,
  };
}

/**
 * The buyer's own order waiting for payment on this book, still within its reservation. A
 * buyer who left the payment page finishes that order (resumeCheckout); they are not told the
 * book has "just been sold" to them.
 */
export interface HeldOrder {
  orderId: string;
  reference: string;
  reservedUntil: Date;
  totalMinor: number;
}

export async function heldForBuyer(
  db: Executor,
  buyerId: string,
  listingId: string,
): Promise<HeldOrder | null> {
  const row = await db
    .selectFrom('orders')
    .select(['id', 'reference', 'reserved_until', 'total_minor'])
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('order_items')
          .select('order_items.id')
          .whereRef('order_items.order_id', '=', 'orders.id')
          .where('order_items.listing_id', '=', listingId),
      ),
    )
    .where('buyer_id', '=', buyerId)
    .where('status', '=', 'pending_payment')
    .where('reserved_until', '>', new Date())
    .executeTakeFirst();
  if (!row?.reserved_until) return null;
  return {
    orderId: row.id,
    reference: row.reference,
    reservedUntil: row.reserved_until,
    totalMinor: row.total_minor,
  };
}

/**
 * The buyer's own reservations of this book that have run out but that the job has not
 * cancelled yet: cancelled now, as the job would, so coming back to buy again is not refused
 * for the half-minute until it runs.
 */
export async function lapseOwnOverdue(
  db: Database,
  buyerId: string,
  listingId: string | string[],
): Promise<boolean> {
  const overdue = await db
    .selectFrom('orders')
    .select('id')
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('order_items')
          .select('order_items.id')
          .whereRef('order_items.order_id', '=', 'orders.id')
          .where('order_items.listing_id', 'in', Array.isArray(listingId) ? listingId : [listingId]),
      ),
    )
    .where('buyer_id', '=', buyerId)
    .where('status', '=', 'pending_payment')
    .where('reserved_until', '<=', new Date())
    .execute();
  let lapsed = false;
  for (const order of overdue) {
    lapsed = (await cancelPendingOrder(db, order.id, LAPSED_REASON, { id: null, kind: 'system' })) || lapsed;
  }
  return lapsed;
}

async function assertOnSale(db: Executor, buyerId: string, item: Purchasable): Promise<void> {
  if (await heldForBuyer(db, buyerId, item.listingId)) {
    throw new AppError('CONFLICT', OWN_RESERVATION_MESSAGE);
  }
  // A book reserved for an accepted offer is on sale to that offer's buyer only.
  const open = item.books.every((book) =>
    item.offerId ? book.status === 'reserved' || book.status === 'active' : book.status === 'active',
  );
  if (!open) throw new AppError('CONFLICT', JUST_SOLD_MESSAGE);
}

/** The book (or an accepted offer's books) as one order to price (commerce/pricing/quote.ts). */
function pricingGroup(item: Purchasable, delivery: DeliveryChoice | undefined): PricingGroup {
  return {
    key: item.charityId ? `${item.sellerId}:${item.charityId}` : item.sellerId,
    sellerId: item.sellerId,
    charityId: item.charityId,
    sellerName: '',
    books: item.books.map((book) => ({
      listingId: book.listingId,
      title: book.title,
      priceMinor: book.priceMinor,
      parcelSize: book.parcelSize,
      format: book.format,
      pageCount: book.pageCount,
    })),
    // A single book reaches no bundle tier; an offer's amount is what was agreed.
    tiers: [],
    agreedMinor: item.offerAmountMinor,
    offerId: item.offerId,
    method: delivery?.method ?? 'home',
  };
}

interface Priced {
  quote: Quote;
  order: PricedGroup;
  promotionId: string | null;
  promoRefusal: string | null;
}

/** How the buyer wants it: the choice, the point it names (looked up already) and the delivery postcode. */
export interface DeliveryInput {
  choice?: DeliveryChoice | undefined;
  point: DropOffPoint | null;
  postcode?: string | null | undefined;
}

/** One book or an accepted offer, priced as an order of one group (the one quote, decision 0051). */
async function price(
  db: Executor,
  buyerId: string,
  item: Purchasable,
  delivery: DeliveryInput,
  promoCode: string | null = null,
  options: { lock?: boolean } = {},
): Promise<Priced> {
  const priced = await priceOrders(db, buyerId, [pricingGroup(item, delivery.choice)], promoCode, options);
  const order = priced.groups[0] as PricedGroup;
  const parcel = deliveryQuote(order, delivery.point, deliveryRegion(delivery.point, delivery.postcode));
  // Every book of an order is one seller's (and one charity's): the first names the trader.
  const trader = await traderOfListing(db, item.books[0]?.listingId ?? item.listingId);
  return {
    quote: {
      listingId: item.listingId,
      title:
        item.books.length > 1
          ? describePayment([{ reference: '', titles: item.books.map((b) => b.title) }]).title
          : item.title,
      itemMinor: order.price.itemSubtotalMinor,
      postageMinor: order.price.postageMinor,
      delivery: parcel,
      protectionMinor: order.price.protectionMinor,
      protectionVatMinor: order.price.protectionVatMinor,
      discountMinor: order.price.discountMinor,
      discountCode: order.discountCode,
      discountLabel: order.discountLabel,
      totalMinor: order.price.totalMinor,
      offerId: item.offerId,
      promo: priced.promo,
      trader,
    },
    order,
    promotionId: priced.promotionId,
    promoRefusal: priced.promoRefusal,
  };
}

/**
 * What the buyer would pay now, line by line, for the delivery they chose (home delivery until
 * they chose); the server's figures, never the browser's.
 */
export async function quote(
  db: Database,
  buyerId: string,
  source: { listingId: string } | { offerId: string },
  promoCode: string | null = null,
  delivery: {
    choice?: DeliveryChoice | undefined;
    postcode?: string | undefined;
    carriers?: CarrierProvider;
  } = {},
): Promise<Quote> {
  const point = await resolveDropOffPoint(delivery.carriers, delivery.choice);
  let item = await purchasable(db, buyerId, source);
  // Their own run-out reservation is let go first: the book may be back on sale.
  if (
    await lapseOwnOverdue(
      db,
      buyerId,
      item.books.map((book) => book.listingId),
    )
  )
    item = await purchasable(db, buyerId, source);
  await assertOnSale(db, buyerId, item);
  return (
    await price(db, buyerId, item, { choice: delivery.choice, point, postcode: delivery.postcode }, promoCode)
  ).quote;
}

export interface StartResult {
  orderId: string;
  reference: string;
  redirectUrl: string;
  totalMinor: number;
}

/** How long a key stays held without a heartbeat before a retry may take it over (decision 0024). */
export const IDEMPOTENCY_LEASE_SECONDS = 30;

/** What the work under an idempotency key is told, and can record as it goes. */
export interface IdempotentAttempt {
  /** What an earlier attempt with this key recorded before it stopped (its process died), else null. */
  progress: Record<string, unknown> | null;
  /** Records how far the work got, in the transaction that got it there (so both or neither stay). */
  checkpoint(executor: Executor, progress: Record<string, unknown>): Promise<void>;
}

/**
 * A retried call with the same key gets the first answer; the same key with a different request
 * is refused, and so is a retry while the first call is still working (409). The call holding the
 * key renews a short lease while it works; a key with no answer whose lease ran out belongs to a
 * call whose process died, and the next retry takes it over (one conditional update, so one
 * retry wins) and carries on from the progress that call recorded. A failed attempt lets its key
 * go at once: a retry then runs again.
 */
export async function withIdempotency<T>(
  db: Database,
  userId: string,
  scope: string,
  key: string,
  request: unknown,
  work: (attempt: IdempotentAttempt) => Promise<T>,
  options: { leaseSeconds?: number } = {},
): Promise<T> {
  const leaseSeconds = options.leaseSeconds ?? IDEMPOTENCY_LEASE_SECONDS;
  const requestHash = createHash('sha256').update(JSON.stringify(request)).digest('hex');
  const holder = randomUUID();
  const leaseEnd = () => sql<Date>`now() + make_interval(secs => ${leaseSeconds})`;
  const mine = () =>
    db
      .updateTable('idempotency_keys')
      .where('user_id', '=', userId)
      .where('scope', '=', scope)
      .where('key', '=', key)
      .where('holder', '=', holder);

  let progress: Record<string, unknown> | null = null;
  const claimed = await db
    .insertInto('idempotency_keys')
    .values({ user_id: userId, scope, key, request_hash: requestHash, holder, locked_until: leaseEnd() })
    .onConflict((oc) => oc.columns(['user_id', 'scope', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  if (!claimed) {
    const taken = await db
      .updateTable('idempotency_keys')
      .set({ holder, locked_until: leaseEnd() })
      .where('user_id', '=', userId)
      .where('scope', '=', scope)
      .where('key', '=', key)
      .where('request_hash', '=', requestHash)
      .where('response', 'is', null)
      .where(
        sql<Date>`coalesce(locked_until, created_at + make_interval(secs => ${leaseSeconds}))`,
        '<',
        sql<Date>`now()`,
      )
      .returning('progress')
      .executeTakeFirst();
    if (!taken) {
      const existing = await db
        .selectFrom('idempotency_keys')
        .select(['request_hash', 'response'])
        .where('user_id', '=', userId)
        .where('scope', '=', scope)
        .where('key', '=', key)
        .executeTakeFirstOrThrow();
      if (existing.request_hash !== requestHash) {
        throw new AppError('CONFLICT', 'This request key was already used for a different request.');
      }
      if (existing.response === null) {
        throw new AppError('CONFLICT', 'This request is still being processed. Please wait a moment.');
      }
      return existing.response as T;
    }
    progress = (taken.progress as Record<string, unknown> | null) ?? null;
  }

  // The heartbeat: the lease outlives this call only while this process is alive.
  const heartbeat = setInterval(
    () =>
      void mine()
        .set({ locked_until: leaseEnd() })
        .where('response', 'is', null)
        .execute()
        .catch(() => {}),
    (leaseSeconds * 1000) / 3,
  );
  heartbeat.unref();
  const attempt: IdempotentAttempt = {
    progress,
    async checkpoint(executor, recorded) {
      await executor
        .updateTable('idempotency_keys')
        .set({ progress: JSON.stringify(recorded) })
        .where('user_id', '=', userId)
        .where('scope', '=', scope)
        .where('key', '=', key)
        .where('holder', '=', holder)
        .execute();
    },
  };
  try {
    const result = await work(attempt);
    clearInterval(heartbeat);
    await mine()
      .set({ response: JSON.stringify(result), locked_until: null })
      .execute();
    return result;
  } catch (error) {
    clearInterval(heartbeat);
    // Let the key go now (what the attempt recorded stays for the retry). Should the database
    // be unreachable, the lease lets it go a little later instead.
    await mine()
      .set({ locked_until: sql<Date>`now() - interval '1 millisecond'` })
      .execute()
      .catch(() => {});
    throw error;
  }
}

/** Why an order whose checkout stopped before its payment opened was let go by the retry. */
export const INTERRUPTED_REASON = 'The checkout was interrupted before the payment opened';

/**
 * A retried checkout whose first attempt died after reserving the book (decision 0024): back to
 * that order's payment while it is held, or, when its payment never opened, the order is let go
 * and the caller starts afresh (null). A paid order answers as paid.
 */
async function continueCheckout(
  deps: CheckoutDeps,
  buyer: { id: string; email: string },
  orderId: string,
): Promise<StartResult | null> {
  const order = await deps.db
    .selectFrom('orders')
    .select(['id', 'reference', 'status', 'reserved_until', 'total_minor', 'buyer_id'])
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (!order || order.buyer_id !== buyer.id || order.status === 'cancelled') return null;
  if (order.status !== 'pending_payment') {
    return {
      orderId: order.id,
      reference: order.reference,
      redirectUrl: `${deps.origin}/checkout/success?order=${order.id}`,
      totalMinor: order.total_minor,
    };
  }
  const opened = await deps.db
    .selectFrom('payments')
    .select('id')
    .where('order_id', '=', order.id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (!opened || !order.reserved_until || order.reserved_until <= new Date()) {
    await cancelPendingOrder(deps.db, order.id, opened ? LAPSED_REASON : INTERRUPTED_REASON, {
      id: null,
      kind: 'system',
    });
    return null;
  }
  return resumeCheckout(deps, buyer, order.id);
}

export async function startCheckout(
  deps: CheckoutDeps,
  buyer: { id: string; email: string },
  input: ({ listingId: string } | { offerId: string }) & {
    address: AddressInput;
    promoCode?: string | null;
    /** Home delivery (tracked) when not given. */
    delivery?: DeliveryChoice | undefined;
  },
  /** Under an idempotency key: the order is recorded as the key's progress, and a retry of an
   * attempt that died carries on from the order it made. */
  attempt?: IdempotentAttempt,
): Promise<StartResult> {
  const earlier = attempt?.progress?.orderId;
  if (typeof earlier === 'string') {
    const continued = await continueCheckout(deps, buyer, earlier);
    if (continued) return continued;
  }
  // Their own run-out reservation of this book is let go first (outside the transaction below).
  await lapseOwnOverdue(
    deps.db,
    buyer.id,
    (await purchasable(deps.db, buyer.id, input)).books.map((book) => book.listingId),
  );
  const point = await resolveDropOffPoint(deps.carriers, input.delivery);
  const reservedUntil = new Date(Date.now() + COMMERCIAL_DEFAULTS.reservationMinutes * 60 * 1000);
  const order = await deps.db.transaction().execute(async (trx) => {
    // One checkout at a time per buyer, so WELCOME20 (or a promotion's per-buyer limit)
    // cannot be claimed twice in a race; the promotion's own row lock guards its total.
    await sql`select pg_advisory_xact_lock(hashtext(${`checkout:${buyer.id}`}))`.execute(trx);
    const item = await purchasable(trx, buyer.id, input);
    await assertOnSale(trx, buyer.id, item);
    const {
      quote: priced,
      order,
      promotionId,
      promoRefusal,
    } = await price(
      trx,
      buyer.id,
      item,
      { choice: input.delivery, point, postcode: input.address.postcode },
      input.promoCode ?? null,
      { lock: true },
    );
    // A code that stopped working since the quote is refused, not silently dropped: the buyer
    // would otherwise pay more than the page told them.
    if (promoRefusal) throw new AppError('PRECONDITION_FAILED', promoRefusal);
    if (item.books.length === 1) {
      // The one conditional update that decides who gets the book.
      const reserved = await trx
        .updateTable('listings')
        .set({ status: 'reserved' })
        .where('id', '=', item.listingId)
        .where('status', '=', item.offerId ? item.status : 'active')
        .returning('id')
        .executeTakeFirst();
      if (!reserved) throw new AppError('CONFLICT', JUST_SOLD_MESSAGE);
    } else {
      // A bundle offer's books: all or none, locked in listing-id order (no deadlock).
      const ids = item.books.map((book) => book.listingId).sort();
      const locked = await trx
        .selectFrom('listings')
        .select(['id', 'status'])
        .where('id', 'in', ids)
        .orderBy('id')
        .forUpdate()
        .execute();
      if (locked.some((row) => row.status !== 'reserved' && row.status !== 'active')) {
        throw new AppError('CONFLICT', JUST_SOLD_MESSAGE);
      }
      await trx.updateTable('listings').set({ status: 'reserved' }).where('id', 'in', ids).execute();
    }
    const created = await insertOrder(trx, {
      buyerId: buyer.id,
      priced: order,
      promotionId,
      reservedUntil,
      address: input.address,
      delivery: deliveryColumns(priced.delivery),
    });
    await attempt?.checkpoint(trx, { orderId: created.id });
    return { ...created, priced, title: item.title };
  });

  let session: CheckoutSession;
  try {
    session = await deps.payments.createCheckout(
      sessionInput(deps, {
        id: order.id,
        reference: order.reference,
        totalMinor: order.priced.totalMinor,
        title: order.title,
        buyerEmail: buyer.email,
        reservedUntil,
      }),
    );
  } catch (error) {
    await cancelPendingOrder(deps.db, order.id, 'The payment service could not be reached', {
      id: null,
      kind: 'system',
    });
    throw new AppError(
      'UNAVAILABLE',
      'We could not reach the payment service. Nothing was charged: please try again.',
      {
        cause: String(error),
      },
    );
  }
  await recordSessionPayments(deps.db, {
    buyerId: buyer.id,
    provider: deps.payments.kind,
    providerRef: session.providerRef,
    orders: [{ id: order.id, totalMinor: order.priced.totalMinor }],
  });
  return {
    orderId: order.id,
    reference: order.reference,
    redirectUrl: session.redirectUrl,
    totalMinor: order.priced.totalMinor,
  };
}

/**
 * A provider session opened for some orders (decision 0043): its checkout payment (buyer,
 * provider, reference, total) and one payments row per order (the order's total), and each
 * order's current payment set to it. In the caller's transaction when given one.
 */
export async function recordSessionPayments(
  db: Executor,
  input: {
    buyerId: string;
    provider: 'test' | 'stripe';
    providerRef: string;
    orders: { id: string; totalMinor: number }[];
    checkoutPaymentId?: string;
  },
): Promise<string> {
  const amount = paymentTotal(input.orders);
  let checkoutPaymentId = input.checkoutPaymentId;
  if (checkoutPaymentId) {
    await db
      .updateTable('checkout_payments')
      .set({ provider_ref: input.providerRef, amount_minor: amount })
      .where('id', '=', checkoutPaymentId)
      .execute();
  } else {
    const created = await db
      .insertInto('checkout_payments')
      .values({
        buyer_id: input.buyerId,
        provider: input.provider,
        provider_ref: input.providerRef,
        amount_minor: amount,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    checkoutPaymentId = created.id;
  }
  await db
    .insertInto('payments')
    .values(
      input.orders.map((order) => ({
        order_id: order.id,
        checkout_payment_id: checkoutPaymentId as string,
        provider: input.provider,
        provider_ref: input.providerRef,
        amount_minor: order.totalMinor,
      })),
    )
    .execute();
  await db
    .updateTable('orders')
    .set({ checkout_payment_id: checkoutPaymentId })
    .where(
      'id',
      'in',
      input.orders.map((order) => order.id),
    )
    .execute();
  return checkoutPaymentId;
}

/** What the payment provider is asked for, for an order: the same for a first or a resumed session. */
function sessionInput(
  deps: Pick<CheckoutDeps, 'origin' | 'returnOrigin'>,
  order: {
    id: string;
    reference: string;
    totalMinor: number;
    title: string;
    buyerEmail: string;
    reservedUntil: Date;
  },
): CheckoutSessionInput {
  const back = deps.returnOrigin ?? deps.origin;
  return {
    orderId: order.id,
    reference: order.reference,
    amountMinor: order.totalMinor,
    description:
      `${order.title} (${plural(order.reference.split(',').length, 'order', 'orders')} ${order.reference})`.slice(
        0,
        500,
      ),
    customerEmail: order.buyerEmail,
    successUrl: `${back}/checkout/success?order=${order.id}`,
    cancelUrl: `${back}/checkout/cancel?order=${order.id}`,
    siteOrigin: deps.origin,
    expiresAt: order.reservedUntil,
  };
}

/**
 * "Finish paying": the buyer who left the payment page goes back to the same payment (every
 * order it holds, decision 0043) and, while the provider keeps it open, the same session (a
 * closed one is replaced by a new session for the same orders, and the old payment marked
 * abandoned so its expiry cannot cancel the orders). Only within the reservation; after it the
 * orders are cancelled as the reservations job would. Nobody but the buyer can resume it.
 */
export async function resumeCheckout(
  deps: CheckoutDeps,
  buyer: { id: string; email: string },
  orderId: string,
): Promise<StartResult> {
  const order = await deps.db
    .selectFrom('orders as o')
    .select([
      'o.id',
      'o.reference',
      'o.buyer_id',
      'o.status',
      'o.reserved_until',
      'o.total_minor',
      'o.cancel_reason',
      'o.checkout_payment_id',
    ])
    .where('o.id', '=', orderId)
    .executeTakeFirst();
  if (!order || order.buyer_id !== buyer.id) throw new AppError('NOT_FOUND', 'We could not find that order.');
  if (order.status === 'pending_payment' && (!order.reserved_until || order.reserved_until <= new Date())) {
    await cancelPendingOrder(deps.db, order.id, LAPSED_REASON, { id: null, kind: 'system' });
    throw new AppError('PRECONDITION_FAILED', LAPSED_MESSAGE);
  }
  if (order.status === 'cancelled') {
    throw new AppError(
      'PRECONDITION_FAILED',
      order.cancel_reason === LAPSED_REASON
        ? LAPSED_MESSAGE
        : 'This order was cancelled, so there is nothing to pay. If the book is still for sale, you can buy it again.',
    );
  }
  if (order.status !== 'pending_payment') {
    throw new AppError('PRECONDITION_FAILED', 'This order is already paid: nothing more to pay.');
  }
  const checkoutPayment = order.checkout_payment_id
    ? await deps.db
        .selectFrom('checkout_payments')
        .select(['id', 'provider_ref', 'amount_minor'])
        .where('id', '=', order.checkout_payment_id)
        .where('provider', '=', deps.payments.kind)
        .where('status', '=', 'pending')
        .where('provider_ref', 'is not', null)
        .executeTakeFirst()
    : undefined;
  if (!checkoutPayment?.provider_ref) {
    throw new AppError(
      'PRECONDITION_FAILED',
      'This payment can no longer be finished. Nothing was taken: wait a moment and buy the book again.',
    );
  }
  const held = await paymentOrders(deps.db, checkoutPayment.id);
  const input = sessionInput(deps, {
    id: order.id,
    ...describePayment(held),
    totalMinor: checkoutPayment.amount_minor,
    buyerEmail: buyer.email,
    reservedUntil: order.reserved_until as Date,
  });
  let session: CheckoutSession;
  try {
    session = await deps.payments.resumeCheckout(checkoutPayment.provider_ref, input);
  } catch (error) {
    throw new AppError(
      'UNAVAILABLE',
      'We could not reach the payment service. Nothing was charged, and the book is still held for you: please try again.',
      { cause: String(error) },
    );
  }
  if (session.providerRef !== checkoutPayment.provider_ref) {
    await deps.db.transaction().execute(async (trx) => {
      // Still waiting for this payment? (A webhook may have just settled it.)
      const orders = await lockPaymentOrders(trx, order.id);
      const replaced = await trx
        .updateTable('checkout_payments')
        .set({ status: 'abandoned' })
        .where('id', '=', checkoutPayment.id)
        .where('status', '=', 'pending')
        .returning('id')
        .executeTakeFirst();
      if (orders.some((row) => row.status !== 'pending_payment') || !replaced) {
        throw new AppError(
          'CONFLICT',
          'This order has just changed. Check your orders to see where it stands.',
        );
      }
      await trx
        .updateTable('payments')
        .set({ status: 'abandoned' })
        .where('checkout_payment_id', '=', checkoutPayment.id)
        .where('status', '=', 'pending')
        .execute();
      await recordSessionPayments(trx, {
        buyerId: buyer.id,
        provider: deps.payments.kind,
        providerRef: session.providerRef,
        orders: orders.map((row) => ({ id: row.id, totalMinor: row.total_minor })),
      });
    });
  }
  return {
    orderId: order.id,
    reference: order.reference,
    redirectUrl: session.redirectUrl,
    totalMinor: checkoutPayment.amount_minor,
  };
}

/** The orders a checkout payment holds, in order, with their books' titles and who sends each. */
export async function paymentOrders(
  db: Executor,
  checkoutPaymentId: string,
): Promise<{ id: string; reference: string; totalMinor: number; sellerName: string; titles: string[] }[]> {
  const rows = await db
    .selectFrom('orders as o')
    .innerJoin('order_items as i', 'i.order_id', 'o.id')
    .innerJoin('listings as l', 'l.id', 'i.listing_id')
    .innerJoin('books as b', 'b.id', 'l.book_id')
    .innerJoin('profiles as p', 'p.id', 'o.seller_id')
    .leftJoin('charities as c', 'c.id', 'l.charity_id')
    .select([
      'o.id',
      'o.reference',
      'o.total_minor',
      'o.created_at',
      'i.position',
      'b.title',
      'p.display_name',
      'c.name as charity_name',
    ])
    .where('o.checkout_payment_id', '=', checkoutPaymentId)
    .orderBy('o.payment_position')
    .orderBy('o.created_at')
    .orderBy('o.id')
    .orderBy('i.position')
    .execute();
  const orders = new Map<
    string,
    { id: string; reference: string; totalMinor: number; sellerName: string; titles: string[] }
  >();
  for (const row of rows) {
    const order = orders.get(row.id) ?? {
      id: row.id,
      reference: row.reference,
      totalMinor: row.total_minor,
      // A charity shop's books come from the charity, not the volunteer who listed them.
      sellerName: row.charity_name ?? row.display_name,
      titles: [],
    };
    order.titles.push(row.title);
    orders.set(row.id, order);
  }
  return [...orders.values()];
}

/** What the payment page and the provider say a payment is for: the books, the orders. */
export function describePayment(orders: { reference: string; titles: string[] }[]): {
  title: string;
  reference: string;
} {
  const titles = orders.flatMap((order) => order.titles);
  const references = orders.map((order) => order.reference);
  return {
    title: titles.length === 1 ? (titles[0] as string) : `${titles.length} books: ${titles.join(', ')}`,
    reference: references.join(', '),
  };
}

/**
 * The orders one payment holds, locked (in id order, so a webhook, the lapse job and a buyer
 * racing on the same payment queue rather than deadlock): the order itself and every other
 * order of its checkout payment (decision 0043: a payment's orders move together).
 */
async function lockPaymentOrders(trx: Transaction<DB>, orderId: string): Promise<LockedOrder[]> {
  const first = await trx
    .selectFrom('orders')
    .select(['id', 'checkout_payment_id'])
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (!first) return [];
  if (!first.checkout_payment_id) {
    const order = await lockOrderRow(trx, orderId);
    return order ? [order] : [];
  }
  return trx
    .selectFrom('orders')
    .selectAll()
    .where('checkout_payment_id', '=', first.checkout_payment_id)
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** The books of these orders, in listing-id order (the order rows are locked in). */
async function itemsOf(
  trx: Executor,
  orderIds: string[],
): Promise<{ order_id: string; listing_id: string; position: number }[]> {
  if (orderIds.length === 0) return [];
  return trx
    .selectFrom('order_items')
    .select(['order_id', 'listing_id', 'position'])
    .where('order_id', 'in', orderIds)
    .orderBy('listing_id')
    .execute();
}

/**
 * Cancels an order still waiting for payment, with every other order of its payment, and puts
 * every book back on sale. True when it cancelled something.
 */
export async function cancelPendingOrder(
  db: Database,
  orderId: string,
  reason: string,
  actor: Actor,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const orders = await lockPaymentOrders(trx, orderId);
    const pending = orders.filter((order) => order.status === 'pending_payment');
    if (!pending.some((order) => order.id === orderId)) return false;
    await cancelAndRelease(trx, pending, actor, reason);
    return true;
  });
}

/** Cancels the (locked, pending) orders and releases their books, in listing-id order. */
async function cancelAndRelease(
  trx: Transaction<DB>,
  orders: LockedOrder[],
  actor: Actor,
  reason: string,
): Promise<void> {
  for (const order of orders) await transition(trx, order, 'cancelled', actor, reason);
  const offers = new Map(orders.map((order) => [order.id, order.offer_id]));
  for (const item of await itemsOf(
    trx,
    orders.map((order) => order.id),
  )) {
    await releaseListing(trx, item.listing_id, offers.get(item.order_id) ?? null);
  }
}

/** Back on sale (or back to its accepted offer's buyer while that offer may still be paid). */
async function releaseListing(
  trx: Transaction<DB>,
  listingId: string,
  offerId: string | null,
): Promise<void> {
  let status = 'active';
  if (offerId) {
    const offer = await trx
      .selectFrom('offers')
      .select(['status', 'checkout_deadline'])
      .where('id', '=', offerId)
      .executeTakeFirst();
    if (
      offer?.status === 'accepted' &&
      offer.checkout_deadline &&
      offer.checkout_deadline.getTime() > Date.now()
    ) {
      status = 'reserved';
    }
  }
  await trx
    .updateTable('listings')
    .set({ status })
    .where('id', '=', listingId)
    .where('status', '=', 'reserved')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('order_items')
            .select('order_items.id')
            .whereRef('order_items.listing_id', '=', 'listings.id')
            .where('order_items.live', '=', true),
        ),
      ),
    )
    .execute();
}

export type WebhookOutcome =
  | 'duplicate'
  | 'unknown_payment'
  | 'paid'
  | 'paid_late'
  | 'refunded_late'
  | 'released'
  | 'no_change';

/**
 * Applies a verified provider event once, to every order of its checkout payment together
 * (decision 0043): all paid, or all released. A second delivery of the same event changes
 * nothing; events arriving out of order only move orders forwards.
 */
export async function applyPaymentEvent(
  deps: CheckoutDeps,
  provider: string,
  event: PaymentEvent,
): Promise<WebhookOutcome> {
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const fresh = await trx
      .insertInto('payment_events')
      .values({ provider, event_id: event.id, type: event.type, payload: JSON.stringify(event.raw ?? {}) })
      .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
      .returning('event_id')
      .executeTakeFirst();
    if (!fresh) return { result: 'duplicate' as const };

    const finish = async (result: WebhookOutcome, extra: Record<string, unknown> = {}) => {
      await trx
        .updateTable('payment_events')
        .set({ outcome: result })
        .where('provider', '=', provider)
        .where('event_id', '=', event.id)
        .execute();
      return { result, ...extra };
    };
    const checkoutPayment = await trx
      .selectFrom('checkout_payments')
      .selectAll()
      .where('provider', '=', provider as 'test' | 'stripe')
      .where('provider_ref', '=', event.providerRef)
      .forUpdate()
      .executeTakeFirst();
    if (!checkoutPayment) return finish('unknown_payment');
    const payments = await trx
      .selectFrom('payments')
      .selectAll()
      .where('checkout_payment_id', '=', checkoutPayment.id)
      .orderBy('order_id')
      .forUpdate()
      .execute();
    if (payments.length === 0) return finish('unknown_payment');
    const orders = await trx
      .selectFrom('orders')
      .selectAll()
      .where(
        'id',
        'in',
        payments.map((payment) => payment.order_id),
      )
      .orderBy('id')
      .forUpdate()
      .execute();
    const actor: Actor = { id: null, kind: 'provider' };
    const setStatus = async (status: 'succeeded' | 'failed' | 'abandoned') => {
      await trx
        .updateTable('checkout_payments')
        .set({ status })
        .where('id', '=', checkoutPayment.id)
        .execute();
      await trx
        .updateTable('payments')
        .set({ status })
        .where('checkout_payment_id', '=', checkoutPayment.id)
        .execute();
    };

    if (event.type === 'payment.succeeded') {
      if (checkoutPayment.status === 'succeeded') return finish('no_change');
      await setStatus('succeeded');
      const open = orders.filter(
        (order) => order.status === 'pending_payment' || order.status === 'cancelled',
      );
      if (open.length !== orders.length) return finish('no_change');
      // A payment that lands after the reservation lapsed still buys the books if nobody else
      // has, every one of them; otherwise all the money goes straight back.
      const late = orders.some((order) => order.status === 'cancelled');
      const items = await itemsOf(
        trx,
        orders.map((order) => order.id),
      );
      const listingIds = items.map((item) => item.listing_id);
      const locked = await trx
        .selectFrom('listings')
        .select(['id', 'status'])
        .where('id', 'in', listingIds)
        .orderBy('id')
        .forUpdate()
        .execute();
      const statusOf = new Map(locked.map((row) => [row.id, row.status]));
      const orderOf = new Map(orders.map((order) => [order.id, order]));
      const free = items.every((item) => {
        const order = orderOf.get(item.order_id) as LockedOrder;
        return statusOf.get(item.listing_id) === (order.status === 'cancelled' ? 'active' : 'reserved');
      });
      const competing =
        late &&
        (await trx
          .selectFrom('order_items')
          .select('id')
          .where('listing_id', 'in', listingIds)
          .where('live', '=', true)
          .where(
            'order_id',
            'not in',
            orders.map((order) => order.id),
          )
          .executeTakeFirst());
      if (!free || competing) {
        return finish('refunded_late', {
          refunds: payments.map((payment) => ({
            paymentId: payment.id,
            amount: payment.amount_minor,
            orderId: payment.order_id,
          })),
        });
      }
      await trx.updateTable('listings').set({ status: 'sold' }).where('id', 'in', listingIds).execute();
      const mail: string[] = [];
      for (const order of orders) {
        const { followUp } = await transition(
          trx,
          order,
          'paid',
          actor,
          late ? 'Paid after the reservation had lapsed' : undefined,
        );
        if (order.offer_id) {
          await trx
            .updateTable('offers')
            .set({ status: 'purchased' })
            .where('id', '=', order.offer_id)
            .execute();
        }
        for (const item of items.filter((row) => row.order_id === order.id)) {
          await closeOffersForSoldListing(trx, item.listing_id, order.offer_id);
        }
        await holdEarnings(trx, order);
        if (followUp === 'placed') mail.push(order.id);
      }
      // The bought books leave the buyer's basket.
      await trx
        .deleteFrom('basket_items')
        .where('buyer_id', '=', checkoutPayment.buyer_id)
        .where('listing_id', 'in', listingIds)
        .execute();
      // The confirmation to the buyer and "please send it" to each seller, with the payment.
      for (const orderId of mail) await queueOrderMail(trx, deps, orderId, 'placed');
      return finish(late ? 'paid_late' : 'paid', { orderId: orders[0]?.id });
    }

    if (event.type === 'payment.failed' || event.type === 'payment.abandoned') {
      if (checkoutPayment.status !== 'pending') return finish('no_change');
      await setStatus(event.type === 'payment.failed' ? 'failed' : 'abandoned');
      const pending = orders.filter(
        (order) => order.status === 'pending_payment' && order.checkout_payment_id === checkoutPayment.id,
      );
      if (pending.length === 0) return finish('no_change');
      const reason =
        event.type === 'payment.failed' ? 'The payment was declined' : 'The payment was abandoned';
      await cancelAndRelease(trx, pending, actor, reason);
      return finish('released');
    }
    return finish('no_change');
  });

  if (outcome.result === 'refunded_late' && 'refunds' in outcome) {
    for (const refund of outcome.refunds as { paymentId: string; amount: number; orderId: string }[]) {
      await refundPayment(deps, {
        orderId: refund.orderId,
        paymentId: refund.paymentId,
        amountMinor: refund.amount,
        protectionMinor: 0,
        reason: 'Paid after the book was sold to someone else',
        actor: { id: null, kind: 'system' },
      });
    }
  }
  return outcome.result;
}

/** Pending orders whose 15-minute reservation has lapsed: cancelled, books back on sale. */
export async function lapseReservations(db: Database): Promise<number> {
  const due = await db
    .selectFrom('orders')
    .select('id')
    .where('status', '=', 'pending_payment')
    .where('reserved_until', '<', new Date())
    .orderBy('reserved_until')
    .limit(500)
    .execute();
  let moved = 0;
  for (const order of due) {
    if (await cancelPendingOrder(db, order.id, LAPSED_REASON, { id: null, kind: 'system' })) {
      moved += 1;
    }
  }
  return moved;
}
