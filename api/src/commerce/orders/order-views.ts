/**
 * Orders as people read them (decision 0051): one summary of an order (its title, its books, its
 * money, its story) for every list, page and ledger row, built here from the money definitions
 * (commerce/money) and the lifecycle's words (story.ts). Nothing here computes a figure or words a
 * status: it reads them.
 */
import {
  booksTitle,
  type DisputeKind,
  type DisputeProblem,
  type DropOffPoint,
  type OrderDelivery,
  type OrderDetail,
  type OrderItem,
  type OrderRole,
  type OrderSummary,
  type PayoutsView,
  POSTAGE_BANDS,
  type PostageBand,
} from '@reshelf/contracts';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { itemAmounts, sum } from '../money/amounts.ts';
import { type OrderMoneyFacts, orderMoney } from '../money/order-money.ts';
import { sellerWaitReasons } from '../money/payouts.ts';
import {
  carrierLabel,
  heldForBuyer,
  orderActions,
  orderStory,
  type StoryFacts,
  staffEarnings,
} from './story.ts';

type Trx = Transaction<DB>;
type Executor = Database | Trx;

const iso = (value: Date | null | undefined): string | null => (value ? value.toISOString() : null);

/** The buyer's delivery choice from the order's columns (checkout/delivery.ts wrote them). */
export function orderDeliveryOf(row: {
  delivery_method: string | null;
  postage_band: string | null;
  drop_off_point: unknown;
  expected_delivery_on: string | null;
}): OrderDelivery | null {
  if (row.delivery_method !== 'home' && row.delivery_method !== 'drop_off') return null;
  return {
    method: row.delivery_method,
    band: (POSTAGE_BANDS as readonly string[]).includes(row.postage_band ?? '')
      ? (row.postage_band as PostageBand)
      : null,
    dropOffPoint: (row.drop_off_point as DropOffPoint | null) ?? null,
    expectedDeliveryOn: row.expected_delivery_on,
  };
}

function orderQuery(db: Executor) {
  return db
    .selectFrom('orders as o')
    .leftJoin('profiles as bp', 'bp.id', 'o.buyer_id')
    .leftJoin('profiles as sp', 'sp.id', 'o.seller_id')
    .select([
      'o.id',
      'o.reference',
      'o.status',
      'o.buyer_id',
      'o.seller_id',
      'o.offer_id',
      'o.discount_code',
      'o.parcel_size',
      'o.delivery_method',
      'o.postage_band',
      'o.drop_off_point',
      // A date as it is (a JS Date would be local midnight).
      sql<string | null>`to_char(o.expected_delivery_on, 'YYYY-MM-DD')`.as('expected_delivery_on'),
      'o.charity_sale',
      'o.shipping_address',
      'o.carrier',
      'o.tracking_ref',
      'o.created_at',
      'o.reserved_until',
      'o.paid_at',
      'o.dispatch_by',
      'o.dispatched_at',
      'o.delivery_due_at',
      'o.delivered_at',
      'o.complete_after',
      'o.completed_at',
      'o.cancelled_at',
      'o.cancel_reason',
      'bp.display_name as buyer_name',
      'sp.display_name as seller_name',
    ]);
}

type OrderRow = NonNullable<Awaited<ReturnType<ReturnType<typeof orderQuery>['executeTakeFirst']>>>;

/** The books of these orders, first to last (decision 0043: an order's books are its items). */
export async function itemsOfOrders(db: Executor, orderIds: string[]): Promise<Map<string, OrderItem[]>> {
  const items = new Map<string, OrderItem[]>();
  if (orderIds.length === 0) return items;
  const rows = await db
    .selectFrom('order_items as i')
    .innerJoin('listings as l', 'l.id', 'i.listing_id')
    .innerJoin('books as b', 'b.id', 'l.book_id')
    .select([
      'i.id',
      'i.order_id',
      'i.listing_id',
      'i.position',
      'i.price_minor',
      'i.bundle_discount_minor',
      'i.discount_minor',
      'i.protection_minor',
      'i.refunded_minor',
      'l.slug',
      'b.title',
      'b.authors',
      'b.cover_url',
      sql<string | null>`l.photos ->> 0`.as('photo_url'),
    ])
    .where('i.order_id', 'in', orderIds)
    .orderBy('i.order_id')
    .orderBy('i.position')
    .execute();
  for (const row of rows) {
    const list = items.get(row.order_id) ?? [];
    list.push({
      id: row.id,
      listingId: row.listing_id,
      position: row.position,
      title: row.title,
      authors: row.authors,
      listingSlug: row.slug,
      imageUrl: row.photo_url ?? row.cover_url,
      priceMinor: row.price_minor,
      bundleDiscountMinor: row.bundle_discount_minor,
      discountMinor: row.discount_minor,
      protectionMinor: row.protection_minor,
      paidMinor: itemAmounts(row).paidMinor,
      refundedMinor: row.refunded_minor,
      refundableMinor: itemAmounts(row).refundableMinor,
    });
    items.set(row.order_id, list);
  }
  return items;
}

/** What the story needs beyond the order row: its report, its return, its earnings and their state. */
async function storyContext(db: Executor, rows: readonly OrderRow[]) {
  const ids = rows.map((row) => row.id);
  if (ids.length === 0)
    return { disputes: new Map(), returns: new Map(), earnings: new Map(), waits: new Map() } as const;
  const [disputes, returns, earnings, waits] = await Promise.all([
    db
      .selectFrom('disputes')
      .select(['order_id', 'status', 'opened_by'])
      .distinctOn('order_id')
      .where('order_id', 'in', ids)
      .orderBy('order_id')
      .orderBy('opened_at', 'desc')
      .execute(),
    db
      .selectFrom('return_requests')
      .select(['order_id', 'status'])
      .distinctOn('order_id')
      .where('order_id', 'in', ids)
      .orderBy('order_id')
      .orderBy('created_at', 'desc')
      .execute(),
    db
      .selectFrom('payouts as p')
      .leftJoin('transfers as t', (join) =>
        join.onRef('t.payout_id', '=', 'p.id').on('t.status', '=', 'paid'),
      )
      .select(['p.order_id', 'p.status', 'p.release_after', 'p.released_at', 't.updated_at as sent_at'])
      .where('p.order_id', 'in', ids)
      .execute(),
    sellerWaitReasons(db, [...new Set(rows.map((row) => row.seller_id))]),
  ]);
  return {
    disputes: new Map(disputes.map((row) => [row.order_id, row])),
    returns: new Map(returns.map((row) => [row.order_id, row.status])),
    earnings: new Map(earnings.map((row) => [row.order_id, row])),
    waits,
  };
}

type StoryContext = Awaited<ReturnType<typeof storyContext>>;

function factsOf(row: OrderRow, context: StoryContext): StoryFacts {
  const dispute = context.disputes.get(row.id);
  const earnings = context.earnings.get(row.id);
  return {
    status: row.status,
    charitySale: row.charity_sale,
    buyerId: row.buyer_id,
    paidAt: row.paid_at,
    reservedUntil: row.reserved_until,
    dispatchBy: row.dispatch_by,
    deliveryDueAt: row.delivery_due_at,
    deliveredAt: row.delivered_at,
    completeAfter: row.complete_after,
    cancelReason: row.cancel_reason,
    carrier: row.carrier,
    dispute: dispute ? { status: dispute.status, openedBy: dispute.opened_by } : null,
    returnStatus: context.returns.get(row.id) ?? null,
    earnings: earnings
      ? {
          status: earnings.status,
          releaseAfter: earnings.release_after,
          releasedAt: earnings.released_at,
          sentAt: earnings.sent_at ?? null,
        }
      : null,
    sellerWait: context.waits.get(row.seller_id) ?? null,
  };
}

function toSummary(
  row: OrderRow,
  role: OrderRole,
  items: readonly OrderItem[],
  money: OrderMoneyFacts,
  facts: StoryFacts,
): OrderSummary {
  const story = orderStory(facts, role);
  const first = items[0];
  return {
    id: row.id,
    reference: row.reference,
    status: row.status,
    role,
    title: booksTitle(items.map((item) => item.title)),
    books: items.map((item) => item.title),
    listingSlug: first?.listingSlug ?? null,
    imageUrl: first?.imageUrl ?? null,
    itemCount: items.length,
    counterpartName: (role === 'buyer' ? row.seller_name : row.buyer_name) ?? 'A Reshelf member',
    totalMinor: money.buyer.totalMinor,
    itemMinor: money.buyer.itemsMinor,
    money: money.buyer,
    sellerMoney: role === 'seller' ? money.seller : null,
    story,
    createdAt: row.created_at.toISOString(),
    paidAt: iso(row.paid_at),
    dispatchBy: iso(row.dispatch_by),
    nextStep: story.nextStep,
    reservedUntil: heldForBuyer(facts) ? iso(row.reserved_until) : null,
    canFinishPaying: role === 'buyer' && heldForBuyer(facts),
  };
}

/** Summaries of these orders for one side (the order's books, money and story in three queries). */
async function summaries(db: Executor, rows: readonly OrderRow[], role: (row: OrderRow) => OrderRole) {
  const ids = rows.map((row) => row.id);
  const [items, money, context] = await Promise.all([
    itemsOfOrders(db, ids),
    orderMoney(db, ids),
    storyContext(db, rows),
  ]);
  return rows.map((row) => {
    const facts = factsOf(row, context);
    return {
      summary: toSummary(
        row,
        role(row),
        items.get(row.id) ?? [],
        money.get(row.id) as OrderMoneyFacts,
        facts,
      ),
      items: items.get(row.id) ?? [],
      money: money.get(row.id) as OrderMoneyFacts,
      facts,
    };
  });
}

/**
 * The buyer's purchases or the seller's sales, newest first. Unpaid attempts are left out, but
 * for the buyer the one whose book is still held for them while they pay, so they can finish.
 */
export async function listOrders(
  db: Database,
  userId: string,
  role: OrderRole,
  options: { status?: 'open' | 'done'; limit?: number } = {},
): Promise<OrderSummary[]> {
  const now = new Date();
  let query = orderQuery(db)
    .where(role === 'buyer' ? 'o.buyer_id' : 'o.seller_id', '=', userId)
    .where((eb) =>
      role === 'buyer'
        ? eb.or([
            eb('o.paid_at', 'is not', null),
            eb.and([eb('o.status', '=', 'pending_payment'), eb('o.reserved_until', '>', now)]),
          ])
        : eb('o.paid_at', 'is not', null),
    );
  if (options.status === 'open') {
    query = query.where('o.status', 'in', ['pending_payment', 'paid', 'dispatched', 'delivered', 'disputed']);
  } else if (options.status === 'done') {
    query = query.where('o.status', 'in', ['completed', 'cancelled', 'refunded']);
  }
  const rows = await query
    .orderBy('o.created_at', 'desc')
    .limit(options.limit ?? 100)
    .execute();
  return (await summaries(db, rows, () => role)).map((entry) => entry.summary);
}

/** One order as its buyer, its seller or staff see it. */
export async function getOrder(
  db: Database,
  viewer: { id: string; staff?: boolean },
  orderId: string,
): Promise<OrderDetail> {
  const row = await orderQuery(db).where('o.id', '=', orderId).executeTakeFirst();
  const role: OrderRole | 'staff' | null = !row
    ? null
    : row.buyer_id === viewer.id
      ? 'buyer'
      : row.seller_id === viewer.id
        ? 'seller'
        : viewer.staff
          ? 'staff'
          : null;
  if (!row || !role || (role !== 'staff' && !row.paid_at && row.status !== 'pending_payment')) {
    throw new AppError('NOT_FOUND', 'We could not find that order. Check the link, or look in your orders.');
  }
  // Staff read the order as its seller does (they see the payout), with the actions of neither.
  const side: OrderRole = role === 'buyer' ? 'buyer' : 'seller';
  const [[entry], events, dispute, payout] = await Promise.all([
    summaries(db, [row], () => side),
    db
      .selectFrom('order_events')
      .select(['from_status', 'to_status', 'actor_kind', 'note', 'created_at'])
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('disputes as d')
      .selectAll('d')
      .select(
        sql<
          string[]
        >`coalesce((select array_agg(di.order_item_id order by i.position) from public.dispute_items di join public.order_items i on i.id = di.order_item_id where di.dispute_id = d.id), '{}')`.as(
          'item_ids',
        ),
      )
      .where('d.order_id', '=', orderId)
      .orderBy('d.opened_at', 'desc')
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom('payouts')
      .select(['amount_minor', 'reversed_minor', 'status', 'released_at', 'release_after'])
      .where('order_id', '=', orderId)
      .executeTakeFirst(),
  ]);
  if (!entry) throw new AppError('NOT_FOUND', 'We could not find that order.');
  const { summary, items, money, facts } = entry;
  const address = row.shipping_address as OrderDetail['address'];
  const story =
    role === 'staff' ? { ...summary.story, earnings: staffEarnings(facts), sellerPaid: null } : summary.story;
  return {
    ...summary,
    role: side,
    story,
    items,
    bundleDiscountMinor: money.buyer.bundleDiscountMinor,
    postageMinor: money.buyer.postageMinor,
    protectionMinor: money.buyer.protectionMinor,
    protectionVatMinor: money.buyer.protectionVatMinor,
    discountMinor: money.buyer.discountMinor,
    discountCode: row.discount_code,
    parcelSize: row.parcel_size,
    delivery: orderDeliveryOf(row),
    offerId: row.offer_id,
    charitySale: row.charity_sale,
    address: address ?? null,
    carrier: row.carrier,
    carrierLabel: carrierLabel(row.carrier),
    trackingRef: row.tracking_ref,
    dispatchedAt: iso(row.dispatched_at),
    deliveryDueAt: iso(row.delivery_due_at),
    deliveredAt: iso(row.delivered_at),
    disputeUntil: row.status === 'delivered' ? iso(row.complete_after) : null,
    completedAt: iso(row.completed_at),
    cancelledAt: iso(row.cancelled_at),
    cancelReason: row.cancel_reason,
    refundedMinor: money.buyer.refundedMinor,
    sellerMoney: role === 'buyer' ? null : money.seller,
    // The buyer does not see what the seller is paid.
    payout:
      role !== 'buyer' && payout
        ? {
            amountMinor: payout.amount_minor,
            reversedMinor: payout.reversed_minor,
            status: payout.status,
            releasedAt: iso(payout.released_at),
            releaseAfter: iso(payout.release_after),
          }
        : null,
    dispute: dispute
      ? {
          id: dispute.id,
          kind: dispute.kind as DisputeKind,
          problem: dispute.problem as DisputeProblem,
          status: dispute.status,
          reason: dispute.reason,
          resolutionNote: dispute.resolution_note,
          openedAt: dispute.opened_at.toISOString(),
          resolvedAt: iso(dispute.resolved_at),
          itemIds: dispute.item_ids,
        }
      : null,
    events: events.map((event) => ({
      fromStatus: event.from_status,
      toStatus: event.to_status,
      actorKind: event.actor_kind,
      note: event.note,
      createdAt: event.created_at.toISOString(),
    })),
    actions: orderActions(facts, role),
  };
}

/**
 * The seller's earnings ledger (/account/payouts, REST `GET /me/payouts`): every sale's earnings
 * with what is left of them and where they stand, newest first, and the totals by state.
 */
export async function listPayouts(db: Database, sellerId: string): Promise<PayoutsView> {
  const rows = await orderQuery(db)
    .innerJoin('payouts as p', 'p.order_id', 'o.id')
    .select([
      'p.id as payout_id',
      'p.amount_minor',
      'p.status as payout_status',
      'p.created_at as payout_created_at',
      'p.released_at',
      'p.release_after',
      'p.reversed_minor',
    ])
    .where('p.seller_id', '=', sellerId)
    .orderBy('p.created_at', 'desc')
    .limit(500)
    .execute();
  const entries = await summaries(db, rows, () => 'seller');
  const items = rows.map((row, index) => {
    const { summary, money } = entries[index] as (typeof entries)[number];
    const earnings = summary.story.earnings;
    return {
      id: row.payout_id,
      orderId: row.id,
      reference: row.reference,
      title: summary.title,
      amountMinor: row.amount_minor,
      reversedMinor: row.reversed_minor,
      netMinor: money.seller.netMinor,
      status: row.payout_status as 'held' | 'released' | 'cancelled',
      state: earnings?.state ?? 'held',
      stateText: earnings?.text ?? '',
      createdAt: row.payout_created_at.toISOString(),
      releasedAt: iso(row.released_at),
      releaseAfter: iso(row.release_after),
    };
  });
  const total = (states: readonly string[]) =>
    sum(items.filter((item) => states.includes(item.state)).map((item) => item.netMinor));
  return {
    heldMinor: total(['held', 'on_hold']),
    releasedMinor: total(['waiting', 'released', 'sent']),
    waitingMinor: total(['waiting']),
    sentMinor: total(['released', 'sent']),
    items,
  };
}
