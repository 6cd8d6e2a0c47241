/**
 * Who an order's parcels belong to: its buyer, and its seller (or, for a charity's sale, any
 * member of the charity). A shipment's sender is the seller for the outbound parcel and the
 * buyer for a return; only the sender may download its label.
 */
import type { ShipmentDirection } from '@reshelf/contracts';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';

export type OrderSide = 'buyer' | 'seller';

/** The caller's side of the order, or null when it is not theirs. */
export async function sideOfOrder(
  db: Database | Transaction<DB>,
  userId: string,
  orderId: string,
): Promise<OrderSide | null> {
  const order = await db
    .selectFrom('orders')
    .select(['buyer_id', 'seller_id'])
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (!order) return null;
  if (order.seller_id === userId) return 'seller';
  if (order.buyer_id === userId) return 'buyer';
  const member = await db
    .selectFrom('order_items as i')
    .innerJoin('listings as l', 'l.id', 'i.listing_id')
    .innerJoin('charity_members as m', 'm.charity_id', 'l.charity_id')
    .select('m.user_id')
    .where('i.order_id', '=', orderId)
    .where('m.user_id', '=', userId)
    .executeTakeFirst();
  return member ? 'seller' : null;
}

/** Who posts a parcel going this way. */
export function senderSide(direction: ShipmentDirection): OrderSide {
  return direction === 'outbound' ? 'seller' : 'buyer';
}
