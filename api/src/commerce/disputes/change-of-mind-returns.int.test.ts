/**
 * Change-of-mind returns on the one return flow (decision 0049), against real
 * PostgreSQL: a charity's 14-day return (trader rules) — the buyer asks, the charity accepts and
 * the buyer gets the address, the buyer enters the carrier and tracking, the charity confirms
 * receipt, the refund goes out (the books and postage, not the protection fee, from the
 * charity's payout) — each step emailed and notified to both sides; the ledger balances. And
 * a private seller who accepts returns (their setting): the same flow, within
 * PROTECTION_RULES.privateReturnDays, the seller giving the address to post it to.
 */
import { CANCELLATION_RULES, PROTECTION_RULES } from '@reshelf/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { runJob } from '../../jobs.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { paidBasketOrder } from '../../testing/basket-orders.ts';
import { createCharity } from '../../testing/catalogue.ts';
import { api, refusal } from '../../testing/client.ts';
import { orderDepsFor } from '../../testing/orders.ts';
import { reconciliation } from '../money/ledger.ts';
import { setReturnsSetting } from './disputes.service.ts';

let t: TestApp;
let db: Database;
let owner: TestUser;
let charityId: string;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  owner = await createUser(db, t.services.identity, 'owner@com-returns.test');
  charityId = await createCharity(db, { slug: 'com-returns', name: 'Kennet Books', ownerId: owner.id });
  await db
    .updateTable('charities')
    .set({ address_line1: '9 Bridge Street', town: 'Newbury', postcode: 'RG14 5BE' })
    .where('id', '=', charityId)
    .execute();
});

afterAll(async () => {
  await t?.close();
});

const mails = async (email: string) =>
  (
    await db
      .selectFrom('email_outbox')
      .select(['template', 'text_body'])
      .where('to_address', '=', email)
      .orderBy('created_at')
      .execute()
  ).map((row) => row.template);
const notices = async (userId: string) =>
  (
    await db
      .selectFrom('notifications')
      .select(['kind', 'title'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute()
  ).map((row) => `${row.kind}: ${row.title}`);

describe('a charity’s 14-day return on the return flow', () => {
  it('asks, accepts with the address, tracking, receipt, refund: each step told to both sides', async () => {
    const buyer = await createUser(db, t.services.identity, 'buyer@com-returns.test');
    const paid = await paidBasketOrder(t, [{ price: 700 }], {
      seller: { id: owner.id, email: owner.email },
      buyer: { id: buyer.id, email: buyer.email },
      charityId,
      to: 'delivered',
    });
    const asBuyer = api(t.app, buyer.accessToken);
    const asOwner = api(t.app, owner.accessToken);
    const requested = await asBuyer.charities.requestReturn.mutate({
      orderId: paid.orderId,
      reason: 'I changed my mind about it',
    });
    const returnId = requested.request!.id;
    // Tracking before the charity accepts: refused, it does not know where to send it yet.
    expect(
      await refusal(
        asBuyer.commerce.disputes.member.returnSentBack.mutate({
          returnId,
          carrier: 'royal_mail_tracked_48',
          trackingRef: 'RM100000001GB',
        }),
      ),
    ).toEqual({
      status: 412,
      message: 'Wait for the return to be accepted: we then tell you where to post it.',
    });
    await asOwner.charities.acceptReturn.mutate({ returnId });
    const accepted = await asBuyer.charities.returnEligibility.query({ orderId: paid.orderId });
    expect(accepted.request).toMatchObject({
      status: 'accepted',
      returnAddress: 'Kennet Books, 9 Bridge Street, Newbury, RG14 5BE',
      returnTrackingRef: null,
    });
    expect(await notices(buyer.id)).toContain(
      `return_update: Your return was accepted: ${requested.request!.title}`,
    );
    const sent = await asBuyer.commerce.disputes.member.returnSentBack.mutate({
      returnId,
      carrier: 'royal_mail_tracked_48',
      trackingRef: 'rm100000001gb',
    });
    expect(sent.request).toMatchObject({
      status: 'accepted',
      returnCarrier: 'Royal Mail Tracked 48',
      returnTrackingRef: 'RM100000001GB',
    });
    // Only once.
    expect(
      (
        await refusal(
          asBuyer.commerce.disputes.member.returnSentBack.mutate({
            returnId,
            carrier: 'evri',
            trackingRef: 'H0100000000003',
          }),
        )
      ).status,
    ).toBe(409);
    // The charity sees the tracking on its dashboard list, and was told.
    const [listed] = (await asOwner.charities.returns.query()).filter((r) => r.id === returnId);
    expect(listed).toMatchObject({
      returnTrackingRef: 'RM100000001GB',
      returnCarrier: 'Royal Mail Tracked 48',
    });
    expect(await mails(owner.email)).toEqual(
      expect.arrayContaining(['charity-return-requested', 'order.return_sent']),
    );
    expect(await notices(owner.id)).toContain(
      `return_update: The book is on its way back: ${requested.request!.title}`,
    );
    const refunded = await asOwner.charities.receiveReturn.mutate({ returnId });
    // The book and its postage, not the protection fee (trader rules, decision 0012).
    const order = await db
      .selectFrom('orders')
      .select(['status', 'total_minor', 'buyer_protection_minor'])
      .where('id', '=', paid.orderId)
      .executeTakeFirstOrThrow();
    expect(refunded.refundMinor).toBe(order.total_minor - order.buyer_protection_minor);
    expect(order.status).toBe('refunded');
    expect(await mails(buyer.email)).toEqual(
      expect.arrayContaining(['charity-return-accepted', 'order.return_sent', 'charity-return-refunded']),
    );
    const ledger = await reconciliation(db);
    expect(ledger.rows.find((row) => row.orderId === paid.orderId)?.problems).toEqual([]);
  });

  it('a stranger cannot add tracking to someone else’s return', async () => {
    const buyer = await createUser(db, t.services.identity, 'buyer2@com-returns.test');
    const stranger = await createUser(db, t.services.identity, 'stranger@com-returns.test');
    const paid = await paidBasketOrder(t, [{ price: 500 }], {
      seller: { id: owner.id, email: owner.email },
      buyer: { id: buyer.id, email: buyer.email },
      charityId,
      to: 'delivered',
    });
    const requested = await api(t.app, buyer.accessToken).charities.requestReturn.mutate({
      orderId: paid.orderId,
      reason: 'Bought two copies by mistake',
    });
    await api(t.app, owner.accessToken).charities.acceptReturn.mutate({ returnId: requested.request!.id });
    expect(
      (
        await refusal(
          api(t.app, stranger.accessToken).commerce.disputes.member.returnSentBack.mutate({
            returnId: requested.request!.id,
            carrier: 'evri',
            trackingRef: 'H0100000000004',
          }),
        )
      ).status,
    ).toBe(404);
  });
});

describe('a private seller who accepts returns', () => {
  it('the buyer asks within the window; the seller gives the address; tracking; receipt; refund', async () => {
    const seller = await createUser(db, t.services.identity, 'seller@com-returns.test');
    const buyer = await createUser(db, t.services.identity, 'buyer3@com-returns.test');
    const paid = await paidBasketOrder(t, [{ price: 1100 }], {
      seller: { id: seller.id, email: seller.email },
      buyer: { id: buyer.id, email: buyer.email },
      to: 'delivered',
    });
    const asBuyer = api(t.app, buyer.accessToken).commerce.disputes.member;
    const asSeller = api(t.app, seller.accessToken).commerce.disputes.member;
    // Not while the seller does not accept returns.
    const closed = await asBuyer.returnEligibility.query({ orderId: paid.orderId });
    expect(closed).toMatchObject({ eligible: false, returnsOffered: false });
    await setReturnsSetting(db, seller.id, true);
    const open = await asBuyer.returnEligibility.query({ orderId: paid.orderId });
    expect(open).toMatchObject({
      eligible: true,
      returnsOffered: true,
      charityOrder: false,
      windowDays: PROTECTION_RULES.privateReturnDays,
    });
    const delivered = await db
      .selectFrom('orders')
      .select('delivered_at')
      .where('id', '=', paid.orderId)
      .executeTakeFirstOrThrow();
    expect(open.deadline).toBe(
      new Date(
        delivered.delivered_at!.getTime() + PROTECTION_RULES.privateReturnDays * 86_400_000,
      ).toISOString(),
    );
    const requested = await asBuyer.requestReturn.mutate({
      orderId: paid.orderId,
      reason: 'Not for me after all',
    });
    const returnId = requested.request!.id;
    expect(await mails(seller.email)).toContain('order.return_requested');
    expect((await notices(seller.id)).some((n) => n.startsWith('return_update: '))).toBe(true);
    // The seller sees it on the sale page, and must say where to post it.
    expect(await asSeller.saleReturn.query({ orderId: paid.orderId })).toMatchObject({
      id: returnId,
      status: 'requested',
    });
    expect((await refusal(asSeller.acceptReturn.mutate({ returnId, address: '' }))).status).toBe(400);
    // Nobody else answers it.
    const other = await createUser(db, t.services.identity, 'other@com-returns.test');
    expect(
      (
        await refusal(
          api(t.app, other.accessToken).commerce.disputes.member.acceptReturn.mutate({
            returnId,
            address: '1 Nowhere Lane, Leeds, LS1 1AA',
          }),
        )
      ).status,
    ).toBe(404);
    await asSeller.acceptReturn.mutate({ returnId, address: 'Sam Seller, 3 Mill Lane, Leeds, LS6 2AB' });
    const accepted = await asBuyer.returnEligibility.query({ orderId: paid.orderId });
    expect(accepted.request).toMatchObject({
      status: 'accepted',
      returnAddress: 'Sam Seller, 3 Mill Lane, Leeds, LS6 2AB',
    });
    expect(await mails(buyer.email)).toContain('order.return_accepted');
    // The seller's sale page shows the address they gave.
    expect(await asSeller.saleReturn.query({ orderId: paid.orderId })).toMatchObject({
      status: 'accepted',
      returnAddress: 'Sam Seller, 3 Mill Lane, Leeds, LS6 2AB',
    });
    await asBuyer.returnSentBack.mutate({ returnId, carrier: 'evri', trackingRef: 'H0100000000009' });
    const done = await asSeller.receiveReturn.mutate({ returnId });
    const order = await db
      .selectFrom('orders')
      .select(['status', 'total_minor', 'buyer_protection_minor'])
      .where('id', '=', paid.orderId)
      .executeTakeFirstOrThrow();
    // Change of mind: the book and postage back, not the protection fee; the buyer paid to post it.
    expect(done.refundMinor).toBe(order.total_minor - order.buyer_protection_minor);
    expect(order.status).toBe('refunded');
    expect(await mails(buyer.email)).toContain('order.return_refunded');
    const ledger = await reconciliation(db);
    expect(ledger.rows.find((row) => row.orderId === paid.orderId)?.problems).toEqual([]);
  });
});

/**
 * A business seller is a trader (decision 0073): their buyer cancels exactly as a charity's —
 * within CANCELLATION_RULES.cancelDays of delivery, whatever the seller's returns setting; the
 * book goes back to the address they trade from; the refund (the book and the outbound postage,
 * not the protection fee) goes through the refund command. If the seller never confirms the book
 * arrived, the buyer's tracking (proof of posting) is enough: CANCELLATION_RULES.refundDays later
 * the job refunds them.
 */
describe('a business seller’s buyer cancels as a charity’s does', () => {
  const DAY = 86_400_000;
  async function businessSale(label: string, price: number) {
    const seller = await createUser(db, t.services.identity, `${label}-seller@com-returns.test`);
    const buyer = await createUser(db, t.services.identity, `${label}-buyer@com-returns.test`);
    await api(t.app, seller.accessToken).selling.trader.declareBusiness.mutate({
      tradingName: `${label} Books Ltd`,
      isCompany: true,
      companyNumber: 'SC123456',
      addressLine1: '2 Canal Row',
      town: 'Bath',
      postcode: 'BA1 1AA',
      contactEmail: `${label}@books.test`,
    });
    const paid = await paidBasketOrder(t, [{ price }], {
      seller: { id: seller.id, email: seller.email },
      buyer: { id: buyer.id, email: buyer.email },
      to: 'delivered',
    });
    return { seller, buyer, paid };
  }

  it('cancels within the window, posts it to the trading address, and is refunded the book and postage', async () => {
    const { seller, buyer, paid } = await businessSale('kestrel', 1300);
    const asBuyer = api(t.app, buyer.accessToken).commerce.disputes.member;
    const asSeller = api(t.app, seller.accessToken).commerce.disputes.member;
    const open = await asBuyer.returnEligibility.query({ orderId: paid.orderId });
    expect(open).toMatchObject({
      eligible: true,
      returnsOffered: true,
      windowDays: CANCELLATION_RULES.cancelDays,
    });
    const requested = await asBuyer.requestReturn.mutate({
      orderId: paid.orderId,
      reason: 'Changed my mind',
    });
    const returnId = requested.request!.id;
    // The trader's address is where it goes: the seller need not type one.
    await asSeller.acceptReturn.mutate({ returnId, address: '' });
    expect((await asBuyer.returnEligibility.query({ orderId: paid.orderId })).request).toMatchObject({
      status: 'accepted',
      returnAddress: 'kestrel Books Ltd, 2 Canal Row, Bath, BA1 1AA',
    });
    await asBuyer.returnSentBack.mutate({ returnId, carrier: 'evri', trackingRef: 'H0100000000021' });
    const done = await asSeller.receiveReturn.mutate({ returnId });
    const order = await db
      .selectFrom('orders')
      .select(['status', 'total_minor', 'buyer_protection_minor', 'postage_minor'])
      .where('id', '=', paid.orderId)
      .executeTakeFirstOrThrow();
    expect(order.postage_minor).toBeGreaterThan(0);
    expect(done.refundMinor).toBe(order.total_minor - order.buyer_protection_minor);
    expect(order.status).toBe('refunded');
    const ledger = await reconciliation(db);
    expect(ledger.rows.find((row) => row.orderId === paid.orderId)?.problems).toEqual([]);
  });

  it('refuses after the window with the date it ended', async () => {
    const { buyer, paid } = await businessSale('merlin', 800);
    const deliveredAt = new Date(Date.now() - (CANCELLATION_RULES.cancelDays + 1) * DAY);
    await db
      .updateTable('orders')
      .set({ delivered_at: deliveredAt })
      .where('id', '=', paid.orderId)
      .execute();
    const asBuyer = api(t.app, buyer.accessToken).commerce.disputes.member;
    const late = await refusal(asBuyer.requestReturn.mutate({ orderId: paid.orderId, reason: 'Too late?' }));
    expect(late.status).toBe(412);
    expect(late.message).toMatch(
      new RegExp(`^The ${CANCELLATION_RULES.cancelDays} days to return this book ended on `),
    );
  });

  it('with proof of posting and no answer from the seller, the job refunds the buyer after the refund days', async () => {
    const { seller, buyer, paid } = await businessSale('harrier', 900);
    const asBuyer = api(t.app, buyer.accessToken).commerce.disputes.member;
    const requested = await asBuyer.requestReturn.mutate({ orderId: paid.orderId, reason: 'Not for me' });
    const returnId = requested.request!.id;
    await api(t.app, seller.accessToken).commerce.disputes.member.acceptReturn.mutate({
      returnId,
      address: '',
    });
    await asBuyer.returnSentBack.mutate({ returnId, carrier: 'evri', trackingRef: 'H0100000000022' });
    const deps = orderDepsFor(t);
    // Not before the refund days are over.
    expect(await runJob(deps, 'returns.refund_posted')).toBe(0);
    await db
      .updateTable('return_requests')
      .set({ return_sent_at: new Date(Date.now() - CANCELLATION_RULES.refundDays * DAY - 60_000) })
      .where('id', '=', returnId)
      .execute();
    expect(await runJob(deps, 'returns.refund_posted')).toBe(1);
    expect(await runJob(deps, 'returns.refund_posted')).toBe(0);
    const order = await db
      .selectFrom('orders')
      .select(['status', 'total_minor', 'buyer_protection_minor'])
      .where('id', '=', paid.orderId)
      .executeTakeFirstOrThrow();
    expect(order.status).toBe('refunded');
    const back = await asBuyer.returnEligibility.query({ orderId: paid.orderId });
    expect(back.request).toMatchObject({
      status: 'refunded',
      refundMinor: order.total_minor - order.buyer_protection_minor,
    });
  });
});
