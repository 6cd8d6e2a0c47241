/**
 * The one way an order is written (decision 0051): a priced group (commerce/pricing/quote.ts)
 * becomes an order waiting for payment, its books with their exact shares of the money, and its
 * first event, in the caller's transaction. A single book, an accepted offer and each group of a
 * basket all come through here, and so does the demo seed.
 */
import { type AddressInput, PARCEL_SIZES, WELCOME_GIFT } from '@reshelf/contracts';
import type { Insertable, Transaction } from 'kysely';
import type { DB, Orders } from '../../db/database.generated.ts';
import type { PricedGroup } from '../pricing/quote.ts';
import { recordEvent } from './order-machine.ts';

export interface NewOrder {
  buyerId: string;
  priced: PricedGroup;
  /** The promotion the checkout uses (decision 0019), when this group carries its discount. */
  promotionId: string | null;
  reservedUntil: Date;
  address: AddressInput;
  /** The checkout payment the order is paid with, and its place in it (a basket's orders). */
  checkoutPaymentId?: string | null;
  paymentPosition?: number | null;
  /**
   * The buyer's delivery choice and the parcel (checkout/delivery.ts: deliveryColumns); the
   * demo seed's orders, never chosen at a checkout, have none.
   */
  delivery?: Pick<
    Insertable<Orders>,
    | 'delivery_method'
    | 'drop_off_point'
    | 'postage_band'
    | 'parcel_weight_g'
    | 'parcel_thickness_mm'
    | 'expected_delivery_on'
  >;
}

export async function insertOrder(
  trx: Transaction<DB>,
  input: NewOrder,
): Promise<{ id: string; reference: string }> {
  const { group, price, discountCode } = input.priced;
  const [first] = group.books;
  if (!first) throw new Error('An order needs at least one book');
  const order = await trx
    .insertInto('orders')
    .values({
      buyer_id: input.buyerId,
      seller_id: group.sellerId,
      offer_id: group.offerId,
      status: 'pending_payment',
      item_price_minor: price.itemSubtotalMinor,
      bundle_discount_minor: price.bundleDiscountMinor,
      postage_minor: price.postageMinor,
      buyer_protection_minor: price.protectionMinor,
      buyer_protection_vat_minor: price.protectionVatMinor,
      discount_minor: price.discountMinor,
      discount_code: discountCode,
      promotion_id: discountCode && discountCode !== WELCOME_GIFT.code ? input.promotionId : null,
      // The largest of the seller's sizes (the band itself is postage_band).
      parcel_size:
        PARCEL_SIZES[Math.max(...group.books.map((book) => PARCEL_SIZES.indexOf(book.parcelSize)))],
      charity_sale: group.charityId !== null,
      total_minor: price.totalMinor,
      reserved_until: input.reservedUntil,
      shipping_address: JSON.stringify(input.address),
      checkout_payment_id: input.checkoutPaymentId ?? null,
      payment_position: input.paymentPosition ?? null,
      ...input.delivery,
    })
    .returning(['id', 'reference'])
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('order_items')
    .values(
      price.items.map((item, index) => ({
        order_id: order.id,
        listing_id: (group.books[index] as (typeof group.books)[number]).listingId,
        position: index + 1,
        price_minor: item.priceMinor,
        bundle_discount_minor: item.bundleDiscountMinor,
        discount_minor: item.discountMinor,
        protection_minor: item.protectionMinor,
      })),
    )
    .execute();
  await recordEvent(trx, order.id, null, 'pending_payment', { id: input.buyerId, kind: 'buyer' });
  return order;
}
