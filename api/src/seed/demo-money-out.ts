/**
 * Money out in the demo data (decision 0046), so the ledger test over the seed and
 * /admin/payments/reconciliation see refunds and reversals, not only payments and fees:
 *
 * - Tom Reads Sci-Fi (tom@reshelf.test) sold The Hobbit; before it was sent, staff refunded it in
 *   full (the held payout is cancelled, nothing is transferred);
 * - Tom set up payouts; The Colour of Magic, released, was transferred to his account and paid to
 *   his bank; staff then refunded part of it after release, which reverses that part of the
 *   transfer and leaves Tom owing it (a negative balance at the provider);
 * - Tom's next sale, The Name of the Wind, was transferred in full and his next payout was that
 *   much less (the debt netted from it);
 * - Priya's Picks (priya@reshelf.test) set up payouts with a bank that refuses them: the payout of
 *   Atomic Habits failed and the money went back to her balance; she fixed her bank details and
 *   it was paid again.
 *
 * The sales are written as the other demo sales are (rows keyed by the book's ISBN and a fixed
 * key, never random ids); every movement of money after that goes through the services the app
 * uses: the staff refund (`refundOrder`, the one refund command), onboarding and `payOut` with
 * the test provider, and its webhooks applied by `applyConnectEvent`, as the webhook route does.
 * Only with the test provider: Reshelf never moves demo money through a real one.
 */
import { createHash } from 'node:crypto';
import { type ParcelSize, slugify } from '@reshelf/contracts';
import {
  applyConnectEvent,
  isConnectEvent,
  type PayoutDeps,
  payOut,
  refundOrder,
  startOnboarding,
} from '../commerce/index.ts';
import type { Database } from '../db/index.ts';
import type { Mailer } from '../platform/mail/mailer.ts';
import type { PaymentProvider } from '../platform/payments/port.ts';
import type { SignedEvent, TestProvider } from '../platform/payments/test-provider.ts';
import { SNAPSHOT_BOOKS } from './books.ts';
import { seedSale } from './seed-sale.ts';

const DAY = 86_400_000;

export const DEMO_MONEY_OUT = {
  refundsSeller: 'tom@reshelf.test',
  failedPayoutSeller: 'priya@reshelf.test',
  buyer: 'reader@reshelf.test',
  /** Who made the refunds (the demo admin). */
  staff: 'admin@reshelf.test',
  /** The part of The Colour of Magic refunded after release. */
  partialRefundMinor: 200,
} as const;

type SaleKey =
  | 'refundedBeforeRelease'
  | 'reversedAfterRelease'
  | 'nettedFromNextPayout'
  | 'payoutFailedThenPaid';

interface Sale {
  seller: 'refundsSeller' | 'failedPayoutSeller';
  isbn13: string;
  priceMinor: number;
  paidDaysAgo: number;
  /** Paid (not sent yet), or completed with its payout released. */
  status: 'paid' | 'completed';
}

const SALES: Record<SaleKey, Sale> = {
  refundedBeforeRelease: {
    seller: 'refundsSeller',
    isbn13: '9780261102217',
    priceMinor: 650,
    paidDaysAgo: 2,
    status: 'paid',
  },
  reversedAfterRelease: {
    seller: 'refundsSeller',
    isbn13: '9780552166591',
    priceMinor: 550,
    paidDaysAgo: 24,
    status: 'completed',
  },
  nettedFromNextPayout: {
    seller: 'refundsSeller',
    isbn13: '9780575081406',
    priceMinor: 800,
    paidDaysAgo: 9,
    status: 'completed',
  },
  payoutFailedThenPaid: {
    seller: 'failedPayoutSeller',
    isbn13: '9781847941831',
    priceMinor: 700,
    paidDaysAgo: 15,
    status: 'completed',
  },
};

function snapshotBook(isbn13: string) {
  const book = SNAPSHOT_BOOKS.find((b) => b.isbn13 === isbn13);
  if (!book) throw new Error(`The demo money-out sale's book ${isbn13} is not in the snapshot`);
  return book;
}

/** Each sale's listing slug: from the book's title and a fixed key, the same on every run. */
export function demoMoneyOutSlugs(): Record<SaleKey, string> {
  return Object.fromEntries(
    Object.entries(SALES).map(([key, sale]) => [
      key,
      `${slugify(snapshotBook(sale.isbn13).title)}-${createHash('sha256').update(`money-out:${key}`).digest('hex').slice(0, 6)}`,
    ]),
  ) as Record<SaleKey, string>;
}

export interface DemoMoneyOutReport extends Record<string, unknown> {
  sales: number;
  refunds: number;
  payouts: number;
  failedPayouts: number;
}

export interface DemoMoneyOutDeps {
  payments: PaymentProvider;
  mailer: Mailer;
  origin: string;
}

/** Whether the demo's money out has anything to do here: the test provider and its people. */
export function canSeedMoneyOut(payments: PaymentProvider | undefined): payments is TestProvider {
  return payments?.kind === 'test';
}

async function person(db: Database, email: string): Promise<{ id: string; email: string }> {
  const row = await db
    .selectFrom('auth.users')
    .select(['id', 'email'])
    .where('email', '=', email)
    .executeTakeFirst();
  if (!row?.email) throw new Error(`The demo money out needs ${email}`);
  return { id: row.id, email: row.email };
}

/** Writes one sale as the other demo sales are (`seedSale`): its listing, then the sale. */
async function writeSale(
  db: Database,
  key: SaleKey,
  people: { sellerId: string; buyerId: string },
  now: Date,
): Promise<string> {
  const sale = SALES[key];
  const snap = snapshotBook(sale.isbn13);
  const book = await db
    .selectFrom('books')
    .select(['id', 'page_count'])
    .where('isbn13', '=', sale.isbn13)
    .executeTakeFirstOrThrow();
  const pages = book.page_count ?? 300;
  const parcel: ParcelSize = pages > 600 ? 'large' : pages > 350 ? 'medium' : 'small';
  const paid = new Date(now.getTime() - sale.paidDaysAgo * DAY);
  const completed = sale.status === 'completed';
  const at = (days: number) => new Date(paid.getTime() + days * DAY);
  const listing = await db
    .insertInto('listings')
    .values({
      seller_id: people.sellerId,
      book_id: book.id,
      slug: demoMoneyOutSlugs()[key],
      status: 'sold',
      condition: 'very_good',
      price_minor: sale.priceMinor,
      parcel_size: parcel,
      description: `${snap.title}, read once. Sold earlier in the demo.`,
      published_at: at(-5),
      created_at: at(-5),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const order = await seedSale(db, {
    buyerId: people.buyerId,
    sellerId: people.sellerId,
    charityId: null,
    books: [{ listingId: listing.id, priceMinor: sale.priceMinor, parcelSize: parcel }],
    status: sale.status,
    paidAt: paid,
    dispatchedAt: completed ? at(1) : null,
    trackingRef: completed
      ? `RM${createHash('sha256').update(key).digest('hex').slice(0, 9).toUpperCase()}GB`
      : null,
    deliveredAt: completed ? at(3) : null,
    completedAt: completed ? at(4) : null,
    address: {
      fullName: 'Alex Morgan',
      line1: '4 Castle Street',
      line2: null,
      town: 'Cambridge',
      postcode: 'CB3 0AQ',
    },
    paymentRef: `demo_money_${createHash('sha256').update(`money-out:${key}`).digest('hex').slice(0, 24)}`,
    note: 'Demo sale',
  });
  return order.id;
}

/**
 * The demo's money out (see the top of the file). Not in one transaction: the services it goes
 * through commit their own (rows first, the provider after commit). The caller records the run.
 */
export async function seedDemoMoneyOut(
  db: Database,
  deps: DemoMoneyOutDeps & { payments: TestProvider },
  now: Date = new Date(),
): Promise<DemoMoneyOutReport> {
  const report: DemoMoneyOutReport = { sales: 0, refunds: 0, payouts: 0, failedPayouts: 0 };
  const tom = await person(db, DEMO_MONEY_OUT.refundsSeller);
  const priya = await person(db, DEMO_MONEY_OUT.failedPayoutSeller);
  const buyer = await person(db, DEMO_MONEY_OUT.buyer);
  const staff = await person(db, DEMO_MONEY_OUT.staff);
  const provider = deps.payments;
  const payoutDeps: PayoutDeps = { db, payments: provider, mailer: deps.mailer, origin: deps.origin };
  const mail = { db, mailer: deps.mailer, origin: deps.origin };

  // The provider's events (accounts, payouts settling, transfers reversed) are applied here, as
  // the webhook route applies them, until the seed is done.
  const apply = async (signed: SignedEvent) => {
    const event = provider.parseWebhook(signed.body, signed.headers);
    if (isConnectEvent(event)) await applyConnectEvent(payoutDeps, 'test', event);
  };
  const previous = provider.setDeliverer(apply);
  /** Onboards a seller on the test provider with that outcome, and applies what follows. */
  const onboard = async (
    seller: { id: string; email: string },
    outcome: 'complete' | 'complete_payouts_fail',
  ) => {
    await startOnboarding(payoutDeps, seller);
    const account = await db
      .selectFrom('connected_accounts')
      .select('provider_account_id')
      .where('user_id', '=', seller.id)
      .executeTakeFirstOrThrow();
    if (!provider.hasAccount(account.provider_account_id)) {
      throw new Error(`The test provider does not know ${seller.email}'s payout account`);
    }
    // The account turns active: payouts go out (applyConnectEvent pays out after commit).
    await apply(provider.onboard(account.provider_account_id, outcome).event);
    await provider.flushEvents();
  };
  try {
    const write = (key: SaleKey) =>
      db
        .transaction()
        .execute((trx) =>
          writeSale(
            trx,
            key,
            { sellerId: SALES[key].seller === 'refundsSeller' ? tom.id : priya.id, buyerId: buyer.id },
            now,
          ),
        );

    // 1. Refunded in full before it was sent: the held payout is cancelled.
    const before = await write('refundedBeforeRelease');
    await refundOrder({ db, payments: provider, mail }, staff.id, {
      orderId: before,
      amountMinor: 'full',
      reason: 'The seller could not find the book on their shelves',
    });
    report.refunds += 1;

    // 2. Released, transferred and paid out; then part of it refunded: the transfer is reversed.
    const after = await write('reversedAfterRelease');
    await onboard(tom, 'complete');
    await refundOrder({ db, payments: provider, mail }, staff.id, {
      orderId: after,
      amountMinor: DEMO_MONEY_OUT.partialRefundMinor,
      reason: 'A torn page, agreed with the buyer',
    });
    report.refunds += 1;
    await provider.flushEvents();

    // 3. Tom's next sale: transferred in full, and his next payout nets what he owed.
    await write('nettedFromNextPayout');
    await payOut(payoutDeps, { sellerId: tom.id });
    await provider.flushEvents();

    // 4. Priya's bank refuses the payout; she fixes her bank details and it is paid.
    await write('payoutFailedThenPaid');
    await onboard(priya, 'complete_payouts_fail');
    await onboard(priya, 'complete');
    report.sales = Object.keys(SALES).length;
  } finally {
    await provider.flushEvents();
    provider.setDeliverer(previous);
  }
  const payouts = await db
    .selectFrom('provider_payouts')
    .select(['status'])
    .where('seller_id', 'in', [tom.id, priya.id])
    .execute();
  report.payouts = payouts.length;
  report.failedPayouts = payouts.filter((p) => p.status === 'failed').length;
  return report;
}
