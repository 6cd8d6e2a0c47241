/**
 * A demo sale, written the way a real one is (decision 0051): priced by checkout's pricer
 * (`quoteGroup`), written by the one order insert (`insertOrder`, so its books carry their shares
 * of the money and its VAT is set), paid in full, the seller's earnings held by money's
 * `holdEarnings` and released by `releaseEarnings`. Only the timeline is the seed's own: when it
 * was paid, sent, delivered and completed.
 */
import type { AddressInput, BundleTier, ParcelSize } from '@reshelf/contracts';
import type { Transaction } from 'kysely';
import {
  holdEarnings,
  insertOrder,
  type PricingGroup,
  quoteGroup,
  releaseEarnings,
  returnWindowEnds,
} from '../commerce/index.ts';
import type { DB } from '../db/database.generated.ts';
import type { Database } from '../db/index.ts';

const DAY = 86_400_000;

export interface SeedSale {
  buyerId: string;
  sellerId: string;
  charityId: string | null;
  books: readonly { listingId: string; priceMinor: number; parcelSize: ParcelSize }[];
  /** The seller's bundle tiers for a sale of several books. */
  tiers?: readonly BundleTier[];
  /** An accepted offer the sale followed: its amount for the books. */
  offer?: { id: string; amountMinor: number } | null;
  status: 'paid' | 'dispatched' | 'delivered' | 'completed';
  paidAt: Date;
  dispatchedAt?: Date | null;
  deliveredAt?: Date | null;
  completedAt?: Date | null;
  carrier?: string | null;
  trackingRef?: string | null;
  address?: AddressInput;
  /** The test provider's reference for the payment. */
  paymentRef: string;
  /** The order's history says this on payment. */
  note: string;
}

const DEMO_ADDRESS: AddressInput = {
  fullName: 'Jo March',
  line1: '1 Orchard House',
  line2: null,
  town: 'Bath',
  postcode: 'BA1 1AA',
};

/** Writes the sale in one transaction (the seed's own, when it runs in one); answers the order. */
export async function seedSale(
  db: Database,
  sale: SeedSale,
): Promise<{ id: string; reference: string; totalMinor: number }> {
  if (db.isTransaction) return writeSale(db as unknown as Transaction<DB>, sale);
  return db.transaction().execute((trx) => writeSale(trx, sale));
}

async function writeSale(
  trx: Transaction<DB>,
  sale: SeedSale,
): Promise<{ id: string; reference: string; totalMinor: number }> {
  // What each parcel is estimated from: the listing's format and the edition's pages.
  const parcelFacts = await trx
    .selectFrom('listings as l')
    .leftJoin('books as b', 'b.id', 'l.book_id')
    .select(['l.id', 'l.format', 'b.page_count'])
    .where(
      'l.id',
      'in',
      sale.books.map((book) => book.listingId),
    )
    .execute();
  const factsOf = new Map(parcelFacts.map((row) => [row.id, row]));
  const group: PricingGroup = {
    key: sale.sellerId,
    sellerId: sale.sellerId,
    charityId: sale.charityId,
    sellerName: '',
    books: sale.books.map((book) => ({
      ...book,
      title: '',
      format: factsOf.get(book.listingId)?.format ?? null,
      pageCount: factsOf.get(book.listingId)?.page_count ?? null,
    })),
    tiers: sale.tiers ?? [],
    agreedMinor: sale.offer?.amountMinor ?? null,
    offerId: sale.offer?.id ?? null,
  };
  const priced = await quoteGroup(trx, group);
  const order = await insertOrder(trx, {
    buyerId: sale.buyerId,
    priced,
    promotionId: null,
    reservedUntil: sale.paidAt,
    address: sale.address ?? DEMO_ADDRESS,
  });
  const paid = await trx
    .updateTable('orders')
    .set({
      status: sale.status,
      paid_at: sale.paidAt,
      dispatch_by: new Date(sale.paidAt.getTime() + 7 * DAY),
      dispatched_at: sale.dispatchedAt ?? null,
      carrier: sale.dispatchedAt ? (sale.carrier ?? 'royal_mail_tracked_48') : null,
      tracking_ref: sale.dispatchedAt ? (sale.trackingRef ?? null) : null,
      delivered_at: sale.deliveredAt ?? null,
      complete_after:
        sale.deliveredAt && sale.status === 'delivered'
          ? new Date(sale.deliveredAt.getTime() + 2 * DAY)
          : null,
      completed_at: sale.completedAt ?? null,
      created_at: sale.paidAt,
    })
    .where('id', '=', order.id)
    .returning([
      'id',
      'seller_id',
      'item_price_minor',
      'bundle_discount_minor',
      'postage_minor',
      'total_minor',
    ])
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('order_items')
    .set({ created_at: sale.paidAt })
    .where('order_id', '=', order.id)
    .execute();
  await trx
    .updateTable('order_events')
    .set({ created_at: sale.paidAt })
    .where('order_id', '=', order.id)
    .execute();
  await trx
    .updateTable('listings')
    .set({ status: 'sold' })
    .where(
      'id',
      'in',
      sale.books.map((book) => book.listingId),
    )
    .execute();
  await trx
    .insertInto('payments')
    .values({
      order_id: order.id,
      provider: 'test',
      provider_ref: sale.paymentRef,
      amount_minor: paid.total_minor,
      status: 'succeeded',
      created_at: sale.paidAt,
    })
    .execute();
  await holdEarnings(trx, paid);
  await trx
    .updateTable('payouts')
    .set({ created_at: sale.paidAt })
    .where('order_id', '=', order.id)
    .execute();
  if (sale.status === 'completed') {
    // Released on completion, or for a charity sale when its return window closes: at that
    // moment if it has closed already (as the release job would have), else held until then.
    const completedAt = sale.completedAt ?? sale.paidAt;
    const heldUntil = returnWindowEnds({
      charitySale: sale.charityId !== null,
      deliveredAt: sale.deliveredAt ?? null,
    });
    const releaseAt = heldUntil && heldUntil > completedAt ? heldUntil : completedAt;
    if (releaseAt <= new Date()) await releaseEarnings(trx, order.id, null, releaseAt);
    else await releaseEarnings(trx, order.id, heldUntil, completedAt);
  }
  await trx
    .insertInto('order_events')
    .values({
      order_id: order.id,
      from_status: 'pending_payment',
      to_status: 'paid',
      actor_kind: 'system',
      note: sale.note,
      created_at: sale.paidAt,
    })
    .execute();
  return { id: order.id, reference: order.reference, totalMinor: paid.total_minor };
}
