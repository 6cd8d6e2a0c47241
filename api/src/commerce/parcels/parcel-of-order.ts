/**
 * An order's parcel and how it goes (issue 37): the one place an order's delivery choice is read.
 * Checkout stores the method, point, band, weight and thickness on the order; an order written
 * before that (or by a seed or test) has them null, and is taken as home delivery with its band
 * derived from its books (`parcelFor`, the one rule for a parcel).
 */
import {
  type CarrierNetwork,
  type DeliveryMethod,
  type DropOffPoint,
  HOME_DELIVERY_NETWORK,
  type Parcel,
  type ParcelSize,
  type PostageBand,
  parcelFor,
} from '@reshelf/contracts';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';

export interface OrderParcel {
  method: DeliveryMethod;
  network: CarrierNetwork;
  dropOffPoint: DropOffPoint | null;
  band: PostageBand;
  weightG: number;
  thicknessMm: number;
}

export async function parcelOfOrder(db: Database | Transaction<DB>, orderId: string): Promise<OrderParcel> {
  const order = await db
    .selectFrom('orders')
    .select(['delivery_method', 'drop_off_point', 'postage_band', 'parcel_weight_g', 'parcel_thickness_mm'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  const method: DeliveryMethod = order.delivery_method === 'drop_off' ? 'drop_off' : 'home';
  const dropOffPoint = method === 'drop_off' ? (order.drop_off_point as DropOffPoint) : null;
  const network = dropOffPoint?.network ?? HOME_DELIVERY_NETWORK;
  if (order.postage_band && order.parcel_weight_g && order.parcel_thickness_mm) {
    return {
      method,
      network,
      dropOffPoint,
      band: order.postage_band as PostageBand,
      weightG: order.parcel_weight_g,
      thicknessMm: order.parcel_thickness_mm,
    };
  }
  const parcel = await parcelOfItems(db, orderId);
  return {
    method,
    network,
    dropOffPoint,
    band: parcel.band,
    weightG: parcel.weightG,
    thicknessMm: parcel.thicknessMm,
  };
}

/** The parcel the order's books make, from the listings' format and size and the books' pages. */
async function parcelOfItems(db: Database | Transaction<DB>, orderId: string): Promise<Parcel> {
  const books = await db
    .selectFrom('order_items as i')
    .innerJoin('listings as l', 'l.id', 'i.listing_id')
    .leftJoin('books as b', 'b.id', 'l.book_id')
    .select(['l.format', 'l.parcel_size', 'b.page_count'])
    .where('i.order_id', '=', orderId)
    .orderBy('i.position')
    .execute();
  return parcelFor(
    books.map((book) => ({
      format: book.format,
      pageCount: book.page_count,
      parcelSize: (book.parcel_size ?? 'small') as ParcelSize,
    })),
  );
}
