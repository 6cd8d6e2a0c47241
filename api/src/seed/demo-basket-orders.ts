/**
 * Orders of several books in the demo data, so the pages show them on a fresh start:
 * - bookworm@reshelf.test bought three of Sam's Shelf's books in one basket order, paid and waiting
 *   for Sam to send the one parcel (Sam's bundle tiers: 2 books 5%, 3 books 10%, 5 books 15%);
 * - reader@reshelf.test bought two of Margaret's books together, completed;
 * - bookworm@reshelf.test bought two books from Cherwell Valley Hospice Books' shop, delivered and
 *   inside its 14-day return window (the shop's tier: 2 books 10%).
 * Written as a real sale is (`seedSale`: checkout's pricer with the bundle tier, one parcel's
 * postage and protection on the discounted subtotal; the one order insert; the payment and the
 * seller's earnings).
 */
import type { BundleTier, ParcelSize } from '@reshelf/contracts';
import type { Database } from '../db/index.ts';
import { DEMO_CHARITIES, DEMO_SELLERS } from './catalogue-demo.ts';
import { seedSale } from './seed-sale.ts';

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
    const paidAt = new Date(Date.now() - plan.paidDaysAgo * DAY);
    const sent = plan.status !== 'paid';
    const deliveredAt = sent ? new Date(paidAt.getTime() + 2 * DAY) : null;
    const completedAt = plan.status === 'completed' ? new Date(paidAt.getTime() + 3 * DAY) : null;
    await seedSale(db, {
      buyerId,
      sellerId,
      charityId: charity?.id ?? null,
      books: listings.map((listing) => ({
        listingId: listing.id,
        priceMinor: listing.price_minor ?? 0,
        parcelSize: (listing.parcel_size ?? 'small') as ParcelSize,
      })),
      tiers: plan.tiers,
      status: plan.status,
      paidAt,
      dispatchedAt: sent ? new Date(paidAt.getTime() + DAY) : null,
      trackingRef: sent ? `RM${String(100000 + orders).padStart(9, '0')}GB` : null,
      deliveredAt,
      completedAt,
      paymentRef: `demo_basket_${plan.sellerEmail.replace(/\W/g, '')}_${plan.buyerEmail.replace(/\W/g, '')}`,
      note: `Demo basket order of ${listings.length} books`,
    });
    orders += 1;
    books += listings.length;
  }
  return { orders, books };
}
