/**
 * Money out, the whole life on the local test provider against real PostgreSQL: a
 * seller without a payout account is told once why their earnings wait; onboarding on the test
 * page (needs more information, then complete) makes the account active and the released sale is
 * transferred for exactly the seller's net, from the buyer's charge, and paid out; webhooks
 * delivered twice and out of order are applied once; a refund after release reverses the seller's
 * part; a failed payout returns the money to the seller's balance and tells them; held payouts
 * wait. The ledger balances throughout.
 */
import { sql } from 'kysely';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import type { SignedEvent, TestProvider } from '../../platform/payments/test-provider.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser } from '../../testing/auth.ts';
import { api, failure, statusOf } from '../../testing/client.ts';
import { completedOrder, orderDepsFor } from '../../testing/orders.ts';
import { reconciliation } from '../money/ledger.ts';
import {
  applyConnectEvent,
  getSellerPayout,
  holdPayouts,
  listSellerPayouts,
  type PayoutDeps,
  payOut,
  payoutAccount,
  providerBalance,
  releasePayoutHold,
  retryFailedPayout,
  retryFailedTransfer,
  startOnboarding,
  TRANSFER_ATTEMPTS,
} from '../money/payouts.ts';
import { refund } from '../money/refund.ts';

let t: TestApp;
let db: Database;
let deps: PayoutDeps;
let provider: TestProvider;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  // The site's own origin: the onboarding page sends the seller back only there.
  deps = { ...orderDepsFor(t), origin: t.config.siteOrigin };
  provider = t.services.payments as TestProvider;
});

afterAll(async () => {
  await t.close();
});

/** Posts a signed webhook as the provider does; answers the outcome. */
async function deliver(event: SignedEvent): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/webhooks/payments/test',
    headers: { 'content-type': 'application/json', ...event.headers },
    payload: event.body,
  });
  expect(response.statusCode).toBe(200);
  return (response.json() as { outcome: string }).outcome;
}

async function notices(userId: string, kind: string) {
  return db
    .selectFrom('notifications')
    .select(['title', 'body'])
    .where('user_id', '=', userId)
    .where('kind', '=', kind as never)
    .execute();
}

async function mails(email: string, template: string) {
  return db
    .selectFrom('email_outbox')
    .select('subject')
    .where('to_address', '=', email)
    .where('template', '=', template)
    .execute();
}

async function accountId(userId: string) {
  const row = await db
    .selectFrom('connected_accounts')
    .select('provider_account_id')
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.provider_account_id;
}

async function balanced(orderId: string) {
  const result = await reconciliation(db);
  const row = result.rows.find((r) => r.orderId === orderId);
  expect(row?.problems).toEqual([]);
  return row;
}

describe('money out through the test provider', () => {
  let sale: Awaited<ReturnType<typeof completedOrder>>;
  let payoutMinor: number;

  it('keeps a released sale waiting while the seller has no account, and tells them once', async () => {
    sale = await completedOrder(t, 1200);
    const payout = await db
      .selectFrom('payouts')
      .selectAll()
      .where('order_id', '=', sale.orderId)
      .executeTakeFirstOrThrow();
    expect(payout.status).toBe('released');
    payoutMinor = payout.amount_minor;
    expect(
      await db.selectFrom('transfers').select('id').where('order_id', '=', sale.orderId).execute(),
    ).toEqual([]);
    await payOut(deps, { sellerId: sale.seller.id });
    expect(await notices(sale.seller.id, 'payout_waiting')).toEqual([
      expect.objectContaining({ title: 'Set up payouts to get paid' }),
    ]);
    expect(await mails(sale.seller.email, 'payout.waiting_no_account')).toHaveLength(1);
    expect(await payoutAccount(db, sale.seller.id)).toMatchObject({
      state: 'not_started',
      waitingMinor: payoutMinor,
      waitingReason: 'no_account',
      balanceMinor: 0,
    });
  });

  it('onboards on the test page: more information needed, then complete; the sale is transferred and paid out', async () => {
    const { url } = await startOnboarding(deps, sale.seller);
    const acct = await accountId(sale.seller.id);
    const page = new URL(url);
    expect(page.pathname).toBe(`/payments/test/onboarding/${acct}`);
    const shown = await request(t.app.server).get(`${page.pathname}${page.search}`);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('Complete set-up');
    expect(shown.text).toContain('Leave information missing');

    const missing = await request(t.app.server).post(`${page.pathname}/needs_information${page.search}`);
    expect(missing.status).toBe(303);
    expect(missing.headers.location).toBe('/account/payouts?onboarding=return');
    const needs = await payoutAccount(db, sale.seller.id);
    expect(needs).toMatchObject({ state: 'needs_information', waitingReason: 'account_not_active' });
    expect(needs.due).toContain('A photo of your ID (passport or driving licence)');
    expect(needs.due).toContain('Your bank account for payouts');
    // Still waiting, and told so once for the new reason.
    await payOut(deps, { sellerId: sale.seller.id });
    await payOut(deps, { sellerId: sale.seller.id });
    expect(await mails(sale.seller.email, 'payout.waiting_account_not_active')).toHaveLength(1);

    const done = await request(t.app.server).post(`${page.pathname}/complete${page.search}`);
    expect(done.status).toBe(303);
    await provider.flushEvents();
    expect((await payoutAccount(db, sale.seller.id)).state).toBe('active');

    // Exactly the seller's net, from the buyer's charge, with the sale's idempotency key.
    const transfer = await db
      .selectFrom('transfers')
      .selectAll()
      .where('order_id', '=', sale.orderId)
      .executeTakeFirstOrThrow();
    const checkout = await db
      .selectFrom('payments')
      .select('provider_ref')
      .where('order_id', '=', sale.orderId)
      .executeTakeFirstOrThrow();
    expect(transfer).toMatchObject({ status: 'paid', amount_minor: payoutMinor });
    expect(provider.calls.filter((call) => call.op === 'transfer' && call.destination === acct)).toEqual([
      expect.objectContaining({
        amountMinor: payoutMinor,
        source: checkout.provider_ref,
        idempotencyKey: transfer.idempotency_key,
      }),
    ]);

    // The payout went to the bank and settled as paid (the provider's webhook).
    const list = await listSellerPayouts(db, sale.seller.id);
    expect(list.payouts).toEqual([
      expect.objectContaining({ amountMinor: payoutMinor, status: 'paid', orderCount: 1 }),
    ]);
    expect(list.transfers).toEqual([]);
    const detail = await getSellerPayout(db, sale.seller.id, list.payouts[0]!.id);
    expect(detail.lines).toEqual([
      expect.objectContaining({ orderId: sale.orderId, reference: sale.reference, amountMinor: payoutMinor }),
    ]);
    // The seller's sale is what they are paid for it (books and postage): no fee comes off it.
    expect(detail.lines[0]?.saleMinor).toBe(payoutMinor);
    expect(await notices(sale.seller.id, 'payout_paid')).toHaveLength(1);
    expect(await providerBalance(db, sale.seller.id)).toBe(0);
    expect(await payoutAccount(db, sale.seller.id)).toMatchObject({ waitingMinor: 0, waitingReason: null });
    await balanced(sale.orderId);
  });

  it('reverses the seller’s part of a refund after release, then the rest', async () => {
    const order = await db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', sale.orderId)
      .executeTakeFirstOrThrow();
    await db
      .transaction()
      .execute((trx) => refund(trx, provider, order, 300, 'Cover damaged', { id: null, kind: 'system' }));
    const reversals = await db
      .selectFrom('transfer_reversals as r')
      .innerJoin('transfers as t', 't.id', 'r.transfer_id')
      .select(['r.amount_minor', 'r.refund_id', 't.reversed_minor', 't.status'])
      .where('t.order_id', '=', sale.orderId)
      .execute();
    expect(reversals).toEqual([
      expect.objectContaining({ amount_minor: 300, reversed_minor: 300, status: 'paid' }),
    ]);
    expect(reversals[0]?.refund_id).not.toBeNull();
    // The refund went to the provider with its idempotency key.
    expect(provider.calls.filter((call) => call.op === 'refund').at(-1)).toMatchObject({
      amountMinor: 300,
      idempotencyKey: expect.stringMatching(/^refund:[0-9a-f-]{36}:0:300$/),
    });
    await balanced(sale.orderId);

    await db
      .transaction()
      .execute((trx) =>
        refund(trx, provider, order, 'full', 'Never arrived after all', { id: null, kind: 'system' }),
      );
    const transfer = await db
      .selectFrom('transfers')
      .select(['reversed_minor', 'status'])
      .where('order_id', '=', sale.orderId)
      .executeTakeFirstOrThrow();
    expect(transfer).toEqual({ reversed_minor: payoutMinor, status: 'reversed' });
    const detail = await getSellerPayout(
      db,
      sale.seller.id,
      (await listSellerPayouts(db, sale.seller.id)).payouts[0]!.id,
    );
    expect(detail.reversals.map((r) => r.amountMinor)).toEqual([300, payoutMinor - 300]);
    // Paid out before the refund: the seller's balance at the provider owes it back.
    expect(await providerBalance(db, sale.seller.id)).toBe(-payoutMinor);
    await balanced(sale.orderId);
  });

  it('keeps what a seller owes after a refund as their negative balance at the provider, with no debt column beside it', async () => {
    // The seller of the sale above was paid out, then refunded in full: they owe it all back.
    expect(await payoutAccount(db, sale.seller.id)).toMatchObject({ balanceMinor: -payoutMinor });
    // Decision 0046: the debt is the provider balance (netted from the next payout), nothing else.
    const { rows } = await sql<{ column_name: string }>`
      select column_name from information_schema.columns
       where table_schema = 'public' and table_name = 'payouts' and column_name like '%debt%'`.execute(db);
    expect(rows).toEqual([]);
  });

  it('applies webhooks delivered twice and out of order once', async () => {
    const other = await completedOrder(t, 800);
    await startOnboarding(deps, other.seller);
    const acct = await accountId(other.seller.id);
    // Made in this order by the provider, delivered newest first, then the older, then again.
    const older = provider.onboard(acct, 'needs_information').event;
    const newer = provider.onboard(acct, 'complete').event;
    await provider.flushEvents();
    provider.setDeliverer(null);
    try {
      expect(await deliver(newer)).toBe('applied');
      expect(await deliver(older)).toBe('stale');
      expect(await deliver(newer)).toBe('duplicate');
      expect((await payoutAccount(db, other.seller.id)).state).toBe('active');
      // The account turned active: the sale was transferred and a payout made; its webhook waits.
      const events = provider.takeEvents();
      expect(events).toHaveLength(1);
      expect(await deliver(events[0]!)).toBe('applied');
      expect(await deliver(events[0]!)).toBe('duplicate');
    } finally {
      provider.setDeliverer(deliver as unknown as (event: SignedEvent) => Promise<void>);
    }
    expect(await notices(other.seller.id, 'payout_paid')).toHaveLength(1);
    expect((await listSellerPayouts(db, other.seller.id)).payouts).toEqual([
      expect.objectContaining({ status: 'paid', orderCount: 1 }),
    ]);
    await balanced(other.orderId);
  });

  it('returns a failed payout to the seller’s balance, tells them what to do, and pays again once the account changes', async () => {
    const other = await completedOrder(t, 900);
    const { url } = await startOnboarding(deps, other.seller);
    const page = new URL(url);
    await request(t.app.server).post(`${page.pathname}/complete_payouts_fail${page.search}`);
    await provider.flushEvents();
    const failed = (await listSellerPayouts(db, other.seller.id)).payouts;
    expect(failed).toEqual([
      expect.objectContaining({
        status: 'failed',
        failureMessage: 'The bank account has been closed.',
        whatToDo: expect.stringContaining('Add a new bank account'),
      }),
    ]);
    const net = failed[0]!.amountMinor;
    expect(await providerBalance(db, other.seller.id)).toBe(net);
    expect(await notices(other.seller.id, 'payout_failed')).toEqual([
      expect.objectContaining({ title: expect.stringContaining('Payout failed') }),
    ]);
    expect(await mails(other.seller.email, 'payout.failed')).toHaveLength(1);
    // Not again to the same bank until the account changes.
    const before = provider.calls.length;
    await payOut(deps, { sellerId: other.seller.id });
    expect(provider.calls.length).toBe(before);
    // Staff try again at once: to the same bank, which refuses it again.
    await expect(retryFailedPayout(deps, failed[0]!.id)).resolves.toMatchObject({ payouts: 1 });
    await provider.flushEvents();
    expect((await listSellerPayouts(db, other.seller.id)).payouts.map((p) => p.status)).toEqual([
      'failed',
      'failed',
    ]);
    // The seller fixes their bank details: the money goes out again and arrives.
    await request(t.app.server).post(`${page.pathname}/complete${page.search}`);
    await provider.flushEvents();
    const again = (await listSellerPayouts(db, other.seller.id)).payouts;
    expect(again.map((p) => p.status)).toEqual(['paid', 'failed', 'failed']);
    expect(again[0]?.orderCount).toBe(1);
    expect(await providerBalance(db, other.seller.id)).toBe(0);
    await balanced(other.orderId);
  });

  it('holds a held seller’s payouts, tells them why, and pays once the hold is released', async () => {
    const other = await completedOrder(t, 700);
    const { url } = await startOnboarding(deps, other.seller);
    const page = new URL(url);
    const hold = await holdPayouts(db, {
      sellerId: other.seller.id,
      kind: 'staff',
      reason: 'Checking a report about this seller',
      by: null,
    });
    // A second hold of the same kind is the same hold.
    expect(
      await holdPayouts(db, { sellerId: other.seller.id, kind: 'staff', reason: 'Again', by: null }),
    ).toEqual(hold);
    await request(t.app.server).post(`${page.pathname}/complete${page.search}`);
    await provider.flushEvents();
    expect(
      await db.selectFrom('transfers').select('id').where('seller_id', '=', other.seller.id).execute(),
    ).toEqual([]);
    expect(await payoutAccount(db, other.seller.id)).toMatchObject({
      state: 'active',
      waitingReason: 'held',
      holds: [expect.objectContaining({ kind: 'staff', reason: 'Checking a report about this seller' })],
    });
    expect(await mails(other.seller.email, 'payout.waiting_held')).toHaveLength(1);
    await expect(releasePayoutHold(deps, { holdId: hold.holdId, reason: ' ', by: null })).rejects.toThrow(
      'Give a reason',
    );
    await releasePayoutHold(deps, { holdId: hold.holdId, reason: 'Report closed: nothing wrong', by: null });
    await provider.flushEvents();
    expect((await listSellerPayouts(db, other.seller.id)).payouts).toEqual([
      expect.objectContaining({ status: 'paid' }),
    ]);
  });

  it('ignores a Connect event for an account it does not know, and keeps the ledger balanced overall', async () => {
    const stranger = provider.onboard(
      (await provider.createConnectedAccount({ userId: 'x', email: 'x@y.test', businessType: 'individual' }))
        .accountId,
      'complete',
    ).event;
    expect(
      await applyConnectEvent(deps, 'test', provider.parseWebhook(stranger.body, stranger.headers)),
    ).toBe('unknown');
    expect((await reconciliation(db)).imbalances).toBe(0);
  });

  it('answers the seller’s own account, onboarding link and payouts through payouts.member, and nobody else’s', async () => {
    const member = await createUser(db, t.services.identity, 'member@payouts.test');
    const as = api(t.app, member.accessToken).commerce.payouts.member;
    expect(await as.account.query()).toMatchObject({
      state: 'not_started',
      due: [],
      holds: [],
      waitingMinor: 0,
      waitingReason: null,
    });
    const { url } = await as.startOnboarding.mutate({});
    expect(new URL(url).pathname).toMatch(/^\/payments\/test\/onboarding\/acct_test_[0-9a-f]+$/);
    expect((await as.account.query()).state).toBe('pending');
    // The same account the second time.
    const again = await as.startOnboarding.mutate({});
    expect(new URL(again.url).pathname).toBe(new URL(url).pathname);
    expect(await as.list.query()).toEqual({ payouts: [], transfers: [] });
    const someoneElses = (await listSellerPayouts(db, sale.seller.id)).payouts[0]!.id;
    expect(await failure(as.get.query({ payoutId: someoneElses }))).toMatchObject({
      status: 404,
      message: 'We could not find that payout.',
    });
    expect(await failure(as.get.query({ payoutId: 'nope' }))).toMatchObject({ status: 400 });
    expect(await statusOf(api(t.app).commerce.payouts.member.account.query())).toBe(401);
  });

  it('tries a transfer the provider refuses again at each run, fails it after the last try, and staff retry it', async () => {
    const other = await completedOrder(t, 650);
    await startOnboarding(deps, other.seller);
    const refusing: PayoutDeps = {
      ...deps,
      payments: {
        ...provider,
        async createTransfer() {
          throw new Error('Insufficient funds in the platform balance');
        },
      },
    };
    // The account turns active: the kick's transfer is the first try.
    const activated = provider.onboard(await accountId(other.seller.id), 'complete').event;
    await applyConnectEvent(refusing, 'test', provider.parseWebhook(activated.body, activated.headers));
    for (let run = 1; run < TRANSFER_ATTEMPTS; run += 1)
      await payOut(refusing, { sellerId: other.seller.id });
    const transfer = await db
      .selectFrom('transfers')
      .select(['id', 'status', 'attempts', 'failure_reason'])
      .where('order_id', '=', other.orderId)
      .executeTakeFirstOrThrow();
    expect(transfer).toMatchObject({
      status: 'failed',
      attempts: TRANSFER_ATTEMPTS,
      failure_reason: 'Insufficient funds in the platform balance',
    });
    await expect(retryFailedTransfer(deps, transfer.id)).resolves.toMatchObject({ transfers: 1, payouts: 1 });
    await provider.flushEvents();
    expect((await listSellerPayouts(db, other.seller.id)).payouts).toEqual([
      expect.objectContaining({ status: 'paid', orderCount: 1 }),
    ]);
    await expect(retryFailedTransfer(deps, transfer.id)).rejects.toThrow('Only a failed transfer');
    await balanced(other.orderId);
  });
  it('is its owner’s alone: no one else may open the page or change the account’s state', async () => {
    const owner = await createUser(db, t.services.identity, 'onboarding-owner@payouts.test');
    const stranger = await createUser(db, t.services.identity, 'onboarding-stranger@payouts.test');
    const { url } = await startOnboarding(deps, owner);
    const acct = await accountId(owner.id);
    const bare = `/payments/test/onboarding/${acct}`;
    // Knowing the account id is not enough: not signed in, or signed in as someone else.
    expect((await request(t.app.server).get(bare)).status).toBe(404);
    expect(
      (await request(t.app.server).get(bare).set('authorization', `Bearer ${stranger.accessToken}`)).status,
    ).toBe(404);
    for (const outcome of ['complete', 'rejected']) {
      expect((await request(t.app.server).post(`${bare}/${outcome}`)).status).toBe(404);
      expect(
        (
          await request(t.app.server)
            .post(`${bare}/${outcome}`)
            .set('authorization', `Bearer ${stranger.accessToken}`)
        ).status,
      ).toBe(404);
      // A link token made for another account does not open this one.
      const other = new URL((await startOnboarding(deps, stranger)).url);
      expect((await request(t.app.server).post(`${bare}/${outcome}${other.search}`)).status).toBe(404);
    }
    await provider.flushEvents();
    expect((await payoutAccount(db, owner.id)).state).toBe('pending');
    // The link its owner was given works.
    const page = new URL(url);
    expect((await request(t.app.server).get(`${page.pathname}${page.search}`)).status).toBe(200);
  });

  it('sends the seller back only to a path on this site, whatever `return` says', async () => {
    const owner = await createUser(db, t.services.identity, 'onboarding-return@payouts.test');
    const page = new URL((await startOnboarding(deps, owner)).url);
    for (const hostile of [
      '/.//evil.example',
      '/x/..//evil.example',
      '/%2e%2e//evil.example',
      '//evil.example',
      'https://evil.example/',
    ]) {
      page.searchParams.set('return', hostile);
      const shown = await request(t.app.server).get(`${page.pathname}${page.search}`);
      expect(shown.status).toBe(200);
      expect(shown.text).not.toContain('evil.example');
      const done = await request(t.app.server).post(`${page.pathname}/needs_information${page.search}`);
      expect(done.status).toBe(303);
      expect(done.headers.location).toBe('/account/payouts');
    }
    await provider.flushEvents();
  });

  it('onboards an account the test provider made before a restart: the database still knows it', async () => {
    const seller = await createUser(db, t.services.identity, 'restarted-seller@payouts.test');
    // As if the site restarted after the account was made: the provider's memory is empty.
    const acct = 'acct_test_madebeforerestart';
    await db
      .insertInto('connected_accounts')
      .values({ user_id: seller.id, provider: 'test', provider_account_id: acct, state: 'pending' })
      .execute();
    expect(provider.hasAccount(acct)).toBe(false);
    // Its owner, signed in, opens the page at its bare address; its buttons carry a link of their own.
    const shown = await request(t.app.server)
      .get(`/payments/test/onboarding/${acct}`)
      .set('authorization', `Bearer ${seller.accessToken}`);
    expect(shown.status).toBe(200);
    const action = /action="([^"]*\/complete[^"]*)"/
      .exec(shown.text)![1]!
      .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
    const done = await request(t.app.server).post(action);
    expect(done.status).toBe(303);
    await provider.flushEvents();
    expect((await payoutAccount(db, seller.id)).state).toBe('active');
    // An account nobody made is still refused.
    expect(
      (await request(t.app.server).get('/payments/test/onboarding/acct_test_nobodymadethis')).status,
    ).toBe(404);
  });
});
