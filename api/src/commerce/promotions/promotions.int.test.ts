/**
 * Promotions: admins create, edit, pause and resume codes (moderators read them), every change
 * audited; checkout applies a code only within its dates, limits and minimum spend, never
 * together with WELCOME20, and its total limit holds under simultaneous checkouts.
 */
import { parcelFor, postageFor } from '@reshelf/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestProvider } from '../../platform/payments/test-provider.ts';
import { createSecrets } from '../../secrets.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { createBook, createListing, createPerson } from '../../testing/catalogue.ts';
import { api, refusal, statusOf } from '../../testing/client.ts';
import { rejects } from '../../testing/errors.ts';
import { insertOrderRow } from '../../testing/orders.ts';
import { type CheckoutDeps, cancelPendingOrder, quote, startCheckout } from '../checkout/checkout.service.ts';
import { makeOffer, respondToOffer } from '../offers/offers.service.ts';
import { createPromotion, listPromotions, type PromotionInput } from './promotions.service.ts';

/** Home delivery for one paperback-sized test book (no format or pages): the rule's figure. */
const PAPERBACK_HOME = postageFor(
  parcelFor([{ parcelSize: 'small', format: null, pageCount: null }]).band,
  'home',
);

let t: TestApp;
let db: Database;
let deps: CheckoutDeps;
let admin: TestUser;
let moderator: TestUser;
let member: TestUser;
const provider = createTestProvider({ secrets: createSecrets('promotions-test-secret-0123456789abcdef') });
const address = {
  fullName: 'Jo March',
  line1: '1 Orchard House',
  line2: null,
  town: 'Bath',
  postcode: 'BA1 1AA',
};
const HOUR = 3_600_000;
let n = 0;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  deps = { db, payments: provider, mailer: t.services.mailer, origin: 'http://shop.test' };
  admin = await createUser(db, t.services.identity, 'admin@promotions.test', { roles: ['admin'] });
  moderator = await createUser(db, t.services.identity, 'moderator@promotions.test', {
    roles: ['moderator'],
  });
  member = await createUser(db, t.services.identity, 'member@promotions.test');
});

afterAll(async () => {
  await t.close();
});

const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

/** A running percentage code, unlimited in total, once per buyer. */
function promotion(overrides: Partial<PromotionInput & { code: string }> = {}) {
  return {
    code: `CODE${++n}`,
    kind: 'percent' as const,
    percentOff: 10,
    amountOffMinor: null,
    minItemMinor: null,
    startsAt: iso(-HOUR),
    endsAt: iso(24 * HOUR),
    totalLimit: null,
    perBuyerLimit: 1,
    ...overrides,
  };
}

async function make(overrides: Partial<PromotionInput & { code: string }> = {}) {
  const input = promotion(overrides);
  await createPromotion(db, admin.id, input);
  return input.code;
}

async function person(label: string) {
  n += 1;
  const email = `${label}-${n}@promo-buyers.test`;
  return { id: await createPerson(db, email), email };
}

async function listing(price = 1000): Promise<string> {
  const seller = await person('seller');
  const bookId = await createBook(db, { title: `Promoted book ${n}` });
  return (await createListing(db, { sellerId: seller.id, bookId, price, parcelSize: 'small' })).id;
}

/** A buyer with a completed order behind them, so WELCOME20 is out of the picture. */
async function returningBuyer() {
  const buyer = await person('buyer');
  const seller = await person('old-seller');
  const bookId = await createBook(db, { title: `Old book ${n}` });
  const { id: listingId } = await createListing(db, { sellerId: seller.id, bookId, price: 1000 });
  await insertOrderRow(db, {
    buyer_id: buyer.id,
    seller_id: seller.id,
    listing_id: listingId,
    status: 'completed',
    item_price_minor: 1000,
    total_minor: 1000,
  });
  return buyer;
}

async function row(code: string) {
  return (await listPromotions(db)).find((p) => p.code === code)!;
}

describe('managing promotions', () => {
  it('admins create, edit, pause and resume a code; each change is audited', async () => {
    const as = api(t.app, admin.accessToken);
    const input = promotion({ code: ' spring10 ', totalLimit: 50, minItemMinor: 800 });
    const { id } = await as.commerce.promotions.create.mutate(input);
    let list = await as.commerce.promotions.list.query();
    expect(list.find((p) => p.id === id)).toMatchObject({
      code: 'SPRING10',
      kind: 'percent',
      percentOff: 10,
      amountOffMinor: null,
      minItemMinor: 800,
      totalLimit: 50,
      perBuyerLimit: 1,
      active: true,
      status: 'live',
      redemptions: 0,
      discountedMinor: 0,
    });

    const edited = {
      ...input,
      kind: 'fixed' as const,
      percentOff: null,
      amountOffMinor: 250,
      startsAt: iso(2 * HOUR),
      perBuyerLimit: 2,
    };
    const { code: _code, ...fields } = edited;
    await as.commerce.promotions.update.mutate({ ...fields, id });
    list = await as.commerce.promotions.list.query();
    expect(list.find((p) => p.id === id)).toMatchObject({
      code: 'SPRING10',
      kind: 'fixed',
      percentOff: null,
      amountOffMinor: 250,
      perBuyerLimit: 2,
      status: 'scheduled',
    });

    await as.commerce.promotions.setActive.mutate({ id, active: false });
    expect((await row('SPRING10')).status).toBe('paused');
    expect(await refusal(as.commerce.promotions.setActive.mutate({ id, active: false }))).toEqual({
      status: 409,
      message: 'SPRING10 is already paused. Refresh the page.',
    });
    await as.commerce.promotions.setActive.mutate({ id, active: true });
    expect((await row('SPRING10')).status).toBe('scheduled');

    const audit = await db
      .selectFrom('audit_log')
      .select(['action', 'actor_id', 'target_id', 'details'])
      .where('target_id', '=', id)
      .orderBy('id')
      .execute();
    expect(audit.map((entry) => entry.action)).toEqual([
      'promotion.create',
      'promotion.update',
      'promotion.pause',
      'promotion.resume',
    ]);
    expect(audit.every((entry) => entry.actor_id === admin.id)).toBe(true);
    expect(audit[1]!.details).toMatchObject({ code: 'SPRING10', kind: 'fixed', amountOffMinor: 250 });
  });

  it('moderators may read the list but not change it; members may do neither', async () => {
    const id = (await createPromotion(db, admin.id, promotion())).id;
    const before = await listPromotions(db);
    const mod = api(t.app, moderator.accessToken);
    expect(Array.isArray(await mod.commerce.promotions.list.query())).toBe(true);
    const denied = { status: 403, message: 'Access denied: admin role required' };
    expect(await refusal(mod.commerce.promotions.create.mutate(promotion()))).toEqual(denied);
    const { code: _c, ...fields } = promotion();
    expect(await refusal(mod.commerce.promotions.update.mutate({ ...fields, id }))).toEqual(denied);
    expect(await refusal(mod.commerce.promotions.setActive.mutate({ id, active: false }))).toEqual(denied);
    const other = api(t.app, member.accessToken);
    expect(await statusOf(other.commerce.promotions.list.query())).toBe(403);
    expect(await statusOf(other.commerce.promotions.create.mutate(promotion()))).toBe(403);
    expect(await listPromotions(db)).toEqual(before);
  });

  it('refuses bad codes, WELCOME20, a duplicate, back-to-front dates and a limit below the uses', async () => {
    const as = api(t.app, admin.accessToken);
    const before = (await listPromotions(db)).length;
    expect(
      (await refusal(as.commerce.promotions.create.mutate(promotion({ code: 'NO' })))).message,
    ).toContain('Use 3 to 20 letters and digits for the code');
    expect(await statusOf(as.commerce.promotions.create.mutate(promotion({ code: 'TEN OFF' })))).toBe(400);
    expect(
      (await refusal(as.commerce.promotions.create.mutate(promotion({ code: 'welcome20' })))).message,
    ).toContain('WELCOME20 is the built-in first-order gift');
    expect(
      (await refusal(as.commerce.promotions.create.mutate(promotion({ percentOff: 95 })))).message,
    ).toContain('Use at most 90 for the percentage');
    expect(
      await refusal(
        as.commerce.promotions.create.mutate(promotion({ startsAt: iso(HOUR), endsAt: iso(-HOUR) })),
      ),
    ).toEqual({ status: 400, message: 'The end must be after the start.' });
    expect(
      await refusal(as.commerce.promotions.create.mutate(promotion({ kind: 'fixed', percentOff: null }))),
    ).toEqual({ status: 400, message: 'Say how much the code takes off.' });
    await rejects(createPromotion(db, admin.id, promotion({ code: 'WELCOME20' })), 'BAD_INPUT', /WELCOME20/);
    expect((await listPromotions(db)).length).toBe(before);

    const code = await make({ totalLimit: 5 });
    expect(
      await refusal(as.commerce.promotions.create.mutate(promotion({ code: code.toLowerCase() }))),
    ).toEqual({
      status: 409,
      message: `There is already a promotion with the code ${code}.`,
    });

    // Two uses: the limit may come down to two, not to one.
    for (let i = 0; i < 2; i += 1) {
      await startCheckout(deps, await returningBuyer(), {
        listingId: await listing(),
        address,
        promoCode: code,
      });
    }
    const { id, code: _code, ...fields } = await row(code);
    const shape = {
      kind: fields.kind,
      percentOff: fields.percentOff,
      amountOffMinor: fields.amountOffMinor,
      minItemMinor: fields.minItemMinor,
      startsAt: fields.startsAt,
      endsAt: fields.endsAt,
      perBuyerLimit: fields.perBuyerLimit,
    };
    expect(await refusal(as.commerce.promotions.update.mutate({ ...shape, id, totalLimit: 1 }))).toEqual({
      status: 400,
      message: `${code} has been used 2 times, so the total limit cannot be lower than 2.`,
    });
    await as.commerce.promotions.update.mutate({ ...shape, id, totalLimit: 2 });
    expect(await row(code)).toMatchObject({ totalLimit: 2, redemptions: 2, status: 'exhausted' });
  });
});

describe('a promo code at checkout', () => {
  it('takes a percentage or a fixed amount off the item, never more than the item', async () => {
    const buyer = await returningBuyer();
    const listingId = await listing(1000);
    const tenPercent = await make({ percentOff: 15 });
    expect(await quote(db, buyer.id, { listingId }, tenPercent.toLowerCase())).toMatchObject({
      discountMinor: 150,
      discountCode: tenPercent,
      discountLabel: '15% off',
      totalMinor: 1000 + PAPERBACK_HOME + 120 - 150,
      promo: { code: tenPercent, status: 'applied', message: null },
    });
    const big = await make({ kind: 'fixed', percentOff: null, amountOffMinor: 5000 });
    expect(await quote(db, buyer.id, { listingId }, big)).toMatchObject({
      discountMinor: 1000,
      discountLabel: '£50.00 off',
      totalMinor: PAPERBACK_HOME + 120,
    });
  });

  it('explains each reason a code does not apply, and checkout refuses it', async () => {
    const buyer = await returningBuyer();
    const listingId = await listing(900);
    const cases: [string, string][] = [
      ['NOSUCHCODE', 'We don’t recognise that code.'],
      [await make({ startsAt: iso(-48 * HOUR), endsAt: iso(-HOUR) }), 'This code has expired.'],
      [await make({ minItemMinor: 1000 }), 'Spend at least £10.00 to use this code.'],
      [await make({ totalLimit: 1 }), 'This code has reached its limit.'],
    ];
    await startCheckout(deps, await returningBuyer(), {
      listingId: await listing(),
      address,
      promoCode: cases[3]![0],
    });
    const scheduled = await make({ startsAt: '2030-06-01T09:00:00Z', endsAt: '2030-07-01T09:00:00Z' });
    const paused = await make();
    await api(t.app, admin.accessToken).commerce.promotions.setActive.mutate({
      id: (await row(paused)).id,
      active: false,
    });
    cases.push([scheduled, 'This code can be used from 1 June 2030 at 10:00.']);
    cases.push([paused, 'This code is not available at the moment.']);
    for (const [code, message] of cases) {
      expect(await quote(db, buyer.id, { listingId }, code)).toMatchObject({
        discountMinor: 0,
        discountCode: null,
        totalMinor: 900 + PAPERBACK_HOME + 115,
        promo: { code, status: 'refused', message },
      });
      await rejects(
        startCheckout(deps, buyer, { listingId, address, promoCode: code }),
        'PRECONDITION_FAILED',
        new RegExp(message.replace(/[.£]/g, '.')),
      );
    }
    const orders = await db
      .selectFrom('orders')
      .select('id')
      .where('id', 'in', db.selectFrom('order_items').select('order_id').where('listing_id', '=', listingId))
      .execute();
    expect(orders).toEqual([]);
  });

  it('counts a use per buyer until the order is cancelled, and stores the code on the order', async () => {
    const buyer = await returningBuyer();
    const code = await make({ kind: 'fixed', percentOff: null, amountOffMinor: 300 });
    const first = await startCheckout(deps, buyer, {
      listingId: await listing(1200),
      address,
      promoCode: code,
    });
    const order = await db
      .selectFrom('orders')
      .select(['discount_code', 'discount_minor', 'promotion_id', 'total_minor'])
      .where('id', '=', first.orderId)
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({
      discount_code: code,
      discount_minor: 300,
      promotion_id: (await row(code)).id,
    });
    expect(first.totalMinor).toBe(order.total_minor);
    expect(await row(code)).toMatchObject({ redemptions: 1, discountedMinor: 300 });

    const second = await listing(1200);
    expect((await quote(db, buyer.id, { listingId: second }, code)).promo).toEqual({
      code,
      status: 'refused',
      message: 'You have already used this code.',
    });
    await cancelPendingOrder(db, first.orderId, 'The payment was abandoned', { id: null, kind: 'system' });
    expect(await row(code)).toMatchObject({ redemptions: 0, discountedMinor: 0 });
    expect((await quote(db, buyer.id, { listingId: second }, code)).promo?.status).toBe('applied');
  });

  it('holds the total limit when many buyers check out with the code at once', async () => {
    const code = await make({ totalLimit: 3, perBuyerLimit: 1 });
    const buyers = await Promise.all(Array.from({ length: 8 }, () => returningBuyer()));
    const listings = await Promise.all(buyers.map(() => listing(1000)));
    const results = await Promise.allSettled(
      buyers.map((buyer, i) =>
        startCheckout(deps, buyer, { listingId: listings[i]!, address, promoCode: code }),
      ),
    );
    const won = results.filter((result) => result.status === 'fulfilled');
    const lost = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
    expect(won).toHaveLength(3);
    expect(lost.map((result) => (result.reason as Error).message)).toEqual(
      Array(5).fill('This code has reached its limit.'),
    );
    expect(await row(code)).toMatchObject({ redemptions: 3, discountedMinor: 300, status: 'exhausted' });
  });

  it('holds the per-buyer limit when one buyer checks out twice at once', async () => {
    const buyer = await returningBuyer();
    const code = await make({ perBuyerLimit: 1 });
    const [a, b] = [await listing(), await listing()];
    const results = await Promise.allSettled([
      startCheckout(deps, buyer, { listingId: a, address, promoCode: code }),
      startCheckout(deps, buyer, { listingId: b, address, promoCode: code }),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect((await row(code)).redemptions).toBe(1);
  });

  it('never combines with WELCOME20: the bigger discount applies and the buyer is told', async () => {
    const buyer = await person('first-timer');
    const listingId = await listing(1000);
    const small = await make({ percentOff: 10 });
    expect(await quote(db, buyer.id, { listingId }, small)).toMatchObject({
      discountMinor: 200,
      discountCode: 'WELCOME20',
      discountLabel: '20% off your first order',
      promo: {
        code: small,
        status: 'welcome_kept',
        message:
          'Your first-order WELCOME20 discount saves you more (£2.00), so we kept it: discounts can’t be combined.',
      },
    });
    // Checkout goes ahead with WELCOME20: the code was valid, just not the better deal.
    const big = await make({ kind: 'fixed', percentOff: null, amountOffMinor: 500 });
    expect(await quote(db, buyer.id, { listingId }, big)).toMatchObject({
      discountMinor: 500,
      discountCode: big,
      promo: { code: big, status: 'applied' },
    });
    const started = await startCheckout(deps, buyer, { listingId, address, promoCode: big });
    const order = await db
      .selectFrom('orders')
      .select(['discount_code', 'discount_minor'])
      .where('id', '=', started.orderId)
      .executeTakeFirstOrThrow();
    expect(order).toEqual({ discount_code: big, discount_minor: 500 });
    expect(await row(small)).toMatchObject({ redemptions: 0 });

    const other = await person('first-timer');
    const withSmall = await startCheckout(deps, other, {
      listingId: await listing(1000),
      address,
      promoCode: small,
    });
    expect(withSmall.totalMinor).toBe(1000 + PAPERBACK_HOME + 120 - 200);
    expect((await row(small)).redemptions).toBe(0);

    const returning = await returningBuyer();
    expect((await quote(db, returning.id, { listingId: await listing() }, 'welcome20')).promo).toEqual({
      code: 'WELCOME20',
      status: 'refused',
      message: 'WELCOME20 is a gift for your first order only.',
    });
  });

  it('prices an accepted offer from the offer: the minimum spend and the discount use its amount', async () => {
    const buyer = await returningBuyer();
    const seller = await person('seller');
    const bookId = await createBook(db, { title: `Offered book ${n}` });
    const { id: listingId } = await createListing(db, { sellerId: seller.id, bookId, price: 1000 });
    const { offerId } = await makeOffer(deps, buyer.id, { listingId, amountMinor: 800, message: null });
    await respondToOffer(deps, seller.id, { offerId, action: 'accept' });
    const nine = await make({ minItemMinor: 900 });
    expect((await quote(db, buyer.id, { offerId }, nine)).promo).toEqual({
      code: nine,
      status: 'refused',
      message: 'Spend at least £9.00 to use this code.',
    });
    const quarter = await make({ percentOff: 25 });
    expect(await quote(db, buyer.id, { offerId }, quarter)).toMatchObject({
      itemMinor: 800,
      discountMinor: 200,
      discountCode: quarter,
    });
    const started = await startCheckout(deps, buyer, { offerId, address, promoCode: quarter });
    expect(await row(quarter)).toMatchObject({ redemptions: 1, discountedMinor: 200 });
    expect(started.totalMinor).toBe(800 + PAPERBACK_HOME + 110 - 200);
  });

  it('answers through the quote procedure, with the code in any case', async () => {
    const code = await make({ percentOff: 50 });
    const listingId = await listing(1000);
    const buyer = api(t.app, member.accessToken);
    await insertOrderRow(db, {
      buyer_id: member.id,
      seller_id: (await person('s')).id,
      listing_id: await listing(),
      status: 'completed',
      item_price_minor: 1000,
      total_minor: 1000,
    });
    const answer = await buyer.commerce.checkout.quote.query({
      listingId,
      promoCode: ` ${code.toLowerCase()} `,
    });
    expect(answer).toMatchObject({ discountMinor: 500, discountCode: code, promo: { status: 'applied' } });
    expect(
      (await refusal(buyer.commerce.checkout.quote.query({ listingId, promoCode: '' }))).message,
    ).toContain('Enter a promo code');
  });
});
