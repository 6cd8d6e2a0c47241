/**
 * "Ask for a bundle price" against real PostgreSQL: one offer for a seller's group of
 * books, under the offer rules (at least half the books' total, less than they cost now, one
 * counter each way, 48 hours, 24 hours to pay); accepting holds every book, all or none; paying
 * goes through checkout's bundle-offer entry and sells them all in one order; a lapse puts them
 * all back; two acceptances sharing a book cannot both hold it, nor deadlock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { type JobContext, runJob } from '../../jobs.ts';
import { createTestProvider } from '../../platform/payments/test-provider.ts';
import { createSecrets } from '../../secrets.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser } from '../../testing/auth.ts';
import { createBook, createListing, createPerson } from '../../testing/catalogue.ts';
import { api, failure } from '../../testing/client.ts';
import { rejects } from '../../testing/errors.ts';
import { applyPaymentEvent, startCheckout } from '../checkout/checkout.service.ts';
import { counterOffer, listThreads, makeBundleOffer, makeOffer, respondToOffer } from './offers.service.ts';

let t: TestApp;
let db: Database;
let deps: JobContext;
const provider = createTestProvider({ secrets: createSecrets('bundle-offers-secret-0123456789abcdef') });
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
  const email = `${label}-${n}@bundle-offers.test`;
  return { id: await createPerson(db, email), email };
}

async function books(sellerId: string, prices: number[], charityId: string | null = null): Promise<string[]> {
  const ids: string[] = [];
  for (const price of prices) {
    n += 1;
    const bookId = await createBook(db, { title: `Bundle book ${n}` });
    ids.push((await createListing(db, { sellerId, bookId, price, parcelSize: 'small', charityId })).id);
  }
  return ids;
}

async function statuses(ids: string[]): Promise<string[]> {
  const rows = await db.selectFrom('listings').select(['id', 'status']).where('id', 'in', ids).execute();
  return ids.map((id) => rows.find((row) => row.id === id)?.status ?? 'missing');
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

describe('asking for a bundle price', () => {
  it('needs half the books’ total, less than they cost now with the seller’s tier, from one seller', async () => {
    const seller = await person('seller');
    const other = await person('other-seller');
    const buyer = await person('buyer');
    await db.insertInto('bundle_tiers').values({ seller_id: seller.id, min_books: 3, percent: 10 }).execute();
    const ids = await books(seller.id, [349, 549, 550]); // 1448; 10% off: 1303
    const elsewhere = await books(other.id, [500]);
    const make = (listingIds: string[], amountMinor: number, who = buyer.id) =>
      makeBundleOffer(deps, who, { listingIds, amountMinor, message: null });
    await rejects(make(ids, 723), 'BAD_INPUT', /at least £7\.24/);
    await rejects(make(ids, 1303), 'BAD_INPUT', /buy them together for £13\.03/);
    await rejects(make([ids[0]!, elsewhere[0]!], 600), 'BAD_INPUT', /one seller/);
    await rejects(make([ids[0]!], 200), 'BAD_INPUT', /two books or more/);
    await rejects(make(ids, 1000, seller.id), 'BAD_INPUT', /own books/);
    const { offerId } = await make(ids, 1000);
    const items = await db
      .selectFrom('offer_items')
      .select(['listing_id', 'position'])
      .where('offer_id', '=', offerId)
      .orderBy('position')
      .execute();
    expect(items.map((item) => item.listing_id)).toEqual(ids);
    // One open offer per buyer and book, alone or in a bundle.
    await rejects(make([ids[1]!, ids[2]!], 600), 'CONFLICT', /already have an open offer/);
    await rejects(
      makeOffer(deps, buyer.id, { listingId: ids[1]!, amountMinor: 500, message: null }),
      'CONFLICT',
      /already have an open offer/,
    );
    const mail = await db
      .selectFrom('email_outbox')
      .select(['template', 'subject'])
      .where('to_address', '=', seller.email)
      .executeTakeFirstOrThrow();
    expect(mail).toEqual({ template: 'offer.made', subject: 'New bundle offer: £10.00 for 3 books' });
    const [thread] = await listThreads(db, seller.id, 'seller');
    expect(thread).toMatchObject({ bundle: true, askingMinor: 1303, currentId: offerId });
    expect(thread?.books.map((book) => book.id)).toEqual(ids);
    expect([thread?.counterMinMinor, thread?.counterMaxMinor]).toEqual([1001, 1302]);
    // The buyer finds it from any of its books.
    expect((await listThreads(db, buyer.id, 'buyer', { listingId: ids[2]! }))[0]?.currentId).toBe(offerId);
  });

  it('counters once each way, accepts holding every book, and is paid as one order', async () => {
    const seller = await person('seller');
    const buyer = await person('buyer');
    const ids = await books(seller.id, [600, 400, 500]);
    const first = await makeBundleOffer(deps, buyer.id, {
      listingIds: ids,
      amountMinor: 900,
      message: 'All three?',
    });
    const second = await counterOffer(deps, seller.id, {
      offerId: first.offerId,
      amountMinor: 1300,
      message: null,
    });
    // The buyer's counter: at least half the books' total and more than their first offer.
    await rejects(
      counterOffer(deps, buyer.id, { offerId: second.offerId, amountMinor: 900, message: null }),
      'BAD_INPUT',
      /at least £9\.01/,
    );
    const third = await counterOffer(deps, buyer.id, {
      offerId: second.offerId,
      amountMinor: 1100,
      message: null,
    });
    await rejects(
      counterOffer(deps, seller.id, { offerId: third.offerId, amountMinor: 1200, message: null }),
      'BAD_INPUT',
      /countered once/,
    );
    const accepted = await respondToOffer(deps, seller.id, { offerId: third.offerId, action: 'accept' });
    expect(accepted.status).toBe('accepted');
    expect(await statuses(ids)).toEqual(['reserved', 'reserved', 'reserved']);
    const [view] = await listThreads(db, buyer.id, 'buyer');
    expect(view?.actions.canPay).toBe(true);

    const started = await startCheckout(deps, buyer, { offerId: third.offerId, address });
    const payment = await db
      .selectFrom('payments')
      .select('provider_ref')
      .where('order_id', '=', started.orderId)
      .executeTakeFirstOrThrow();
    const signed = provider.signedEvent(payment.provider_ref, 'success', started.totalMinor);
    expect(await applyPaymentEvent(deps, 'test', provider.parseWebhook(signed.body, signed.headers))).toBe(
      'paid',
    );
    const items = await db
      .selectFrom('order_items')
      .select(['listing_id', 'price_minor'])
      .where('order_id', '=', started.orderId)
      .orderBy('position')
      .execute();
    expect(items.map((item) => item.listing_id).sort()).toEqual([...ids].sort());
    expect(items.reduce((sum, item) => sum + item.price_minor, 0)).toBe(1100);
    expect(await statuses(ids)).toEqual(['sold', 'sold', 'sold']);
  });

  it('accepts all or none: a book sold meanwhile refuses the acceptance and holds nothing', async () => {
    const seller = await person('seller');
    const buyer = await person('buyer');
    const ids = await books(seller.id, [500, 500]);
    const { offerId } = await makeBundleOffer(deps, buyer.id, {
      listingIds: ids,
      amountMinor: 700,
      message: null,
    });
    await db.updateTable('listings').set({ status: 'sold' }).where('id', '=', ids[1]!).execute();
    await rejects(
      respondToOffer(deps, seller.id, { offerId, action: 'accept' }),
      'CONFLICT',
      /no longer available/,
    );
    expect(await statuses(ids)).toEqual(['active', 'sold']);
  });

  it('two acceptances sharing a book at once: one holds every book of its bundle, the other none', async () => {
    const seller = await person('seller');
    const [a, b, shared] = await books(seller.id, [500, 500, 500]);
    const one = await person('buyer-one');
    const two = await person('buyer-two');
    const first = await makeBundleOffer(deps, one.id, {
      listingIds: [a!, shared!],
      amountMinor: 700,
      message: null,
    });
    const second = await makeBundleOffer(deps, two.id, {
      listingIds: [shared!, b!],
      amountMinor: 700,
      message: null,
    });
    const outcomes = await Promise.allSettled([
      respondToOffer(deps, seller.id, { offerId: first.offerId, action: 'accept' }),
      respondToOffer(deps, seller.id, { offerId: second.offerId, action: 'accept' }),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const won = outcomes[0]!.status === 'fulfilled' ? [a!, shared!] : [shared!, b!];
    const lost = outcomes[0]!.status === 'fulfilled' ? b! : a!;
    expect(await statuses(won)).toEqual(['reserved', 'reserved']);
    expect(await statuses([lost])).toEqual(['active']);
  });

  it('lapses after 24 hours unpaid and every book goes back on sale', async () => {
    const seller = await person('seller');
    const buyer = await person('buyer');
    const ids = await books(seller.id, [800, 300]);
    const { offerId } = await makeBundleOffer(deps, buyer.id, {
      listingIds: ids,
      amountMinor: 800,
      message: null,
    });
    await respondToOffer(deps, seller.id, { offerId, action: 'accept' });
    await db
      .updateTable('offers')
      .set({ checkout_deadline: new Date(Date.now() - 1000) })
      .where('id', '=', offerId)
      .execute();
    expect(await runJob(deps, 'offers.lapse')).toBe(1);
    expect(await statuses(ids)).toEqual(['active', 'active']);
  });
});

describe('commerce.offers.member.makeBundle', () => {
  it('validates its input at the door and answers the offer', async () => {
    const seller = await person('seller');
    const ids = await books(seller.id, [500, 700]);
    const buyer = await createUser(db, t.services.identity, 'door@bundle-offers.test');
    const offers = api(t.app, buyer.accessToken).commerce.offers.member;
    const one = await failure(offers.makeBundle.mutate({ listingIds: [ids[0]!], amountMinor: 300 }));
    expect(one.status).toBe(400);
    expect(one.message).toContain('two books or more');
    const { offerId } = await offers.makeBundle.mutate({ listingIds: ids, amountMinor: 800 });
    const [thread] = await offers.list.query({ role: 'buyer' });
    expect(thread).toMatchObject({ currentId: offerId, bundle: true, askingMinor: 1200 });
  });
});
