/**
 * Offers against real PostgreSQL: the 50% floor, one open thread per buyer and book, counters
 * once each way, acceptance holding the book for its buyer and checkout at the offer price,
 * expiry after 48 hours, the 24-hour lapse, and two acceptances racing for one book.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { type JobContext, runJob } from '../../jobs.ts';
import { createTestProvider } from '../../platform/payments/test-provider.ts';
import { createSecrets } from '../../secrets.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createBook, createListing, createPerson } from '../../testing/catalogue.ts';
import { rejects } from '../../testing/errors.ts';
import { applyPaymentEvent, quote, startCheckout } from '../checkout/checkout.service.ts';
import { counterOffer, listThreads, makeOffer, respondToOffer, withdrawOffer } from './offers.service.ts';

let t: TestApp;
let db: Database;
let deps: JobContext;
const provider = createTestProvider({ secrets: createSecrets('offers-test-secret-0123456789abcdef') });
const address = {
  fullName: 'Ann Shirley',
  line1: 'Green Gables',
  line2: null,
  town: 'York',
  postcode: 'YO1 7HH',
};
let n = 0;

async function person(label: string) {
  n += 1;
  const email = `${label}-${n}@offers.test`;
  return { id: await createPerson(db, email), email };
}

async function book(price = 1000) {
  const seller = await person('seller');
  const bookId = await createBook(db, { title: `Offer book ${n}` });
  const listing = await createListing(db, { sellerId: seller.id, bookId, price, parcelSize: 'small' });
  return { seller, listingId: listing.id };
}

async function listingStatus(listingId: string) {
  return (
    await db.selectFrom('listings').select('status').where('id', '=', listingId).executeTakeFirstOrThrow()
  ).status;
}

async function offerStatus(offerId: string) {
  return (await db.selectFrom('offers').select('status').where('id', '=', offerId).executeTakeFirstOrThrow())
    .status;
}

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  deps = {
    db,
    payments: provider,
    mailer: t.services.mailer,
    storage: t.services.storage,
    origin: 'http://shop.test',
  };
});

afterAll(async () => {
  await t.close();
});

describe('making an offer', () => {
  it('needs at least half the asking price and less than the price, on someone else’s book', async () => {
    const { seller, listingId } = await book(999);
    const buyer = await person('buyer');
    await rejects(
      makeOffer(deps, buyer.id, { listingId, amountMinor: 499, message: null }),
      'BAD_INPUT',
      /at least £5\.00/,
    );
    await rejects(
      makeOffer(deps, buyer.id, { listingId, amountMinor: 999, message: null }),
      'BAD_INPUT',
      /buy it now/,
    );
    await rejects(
      makeOffer(deps, seller.id, { listingId, amountMinor: 600, message: null }),
      'BAD_INPUT',
      /own book/,
    );
    const { offerId } = await makeOffer(deps, buyer.id, {
      listingId,
      amountMinor: 500,
      message: 'Would you take £5?',
    });
    expect(await offerStatus(offerId)).toBe('pending');
    // One open offer per buyer and book.
    await rejects(
      makeOffer(deps, buyer.id, { listingId, amountMinor: 600, message: null }),
      'CONFLICT',
      /already/,
    );
    const mail = await db
      .selectFrom('email_outbox')
      .select(['template', 'subject'])
      .where('to_address', '=', seller.email)
      .executeTakeFirstOrThrow();
    expect(mail).toEqual({ template: 'offer.made', subject: expect.stringContaining('£5.00') });
    // Withdrawn, the buyer may offer again.
    await withdrawOffer(db, buyer.id, offerId);
    await makeOffer(deps, buyer.id, { listingId, amountMinor: 650, message: null });
  });
});

describe('counters, once each way', () => {
  it('seller counters, buyer counters, then only accept or decline remain', async () => {
    const { seller, listingId } = await book(1000);
    const buyer = await person('buyer');
    const first = await makeOffer(deps, buyer.id, { listingId, amountMinor: 600, message: null });
    // The buyer cannot answer their own offer.
    await rejects(respondToOffer(deps, buyer.id, { offerId: first.offerId, action: 'accept' }), 'BAD_INPUT');
    await rejects(
      counterOffer(deps, seller.id, { offerId: first.offerId, amountMinor: 1000, message: null }),
      'BAD_INPUT',
      /less than your price/,
    );
    const second = await counterOffer(deps, seller.id, {
      offerId: first.offerId,
      amountMinor: 900,
      message: null,
    });
    expect(await offerStatus(first.offerId)).toBe('countered');
    // The countered round can no longer be answered.
    await rejects(
      respondToOffer(deps, seller.id, { offerId: first.offerId, action: 'accept' }),
      'PRECONDITION_FAILED',
    );

    const [view] = await listThreads(db, buyer.id, 'buyer', { listingId });
    expect(view?.rounds.map((round) => [round.madeBy, round.amountMinor])).toEqual([
      ['buyer', 600],
      ['seller', 900],
    ]);
    expect(view?.actions).toMatchObject({ canAccept: true, canCounter: true, canWithdraw: false });
    expect([view?.counterMinMinor, view?.counterMaxMinor]).toEqual([601, 899]);

    await rejects(
      counterOffer(deps, buyer.id, { offerId: second.offerId, amountMinor: 550, message: null }),
      'BAD_INPUT',
      /at least £6\.01/,
    );
    const third = await counterOffer(deps, buyer.id, {
      offerId: second.offerId,
      amountMinor: 750,
      message: null,
    });
    await rejects(
      counterOffer(deps, seller.id, { offerId: third.offerId, amountMinor: 800, message: null }),
      'BAD_INPUT',
      /countered once/,
    );
    const [sellerView] = await listThreads(db, seller.id, 'seller', { listingId });
    expect(sellerView?.actions).toMatchObject({ canAccept: true, canDecline: true, canCounter: false });
    await respondToOffer(deps, seller.id, { offerId: third.offerId, action: 'decline' });
    expect(await offerStatus(third.offerId)).toBe('declined');
    expect(await listingStatus(listingId)).toBe('active');
  });
});

describe('an accepted offer', () => {
  it('holds the book for its buyer, who pays the offer price; other offers close', async () => {
    const { seller, listingId } = await book(1000);
    const buyer = await person('buyer');
    const rival = await person('rival');
    const mine = await makeOffer(deps, buyer.id, { listingId, amountMinor: 700, message: null });
    const theirs = await makeOffer(deps, rival.id, { listingId, amountMinor: 650, message: null });
    const answer = await respondToOffer(deps, seller.id, { offerId: mine.offerId, action: 'accept' });
    expect(answer.status).toBe('accepted');
    expect(new Date(answer.checkoutDeadline!).getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    expect(await listingStatus(listingId)).toBe('reserved');
    // Nobody else can buy it or have another offer accepted meanwhile.
    await rejects(startCheckout(deps, rival, { listingId, address }), 'CONFLICT');
    await rejects(
      respondToOffer(deps, seller.id, { offerId: theirs.offerId, action: 'accept' }),
      'CONFLICT',
      /no longer available/,
    );

    const priced = await quote(db, buyer.id, { offerId: mine.offerId });
    expect(priced.itemMinor).toBe(700);
    expect(priced.offerId).toBe(mine.offerId);
    const started = await startCheckout(deps, buyer, { offerId: mine.offerId, address });
    const payment = await db
      .selectFrom('payments')
      .select('provider_ref')
      .where('order_id', '=', started.orderId)
      .executeTakeFirstOrThrow();
    const signed = provider.signedEvent(payment.provider_ref, 'success', started.totalMinor);
    expect(await applyPaymentEvent(deps, 'test', provider.parseWebhook(signed.body, signed.headers))).toBe(
      'paid',
    );
    const order = await db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', started.orderId)
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({ status: 'paid', item_price_minor: 700, offer_id: mine.offerId });
    expect(await offerStatus(mine.offerId)).toBe('purchased');
    expect(await offerStatus(theirs.offerId)).toBe('declined');
    expect(await listingStatus(listingId)).toBe('sold');
  });

  it('lapses after 24 hours unpaid, and the book returns to normal sale', async () => {
    const { seller, listingId } = await book(1000);
    const buyer = await person('buyer');
    const { offerId } = await makeOffer(deps, buyer.id, { listingId, amountMinor: 800, message: null });
    await respondToOffer(deps, seller.id, { offerId, action: 'accept' });
    expect(await runJob(deps, 'offers.lapse')).toBe(0);
    await db
      .updateTable('offers')
      .set({ checkout_deadline: new Date(Date.now() - 1000) })
      .where('id', '=', offerId)
      .execute();
    // Already past its deadline, it cannot be bought at its price even before the job runs.
    await rejects(quote(db, buyer.id, { offerId }), 'PRECONDITION_FAILED', /24 hours/);
    expect((await listThreads(db, buyer.id, 'buyer', { listingId }))[0]?.status).toBe('lapsed');
    expect(await runJob(deps, 'offers.lapse')).toBe(1);
    expect(await offerStatus(offerId)).toBe('lapsed');
    expect(await listingStatus(listingId)).toBe('active');
    // Anyone can buy it again at the asking price.
    const other = await person('other');
    const started = await startCheckout(deps, other, { listingId, address });
    expect(started.totalMinor).toBeGreaterThan(1000);
  });

  it('two acceptances racing for one book: exactly one holds it', async () => {
    const { seller, listingId } = await book(1000);
    const offers = [];
    for (let i = 0; i < 5; i += 1) {
      const buyer = await person('racer');
      offers.push(await makeOffer(deps, buyer.id, { listingId, amountMinor: 600 + i * 10, message: null }));
    }
    const results = await Promise.allSettled(
      offers.map(({ offerId }) => respondToOffer(deps, seller.id, { offerId, action: 'accept' })),
    );
    expect(results.filter((result) => result.status === 'fulfilled').length).toBe(1);
    const accepted = await db
      .selectFrom('offers')
      .select('id')
      .where('listing_id', '=', listingId)
      .where('status', '=', 'accepted')
      .execute();
    expect(accepted.length).toBe(1);
    expect(await listingStatus(listingId)).toBe('reserved');
  });
});

describe('expiry', () => {
  it('pending offers expire after 48 hours and can no longer be answered', async () => {
    const { seller, listingId } = await book(1000);
    const buyer = await person('buyer');
    const { offerId } = await makeOffer(deps, buyer.id, { listingId, amountMinor: 700, message: null });
    const row = await db
      .selectFrom('offers')
      .select(['expires_at', 'created_at'])
      .where('id', '=', offerId)
      .executeTakeFirstOrThrow();
    expect(row.expires_at.getTime() - row.created_at.getTime()).toBeCloseTo(48 * 3600_000, -4);
    await db
      .updateTable('offers')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', offerId)
      .execute();
    await rejects(
      respondToOffer(deps, seller.id, { offerId, action: 'accept' }),
      'PRECONDITION_FAILED',
      /expired/,
    );
    expect(await runJob(deps, 'offers.expire')).toBe(1);
    expect(await runJob(deps, 'offers.expire')).toBe(0);
    expect(await offerStatus(offerId)).toBe('expired');
    const mail = await db
      .selectFrom('email_outbox')
      .select('template')
      .where('to_address', '=', buyer.email)
      .where('template', '=', 'offer.expired')
      .executeTakeFirst();
    expect(mail).toBeDefined();
    // Expired, the buyer may offer again.
    await makeOffer(deps, buyer.id, { listingId, amountMinor: 720, message: null });
  });
});

describe('a sold book', () => {
  it('refuses offers with a clear message', async () => {
    const { listingId } = await book(1000);
    await db.updateTable('listings').set({ status: 'sold' }).where('id', '=', listingId).execute();
    const buyer = await person('buyer');
    await rejects(
      makeOffer(deps, buyer.id, { listingId, amountMinor: 700, message: null }),
      'CONFLICT',
      /not available/,
    );
  });
});
