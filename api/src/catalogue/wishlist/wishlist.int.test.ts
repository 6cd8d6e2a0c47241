/**
 * The wishlist and its notifications through the real app and database: saving and listing
 * books, and an in-app notification (made in the same transaction) when a saved listing's
 * price drops or it sells.
 */
import { formatPence, parcelFor, postageFromFor } from '@reshelf/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { createBook, createListing } from '../../testing/catalogue.ts';
import { api, refusal, statusOf } from '../../testing/client.ts';

/** "+ postage from" for one paperback-sized test book (no format or pages): the rule's figure. */
const PAPERBACK_FROM = postageFromFor(
  parcelFor([{ parcelSize: 'small', format: null, pageCount: null }]).band,
);

let t: TestApp;
let seller: TestUser;
let buyer: TestUser;
let friend: TestUser;
let bookId: string;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.handle.db;
  seller = await createUser(db, t.services.identity, 'seller@wishlist.test');
  buyer = await createUser(db, t.services.identity, 'buyer@wishlist.test');
  friend = await createUser(db, t.services.identity, 'friend@wishlist.test');
  bookId = await createBook(db, { title: 'Emma', authors: ['Jane Austen'], isbn13: '9780141439587' });
});

afterAll(async () => {
  await t.close();
});

const db = () => t.database.handle.db;

async function activeListing(price = 600) {
  const listing = await createListing(db(), { sellerId: seller.id, bookId, price });
  await db()
    .updateTable('listings')
    .set({ photos: JSON.stringify(['/storage/x/1600.webp']) })
    .where('id', '=', listing.id)
    .execute();
  return listing;
}

async function wish(user: TestUser, listingId: string, wished = true) {
  return api(t.app, user.accessToken).catalogue.wishlist.toggle.mutate({ listingId, wished });
}

async function notifications(user: TestUser) {
  return await api(t.app, user.accessToken).account.notifications.list.query({ limit: 50 });
}

async function reprice(listingId: string, priceMinor: number) {
  return await api(t.app, seller.accessToken).selling.listings.update.mutate({ listingId, priceMinor });
}

describe('the wishlist', () => {
  it('saves and forgets a listing (idempotently), lists it and answers which are saved', async () => {
    const listing = await activeListing();
    expect(await wish(buyer, listing.id)).toEqual({ wished: true });
    expect(await wish(buyer, listing.id)).toEqual({ wished: true });
    const calls = api(t.app, buyer.accessToken);
    expect(await calls.catalogue.wishlist.status.query()).toEqual({ listingIds: [listing.id] });
    expect(await calls.catalogue.wishlist.list.query()).toEqual([
      expect.objectContaining({ id: listing.id, slug: listing.slug, title: 'Emma', priceMinor: 600 }),
    ]);
    // Someone else's wishlist is their own.
    expect(await api(t.app, friend.accessToken).catalogue.wishlist.status.query()).toEqual({
      listingIds: [],
    });
    expect(await wish(buyer, listing.id, false)).toEqual({ wished: false });
    expect(await calls.catalogue.wishlist.list.query()).toEqual([]);
  });

  it('refuses one’s own listing, drafts and books no longer for sale', async () => {
    const listing = await activeListing();
    expect(await refusal(wish(seller, listing.id))).toEqual({
      status: 400,
      message: 'This is your own listing, so it can’t go on your wishlist.',
    });
    const draft = await createListing(db(), { sellerId: seller.id, bookId, status: 'draft' });
    expect(await statusOf(wish(buyer, draft.id))).toBe(404);
    const sold = await createListing(db(), { sellerId: seller.id, bookId, status: 'sold' });
    expect((await refusal(wish(buyer, sold.id))).message).toMatch(/no longer for sale/);
    expect(await statusOf(wish(buyer, 'not-an-id'))).toBe(400);
  });

  it('needs a session', async () => {
    const listing = await activeListing();
    const response = api(t.app, 'not-a-token').catalogue.wishlist.toggle.mutate({
      listingId: listing.id,
      wished: true,
    });
    expect(await statusOf(response)).toBe(401);
  });
});

describe('notifications for wished-for listings', () => {
  it('tells each person who saved it when the price drops, not the seller, and not when it rises', async () => {
    const listing = await activeListing(800);
    await wish(buyer, listing.id);
    await wish(friend, listing.id);
    await reprice(listing.id, 900);
    expect((await notifications(buyer)).items).toEqual([]);

    await reprice(listing.id, 650);
    const mine = await notifications(buyer);
    expect(mine.unread).toBe(1);
    expect(mine.items).toEqual([
      expect.objectContaining({
        kind: 'wishlist_price_drop',
        title: 'Price drop on your wishlist',
        // All-in (decision 0071): each price and its 70p + 5% buyer protection; a paperback's postage.
        body: `Emma is now £7.53 (was £10.15), including buyer protection, + postage from ${formatPence(PAPERBACK_FROM)}.`,
        read: false,
        listing: expect.objectContaining({ slug: listing.slug, title: 'Emma', authors: ['Jane Austen'] }),
      }),
    ]);
    expect((await notifications(friend)).unread).toBe(1);
    expect((await notifications(seller)).items).toEqual([]);
    expect(await api(t.app, buyer.accessToken).account.notifications.unreadCount.query()).toEqual({
      unread: 1,
    });

    // Another drop before the person looks: still one notification, from the first price to the latest.
    await reprice(listing.id, 500);
    const coalesced = await notifications(buyer);
    expect(coalesced.items).toHaveLength(1);
    expect(coalesced.items[0]?.body).toBe(
      `Emma is now £5.95 (was £10.15), including buyer protection, + postage from ${formatPence(PAPERBACK_FROM)}.`,
    );

    // Read, and the next drop is news again.
    expect(await api(t.app, buyer.accessToken).account.notifications.markRead.mutate({ ids: 'all' })).toEqual(
      {
        unread: 0,
      },
    );
    await reprice(listing.id, 450);
    const later = await notifications(buyer);
    expect(later.unread).toBe(1);
    expect(later.items.map((item) => [item.body, item.read])).toEqual([
      [
        `Emma is now £5.43 (was £5.95), including buyer protection, + postage from ${formatPence(PAPERBACK_FROM)}.`,
        false,
      ],
      [
        `Emma is now £5.95 (was £10.15), including buyer protection, + postage from ${formatPence(PAPERBACK_FROM)}.`,
        true,
      ],
    ]);
    // Marking one read; someone else's ids do nothing.
    const friendsId = (await notifications(friend)).items[0]!.id;
    expect(
      await api(t.app, buyer.accessToken).account.notifications.markRead.mutate({ ids: [friendsId] }),
    ).toEqual({
      unread: 1,
    });
    expect((await notifications(friend)).unread).toBe(1);
  });

  it('tells them when it sells, in the same transaction as the sale', async () => {
    const listing = await activeListing(700);
    await wish(buyer, listing.id);
    // A sale that rolls back tells nobody.
    await db()
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('listings').set({ status: 'sold' }).where('id', '=', listing.id).execute();
        const inside = await trx
          .selectFrom('notifications')
          .select('kind')
          .where('listing_id', '=', listing.id)
          .execute();
        expect(inside).toEqual([{ kind: 'wishlist_sold' }]);
        throw new Error('payment failed');
      })
      .catch(() => {});
    expect(
      await db().selectFrom('notifications').select('id').where('listing_id', '=', listing.id).execute(),
    ).toEqual([]);

    await db().updateTable('listings').set({ status: 'sold' }).where('id', '=', listing.id).execute();
    const mine = await notifications(buyer);
    expect(mine.items[0]).toMatchObject({
      kind: 'wishlist_sold',
      title: 'A book on your wishlist has sold',
      body: 'Emma has been sold to another reader. Other copies may be for sale.',
    });
    // Sold is sold: it says so on the wishlist too.
    const list = await api(t.app, buyer.accessToken).catalogue.wishlist.list.query();
    expect(list.find((card) => card.id === listing.id)?.status).toBe('sold');
  });

  it('keeps per-person answers out of the public listing answers', async () => {
    const listing = await activeListing();
    await wish(buyer, listing.id);
    // (the answer's data: the envelope around it, {"result":{"data":…}}, names nothing else)
    const page = await api(t.app, buyer.accessToken).catalogue.listings.bySlug.query({ slug: listing.slug });
    expect(JSON.stringify(page)).not.toMatch(/wish/i);
    // The trigger writes notifications only for price and status changes.
    const { rows } = await sql<{ tgname: string }>`
      select tgname from pg_trigger where tgrelid = 'public.listings'::regclass and tgname like '%wishlist%'`.execute(
      db(),
    );
    expect(rows.map((row) => row.tgname)).toEqual(['listings_notify_wishlisters']);
  });
});
