/**
 * Closing an account (UK GDPR erasure) against real PostgreSQL, through the tRPC client: refused
 * while something is unfinished (an order in progress, money waiting, a charity owned, a staff
 * role) or with a wrong password; otherwise the member's listings are withdrawn, their personal
 * data removed, the profile shown as "Former member", the orders, payments and reviews kept,
 * sign-in ended for ever, the address free for a new account, an audit entry and an email.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviewsFor, writeReview } from '../../community/reviews/reviews.service.ts';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, TEST_PASSWORD } from '../../testing/auth.ts';
import { createBook, createCharity, createListing, createPerson } from '../../testing/catalogue.ts';
import { api, failure } from '../../testing/client.ts';
import { completedOrder, paidOrder } from '../../testing/orders.ts';

let t: TestApp;
let db: Database;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
});
afterAll(async () => t?.close());

/** Gives an existing person (made by the order helpers) a password, and signs them in. */
async function signIn(email: string): Promise<string> {
  await t.services.identity.ensureUser({ email, password: TEST_PASSWORD, displayName: 'x' });
  const session = await t.services.identity.signIn(email, TEST_PASSWORD, {});
  return session.accessToken;
}

function close(token: string, password = TEST_PASSWORD) {
  return api(t.app, token).account.member.close.mutate({ password, confirm: 'CLOSE' });
}

describe('account.close refuses', () => {
  it('a wrong password, and changes nothing', async () => {
    const member = await createUser(db, t.services.identity, 'wrong-password@close.test');
    const refused = await failure(close(member.accessToken, 'not-my-password'));
    expect(refused.status).toBe(400);
    expect(refused.message).toBe(
      'That password is not right. Enter your current password to close your account.',
    );
    const profile = await db
      .selectFrom('profiles')
      .select('display_name')
      .where('id', '=', member.id)
      .executeTakeFirstOrThrow();
    expect(profile.display_name).toBe('wrong-password');
  });

  it('without the typed word CLOSE', async () => {
    const member = await createUser(db, t.services.identity, 'no-word@close.test');
    const refused = await failure(
      api(t.app, member.accessToken).account.member.close.mutate({
        password: TEST_PASSWORD,
        confirm: 'close it' as 'CLOSE',
      }),
    );
    expect(refused.status).toBe(400);
    expect(refused.message).toContain('Type CLOSE');
  });

  it('while an order is in progress, as the buyer and as the seller', async () => {
    const order = await paidOrder(t);
    const refusedBuyer = await failure(close(await signIn(order.buyer.email)));
    expect(refusedBuyer.status).toBe(409);
    expect(refusedBuyer.message).toBe(
      `You have an order in progress (${order.reference}). Finish it first: it must be completed, cancelled or refunded before you can close your account.`,
    );
    const refusedSeller = await failure(close(await signIn(order.seller.email)));
    expect(refusedSeller.message).toContain(`You have an order in progress (${order.reference})`);
  });

  it('while an order is in progress, yet the correct password replaces an old bcrypt hash', async () => {
    const order = await paidOrder(t);
    const token = await signIn(order.buyer.email);
    // bcrypt (cost 4) of TEST_PASSWORD: what the local provider stored before argon2id.
    const bcrypt = '$2b$04$FzdOmE3y3ejRIPTmxqdpeulgVrXhwARnrNiA4woHgYHsJvsGbzAlm';
    await db
      .updateTable('auth.users')
      .set({ encrypted_password: bcrypt })
      .where('email', '=', order.buyer.email)
      .execute();
    const refused = await failure(close(token));
    expect(refused.status).toBe(409);
    const row = await db
      .selectFrom('auth.users')
      .select('encrypted_password')
      .where('email', '=', order.buyer.email)
      .executeTakeFirstOrThrow();
    expect(row.encrypted_password?.startsWith('$argon2id$v=19$m=19456,t=2,p=1$')).toBe(true);
  });

  it('while money from a sale is waiting to be paid out', async () => {
    const order = await completedOrder(t);
    const refused = await failure(close(await signIn(order.seller.email)));
    expect(refused.status).toBe(409);
    expect(refused.message).toBe(
      'You have money from your sales that has not been paid out yet. Set up payouts in Your account → Payouts and wait for it to arrive, or contact us, before closing your account.',
    );
  });

  it('the owner of a charity', async () => {
    const owner = await createUser(db, t.services.identity, 'owner@close.test');
    await createCharity(db, { slug: 'close-test-charity', name: 'Close Test Charity', ownerId: owner.id });
    const refused = await failure(close(owner.accessToken));
    expect(refused.status).toBe(409);
    expect(refused.message).toBe(
      'You own the charity Close Test Charity on Reshelf. Hand its ownership to another member of its team, or ask us (Contact us) to close it, before closing your account.',
    );
  });

  it('a staff account', async () => {
    const staff = await createUser(db, t.services.identity, 'moderator@close.test', { roles: ['moderator'] });
    const refused = await failure(close(staff.accessToken));
    expect(refused.status).toBe(409);
    expect(refused.message).toBe(
      'Staff accounts cannot be closed here: ask another admin to remove your staff access and close the account.',
    );
  });
});

describe('a member with a completed order and a review closes their account', () => {
  it('withdraws, removes and anonymises what is theirs, and keeps the order, payment and review', async () => {
    const order = await completedOrder(t);
    const member = order.buyer;
    const token = await signIn(member.email);
    // Both sides review, so the reviews are published.
    await writeReview(db, member.id, { orderId: order.orderId, stars: 5, body: 'Lovely seller, fast post.' });
    await writeReview(db, order.seller.id, { orderId: order.orderId, stars: 5, body: 'Paid at once.' });
    // The member also sells: one book on sale, one draft.
    const book = await createBook(db, { title: 'A book the closing member sells' });
    const onSale = await createListing(db, { sellerId: member.id, bookId: book, price: 500 });
    const draft = await createListing(db, { sellerId: member.id, bookId: book, status: 'draft' });
    // Wishes, follows both ways, a saved address, an API token, a bio and town.
    const other = await createPerson(db, `other-${Date.now()}@close.test`);
    const otherBook = await createBook(db, { title: 'A book someone else sells' });
    const wished = await createListing(db, { sellerId: other, bookId: otherBook, price: 700 });
    await db.insertInto('wishlist_items').values({ user_id: member.id, listing_id: wished.id }).execute();
    // A want, matched once (decision 0088).
    const want = await db
      .insertInto('wants')
      .values({ user_id: member.id, kind: 'edition', book_id: otherBook })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('want_matches').values({ want_id: want.id, listing_id: wished.id }).execute();
    await db
      .insertInto('follows')
      .values({ follower_id: member.id, kind: 'seller', seller_id: other })
      .execute();
    await db
      .insertInto('follows')
      .values({ follower_id: other, kind: 'seller', seller_id: member.id })
      .execute();
    await db
      .updateTable('profiles')
      .set({ bio: 'I love old paperbacks.', town: 'Bath', display_name: 'Jo Buyer' })
      .where('id', '=', member.id)
      .execute();
    const created = await api(t.app, token).account.apiTokens.create.mutate({
      name: 'My script',
      scope: 'read',
    });
    expect(created.token).toMatch(/^rsk_/);
    // They had said they sell as a business (decision 0073): their trading details go with the account.
    await api(t.app, token).selling.trader.declareBusiness.mutate({
      tradingName: 'Jo’s Paperbacks',
      isCompany: false,
      addressLine1: '3 Gay Street',
      town: 'Bath',
      postcode: 'BA1 2PH',
      contactEmail: 'jo@paperbacks.test',
    });

    const answer = await close(token);
    expect(answer).toEqual({ ok: true });

    const listings = await db
      .selectFrom('listings')
      .select(['id', 'status'])
      .where('seller_id', '=', member.id)
      .execute();
    expect(listings).toEqual([{ id: onSale.id, status: 'withdrawn' }]);
    expect(listings.find((row) => row.id === draft.id)).toBeUndefined();
    expect(
      await db
        .selectFrom('seller_trade_declarations')
        .select('user_id')
        .where('user_id', '=', member.id)
        .execute(),
    ).toEqual([]);

    const profile = await db
      .selectFrom('profiles')
      .select(['display_name', 'bio', 'town', 'avatar_url', 'closed_at'])
      .where('id', '=', member.id)
      .executeTakeFirstOrThrow();
    expect(profile).toMatchObject({ display_name: 'Former member', bio: null, town: null, avatar_url: null });
    expect(profile.closed_at).toBeInstanceOf(Date);

    expect(
      await db.selectFrom('wishlist_items').select('listing_id').where('user_id', '=', member.id).execute(),
    ).toEqual([]);
    expect(await db.selectFrom('wants').select('id').where('user_id', '=', member.id).execute()).toEqual([]);
    expect(
      await db.selectFrom('want_matches').select('want_id').where('listing_id', '=', wished.id).execute(),
    ).toEqual([]);
    expect(
      await db
        .selectFrom('follows')
        .select('id')
        .where((eb) => eb.or([eb('follower_id', '=', member.id), eb('seller_id', '=', member.id)]))
        .execute(),
    ).toEqual([]);
    const tokens = await db
      .selectFrom('api_tokens')
      .select('revoked_at')
      .where('user_id', '=', member.id)
      .execute();
    expect(tokens.length).toBe(1);
    expect(tokens[0]!.revoked_at).toBeInstanceOf(Date);
    expect(
      await db.selectFrom('email_suppressions').select('list').where('user_id', '=', member.id).execute(),
    ).toEqual([{ list: 'all' }]);

    // Kept: the order (with its shipping address) and its payment.
    const kept = await db
      .selectFrom('orders')
      .select(['status', 'buyer_id', 'shipping_address'])
      .where('id', '=', order.orderId)
      .executeTakeFirstOrThrow();
    expect(kept).toMatchObject({ status: 'completed', buyer_id: member.id });
    expect(kept.shipping_address).not.toBeNull();
    expect(
      await db.selectFrom('payments').select('id').where('id', '=', order.paymentId).executeTakeFirst(),
    ).toEqual({ id: order.paymentId });

    // The review still shows, written by "Former member".
    const shown = await reviewsFor(db, { sellerId: order.seller.id });
    const review = shown.reviews.find((r) => r.body === 'Lovely seller, fast post.');
    expect(review?.authorName).toBe('Former member');

    // Their session has ended, and signing in with the old address and password fails.
    const after = await failure(api(t.app, token).account.member.profile.query());
    expect(after.status).toBe(401);
    await expect(t.services.identity.signIn(member.email, TEST_PASSWORD, {})).rejects.toMatchObject({
      code: 'invalid_credentials',
    });

    // The address is free: a new account signs up with it and gets its own confirmation email.
    await t.services.identity.signUp(
      { email: member.email, password: 'a-brand-new-password', displayName: 'New Jo' },
      { confirmUrl: 'http://shop.test/auth/confirm', resetUrl: 'http://shop.test/reset-password' },
    );
    const accounts = await db
      .selectFrom('auth.users')
      .select('id')
      .where('email', '=', member.email)
      .execute();
    expect(accounts.length).toBe(1);
    expect(accounts[0]!.id).not.toBe(member.id);
    const confirm = await db
      .selectFrom('email_outbox')
      .select('template')
      .where('to_address', '=', member.email)
      .where('template', '=', 'confirm-signup')
      .execute();
    expect(confirm.length).toBe(1);

    // The audit entry and the email to the address the account had.
    const audit = await db
      .selectFrom('audit_log')
      .select(['actor_id', 'action', 'target_type', 'target_id'])
      .where('action', '=', 'account.close')
      .where('target_id', '=', member.id)
      .executeTakeFirstOrThrow();
    expect(audit).toEqual({
      actor_id: member.id,
      action: 'account.close',
      target_type: 'user',
      target_id: member.id,
    });
    const mail = await db
      .selectFrom('email_outbox')
      .select(['subject', 'text_body'])
      .where('to_address', '=', member.email)
      .where('template', '=', 'account-closed')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe('Your Reshelf account is closed');
    expect(mail.text_body).toContain('six years');
  });
});
