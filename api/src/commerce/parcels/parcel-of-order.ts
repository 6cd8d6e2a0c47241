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
  type ParcelBook,
  type ParcelSize,
  type PostageBand,
  parcelFor,
} from '@reshelf/contracts';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import type { LabelAddress } from '../../platform/carriers/port.ts';

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
  return parcelFor(await parcelBooksOf(db, orderId));
}

/**
 * The order's books as a parcel sees them (format, pages, the seller's size; none given is a
 * paperback's), in order; with `itemIds`, only those books (a return of some of them).
 */
export async function parcelBooksOf(
  db: Database | Transaction<DB>,
  orderId: string,
  itemIds?: readonly string[],
): Promise<ParcelBook[]> {
  let query = db
    .selectFrom('order_items as i')
    .innerJoin('listings as l', 'l.id', 'i.listing_id')
    .leftJoin('books as b', 'b.id', 'l.book_id')
    .select(['l.format', 'l.parcel_size', 'b.page_count'])
    .where('i.order_id', '=', orderId)
    .orderBy('i.position');
  if (itemIds && itemIds.length > 0) query = query.where('i.id', 'in', itemIds);
  const books = await query.execute();
  return books.map((book) => ({
    format: book.format,
    pageCount: book.page_count,
    parcelSize: (book.parcel_size ?? 'small') as ParcelSize,
  }));
}

/**
 * Where the seller of this order posts from and takes returns: a charity's sale, the charity's
 * address under its name; else the seller's default saved address (the newest when none is
 * default). Null when there is none (or the charity's is incomplete).
 */
export async function sellerPostingAddress(
  db: Database | Transaction<DB>,
  orderId: string,
): Promise<LabelAddress | null> {
  const charity = await db
    .selectFrom('order_items as i')
    .innerJoin('listings as l', 'l.id', 'i.listing_id')
    .innerJoin('charities as c', 'c.id', 'l.charity_id')
    .select(['c.name', 'c.address_line1', 'c.address_line2', 'c.town', 'c.postcode'])
    .where('i.order_id', '=', orderId)
    .orderBy('i.position')
    .executeTakeFirst();
  if (charity) {
    if (!charity.address_line1 || !charity.town || !charity.postcode) return null;
    return {
      fullName: charity.name,
      line1: charity.address_line1,
      line2: charity.address_line2,
      town: charity.town,
      postcode: charity.postcode,
    };
  }
  const address = await db
    .selectFrom('orders as o')
    .innerJoin('addresses as a', 'a.user_id', 'o.seller_id')
    .select(['a.full_name', 'a.line1', 'a.line2', 'a.town', 'a.postcode'])
    .where('o.id', '=', orderId)
    .orderBy('a.is_default', 'desc')
    .orderBy('a.created_at', 'desc')
    .executeTakeFirst();
  if (!address) return null;
  return {
    fullName: address.full_name,
    line1: address.line1,
    line2: address.line2,
    town: address.town,
    postcode: address.postcode,
  };
}
