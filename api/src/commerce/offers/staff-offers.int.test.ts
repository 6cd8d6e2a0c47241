/**
 * /admin/offers against real PostgreSQL: staff only (moderators too); search by title and
 * either party's email, filter by status and period; the figures at the top; cancelling a
 * pending offer, and an accepted one whose book goes back on sale exactly as a lapse would,
 * audited in the same transaction, both parties emailed; refused while the buyer is paying.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { createBook, createListing, createPerson } from '../../testing/catalogue.ts';
import { api, type RouterInputs, refusal, statusOf } from '../../testing/client.ts';
import { orderDepsFor } from '../../testing/orders.ts';
import { type CheckoutDeps, startCheckout } from '../checkout/checkout.service.ts';
import { counterOffer, listThreads, makeOffer, respondToOffer } from './offers.service.ts';

let t: TestApp;
let db: Database;
let deps: CheckoutDeps;
let moderator: TestUser;
let member: TestUser;
let n = 0;
const address = {
  fullName: 'Ann Shirley',
  line1: 'Green Gables',
  line2: null,
  town: 'York',
  postcode: 'YO1 7HH',
};

async function person(label: string) {
  n += 1;
  const email = `${label}-${n}@staff-offers.test`;
  return { id: await createPerson(db, email), email };
}

async function book(title: string, price = 1000) {
  const seller = await person('seller');
  const bookId = await createBook(db, { title });
  const listing = await createListing(db, { sellerId: seller.id, bookId, price, parcelSize: 'small' });
  return { seller, listingId: listing.id };
}

async function row(offerId: string) {
  return db
    .selectFrom('offers')
    .select(['status', 'cancel_reason', 'cancelled_by'])
    .where('id', '=', offerId)
    .executeTakeFirstOrThrow();
}

async function listingStatus(listingId: string) {
  return (
    await db.selectFrom('listings').select('status').where('id', '=', listingId).executeTakeFirstOrThrow()
  ).status;
}

async function cancelAudits() {
  return db
    .selectFrom('audit_log')
    .select(['actor_id', 'target_id', 'details'])
    .where('action', '=', 'offer.cancel')
    .orderBy('id')
    .execute();
}

// Threads made once for the search tests: pending, countered then pending, accepted, declined,
// and one started 100 days ago.
let pending: { offerId: string; buyer: { email: string }; seller: { email: string } };
let countered: { threadId: string; counterId: string };
let accepted: { offerId: string; listingId: string };
let old: { threadId: string };

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  deps = orderDepsFor(t);
  moderator = await createUser(db, t.services.identity, 'moderator@staff-offers.test', {
    roles: ['moderator'],
  });
  member = await createUser(db, t.services.identity, 'member@staff-offers.test');

  const a = await book('Alpha Centauri Diaries', 1000);
  const aBuyer = await person('alpha-buyer');
  const made = await makeOffer(deps, aBuyer.id, {
    listingId: a.listingId,
    amountMinor: 600,
    message: 'Fair?',
  });
  pending = { offerId: made.offerId, buyer: aBuyer, seller: a.seller };

  const b = await book('Bravo Gardens', 2000);
  const bBuyer = await person('bravo-buyer');
  const first = await makeOffer(deps, bBuyer.id, {
    listingId: b.listingId,
    amountMinor: 1200,
    message: null,
  });
  const counter = await counterOffer(deps, b.seller.id, {
    offerId: first.offerId,
    amountMinor: 1600,
    message: 'Meet me here',
  });
  countered = { threadId: first.offerId, counterId: counter.offerId };

  const c = await book('Charlie Rides Again', 1000);
  const cBuyer = await person('charlie-buyer');
  const cOffer = await makeOffer(deps, cBuyer.id, {
    listingId: c.listingId,
    amountMinor: 800,
    message: null,
  });
  await respondToOffer(deps, c.seller.id, { offerId: cOffer.offerId, action: 'accept' });
  accepted = { offerId: cOffer.offerId, listingId: c.listingId };

  const d = await book('Delta Blues', 1000);
  const dBuyer = await person('delta-buyer');
  const dOffer = await makeOffer(deps, dBuyer.id, {
    listingId: d.listingId,
    amountMinor: 500,
    message: null,
  });
  await respondToOffer(deps, d.seller.id, { offerId: dOffer.offerId, action: 'decline' });

  const e = await book('Echo Old Thread', 1000);
  const eBuyer = await person('echo-buyer');
  const eOffer = await makeOffer(deps, eBuyer.id, {
    listingId: e.listingId,
    amountMinor: 700,
    message: null,
  });
  await respondToOffer(deps, e.seller.id, { offerId: eOffer.offerId, action: 'decline' });
  const longAgo = new Date(Date.now() - 100 * 24 * 60 * 60 * 1000);
  await db
    .updateTable('offers')
    .set({ created_at: longAgo, expires_at: longAgo })
    .where('id', '=', eOffer.offerId)
    .execute();
  old = { threadId: eOffer.offerId };
});

afterAll(async () => {
  await t.close();
});

type Thread = { threadId: string; listing: { title: string }; status: string };
const titles = (threads: Thread[]) => threads.map((thread) => thread.listing.title).sort();

describe('staff offers: access', () => {
  it('is for staff: moderators may search, read the figures and cancel; members get 403', async () => {
    const as = api(t.app, member.accessToken);
    expect(await statusOf(as.commerce.offers.staff.search.query({}))).toBe(403);
    expect(await statusOf(as.commerce.offers.staff.summary.query())).toBe(403);
    expect(
      await statusOf(as.commerce.offers.staff.cancel.mutate({ offerId: pending.offerId, reason: 'Abuse' })),
    ).toBe(403);
    expect((await row(pending.offerId)).status).toBe('pending');
    const staff = api(t.app, moderator.accessToken);
    expect((await staff.commerce.offers.staff.search.query({})).length).toBeGreaterThanOrEqual(5);
  });
});

describe('staff offers: search and filters', () => {
  it('finds threads by title, buyer email or seller email, with rounds, price and discount', async () => {
    const as = api(t.app, moderator.accessToken);
    const byTitle: Thread[] = await as.commerce.offers.staff.search.query({ q: 'bravo gard' });
    expect(titles(byTitle)).toEqual(['Bravo Gardens']);
    expect(byTitle[0]).toMatchObject({
      threadId: countered.threadId,
      currentId: countered.counterId,
      status: 'pending',
      canCancel: true,
      listing: { priceMinor: 2000 },
      rounds: [
        { round: 1, madeBy: 'buyer', amountMinor: 1200, discountPercent: 40, status: 'countered' },
        { round: 2, madeBy: 'seller', amountMinor: 1600, discountPercent: 20, message: 'Meet me here' },
      ],
    });
    const byBuyer: Thread[] = await as.commerce.offers.staff.search.query({ q: pending.buyer.email });
    expect(byBuyer.map((thread) => thread.threadId)).toEqual([pending.offerId]);
    const bySeller: Thread[] = await as.commerce.offers.staff.search.query({ q: pending.seller.email });
    expect(bySeller.map((thread) => thread.threadId)).toEqual([pending.offerId]);
    // LIKE wildcards are taken literally.
    expect(await as.commerce.offers.staff.search.query({ q: '%_%' })).toEqual([]);
  });

  it('filters by status (countered: threads with a counter) and by when the thread started', async () => {
    const as = api(t.app, moderator.accessToken);
    const by = async (input: RouterInputs['commerce']['offers']['staff']['search']) =>
      titles(await as.commerce.offers.staff.search.query(input));
    expect(await by({ status: 'pending' })).toEqual(['Alpha Centauri Diaries', 'Bravo Gardens']);
    expect(await by({ status: 'countered' })).toEqual(['Bravo Gardens']);
    expect(await by({ status: 'accepted' })).toEqual(['Charlie Rides Again']);
    expect(await by({ status: 'declined' })).toEqual(['Delta Blues', 'Echo Old Thread']);
    expect(await by({ status: 'declined', period: 'last30' })).toEqual(['Delta Blues']);
    expect(await by({ period: 'today' })).not.toContain('Echo Old Thread');
    const all: Thread[] = await as.commerce.offers.staff.search.query({});
    expect(all.map((thread) => thread.threadId)).toContain(old.threadId);
    expect(await refusal(as.commerce.offers.staff.search.query({ status: 'haggling' as never }))).toEqual({
      status: 400,
      message: expect.stringContaining('Choose a status from the list'),
    });
  });

  it('sums up: open offers, acceptance over 30 days, median discount asked', async () => {
    const as = api(t.app, moderator.accessToken);
    const summary = await as.commerce.offers.staff.summary.query();
    // Open: Alpha (pending), Bravo (counter pending), Charlie (accepted). In the last 30 days:
    // Alpha, Bravo, Charlie, Delta opened (Echo is older); answered: Charlie and Delta; one accepted.
    // Opening discounts 40%, 40%, 20%, 50%: median 40%.
    expect(summary).toEqual({
      open: 3,
      opened30: 4,
      decided30: 2,
      accepted30: 1,
      acceptanceRate: 0.5,
      medianDiscountPercent: 40,
    });
  });
});

describe('staff offers: cancelling', () => {
  it('cancels a pending offer with a reason, audited, both parties emailed', async () => {
    const as = api(t.app, moderator.accessToken);
    expect(
      await refusal(as.commerce.offers.staff.cancel.mutate({ offerId: pending.offerId, reason: ' x ' })),
    ).toEqual({
      status: 400,
      message: expect.stringContaining('Give a reason'),
    });
    expect(
      await as.commerce.offers.staff.cancel.mutate({ offerId: pending.offerId, reason: 'Abusive messages' }),
    ).toEqual({ was: 'pending', released: false });
    expect(await row(pending.offerId)).toEqual({
      status: 'cancelled',
      cancel_reason: 'Abusive messages',
      cancelled_by: moderator.id,
    });
    const audits = await cancelAudits();
    expect(audits.at(-1)).toMatchObject({
      actor_id: moderator.id,
      target_id: pending.offerId,
      details: {
        reason: 'Abusive messages',
        was: 'pending',
        released: false,
        title: 'Alpha Centauri Diaries',
      },
    });
    const mails = await db
      .selectFrom('email_outbox')
      .select('to_address')
      .where('template', '=', 'offer.cancelled')
      .execute();
    expect(mails.map((mail) => mail.to_address).sort()).toEqual(
      [pending.buyer.email, pending.seller.email].sort(),
    );
    // Closed like a withdrawn offer: the buyer may offer on the book again.
    const listingId = (
      await db
        .selectFrom('offers')
        .select('listing_id')
        .where('id', '=', pending.offerId)
        .executeTakeFirstOrThrow()
    ).listing_id;
    const buyerId = (
      await db
        .selectFrom('auth.users')
        .select('id')
        .where('email', '=', pending.buyer.email)
        .executeTakeFirstOrThrow()
    ).id;
    const again = await makeOffer(deps, buyerId, { listingId, amountMinor: 650, message: null });
    expect((await row(again.offerId)).status).toBe('pending');
    // A second cancel is refused and writes nothing.
    expect(
      await refusal(
        as.commerce.offers.staff.cancel.mutate({ offerId: pending.offerId, reason: 'Again please' }),
      ),
    ).toEqual({ status: 412, message: expect.stringContaining('no longer open (it is cancelled)') });
    expect(await cancelAudits()).toHaveLength(audits.length);
  });

  it('cancels an accepted, unpaid offer: the book is released as a lapse would, the buyer sees it cancelled', async () => {
    expect(await listingStatus(accepted.listingId)).toBe('reserved');
    const as = api(t.app, moderator.accessToken);
    expect(
      await as.commerce.offers.staff.cancel.mutate({
        offerId: accepted.offerId,
        reason: 'Seller reported fraud',
      }),
    ).toEqual({ was: 'accepted', released: true });
    expect(await listingStatus(accepted.listingId)).toBe('active');
    expect((await row(accepted.offerId)).status).toBe('cancelled');
    expect((await cancelAudits()).at(-1)?.details).toMatchObject({ was: 'accepted', released: true });
    const buyerId = (
      await db
        .selectFrom('offers')
        .select('buyer_id')
        .where('id', '=', accepted.offerId)
        .executeTakeFirstOrThrow()
    ).buyer_id;
    const [thread] = await listThreads(db, buyerId, 'buyer', { listingId: accepted.listingId });
    expect(thread).toMatchObject({ status: 'cancelled', actions: { canPay: false, canWithdraw: false } });
    const [staffView] = await as.commerce.offers.staff.search.query({ q: 'Charlie Rides' });
    expect(staffView).toMatchObject({ status: 'cancelled', canCancel: false });
    expect(staffView?.rounds[0]?.cancelReason).toBe('Seller reported fraud');
  });

  it('refuses while the buyer is paying for the accepted offer, changing nothing', async () => {
    const { seller, listingId } = await book('Foxtrot Paying', 1000);
    const buyer = await person('foxtrot-buyer');
    const { offerId } = await makeOffer(deps, buyer.id, { listingId, amountMinor: 700, message: null });
    await respondToOffer(deps, seller.id, { offerId, action: 'accept' });
    await startCheckout(deps, buyer, { offerId, address });
    const before = (await cancelAudits()).length;
    const as = api(t.app, moderator.accessToken);
    expect(
      await refusal(as.commerce.offers.staff.cancel.mutate({ offerId, reason: 'Too late now' })),
    ).toEqual({
      status: 409,
      message: expect.stringContaining('The buyer is paying for this offer right now'),
    });
    expect((await row(offerId)).status).toBe('accepted');
    expect(await listingStatus(listingId)).toBe('reserved');
    expect(await cancelAudits()).toHaveLength(before);
    expect(
      await statusOf(
        as.commerce.offers.staff.cancel.mutate({
          offerId: '00000000-0000-4000-8000-000000000000',
          reason: 'Nothing here',
        }),
      ),
    ).toBe(404);
  });
});
