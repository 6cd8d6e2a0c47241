/**
 * "Download your data" (UK GDPR right of access) against real PostgreSQL, through the app: a
 * member with a listing, an order as buyer (reviewed both ways), a sale, a message, a wishlist
 * item and an API token exports every section with their rows; the other side's email, address
 * and message text, a second member's data and every secret are absent; a visitor gets 401;
 * the fourth export in an hour gets 429 with a message saying when to try again.
 */
import { readFile } from 'node:fs/promises';
import { DATA_EXPORT_PER_HOUR, type DataExport } from '@reshelf/contracts';
import { sql } from 'kysely';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmOrder, dispatchOrder, markArrived } from '../../commerce/orders/orders.service.ts';
import { writeReview } from '../../community/reviews/reviews.service.ts';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser, WEB } from '../../testing/auth.ts';
import { createBook, createListing } from '../../testing/catalogue.ts';
import { api, failure, refusal } from '../../testing/client.ts';
import { orderDepsFor, paidOrder } from '../../testing/orders.ts';

let t: TestApp;
let db: Database;
let owner: TestUser;
let other: TestUser;
let bought: Awaited<ReturnType<typeof paidOrder>>;
let sold: Awaited<ReturnType<typeof paidOrder>>;
let ownListingId: string;
let token: string;
let data: DataExport;

const as = (user: TestUser | null) =>
  api(t.app, user ? { token: user.accessToken, headers: WEB } : { headers: WEB });

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  owner = await createUser(db, t.services.identity, 'owner@data-export.test');
  other = await createUser(db, t.services.identity, 'other@data-export.test');

  // The owner's own rows.
  await db
    .insertInto('addresses')
    .values({
      user_id: owner.id,
      full_name: 'Owner Person',
      line1: '12 Owner Road',
      town: 'York',
      postcode: 'YO1 7HH',
      is_default: true,
    })
    .execute();
  const own = await createListing(db, {
    sellerId: owner.id,
    bookId: await createBook(db, { title: 'Owner Listed Book' }),
    price: 1234,
  });
  ownListingId = own.id;
  await db
    .updateTable('listings')
    .set({ photos: JSON.stringify(['https://photos.test/owner-listed/1600.webp']) })
    .where('id', '=', own.id)
    .execute();

  // A second member with rows of their own the owner must never see.
  await db
    .insertInto('addresses')
    .values({
      user_id: other.id,
      full_name: 'Other Member',
      line1: '3 Other Secret Street',
      town: 'Leeds',
      postcode: 'LS1 1AA',
    })
    .execute();
  const othersBook = await createListing(db, {
    sellerId: other.id,
    bookId: await createBook(db, { title: 'Other Member Wished Book' }),
    price: 700,
  });
  await createListing(db, {
    sellerId: other.id,
    bookId: await createBook(db, { title: 'Other Member Unrelated Book' }),
  });
  const offered = await createListing(db, {
    sellerId: other.id,
    bookId: await createBook(db, { title: 'Other Member Offered Book' }),
    price: 2000,
  });

  // An order as buyer, completed and reviewed by both sides (so the seller's review is published).
  bought = await paidOrder(t, 1500, 'Owner Bought Book', { buyer: owner });
  const deps = orderDepsFor(t);
  await dispatchOrder(deps, bought.seller.id, {
    orderId: bought.orderId,
    carrier: 'royal_mail_tracked_48',
    trackingRef: 'AB123456789GB',
  });
  await markArrived(deps, owner.id, bought.orderId);
  await confirmOrder(deps, owner.id, bought.orderId);
  await db
    .insertInto('addresses')
    .values({
      user_id: bought.seller.id,
      full_name: 'Seller Person',
      line1: '5 Seller Secret Lane',
      town: 'Hull',
      postcode: 'HU1 1AA',
    })
    .execute();
  await as(owner).community.reviews.member.write.mutate({
    orderId: bought.orderId,
    stars: 5,
    body: 'Owner wrote: lovely copy',
  });
  await writeReview(db, bought.seller.id, {
    orderId: bought.orderId,
    stars: 4,
    body: 'Seller wrote: prompt payment',
  });

  // A sale: the buyer's delivery address is theirs, not the owner's.
  sold = await paidOrder(t, 900, 'Owner Sold Book', {
    seller: { id: owner.id, email: owner.email },
    address: {
      fullName: 'Distant Buyer',
      line1: '7 Buyer Secret Close',
      line2: null,
      town: 'Truro',
      postcode: 'TR1 1AA',
    },
  });

  // A conversation: the owner's message is theirs; the reply is the other member's.
  const { threadId } = await as(owner).community.messages.member.startForListing.mutate({
    listingId: othersBook.id,
  });
  await as(owner).community.messages.member.send.mutate({ threadId, text: 'Owner says hello', photos: [] });
  await as(other).community.messages.member.send.mutate({
    threadId,
    text: 'Other member private reply',
    photos: [],
  });

  // Offers both ways: the owner's note is theirs, the other member's is not.
  await as(owner).commerce.offers.member.make.mutate({
    listingId: offered.id,
    amountMinor: 1500,
    message: 'Owner offer note',
  });
  await as(other).commerce.offers.member.make.mutate({
    listingId: ownListingId,
    amountMinor: 1000,
    message: 'Other member private offer note',
  });

  await as(owner).catalogue.wishlist.toggle.mutate({ listingId: othersBook.id, wished: true });
  token = (await as(owner).account.apiTokens.create.mutate({ name: 'Owner script', scope: 'read' })).token;
  await as(owner).selling.trader.declareBusiness.mutate({
    tradingName: 'Owner Books',
    isCompany: false,
    addressLine1: '5 Stonegate',
    town: 'York',
    postcode: 'YO1 8AS',
    contactEmail: 'owner@books.test',
  });

  data = await as(owner).account.member.exportData.query();
});
afterAll(async () => t?.close());

describe('account.member.exportData', () => {
  it('answers every section with the member’s own rows', () => {
    expect(data.version).toBe(1);
    expect(Date.parse(data.generatedAt)).not.toBeNaN();
    expect(data.account).toMatchObject({ id: owner.id, email: owner.email, roles: [], adminTier: null });
    expect(data.account.emailPreferences).toEqual({
      messages: true,
      wishlist_alerts: true,
      saved_searches: true,
      wants: true,
    });
    expect(data.profile.displayName).toBe('owner');
    // Their answer to "do you sell as a business?" and the trading details they gave (decision 0073).
    expect(data.profile.sellsAs).toBe('business');
    expect(data.profile.businessSeller).toMatchObject({ tradingName: 'Owner Books', postcode: 'YO1 8AS' });
    expect(data.addresses).toEqual([
      expect.objectContaining({
        fullName: 'Owner Person',
        line1: '12 Owner Road',
        postcode: 'YO1 7HH',
        isDefault: true,
      }),
    ]);
    expect(
      data.listings.map((listing) => [listing.title, listing.status, listing.priceMinor, listing.photos]),
    ).toEqual([
      [expect.stringContaining('Owner Sold Book'), 'sold', 900, []],
      ['Owner Listed Book', 'active', 1234, ['https://photos.test/owner-listed/1600.webp']],
    ]);
    expect(data.listings[1]!.id).toBe(ownListingId);

    expect(data.orders.asBuyer).toHaveLength(1);
    const order = data.orders.asBuyer[0]!;
    expect(order).toMatchObject({
      reference: bought.reference,
      status: 'completed',
      totalMinor: bought.totalMinor,
    });
    expect(order.items).toEqual([
      {
        listingId: bought.listingId,
        title: expect.stringContaining('Owner Bought Book'),
        priceMinor: 1500,
        refundedMinor: 0,
      },
    ]);
    expect(order.shippingAddress).toEqual({
      fullName: 'Jo March',
      line1: '1 Orchard House',
      line2: null,
      town: 'Bath',
      postcode: 'BA1 1AA',
    });
    expect(data.orders.asSeller.map((sale) => [sale.reference, sale.shippingAddress])).toEqual([
      [sold.reference, null],
    ]);

    expect(data.messages.map((message) => [message.text, message.listingTitle])).toEqual([
      ['Owner says hello', 'Other Member Wished Book'],
    ]);
    expect(data.reviews.written.map((review) => [review.body, review.stars])).toEqual([
      ['Owner wrote: lovely copy', 5],
    ]);
    expect(data.reviews.received.map((review) => [review.body, review.stars])).toEqual([
      ['Seller wrote: prompt payment', 4],
    ]);
    expect(
      data.offers.made.map((offer) => [offer.title, offer.role, offer.amountMinor, offer.message]),
    ).toEqual([['Other Member Offered Book', 'buyer', 1500, 'Owner offer note']]);
    expect(
      data.offers.received.map((offer) => [offer.listingId, offer.role, offer.amountMinor, offer.message]),
    ).toEqual([[ownListingId, 'seller', 1000, null]]);
    expect(data.wishlist.map((item) => item.title)).toEqual(['Other Member Wished Book']);
    expect(data.notifications.length).toBeGreaterThan(0);
    expect(data.notifications.length).toBeLessThanOrEqual(500);
    expect(data.apiTokens).toEqual([
      expect.objectContaining({ name: 'Owner script', scope: 'read', status: 'active', lastUsedAt: null }),
    ]);
    for (const section of ['follows', 'savedSearches', 'wants', 'charities', 'statements'] as const) {
      expect(Array.isArray(data[section])).toBe(true);
    }
    expect(data.payouts).toEqual({ payouts: expect.any(Array), transfers: expect.any(Array) });
  });

  it('leaves out the other side’s email, address and words, a second member’s data and every secret', async () => {
    const text = JSON.stringify(data);
    for (const absent of [
      other.email,
      bought.seller.email,
      sold.buyer.email,
      '3 Other Secret Street',
      '5 Seller Secret Lane',
      '7 Buyer Secret Close',
      'Distant Buyer',
      'Other member private reply',
      'Other member private offer note',
      'Other Member Unrelated Book',
      token,
      token.slice(0, 12),
      owner.accessToken,
      owner.refreshToken,
    ]) {
      expect(text, absent).not.toContain(absent);
    }
    expect(text).not.toMatch(/password|token_hash|encrypted/i);

    const theirs = await as(other).account.member.exportData.query();
    const theirText = JSON.stringify(theirs);
    expect(theirs.account.email).toBe(other.email);
    expect(theirs.messages.map((message) => message.text)).toEqual(['Other member private reply']);
    for (const absent of [
      owner.email,
      '12 Owner Road',
      'Owner says hello',
      'Owner offer note',
      'Owner script',
    ]) {
      expect(theirText, absent).not.toContain(absent);
    }
  });

  it('logs the export against the request', () => {
    expect(t.logs.some((line) => line.includes('account.data_export') && line.includes(owner.id))).toBe(true);
  });

  it('refuses a visitor (401)', async () => {
    expect((await refusal(as(null).account.member.exportData.query())).status).toBe(401);
    const rest = await request(t.app.server).get('/api/v1/me/data');
    expect(rest.status).toBe(401);
  });

  it('is on the REST API for the member’s own token', async () => {
    const rest = await request(t.app.server).get('/api/v1/me/data').set('authorization', `Bearer ${token}`);
    expect(rest.status).toBe(200);
    expect(rest.body.account.email).toBe(owner.email);
  });

  it(`allows ${DATA_EXPORT_PER_HOUR} an hour, then answers 429 saying when to try again`, async () => {
    const member = await createUser(db, t.services.identity, 'limit@data-export.test');
    for (let i = 0; i < DATA_EXPORT_PER_HOUR; i += 1) {
      await as(member).account.member.exportData.query();
    }
    const refused = await failure(as(member).account.member.exportData.query());
    expect(refused.status).toBe(429);
    expect(refused.message).toMatch(
      /^You can download your data 3 times an hour\. Try again in \d+ minutes?\.$/,
    );
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Someone else's limit is their own.
    expect((await as(other).account.member.exportData.query()).account.email).toBe(other.email);
  });
});

describe('the privacy policy', () => {
  it('tells a site seeded before that a copy can be downloaded, and the account closed, from Account settings', async () => {
    const seeded = await readFile(new URL('../../seed/pages/privacy-policy.md', import.meta.url), 'utf8');
    expect(seeded).toContain('"Download your data" in [Account settings](/account/settings#your-data)');
    expect(seeded).toContain('under "Close your account"');
    const keptBefore =
      'Order and payment records are kept for six years after the end of the tax year they relate to. Contact messages are kept for two years. If you close your account, we delete or anonymise everything else within 30 days.';
    const rightsBefore =
      'You can ask for a copy of your data, ask us to correct or delete it, object to how we use it, or ask us to restrict it.';
    const body = `## How long we keep it\n\n${keptBefore}\n\n## Your rights\n\n${rightsBefore} More.`;
    await db
      .insertInto('pages')
      .values({
        slug: 'privacy-policy',
        title: 'Privacy policy',
        description: 'Privacy',
        body_markdown: body,
      })
      .onConflict((oc) => oc.column('slug').doUpdateSet({ body_markdown: body }))
      .execute();
    const migration = await readFile(
      new URL(
        '../../../../supabase/migrations/20261202250000_privacy_policy_download_your_data.sql',
        import.meta.url,
      ),
      'utf8',
    );
    await sql.raw(migration).execute(db);
    const page = await db
      .selectFrom('pages')
      .select('body_markdown')
      .where('slug', '=', 'privacy-policy')
      .executeTakeFirstOrThrow();
    // The page now says what the seeded page says, in both paragraphs.
    const kept = seeded.split('## How long we keep it\n\n')[1]!.split('\n\n')[0]!;
    const rights = seeded.split('## Your rights\n\n')[1]!.split(' Every marketing email')[0]!;
    expect(page.body_markdown).toBe(`## How long we keep it\n\n${kept}\n\n## Your rights\n\n${rights} More.`);
  });
});
