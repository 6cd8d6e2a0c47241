/**
 * Whose bank holidays a working-day sum counts (see working-days.ts): the seller's for the
 * dispatch deadline, the delivery address's for the carrier's window.
 */
import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { type BankHolidayRegion, bankHolidayRegionOf } from './working-days.ts';

/**
 * The seller's region: the charity's postcode for a charity's listing, else the seller's
 * default saved address, else their latest one; England and Wales with none.
 */
export async function sellerHolidayRegion(
  db: Database | Transaction<DB>,
  order: { id: string; seller_id: string },
): Promise<BankHolidayRegion> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('order_items as i')
        .innerJoin('listings as l', 'l.id', 'i.listing_id')
        .innerJoin('charities as ch', 'ch.id', 'l.charity_id')
        .select('ch.postcode')
        .where('i.order_id', '=', order.id)
        .limit(1)
        .as('charity_postcode'),
      eb
        .selectFrom('addresses as a')
        .select('a.postcode')
        .where('a.user_id', '=', order.seller_id)
        .orderBy('a.is_default', 'desc')
        .orderBy('a.created_at', 'desc')
        .limit(1)
        .as('seller_postcode'),
    ])
    .executeTakeFirst();
  return bankHolidayRegionOf(row?.charity_postcode ?? row?.seller_postcode ?? null);
}

/** The region of an order's delivery address (its `shipping_address` JSON). */
export function deliveryHolidayRegion(shippingAddress: unknown): BankHolidayRegion {
  const postcode =
    shippingAddress && typeof shippingAddress === 'object' && 'postcode' in shippingAddress
      ? shippingAddress.postcode
      : null;
  return bankHolidayRegionOf(typeof postcode === 'string' ? postcode : null);
}
