/**
 * Orders of several books in the demo data (issue 23), so the pages show them on a fresh start:
 * - bookworm@reshelf.test bought three of Sam's Shelf's books in one basket order, paid and waiting
 *   for Sam to send the one parcel (Sam's bundle tiers: 2 books 5%, 3 books 10%, 5 books 15%);
 * - reader@reshelf.test bought two of Margaret's books together, completed;
 * - bookworm@reshelf.test bought two books from Cherwell Valley Hospice Books' shop, delivered and
 *   inside its 14-day return window (the shop's tier: 2 books 10%).
 * Priced by the same rules as checkout (`priceGroup` in packages/contracts: bundle tier, one
 * parcel's postage, protection on the discounted subtotal), each with its payment and the
 * seller's payout, as a paid basket order has.
 */
import { type BundleTier, COMMERCIAL_DEFAULTS, type ParcelSize, priceGroup } from '@reshelf/contracts';
import type { Database } from '../db/index.ts';
import { DEMO_CHARITIES, DEMO_SELLERS } from './catalogue-demo.ts';

const DAY = 86_400_000;

interface Plan {
  sellerEmail: string;
  buyerEmail: string;
  charity: boolean;
  books: number;
  tiers: BundleTier[];
  status: 'paid' | 'delivered' | 'completed';
  paidDaysAgo: number;
}

export async function seedDemoBasketOrders(db: Database): Promise<{ orders: number; books: number }> {
  const plans: Plan[] = [
    {
      sellerEmail: DEMO_SELLERS[0]!.email,
      buyerEmail: 'bookworm@reshelf.test',
      charity: false,
      books: 3,
      tiers: [
        { minBooks: 2, percent: 5 },
        { minBooks: 3, percent: 10 },
        { minBooks: 5, percent: 15 },
      ],
      status: 'paid',
      paidDaysAgo: 1,
    },
    {
      sellerEmail: DEMO_SELLERS[1]!.email,
      buyerEmail: 'reader@reshelf.test',
      charity: false,
      books: 2,
      tiers: [],
      status: 'completed',
      paidDaysAgo: 9,
    },
    {
      sellerEmail: DEMO_CHARITIES[0]!.email,
      buyerEmail: 'bookworm@reshelf.test',
      charity: true,
      books: 2,
      tiers: [{ minBooks: 2, percent: 10 }],
      status: 'delivered',
      paidDaysAgo: 4,
    },
  ];
  let orders = 0;
  let books = 0;
  for (const plan of plans) {
    const people = await db
      .selectFrom('auth.users')
      .select(['id', 'email'])
      .where('email', 'in', [plan.sellerEmail, plan.buyerEmail])
      .execute();
    const sellerId = people.find((p) => p.email === plan.sellerEmail)?.id;
    const buyerId = people.find((p) => p.email === plan.buyerEmail)?.id;
    if (!sellerId || !buyerId) continue;
    const charity = plan.charity
      ? await db.selectFrom('charities').select('id').where('owner_id', '=', sellerId).executeTakeFirst()
      : undefined;
    if (plan.charity && !charity) continue;
    let listingsQuery = db
      .selectFrom('listings')
      .select(['id', 'price_minor', 'parcel_size'])
      .where('seller_id', '=', sellerId)
      .where('status', '=', 'active')
      .orderBy('slug', 'desc')
      .limit(plan.books);
    listingsQuery = charity
      ? listingsQuery.where('charity_id', '=', charity.id)
      : listingsQuery.where('charity_id', 'is', null);
    const listings = await listingsQuery.execute();
    if (listings.length < plan.books) continue;
    if (plan.tiers.length > 0) {
      await db
        .insertInto('bundle_tiers')
        .values(
          plan.tiers.map((tier) => ({
            ...(charity ? { charity_id: charity.id } : { seller_id: sellerId }),
            min_books: tier.minBooks,
            percent: tier.percent,
          })),
        )
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    const price = priceGroup({
      items: listings.map((l) => ({
        priceMinor: l.price_minor ?? 0,
        parcelSize: (l.parcel_size ?? 'small') as ParcelSize,
      })),
      tiers: plan.tiers,
      postage: COMMERCIAL_DEFAULTS.postageMinor,
    });
    const paidAt = new Date(Date.now() - plan.paidDaysAgo * DAY);
    const dispatchedAt = plan.status === 'paid' ? null : new Date(paidAt.getTime() + DAY);
    const deliveredAt = plan.status === 'paid' ? null : new Date(paidAt.getTime() + 2 * DAY);
    const order = await db
      .insertInto('orders')
      .values({
        buyer_id: buyerId,
        seller_id: sellerId,
        listing_id: listings[0]!.id,
        status: plan.status,
        item_price_minor: price.itemSubtotalMinor,
        bundle_discount_minor: price.bundleDiscountMinor,
        postage_minor: price.postageMinor,
        buyer_protection_minor: price.protectionMinor,
        buyer_protection_vat_minor: price.protectionVatMinor,
        discount_minor: 0,
        total_minor: price.totalMinor,
        parcel_size: price.parcelSize,
        charity_sale: Boolean(charity),
        shipping_address: JSON.stringify({
          fullName: 'Jo March',
          line1: '1 Orchard House',
          line2: null,
          town: 'Bath',
          postcode: 'BA1 1AA',
        }),
        paid_at: paidAt,
        dispatch_by: new Date(paidAt.getTime() + 7 * DAY),
        dispatched_at: dispatchedAt,
        carrier: dispatchedAt ? 'royal_mail_tracked_48' : null,
        tracking_ref: dispatchedAt ? `RM${String(100000 + orders).padStart(9, '0')}GB` : null,
        delivered_at: deliveredAt,
        complete_after: deliveredAt ? new Date(deliveredAt.getTime() + 2 * DAY) : null,
        completed_at: plan.status === 'completed' ? new Date(paidAt.getTime() + 3 * DAY) : null,
        created_at: paidAt,
      })
      .returning(['id', 'total_minor'])
      .executeTakeFirstOrThrow();
    await db
      .insertInto('order_items')
      .values(
        listings.map((listing, index) => ({
          order_id: order.id,
          listing_id: listing.id,
          position: index + 1,
          price_minor: price.items[index]!.priceMinor,
          bundle_discount_minor: price.items[index]!.bundleDiscountMinor,
          discount_minor: price.items[index]!.discountMinor,
          protection_minor: price.items[index]!.protectionMinor,
          created_at: paidAt,
        })),
      )
      .execute();
    await db
      .updateTable('listings')
      .set({ status: 'sold' })
      .where(
        'id',
        'in',
        listings.map((l) => l.id),
      )
      .execute();
    await db
      .insertInto('payments')
      .values({
        order_id: order.id,
        provider: 'test',
        provider_ref: `demo_basket_${order.id.replaceAll('-', '')}`,
        amount_minor: order.total_minor,
        status: 'succeeded',
        created_at: paidAt,
      })
      .execute();
    const releasedAt = plan.status === 'completed' ? new Date(paidAt.getTime() + 3 * DAY) : null;
    await db
      .insertInto('payouts')
      .values({
        seller_id: sellerId,
        order_id: order.id,
        amount_minor: price.discountedSubtotalMinor + price.postageMinor,
        status: releasedAt ? 'released' : 'held',
        released_at: releasedAt,
        ...(charity && deliveredAt && !releasedAt
          ? { release_after: new Date(deliveredAt.getTime() + COMMERCIAL_DEFAULTS.charityReturnDays * DAY) }
          : {}),
        created_at: paidAt,
      })
      .execute();
    await db
      .insertInto('order_events')
      .values({
        order_id: order.id,
        from_status: null,
        to_status: 'paid',
        actor_kind: 'system',
        note: `Demo basket order of ${listings.length} books`,
        created_at: paidAt,
      })
      .execute();
    orders += 1;
    books += listings.length;
  }
  return { orders, books };
}
