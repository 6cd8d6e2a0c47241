/** /admin/listings: staff (moderators too) search listings, remove and restore them with a reason. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, lastEmailTo, type TestUser } from '../../testing/auth.ts';
import { createBook, createListing } from '../../testing/catalogue.ts';
import { api, type RouterInputs, refusal, statusOf } from '../../testing/client.ts';

let t: TestApp;
let db: Database;
let admin: TestUser;
let moderator: TestUser;
let seller: TestUser;
let listing: { id: string; slug: string };
let sold: { id: string; slug: string };

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  admin = await createUser(db, t.services.identity, 'admin@listings-staff.test', { roles: ['admin'] });
  moderator = await createUser(db, t.services.identity, 'moderator@listings-staff.test', {
    roles: ['moderator'],
  });
  seller = await createUser(db, t.services.identity, 'seller@listings-staff.test');
  listing = await createListing(db, {
    sellerId: seller.id,
    bookId: await createBook(db, { title: 'The Counterfeit Atlas' }),
    slug: 'the-counterfeit-atlas-1',
  });
  sold = await createListing(db, {
    sellerId: seller.id,
    bookId: await createBook(db, { title: 'A Book Already Sold' }),
    status: 'sold',
  });
});

afterAll(async () => {
  await t.close();
});

describe('staff listings', () => {
  it('only staff may search or change listings', async () => {
    const as = api(t.app, seller.accessToken);
    expect(await statusOf(as.community.moderation.listings.search.query({}))).toBe(403);
    expect(
      await statusOf(
        as.community.moderation.listings.setRemoved.mutate({
          listingId: listing.id,
          removed: true,
          reason: 'Mine',
        }),
      ),
    ).toBe(403);
    expect(await statusOf(api(t.app).community.moderation.listings.search.query({}))).toBe(401);
  });

  it('finds listings by title, slug, seller and status', async () => {
    const as = api(t.app, moderator.accessToken);
    const ids = async (input: RouterInputs['community']['moderation']['listings']['search']) =>
      (await as.community.moderation.listings.search.query(input)).map((row) => row.id);
    expect(await ids({ q: 'counterfeit' })).toEqual([listing.id]);
    expect(await ids({ q: 'atlas-1' })).toEqual([listing.id]);
    expect(await ids({ seller: 'seller@listings-staff', status: 'sold' })).toEqual([sold.id]);
    expect((await ids({ seller: 'SELLER@listings-staff' })).sort()).toEqual([listing.id, sold.id].sort());
    expect(await ids({ q: 'no such book' })).toEqual([]);
    expect(await refusal(as.community.moderation.listings.search.query({ status: 'gone' as never }))).toEqual(
      {
        status: 400,
        message: 'status: Choose a status from the list',
      },
    );
  });

  it('a moderator removes a listing with a reason: it leaves the shop, the seller is emailed, the log records it', async () => {
    const as = api(t.app, moderator.accessToken);
    expect(
      await refusal(
        as.community.moderation.listings.setRemoved.mutate({
          listingId: listing.id,
          removed: true,
          reason: '',
        }),
      ),
    ).toEqual({
      status: 400,
      message: 'reason: Give a reason (at least 3 characters): the seller is told it',
    });
    const removed = await as.community.moderation.listings.setRemoved.mutate({
      listingId: listing.id,
      removed: true,
      reason: 'Counterfeit copy',
    });
    expect(removed).toMatchObject({ status: 'removed', removedReason: 'Counterfeit copy' });
    expect(await api(t.app).catalogue.listings.bySlug.query({ slug: listing.slug })).toMatchObject({
      status: 'removed',
      available: false,
    });
    const email = await lastEmailTo(db, seller.email);
    expect(email).toMatchObject({ template: 'safety.content_removed' });
    expect(email?.text_body).toContain('The reason: Counterfeit copy');
    const [entry] = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'listing.remove')
      .execute();
    expect(entry).toMatchObject({
      actor_email: moderator.email,
      target_id: listing.id,
      details: { from: 'active', to: 'removed', reason: 'Counterfeit copy' },
    });
    expect(
      await refusal(
        as.community.moderation.listings.setRemoved.mutate({
          listingId: listing.id,
          removed: true,
          reason: 'Again',
        }),
      ),
    ).toEqual({ status: 409, message: 'This listing is already removed. Refresh the page.' });
  });

  it('restores it to the status it had, and refuses a listing a buyer has', async () => {
    const as = api(t.app, admin.accessToken);
    const restored = await as.community.moderation.listings.setRemoved.mutate({
      listingId: listing.id,
      removed: false,
      reason: 'Seller proved it is genuine',
    });
    expect(restored).toMatchObject({ status: 'active', removedReason: null });
    expect(await lastEmailTo(db, seller.email)).toMatchObject({ template: 'listing_restored' });
    expect(
      await db
        .selectFrom('audit_log')
        .select('action')
        .where('target_id', '=', listing.id)
        .orderBy('id')
        .execute(),
    ).toEqual([{ action: 'listing.remove' }, { action: 'listing.restore' }]);

    expect(
      await refusal(
        as.community.moderation.listings.setRemoved.mutate({
          listingId: sold.id,
          removed: true,
          reason: 'Fake',
        }),
      ),
    ).toEqual({
      status: 409,
      message: 'This listing is sold: a buyer has it. Handle it from the order or its dispute instead.',
    });
    const unchanged = await db
      .selectFrom('listings')
      .select('status')
      .where('id', '=', sold.id)
      .executeTakeFirst();
    expect(unchanged?.status).toBe('sold');
  });
});
