/**
 * The buyer's delivery choice at checkout (issue 37) through the real app, database and the test
 * carrier's drop-off directory: home delivery against a drop-off point, one parcel and one postage
 * for a seller's books in a basket, a locker refusing a Medium Parcel, an unknown point refused,
 * the order keeping the choice, and the listing's "+ postage from" agreeing with checkout.
 *
 * Every figure is read from the rule (parcelFor, postageFor, postageFromFor) or from checkout's
 * own answer, never typed.
 */
import { randomUUID } from 'node:crypto';
import {
  DEFAULT_POSTAGE_RATES,
  type DropOffPoint,
  PARCEL_TOO_HEAVY,
  parcelFor,
  postageFor,
  postageFromFor,
  type Quote,
} from '@reshelf/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { createBook, createListing } from '../../testing/catalogue.ts';
import { api } from '../../testing/client.ts';
import { DROP_OFF_POINT_TOO_SMALL, DROP_OFF_POINT_UNKNOWN } from './delivery.ts';

let t: TestApp;
let db: Database;
let seller: TestUser;
let buyer: TestUser;

const as = (user: TestUser | null) => api(t.app, user?.accessToken ?? null);
const address = {
  fullName: 'Jo March',
  line1: '1 Orchard House',
  line2: null,
  town: 'London',
  postcode: 'EC1A 1BB',
};

const paperback = { parcelSize: 'small' as const, format: 'paperback' as const, pageCount: 320 };
const bigBook = { parcelSize: 'large' as const, format: 'hardback' as const, pageCount: 400 };

async function listBook(
  title: string,
  price: number,
  book: { parcelSize: 'small' | 'medium' | 'large'; format: 'paperback' | 'hardback'; pageCount: number },
) {
  const bookId = await createBook(db, { title, pageCount: book.pageCount });
  return createListing(db, {
    sellerId: seller.id,
    bookId,
    price,
    parcelSize: book.parcelSize,
    format: book.format,
  });
}

async function pointNear(postcode: string, kind: DropOffPoint['kind'], band?: 'medium_parcel') {
  const { points } = await as(buyer).commerce.checkout.dropOffPoints.query({
    postcode,
    ...(band ? { band } : {}),
  });
  const point = points.find((candidate) => candidate.kind === kind);
  if (!point) throw new Error(`No ${kind} near ${postcode}`);
  return point;
}

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  seller = await createUser(db, t.services.identity, 'seller@delivery-choice.test');
  buyer = await createUser(db, t.services.identity, 'buyer@delivery-choice.test');
});

afterAll(async () => {
  await t?.close();
});

describe('the delivery choice at checkout', () => {
  it('quotes home delivery until the buyer chooses, and a drop-off point at its own price and date', async () => {
    const listing = await listBook('Delivery Paperback', 500, paperback);
    const band = parcelFor([paperback]).band;
    const home: Quote = await as(buyer).commerce.checkout.quote.query({ listingId: listing.id });
    expect(home.delivery.method).toBe('home');
    expect(home.delivery.band).toBe(band);
    expect(home.postageMinor).toBe(postageFor(band, 'home'));
    const locker = await pointNear('EC1A 1BB', 'locker');
    const dropOff: Quote = await as(buyer).commerce.checkout.quote.query({
      listingId: listing.id,
      delivery: { method: 'drop_off', pointId: locker.id },
    });
    expect(dropOff.delivery.method).toBe('drop_off');
    expect(dropOff.delivery.dropOffPoint?.id).toBe(locker.id);
    expect(dropOff.postageMinor).toBe(postageFor(band, 'drop_off'));
    // money-ok: the two quotes differ by exactly the postage.
    expect(home.totalMinor - dropOff.totalMinor).toBe(home.postageMinor - dropOff.postageMinor);
    // Both options are offered either way, each with its total and date (a drop-off takes longer).
    for (const quote of [home, dropOff]) {
      expect(quote.delivery.options.map((option) => [option.method, option.totalMinor])).toEqual([
        ['home', home.totalMinor],
        ['drop_off', dropOff.totalMinor],
      ]);
    }
    const [homeOption, dropOption] = home.delivery.options;
    expect((dropOption?.expectedDeliveryOn ?? '') > (homeOption?.expectedDeliveryOn ?? '')).toBe(true);
  });

  it('shows "+ postage from" as the cheapest method for the book alone, and checkout with it is the all-in price plus it', async () => {
    const listing = await listBook('Delivery Postage From', 800, paperback);
    const page = await as(null).catalogue.listings.bySlug.query({ slug: listing.slug });
    const band = parcelFor([paperback]).band;
    expect(page.price.postageMinor).toBe(postageFromFor(band));
    const cheapest = postageFor(band, 'drop_off') <= postageFor(band, 'home') ? 'drop_off' : 'home';
    const locker = await pointNear('EC1A 1BB', 'locker');
    const quote: Quote = await as(buyer).commerce.checkout.quote.query({
      listingId: listing.id,
      ...(cheapest === 'drop_off' ? { delivery: { method: 'drop_off' as const, pointId: locker.id } } : {}),
    });
    expect(quote.postageMinor).toBe(page.price.postageMinor);
    // money-ok: checkout's own lines; WELCOME20 (a first order) is added back.
    expect(quote.totalMinor + quote.discountMinor).toBe(page.price.allInMinor + page.price.postageMinor);
  });

  it('refuses an unknown point and a locker for a Medium Parcel, in words', async () => {
    const big = [bigBook, bigBook];
    expect(parcelFor(big).band).toBe('medium_parcel');
    const first = await listBook('Delivery Big One', 1500, bigBook);
    const second = await listBook('Delivery Big Two', 1500, bigBook);
    const listingIds = [first.id, second.id];
    await expect(
      as(buyer).commerce.basket.member.quote.query({
        listingIds,
        deliveries: { [seller.id]: { method: 'drop_off', pointId: 'INPOST-NOWHERE99' } },
      }),
    ).rejects.toThrow(DROP_OFF_POINT_UNKNOWN);
    const locker = await pointNear('EC1A 1BB', 'locker');
    await expect(
      as(buyer).commerce.basket.member.quote.query({
        listingIds,
        deliveries: { [seller.id]: { method: 'drop_off', pointId: locker.id } },
      }),
    ).rejects.toThrow(DROP_OFF_POINT_TOO_SMALL);
    // A point that takes Medium Parcels is offered for them, and lockers are not.
    const counter = await pointNear('EC1A 1BB', 'post_office', 'medium_parcel');
    const { points } = await as(buyer).commerce.checkout.dropOffPoints.query({
      postcode: 'EC1A 1BB',
      band: 'medium_parcel',
    });
    expect(points.some((point) => point.kind === 'locker')).toBe(false);
    const quoted = await as(buyer).commerce.basket.member.quote.query({
      listingIds,
      deliveries: { [seller.id]: { method: 'drop_off', pointId: counter.id } },
    });
    expect(quoted.groups[0]?.postageMinor).toBe(postageFor('medium_parcel', 'drop_off'));
  });

  it('prices a basket of one seller’s books as one parcel with one postage, and the order keeps the choice', async () => {
    const one = await listBook('Delivery Basket One', 450, paperback);
    const two = await listBook('Delivery Basket Two', 650, paperback);
    const band = parcelFor([paperback, paperback]).band;
    const quote = await as(buyer).commerce.basket.member.quote.query({ listingIds: [one.id, two.id] });
    expect(quote.groups).toHaveLength(1);
    const group = quote.groups[0];
    expect(group?.delivery.band).toBe(band);
    expect(group?.delivery.method).toBe('home');
    expect(group?.postageMinor).toBe(postageFor(band, 'home'));
    const started = await as(buyer).commerce.checkout.startBasket.mutate({
      listingIds: [one.id, two.id],
      address,
      idempotencyKey: randomUUID(),
      quotedTotalMinor: quote.totalMinor,
      quotedGroups: quote.groups.map((each) => ({ key: each.key, totalMinor: each.totalMinor })),
    });
    const order = await db
      .selectFrom('orders')
      .select(['delivery_method', 'drop_off_point', 'postage_band', 'parcel_weight_g', 'parcel_thickness_mm'])
      .select((eb) => eb.fn<string>('to_char', ['expected_delivery_on', eb.val('YYYY-MM-DD')]).as('expected'))
      .where('id', '=', started.orders[0]?.orderId as string)
      .executeTakeFirstOrThrow();
    const parcel = parcelFor([paperback, paperback]);
    expect(order).toEqual({
      delivery_method: 'home',
      drop_off_point: null,
      postage_band: band,
      parcel_weight_g: parcel.weightG,
      parcel_thickness_mm: parcel.thicknessMm,
      expected: group?.delivery.expectedDeliveryOn,
    });
  });

  it('stores a single book’s drop-off point as the buyer saw it, and the order page says so', async () => {
    const listing = await listBook('Delivery Locker Order', 900, paperback);
    const locker = await pointNear('EC1A 1BB', 'locker');
    const delivery = { method: 'drop_off' as const, pointId: locker.id };
    const quote: Quote = await as(buyer).commerce.checkout.quote.query({ listingId: listing.id, delivery });
    const started = await as(buyer).commerce.checkout.start.mutate({
      listingId: listing.id,
      address,
      idempotencyKey: randomUUID(),
      delivery,
    });
    expect(started.totalMinor).toBe(quote.totalMinor);
    const order = await db
      .selectFrom('orders')
      .select(['delivery_method', 'drop_off_point', 'postage_band', 'postage_minor'])
      .where('id', '=', started.orderId)
      .executeTakeFirstOrThrow();
    const { distanceM: _distance, ...seen } = locker;
    expect(order).toEqual({
      delivery_method: 'drop_off',
      drop_off_point: seen,
      postage_band: quote.delivery.band,
      postage_minor: quote.postageMinor,
    });
    const detail = await as(buyer).commerce.orders.member.get.query({ orderId: started.orderId });
    expect(detail.delivery).toEqual({
      method: 'drop_off',
      band: quote.delivery.band,
      dropOffPoint: seen,
      expectedDeliveryOn: quote.delivery.expectedDeliveryOn,
    });
  });

  it('refuses a seller’s books past 20 kg with PARCEL_TOO_HEAVY', async () => {
    const tome = { parcelSize: 'large' as const, format: 'hardback' as const, pageCount: 1800 };
    const ids: string[] = [];
    let books = 0;
    while (true) {
      books += 1;
      try {
        parcelFor(Array.from({ length: books }, () => tome));
      } catch {
        break;
      }
    }
    for (let i = 0; i < books; i++) ids.push((await listBook(`Delivery Tome ${i}`, 2000, tome)).id);
    await expect(as(buyer).commerce.basket.member.quote.query({ listingIds: ids })).rejects.toThrow(
      PARCEL_TOO_HEAVY,
    );
  });

  it('reads the rate card from the settings staff change', async () => {
    const listing = await listBook('Delivery Rates', 700, paperback);
    const band = parcelFor([paperback]).band;
    const rates = structuredClone(DEFAULT_POSTAGE_RATES);
    rates[band].home += 11;
    await db
      .updateTable('settings')
      .set({ value: JSON.stringify(rates) })
      .where('key', '=', 'postage_rates')
      .execute();
    try {
      const quote: Quote = await as(buyer).commerce.checkout.quote.query({ listingId: listing.id });
      expect(quote.postageMinor).toBe(postageFor(band, 'home', rates));
    } finally {
      await db
        .updateTable('settings')
        .set({ value: JSON.stringify(DEFAULT_POSTAGE_RATES) })
        .where('key', '=', 'postage_rates')
        .execute();
    }
  });
});
