/**
 * "Cleanup duplicates" made safe (decision 0023), on the real database and procedures:
 * a dry run of the same function shows counts and titles and changes nothing; moderators may
 * preview but only admins run it; a stale preview is refused; listings are withdrawn (never
 * deleted), audited as staff removals, their sellers emailed once each, and restorable from
 * /admin/listings for 30 days; a listing with an order or one a bulk upload made in the last
 * 24 hours is never taken; two sellers' copies, a different price and the copies of one bulk
 * upload are not duplicates.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { createBook, createCharity, createListing } from '../../testing/catalogue.ts';
import { api, refusal } from '../../testing/client.ts';
import { insertOrderRow } from '../../testing/orders.ts';

let t: TestApp;
let db: Database;
let admin: TestUser;
let moderator: TestUser;
let seller: TestUser;
let otherSeller: TestUser;
let charityOwner: TestUser;
let buyer: TestUser;

const ids = {} as Record<
  | 'keep'
  | 'twin'
  | 'pricier'
  | 'othersCopy'
  | 'lonely'
  | 'coverOnly'
  | 'hadSale'
  | 'bulkRecent'
  | 'bulkOld'
  | 'bulkCopy1'
  | 'bulkCopy2',
  string
>;

const PHOTO = ['/storage/listings/fixture/0123456789abcdef/1600.webp'];
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);

async function listing(
  sellerId: string,
  bookId: string,
  options: { photos?: string[]; createdAt?: Date; price?: number; charityId?: string } = {},
): Promise<string> {
  const { id } = await createListing(db, {
    sellerId,
    bookId,
    price: options.price ?? 500,
    charityId: options.charityId ?? null,
  });
  await db
    .updateTable('listings')
    .set({
      photos: JSON.stringify(options.photos ?? []),
      condition_notes: 'Clean copy',
      created_at: options.createdAt ?? new Date(),
    })
    .where('id', '=', id)
    .execute();
  return id;
}

/** A bulk upload by the charity, made `hours` ago, listing these listings as its rows. */
async function bulkUpload(charityId: string, hours: number, listingIds: string[]): Promise<void> {
  const upload = await db
    .insertInto('charity_imports')
    .values({
      charity_id: charityId,
      created_by: charityOwner.id,
      file_name: 'stock.csv',
      file_sha256: randomBytes(32).toString('hex'),
      status: 'done',
      total_rows: listingIds.length,
      invalid_rows: 0,
      created_at: hoursAgo(hours),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('charity_import_rows')
    .values(
      listingIds.map((listingId, index) => ({
        import_id: upload.id,
        row_number: index + 2,
        cells: JSON.stringify({ isbn: 'x' }),
        item: JSON.stringify({}),
        status: 'listed',
        listing_id: listingId,
      })),
    )
    .execute();
}

const statuses = async () =>
  Object.fromEntries(
    (
      await db.selectFrom('listings').select(['id', 'status']).where('id', 'in', Object.values(ids)).execute()
    ).map((row) => [row.id, row.status]),
  );

const preview = (user: TestUser) => api(t.app, user.accessToken).staff.dashboard.cleanupPreview.query();
const run = (user: TestUser, input?: object) =>
  api(t.app, user.accessToken).staff.dashboard.cleanupListings.mutate(input ?? {});

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  admin = await createUser(db, t.services.identity, 'admin@cleanup.test', { roles: ['admin'] });
  moderator = await createUser(db, t.services.identity, 'moderator@cleanup.test', { roles: ['moderator'] });
  seller = await createUser(db, t.services.identity, 'sam@cleanup.test');
  otherSeller = await createUser(db, t.services.identity, 'olive@cleanup.test');
  charityOwner = await createUser(db, t.services.identity, 'hospice@cleanup.test');
  buyer = await createUser(db, t.services.identity, 'buyer@cleanup.test');

  const twiceListed = await createBook(db, { title: 'The Twice-Listed Novel', authors: ['Ann Echo'] });
  ids.keep = await listing(seller.id, twiceListed, { photos: PHOTO, createdAt: hoursAgo(240) });
  ids.twin = await listing(seller.id, twiceListed, { photos: PHOTO, createdAt: hoursAgo(48) });
  // The same seller's copy at another price, and another seller's copy: not duplicates.
  ids.pricier = await listing(seller.id, twiceListed, { photos: PHOTO, price: 900 });
  ids.othersCopy = await listing(otherSeller.id, twiceListed, { photos: PHOTO });

  ids.lonely = await listing(seller.id, await createBook(db, { title: 'A Book Without a Face' }));
  const covered = await createBook(db, { title: 'A Book With a Cover' });
  await db
    .updateTable('books')
    .set({ cover_url: 'https://covers.example/1.jpg' })
    .where('id', '=', covered)
    .execute();
  ids.coverOnly = await listing(seller.id, covered);
  // No image, but someone ordered it once (the order was cancelled): never taken.
  ids.hadSale = await listing(seller.id, await createBook(db, { title: 'Once Nearly Sold' }));
  await insertOrderRow(db, {
    buyer_id: buyer.id,
    seller_id: seller.id,
    listing_id: ids.hadSale,
    status: 'cancelled',
    item_price_minor: 500,
    total_minor: 500,
  });

  // A charity's bulk uploads: one an hour ago (no photos yet: untouched), one 30 hours ago.
  const charityId = await createCharity(db, {
    slug: 'cleanup-hospice',
    name: 'Cleanup Hospice',
    ownerId: charityOwner.id,
  });
  const asCharity = { charityId };
  ids.bulkRecent = await listing(charityOwner.id, await createBook(db, { title: 'Fresh From The Van' }), {
    ...asCharity,
    createdAt: hoursAgo(1),
  });
  await bulkUpload(charityId, 1, [ids.bulkRecent]);
  ids.bulkOld = await listing(charityOwner.id, await createBook(db, { title: 'Donated Atlas' }), {
    ...asCharity,
    createdAt: hoursAgo(30),
  });
  // Two copies of one book in the same upload, alike in every way: the charity holds two.
  const popular = await createBook(db, { title: 'The Popular Paperback' });
  ids.bulkCopy1 = await listing(charityOwner.id, popular, {
    ...asCharity,
    photos: PHOTO,
    createdAt: hoursAgo(30),
  });
  ids.bulkCopy2 = await listing(charityOwner.id, popular, {
    ...asCharity,
    photos: PHOTO,
    createdAt: hoursAgo(30),
  });
  await bulkUpload(charityId, 30, [ids.bulkOld, ids.bulkCopy1, ids.bulkCopy2]);
});

afterAll(async () => {
  await t.close();
});

describe('admin-cleanup-listings, safely', () => {
  let digest: string;

  it('a moderator previews it: the counts, a sample of titles, and nothing changes', async () => {
    const before = await statuses();
    const answer = await preview(moderator);
    expect(answer).toMatchObject({ duplicates_removed: 1, no_image_removed: 2, total_deleted: 3 });
    expect(answer.digest).toMatch(/^[0-9a-f]{32}$/);
    digest = answer.digest;
    expect(answer.sample.map((item) => [item.rule, item.title, item.seller_name])).toEqual([
      ['duplicate', 'The Twice-Listed Novel', 'sam'],
      ['no_image', 'A Book Without a Face', 'sam'],
      ['no_image', 'Donated Atlas', 'hospice'],
    ]);
    expect(answer.sample[0]).toMatchObject({ listing_id: ids.twin, authors: 'Ann Echo', price_minor: 500 });
    expect(await statuses()).toEqual(before);
    expect(Object.values(before).every((status) => status === 'active')).toBe(true);
  });

  it('only admins run it: a moderator is refused and nothing changes', async () => {
    const before = await statuses();
    expect(await refusal(run(moderator))).toEqual({
      status: 403,
      message: 'Access denied: admin role required',
    });
    expect(await refusal(run(moderator, { expected: digest }))).toMatchObject({ status: 403 });
    expect(await statuses()).toEqual(before);
  });

  it('refuses a confirmation whose preview is out of date', async () => {
    const late = await listing(seller.id, await createBook(db, { title: 'Arrived After The Preview' }));
    expect(await refusal(run(admin, { expected: digest }))).toEqual({
      status: 409,
      message:
        'The listings to clean up have changed since the preview. Look at the preview again before running it.',
    });
    expect(await statuses()).toEqual(Object.fromEntries(Object.values(ids).map((id) => [id, 'active'])));
    // Its seller adds a photo: the set is the previewed one again.
    await db
      .updateTable('listings')
      .set({ photos: JSON.stringify(PHOTO) })
      .where('id', '=', late)
      .execute();
    expect((await preview(admin)).digest).toBe(digest);
    expect(await refusal(run(admin, { expected: 'not-a-digest' }))).toMatchObject({ status: 400 });
  });

  it('an admin runs it: the spec’s answer; withdrawn, not deleted; audited; each seller emailed once', async () => {
    const response = await run(admin, { expected: digest });
    expect(response).toEqual({ duplicates_removed: 1, no_image_removed: 2, total_deleted: 3 });

    const after = await statuses();
    expect(Object.keys(after)).toHaveLength(Object.keys(ids).length);
    const withdrawn = [ids.twin, ids.lonely, ids.bulkOld];
    for (const [name, id] of Object.entries(ids)) {
      expect([name, after[id]]).toEqual([name, withdrawn.includes(id) ? 'removed' : 'active']);
    }
    const reasons = await db
      .selectFrom('listings')
      .select(['id', 'removed_reason'])
      .where('id', 'in', withdrawn)
      .execute();
    expect(new Map(reasons.map((row) => [row.id, row.removed_reason]))).toEqual(
      new Map([
        [
          ids.twin,
          'Withdrawn by our clean-up: a duplicate of another of your listings of this book (same condition, notes and price)',
        ],
        [ids.lonely, 'Withdrawn by our clean-up: the listing has no photo and its book has no cover image'],
        [ids.bulkOld, 'Withdrawn by our clean-up: the listing has no photo and its book has no cover image'],
      ]),
    );

    const entries = await db
      .selectFrom('audit_log')
      .select(['action', 'target_id', 'actor_email', 'details'])
      .where('action', 'in', ['listing.remove', 'admin.cleanupListings'])
      .orderBy('id')
      .execute();
    const removals = entries.filter((entry) => entry.action === 'listing.remove');
    expect(new Set(removals.map((entry) => entry.target_id))).toEqual(new Set(withdrawn));
    const summary = entries.find((entry) => entry.action === 'admin.cleanupListings');
    const run_id = (summary?.details as { run_id?: string } | undefined)?.run_id;
    expect(run_id).toMatch(/^[0-9a-f-]{36}$/);
    for (const entry of removals) {
      expect(entry).toMatchObject({
        actor_email: admin.email,
        details: { from: 'active', to: 'removed', cleanup_run: run_id },
      });
    }
    expect(entries.at(-1)).toMatchObject({
      action: 'admin.cleanupListings',
      actor_email: admin.email,
      details: { duplicates_removed: 1, no_image_removed: 2, total_deleted: 3, run_id },
    });

    const mail = await db
      .selectFrom('email_outbox')
      .select(['to_address', 'subject', 'text_body', 'template'])
      .where('template', '=', 'listing_removed')
      .execute();
    expect(mail.map((message) => message.to_address).sort()).toEqual([charityOwner.email, seller.email]);
    const toSeller = mail.find((message) => message.to_address === seller.email)!;
    expect(toSeller.subject).toBe('2 of your listings have been withdrawn');
    expect(toSeller.text_body).toContain('“The Twice-Listed Novel”');
    expect(toSeller.text_body).toContain('“A Book Without a Face”');
    expect(toSeller.text_body).toContain('within 30 days');
    const toCharity = mail.find((message) => message.to_address === charityOwner.email)!;
    expect(toCharity.subject).toBe('Your listing “Donated Atlas” has been withdrawn');

    // Run again: nothing left to take.
    expect(await run(admin)).toEqual({
      duplicates_removed: 0,
      no_image_removed: 0,
      total_deleted: 0,
    });
  });

  it('staff restore a withdrawn listing from /admin/listings, within 30 days', async () => {
    const as = api(t.app, moderator.accessToken);
    const [found] = await as.community.moderation.listings.search.query({
      q: 'Twice-Listed',
      status: 'removed',
    });
    expect(found).toMatchObject({ id: ids.twin, status: 'removed', restorable: true });
    const until = new Date(found?.restoreUntil ?? 0).getTime();
    expect(Math.abs(until - (Date.now() + 30 * 86_400_000))).toBeLessThan(60_000);

    const restored = await as.community.moderation.listings.setRemoved.mutate({
      listingId: ids.twin,
      removed: false,
      reason: 'The seller has two copies',
    });
    expect(restored).toMatchObject({ status: 'active', restoreUntil: null });
    const email = await db
      .selectFrom('email_outbox')
      .select('template')
      .where('to_address', '=', seller.email)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    expect(email?.template).toBe('listing_restored');
  });

  it('after 30 days a withdrawn listing stays withdrawn: restore is refused', async () => {
    // A clean-up withdrawal of 31 days ago (the audit log is append-only, so it is written so).
    const old = await listing(seller.id, await createBook(db, { title: 'Long Gone' }));
    await db.updateTable('listings').set({ status: 'removed' }).where('id', '=', old).execute();
    await db
      .insertInto('audit_log')
      .values({
        actor_id: admin.id,
        actor_email: admin.email,
        action: 'listing.remove',
        target_type: 'listing',
        target_id: old,
        details: JSON.stringify({ from: 'active', to: 'removed', reason: 'x', cleanup: 'no_image' }),
        created_at: hoursAgo(31 * 24),
      })
      .execute();
    const as = api(t.app, admin.accessToken);
    const [found] = await as.community.moderation.listings.search.query({ q: 'Long Gone' });
    expect(found).toMatchObject({ status: 'removed', restorable: false });
    expect(
      await refusal(
        as.community.moderation.listings.setRemoved.mutate({
          listingId: old,
          removed: false,
          reason: 'Please',
        }),
      ),
    ).toEqual({
      status: 409,
      message:
        'The clean-up withdrew this listing more than 30 days ago, so it can no longer be restored. The seller can list the book again.',
    });
  });
});
