/**
 * Charity orders: the 14-day return flow (request, accept or decline, refund when
 * the book is back, each step emailed and recorded), Retail Gift Aid totals per donor and tax
 * year with their CSV exports, and the dashboard's figures, all on fixtures.
 */
import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseHeldPayouts } from '../commerce/orders/orders.service.ts';
import type { Database } from '../db/index.ts';
import { createTestApp, type TestApp } from '../testing/app.ts';
import { createUser, type TestUser } from '../testing/auth.ts';
import { createBook, createCharity, createListing } from '../testing/catalogue.ts';
import { api, refusal, statusOf } from '../testing/client.ts';
import { createOrder } from '../testing/selling.ts';

let t: TestApp;
let db: Database;
let owner: TestUser;
let buyer: TestUser;
let privateSeller: TestUser;
let otherOwner: TestUser;
let charityId: string;
let bookId: string;
let n = 0;
const payoutDeps = () => ({ db, mailer: t.services.mailer, origin: t.config.siteOrigin });

const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  owner = await createUser(db, t.services.identity, 'owner@orders.test');
  buyer = await createUser(db, t.services.identity, 'buyer@orders.test');
  privateSeller = await createUser(db, t.services.identity, 'private@orders.test');
  otherOwner = await createUser(db, t.services.identity, 'other@orders.test');
  charityId = await createCharity(db, { slug: 'cherwell-books', name: 'Cherwell Books', ownerId: owner.id });
  await db
    .updateTable('charities')
    .set({
      address_line1: '4 Market Place',
      town: 'Banbury',
      postcode: 'OX16 5LW',
      contact_email: 'shop@cherwell.test',
    })
    .where('id', '=', charityId)
    .execute();
  await createCharity(db, { slug: 'other-books', name: 'Other Books', ownerId: otherOwner.id });
  bookId = await createBook(db, { title: 'Returnable Novel', category: 'fiction' });
});

afterAll(async () => {
  await t?.close();
});

/** A paid order for a new listing, moved to a status, with its payment and held payout. */
async function order(options: {
  charity?: boolean;
  status: string;
  deliveredDaysAgo?: number;
  paidAt?: Date;
  price?: number;
  donor?: string | null;
  category?: string;
  title?: string;
}): Promise<{ orderId: string; listingId: string }> {
  n += 1;
  const seller = options.charity === false ? privateSeller : owner;
  const book =
    options.category || options.title
      ? await createBook(db, { title: options.title ?? `Book ${n}`, category: options.category ?? 'fiction' })
      : bookId;
  const listing = await createListing(db, {
    sellerId: seller.id,
    bookId: book,
    charityId: options.charity === false ? null : charityId,
    status: 'sold',
    price: options.price ?? 600,
  });
  if (options.donor) {
    await db
      .updateTable('listings')
      .set({ donor_reference: options.donor })
      .where('id', '=', listing.id)
      .execute();
  }
  const orderId = await createOrder(db, {
    listingId: listing.id,
    buyerId: buyer.id,
    sellerId: seller.id,
    status: options.status,
    priceMinor: options.price ?? 600,
  });
  const delivered =
    options.deliveredDaysAgo === undefined ? null : new Date(Date.now() - options.deliveredDaysAgo * DAY);
  const row = await db
    .updateTable('orders')
    .set({
      delivered_at: delivered,
      charity_sale: options.charity !== false,
      ...(options.paidAt ? { paid_at: options.paidAt } : {}),
    })
    .where('id', '=', orderId)
    .returning('total_minor')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('payments')
    .values({
      order_id: orderId,
      provider: 'test',
      provider_ref: `pay_${orderId}`,
      amount_minor: row.total_minor,
      status: 'succeeded',
    })
    .execute();
  await db
    .insertInto('payouts')
    .values({ seller_id: seller.id, order_id: orderId, amount_minor: (options.price ?? 600) + 299 })
    .execute();
  return { orderId, listingId: listing.id };
}

const asBuyer = () => api(t.app, buyer.accessToken);
const asOwner = () => api(t.app, owner.accessToken);

async function lastMail(to: string) {
  return db
    .selectFrom('email_outbox')
    .select(['template', 'text_body'])
    .where('to_address', '=', to)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

describe('14-day returns', () => {
  it('are for charity orders only, once delivered and within 14 days', async () => {
    const privateOrder = await order({ charity: false, status: 'delivered', deliveredDaysAgo: 1 });
    const eligibility = await asBuyer().charities.returnEligibility.query({ orderId: privateOrder.orderId });
    expect(eligibility).toMatchObject({ charityOrder: false, eligible: false, request: null });
    expect(eligibility.reason).toMatch(
      /^Only books bought from charities and business sellers can be returned/,
    );

    const inTransit = await order({ status: 'dispatched' });
    expect(await asBuyer().charities.returnEligibility.query({ orderId: inTransit.orderId })).toMatchObject({
      charityOrder: true,
      eligible: false,
      reason: 'You can ask to return the book once it has been delivered.',
    });

    const late = await order({ status: 'completed', deliveredDaysAgo: 15 });
    const refused = asBuyer().charities.requestReturn.mutate({
      orderId: late.orderId,
      reason: 'Changed my mind',
    });
    expect(await statusOf(refused)).toBe(412);
    expect((await refusal(refused)).message).toMatch(
      /^The 14 days to return this book ended on \d{1,2} \w+ \d{4}\.$/,
    );

    const onTime = await order({ status: 'completed', deliveredDaysAgo: 13 });
    expect(await asBuyer().charities.returnEligibility.query({ orderId: onTime.orderId })).toMatchObject({
      eligible: true,
      reason: null,
    });
  });

  it('keeps other people’s orders private', async () => {
    const mine = await order({ status: 'delivered', deliveredDaysAgo: 1 });
    const stranger = api(t.app, privateSeller.accessToken);
    expect(await statusOf(stranger.charities.returnEligibility.query({ orderId: mine.orderId }))).toBe(404);
    expect(
      await statusOf(
        stranger.charities.requestReturn.mutate({
          orderId: mine.orderId,
          reason: 'Not mine at all',
        }),
      ),
    ).toBe(404);
  });

  it('runs request → accept → received: the buyer refunded the book and postage, the order refunded', async () => {
    const { orderId, listingId } = await order({ status: 'delivered', deliveredDaysAgo: 2, price: 800 });
    const short = asBuyer().charities.requestReturn.mutate({ orderId, reason: 'bad' });
    expect(await statusOf(short)).toBe(400);
    const requested = await asBuyer().charities.requestReturn.mutate({
      orderId,
      reason: 'The cover is torn, not as described.',
    });
    expect(requested).toMatchObject({
      eligible: false,
      request: { status: 'requested', returnAddress: null },
    });
    expect(await lastMail('owner@orders.test')).toMatchObject({ template: 'charity-return-requested' });
    expect(await lastMail('shop@cherwell.test')).toMatchObject({ template: 'charity-return-requested' });
    expect(
      await statusOf(asBuyer().charities.requestReturn.mutate({ orderId, reason: 'Asking again please' })),
    ).toBe(409);

    const list = await asOwner().charities.returns.query();
    const request = list.find((r) => r.orderId === orderId);
    expect(request).toMatchObject({ status: 'requested', buyerName: 'buyer', title: 'Returnable Novel' });
    // Another charity cannot touch it; the book must be accepted before it is received.
    const other = api(t.app, otherOwner.accessToken);
    expect(await statusOf(other.charities.acceptReturn.mutate({ returnId: request!.id }))).toBe(404);
    expect(await refusal(asOwner().charities.receiveReturn.mutate({ returnId: request!.id }))).toEqual({
      status: 409,
      message: 'Accept the return first: the buyer then posts the book back to you.',
    });

    await asOwner().charities.acceptReturn.mutate({ returnId: request!.id });
    const accepted = await lastMail('buyer@orders.test');
    expect(accepted?.template).toBe('charity-return-accepted');
    expect(accepted?.text_body).toContain('Cherwell Books, 4 Market Place, Banbury, OX16 5LW');
    const buyerView = await asBuyer().charities.returnEligibility.query({ orderId });
    expect(buyerView.request).toMatchObject({
      status: 'accepted',
      returnAddress: 'Cherwell Books, 4 Market Place, Banbury, OX16 5LW',
    });
    expect(
      await statusOf(
        asOwner().charities.declineReturn.mutate({ returnId: request!.id, reason: 'Too late now' }),
      ),
    ).toBe(409);

    const refunded = await asOwner().charities.receiveReturn.mutate({ returnId: request!.id });
    // 800p book + 299p postage; the 95p buyer-protection fee is not refunded.
    expect(refunded).toMatchObject({ status: 'refunded', refundMinor: 1099 });
    const refunds = await db.selectFrom('refunds').selectAll().where('order_id', '=', orderId).execute();
    expect(refunds).toMatchObject([{ amount_minor: 1099, buyer_protection_minor: 0, created_by: owner.id }]);
    const payment = await db
      .selectFrom('payments')
      .select('refunded_minor')
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow();
    expect(payment.refunded_minor).toBe(1099);
    const after = await db
      .selectFrom('orders')
      .innerJoin('payouts', 'payouts.order_id', 'orders.id')
      .innerJoin('order_items as first_item', (join) =>
        join.onRef('first_item.order_id', '=', 'orders.id').on('first_item.position', '=', 1),
      )
      .innerJoin('listings', 'listings.id', 'first_item.listing_id')
      .select(['orders.status', 'payouts.status as payout', 'listings.status as listing'])
      .where('orders.id', '=', orderId)
      .executeTakeFirstOrThrow();
    expect(after).toEqual({ status: 'refunded', payout: 'cancelled', listing: 'withdrawn' });
    expect(listingId).toBeTruthy();
    const events = await db
      .selectFrom('order_events')
      .select(['from_status', 'to_status', 'actor_kind', 'note'])
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute();
    expect(events).toMatchObject([
      {
        from_status: 'delivered',
        to_status: 'delivered',
        actor_kind: 'buyer',
        note: 'Return requested: The cover is torn, not as described.',
      },
      { from_status: 'delivered', to_status: 'delivered', actor_kind: 'seller', note: 'Return accepted' },
      { from_status: 'delivered', to_status: 'refunded', actor_kind: 'seller' },
    ]);
    expect((await lastMail('buyer@orders.test'))?.template).toBe('charity-return-refunded');
    // Received twice refunds once.
    expect(await statusOf(asOwner().charities.receiveReturn.mutate({ returnId: request!.id }))).toBe(409);
  });

  it('lets the charity decline with a reason, emailed to the buyer', async () => {
    const { orderId } = await order({ status: 'completed', deliveredDaysAgo: 5 });
    const requested = await asBuyer().charities.requestReturn.mutate({
      orderId,
      reason: 'I found a cheaper copy elsewhere',
    });
    const short = asOwner().charities.declineReturn.mutate({
      returnId: requested.request!.id,
      reason: 'no',
    });
    expect(await statusOf(short)).toBe(400);
    const declined = await asOwner().charities.declineReturn.mutate({
      returnId: requested.request!.id,
      reason: 'The book arrived back with water damage.',
    });
    expect(declined).toMatchObject({
      status: 'declined',
      declineReason: 'The book arrived back with water damage.',
    });
    const mail = await lastMail('buyer@orders.test');
    expect(mail?.template).toBe('charity-return-declined');
    expect(mail?.text_body).toContain('The book arrived back with water damage.');
    const orderRow = await db
      .selectFrom('orders')
      .select('status')
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    expect(orderRow.status).toBe('completed');
  });
});

describe('Retail Gift Aid', () => {
  beforeAll(async () => {
    // Tax year 2025-26 runs from 6 April 2025 to 5 April 2026 (London time).
    await order({ status: 'completed', donor: 'D-1', price: 500, paidAt: new Date('2025-04-05T12:00:00Z') }); // 2024-25
    await order({ status: 'completed', donor: 'D-1', price: 400, paidAt: new Date('2025-04-05T23:30:00Z') }); // 6 April, BST
    await order({ status: 'delivered', donor: 'D-1', price: 250, paidAt: new Date('2026-01-10T10:00:00Z') });
    await order({ status: 'paid', donor: 'D-2', price: 1200, paidAt: new Date('2025-09-01T10:00:00Z') });
    await order({ status: 'refunded', donor: 'D-2', price: 999, paidAt: new Date('2025-09-02T10:00:00Z') });
    await order({ status: 'cancelled', donor: 'D-3', price: 999, paidAt: new Date('2025-09-03T10:00:00Z') });
    await order({ status: 'completed', donor: 'D-3', price: 700, paidAt: new Date('2026-04-06T09:00:00Z') }); // 2026-27
    await order({ status: 'completed', donor: null, price: 300, paidAt: new Date('2025-10-01T10:00:00Z') });
  });

  it('totals proceeds per donor in a tax year, leaving out cancelled and refunded sales', async () => {
    const summary = await asOwner().charities.giftAid.query({ taxYear: 2025 });
    expect(summary).toMatchObject({
      taxYear: 2025,
      label: '2025-26',
      donors: [
        { donorReference: 'D-1', itemsSold: 2, proceedsMinor: 650 },
        { donorReference: 'D-2', itemsSold: 1, proceedsMinor: 1200 },
      ],
      totalMinor: 1850,
      itemsSold: 3,
    });
    expect(summary.years).toEqual(expect.arrayContaining([2026, 2025, 2024]));
    const earlier = await asOwner().charities.giftAid.query({ taxYear: 2024 });
    expect(earlier.donors).toEqual([{ donorReference: 'D-1', itemsSold: 1, proceedsMinor: 500 }]);
  });

  it('exports the claim per donor and per item as CSV', async () => {
    const donors = await asOwner().charities.giftAidCsv.query({ taxYear: 2025, detail: 'donors' });
    expect(donors.fileName).toBe('cherwell-books-gift-aid-donors-2025-26.csv');
    expect(parse(donors.csv, { columns: true })).toEqual([
      { donor_reference: 'D-1', tax_year: '2025-26', items_sold: '2', proceeds_gbp: '6.50' },
      { donor_reference: 'D-2', tax_year: '2025-26', items_sold: '1', proceeds_gbp: '12.00' },
    ]);
    const items = await asOwner().charities.giftAidCsv.query({ taxYear: 2025, detail: 'items' });
    const rows = parse(items.csv, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r.donor_reference, r.date_sold, r.proceeds_gbp])).toEqual([
      ['D-1', '2025-04-06', '4.00'],
      ['D-1', '2026-01-10', '2.50'],
      ['D-2', '2025-09-01', '12.00'],
    ]);
  });

  it('writes a donor reference or a title that a spreadsheet would run as a formula as text', async () => {
    // Donor references are checked when typed and by the database (listings_donor_reference_check);
    // the CSV writer must not rely on either, so this test takes the check away.
    await sql`alter table public.listings drop constraint listings_donor_reference_check`.execute(db);
    await order({
      status: 'completed',
      donor: '@SUM(1)',
      price: 350,
      paidAt: new Date('2023-06-01T10:00:00Z'),
      title: '=HYPERLINK("http://evil","x")',
    });
    const donors = await asOwner().charities.giftAidCsv.query({ taxYear: 2023, detail: 'donors' });
    expect(donors.csv).toBe(
      'donor_reference,tax_year,items_sold,proceeds_gbp\r\n' + "'@SUM(1),2023-24,1,3.50\r\n",
    );
    const items = await asOwner().charities.giftAidCsv.query({ taxYear: 2023, detail: 'items' });
    expect(items.csv).toContain(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(parse(items.csv, { columns: true })).toEqual([
      {
        donor_reference: "'@SUM(1)",
        date_sold: '2023-06-01',
        order_reference: expect.any(String),
        title: `'=HYPERLINK("http://evil","x")`,
        isbn: expect.any(String),
        proceeds_gbp: '3.50',
      },
    ]);
  });

  it('is the charity’s own: someone else’s charity sees only its own (none)', async () => {
    const other = await api(t.app, otherOwner.accessToken).charities.giftAid.query({ taxYear: 2025 });
    expect(other).toMatchObject({ donors: [], totalMinor: 0 });
    const nobody = asBuyer().charities.giftAid.query({ taxYear: 2025 });
    expect(await statusOf(nobody)).toBe(403);
  });
});

describe('the charity dashboard', () => {
  it('adds up sales, listings by status, payouts, categories and months', async () => {
    await order({ status: 'completed', price: 450, category: 'history', paidAt: new Date() });
    const dashboard = await asOwner().charities.dashboard.query();
    // The same figures as the money definitions give for the charity's orders (and so as its
    // sales analytics): every order and book sold, and what they earned the charity.
    const sold = await db
      .selectFrom('order_money as m')
      .innerJoin('orders as o', 'o.id', 'm.order_id')
      .innerJoin('order_items as first_item', (join) =>
        join.onRef('first_item.order_id', '=', 'o.id').on('first_item.position', '=', 1),
      )
      .innerJoin('listings as l', 'l.id', 'first_item.listing_id')
      .select([
        (eb) => eb.fn.countAll<string>().as('n'),
        (eb) => eb.fn.sum<string>('m.books').as('books'),
        (eb) => eb.fn.sum<string>('m.seller_net_minor').as('net'),
      ])
      .where('l.charity_id', '=', charityId)
      .where('m.paid_at', 'is not', null)
      .where('m.status', 'not in', ['cancelled', 'refunded'])
      .executeTakeFirstOrThrow();
    expect(dashboard.sales.ordersCount).toBe(Number(sold.n));
    expect(dashboard.sales.booksCount).toBe(Number(sold.books));
    expect(dashboard.sales.earningsMinor).toBe(Number(sold.net));
    expect(dashboard.monthly).toHaveLength(12);
    expect(dashboard.monthly.at(-1)?.orders).toBeGreaterThanOrEqual(1);
    expect(dashboard.topCategories.map((c) => c.name)).toEqual(
      expect.arrayContaining(['Fiction', 'History']),
    );
    expect(dashboard.listingsByStatus).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ status: 'sold' }),
        expect.objectContaining({ status: 'withdrawn', count: 1 }),
      ]),
    );
    expect(dashboard.payouts.cancelledMinor).toBe(1099);
    expect(dashboard.payouts.heldMinor).toBeGreaterThan(0);
    expect(dashboard.openReturns).toBe(0);
  });
});

// Last: these orders change the charity's figures the dashboard test adds up.
describe('charity payouts and the return window', () => {
  const payoutOf = (orderId: string) =>
    db
      .selectFrom('payouts')
      .select(['status', 'release_after', 'released_at'])
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow();

  it('holds a completed charity sale’s payout until 14 days after delivery, then releases it', async () => {
    const { orderId } = await order({ status: 'delivered', deliveredDaysAgo: 1 });
    await asBuyer().commerce.orders.member.confirm.mutate({ orderId });
    const held = await payoutOf(orderId);
    expect(held.status).toBe('held');
    const delivered = (
      await db.selectFrom('orders').select('delivered_at').where('id', '=', orderId).executeTakeFirstOrThrow()
    ).delivered_at!;
    expect(held.release_after?.getTime()).toBe(delivered.getTime() + 14 * DAY);
    const seen = await asOwner().commerce.orders.member.get.query({ orderId });
    expect(seen.payout).toMatchObject({ status: 'held', releaseAfter: held.release_after!.toISOString() });
    expect(seen.nextStep).toMatch(/^Payout released on .+, when the return window closes$/);
    expect((await lastMail('owner@orders.test'))?.text_body).toMatch(
      /will be released to your payouts on \d{1,2} \w+ \d{4}, when the buyer’s 14-day return window closes/,
    );

    await releaseHeldPayouts(payoutDeps(), new Date(held.release_after!.getTime() - 60_000));
    expect((await payoutOf(orderId)).status).toBe('held');
    const at = new Date(held.release_after!.getTime() + 60_000);
    expect(await releaseHeldPayouts(payoutDeps(), at)).toBeGreaterThanOrEqual(1);
    expect(await payoutOf(orderId)).toMatchObject({ status: 'released', released_at: at });
    // The charity is told, in the app and by email, in the release's transaction.
    const notices = (await asOwner().account.notifications.list.query({ limit: 100 })).items;
    expect(notices).toContainEqual(
      expect.objectContaining({
        kind: 'payout_released',
        link: '/account/payouts',
        title: expect.stringMatching(/^Payout released: £/),
      }),
    );
    expect((await lastMail('owner@orders.test'))?.template).toBe('order.payout_released');
  });

  it('keeps it held while a return is open, cancels it when the return is refunded', async () => {
    const { orderId } = await order({ status: 'delivered', deliveredDaysAgo: 3 });
    await asBuyer().commerce.orders.member.confirm.mutate({ orderId });
    const requested = await asBuyer().charities.requestReturn.mutate({
      orderId,
      reason: 'Pages are missing from the end.',
    });
    const afterWindow = new Date(Date.now() + 15 * DAY);
    await releaseHeldPayouts(payoutDeps(), afterWindow);
    expect((await payoutOf(orderId)).status).toBe('held');

    await asOwner().charities.acceptReturn.mutate({ returnId: requested.request!.id });
    await asOwner().charities.receiveReturn.mutate({ returnId: requested.request!.id });
    expect((await payoutOf(orderId)).status).toBe('cancelled');
    await releaseHeldPayouts(payoutDeps(), afterWindow);
    expect((await payoutOf(orderId)).status).toBe('cancelled');
  });

  it('releases a private seller’s payout on completion, as before', async () => {
    const { orderId } = await order({ charity: false, status: 'delivered', deliveredDaysAgo: 1 });
    await asBuyer().commerce.orders.member.confirm.mutate({ orderId });
    expect(await payoutOf(orderId)).toMatchObject({ status: 'released', release_after: null });
  });
});
