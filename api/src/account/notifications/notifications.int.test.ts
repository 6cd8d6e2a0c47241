/**
 * Notifications through the real app and database: every event a member expects
 * writes one in the event's own transaction and announces it on the member's realtime stream;
 * each is emailed as the member's preferences say (the dev mailbox is the outbox); the list,
 * the unread count and marking read are the member's own, and nobody else's.
 */
import type { AddressInfo } from 'node:net';
import type { NotificationKind } from '@reshelf/contracts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { type JobContext, runJob } from '../../jobs.ts';
import { notify } from '../../platform/notifications/notify.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { createBook, createCharity, createListing } from '../../testing/catalogue.ts';
import { api, refusal, statusOf } from '../../testing/client.ts';
import { recordSubscription, testClient } from '../../testing/realtime.ts';
import { until } from '../../testing/until.ts';
import { emailDueNotifications } from './notification-mail.ts';

let t: TestApp;
let db: Database;
let url: string;
let staff: TestUser;
let admin: TestUser;
let n = 0;

const address = {
  fullName: 'Jo March',
  line1: '1 Orchard House',
  line2: null,
  town: 'Bath',
  postcode: 'BA1 1AA',
};

async function person(label: string): Promise<TestUser> {
  n += 1;
  return createUser(db, t.services.identity, `${label}-${n}@notifications.test`);
}

const as = (user: TestUser) => api(t.app, user.accessToken);

interface Listed {
  kind: NotificationKind;
  title: string;
  body: string;
  link: string | null;
  read: boolean;
  id: string;
  listing: { title: string } | null;
}

async function notices(user: TestUser): Promise<{ items: Listed[]; unread: number }> {
  return await as(user).account.notifications.list.query({ limit: 100 });
}

async function noticeOf(user: TestUser, kind: NotificationKind): Promise<Listed[]> {
  return (await notices(user)).items.filter((item) => item.kind === kind);
}

/** What the dev mailbox holds for `to` with `template`. */
async function mailbox(to: string, template: string) {
  return db
    .selectFrom('email_outbox')
    .select(['subject', 'text_body', 'list', 'unsubscribe_url', 'template'])
    .where('to_address', '=', to)
    .where('template', '=', template)
    .orderBy('created_at')
    .execute();
}

function jobs(): JobContext {
  return {
    db,
    payments: t.services.payments,
    mailer: t.services.mailer,
    storage: t.services.storage,
    origin: t.config.siteOrigin,
  };
}

async function book(seller: TestUser, price = 1000, title = 'Middlemarch') {
  n += 1;
  const bookId = await createBook(db, { title: `${title} ${n}`, authors: ['George Eliot'] });
  const listing = await createListing(db, { sellerId: seller.id, bookId, price, parcelSize: 'small' });
  return { ...listing, title: `${title} ${n}` };
}

/** Checkout and the test provider's payment page, as a buyer pays. */
async function buy(buyer: TestUser, listingId: string): Promise<string> {
  const started = await as(buyer).commerce.checkout.start.mutate({
    listingId,
    address,
    idempotencyKey: `notify-${listingId}`,
  });
  const page = new URL(started.redirectUrl);
  const paid = await request(t.app.server).post(`${page.pathname}/success`);
  expect(paid.status).toBe(303);
  return started.orderId;
}

async function dispatchAndArrive(seller: TestUser, buyer: TestUser, orderId: string) {
  await as(seller).commerce.orders.member.dispatch.mutate({
    orderId,
    carrier: 'royal_mail_tracked_48',
    trackingRef: 'AB123456789GB',
  });
  await as(buyer).commerce.orders.member.markArrived.mutate({ orderId });
}

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  staff = await createUser(db, t.services.identity, 'staff@notifications.test', { roles: ['moderator'] });
  admin = await createUser(db, t.services.identity, 'admin@notifications.test', { roles: ['admin'] });
});

afterAll(async () => {
  await t?.close();
});

describe('offers', () => {
  it('tells the seller of an offer at once (realtime), and each side of counters, acceptance and refusals', async () => {
    const seller = await person('seller');
    const buyer = await person('buyer');
    const listing = await book(seller, 1000);

    // The seller's open app is told the moment the offer commits.
    const stream = recordSubscription<{ kind: string; entityId: string | null }>((handlers) =>
      testClient(url, seller.accessToken).platform.realtime.events.subscribe(undefined, handlers),
    );
    try {
      await until(() => t.app.realtime.stats().live >= 1, 'the seller subscribed');
      const { offerId } = await as(buyer).commerce.offers.member.make.mutate({
        listingId: listing.id,
        amountMinor: 700,
      });
      const [received] = await noticeOf(seller, 'offer_received');
      expect(received).toMatchObject({
        title: expect.stringContaining('£7.00'),
        link: '/account/offers?view=received',
        read: false,
        listing: expect.objectContaining({ title: listing.title }),
      });
      const events = await stream.waitFor(1, 'the notification event');
      expect(events[0]?.data).toMatchObject({ kind: 'notification.created', entityId: received?.id });
      expect(await mailbox(seller.email, 'offer.made')).toHaveLength(1);

      // The seller counters; the buyer accepts: each hears of the other's step.
      const counter = await as(seller).commerce.offers.member.counter.mutate({ offerId, amountMinor: 850 });
      expect(await noticeOf(buyer, 'offer_countered')).toEqual([
        expect.objectContaining({
          title: expect.stringContaining('£8.50'),
          link: '/account/offers?view=made',
        }),
      ]);
      await as(buyer).commerce.offers.member.respond.mutate({ offerId: counter.offerId, action: 'accept' });
      expect(await noticeOf(seller, 'offer_accepted')).toHaveLength(1);
      expect(await mailbox(seller.email, 'offer.accepted')).toHaveLength(1);
    } finally {
      stream.close();
    }
  });

  it('tells the buyer when their offer is declined, or expires unanswered', async () => {
    const seller = await person('seller');
    const buyer = await person('buyer');
    const first = await book(seller, 1000, 'Declined');
    const second = await book(seller, 1000, 'Expired');
    const declined = await as(buyer).commerce.offers.member.make.mutate({
      listingId: first.id,
      amountMinor: 600,
    });
    await as(seller).commerce.offers.member.respond.mutate({ offerId: declined.offerId, action: 'decline' });
    expect(await noticeOf(buyer, 'offer_declined')).toEqual([
      expect.objectContaining({ body: expect.stringContaining(first.title) }),
    ]);
    expect(await mailbox(buyer.email, 'offer.declined')).toHaveLength(1);

    const expiring = await as(buyer).commerce.offers.member.make.mutate({
      listingId: second.id,
      amountMinor: 600,
    });
    // 48 hours pass.
    await db
      .updateTable('offers')
      .set({ expires_at: new Date(Date.now() - 60_000) })
      .where('id', '=', expiring.offerId)
      .execute();
    await runJob(jobs(), 'offers.expire');
    expect(await noticeOf(buyer, 'offer_expired')).toEqual([
      expect.objectContaining({ title: `Offer expired: ${second.title}` }),
    ]);
    expect(await mailbox(buyer.email, 'offer.expired')).toHaveLength(1);
  });
});

describe('orders', () => {
  it('tells each side of a sale, payment, dispatch (with tracking), delivery, completion, payout and refund', async () => {
    const seller = await person('seller');
    const buyer = await person('buyer');
    const listing = await book(seller, 1200, 'Persuasion');
    const orderId = await buy(buyer, listing.id);

    expect(await noticeOf(seller, 'order_sold')).toEqual([
      expect.objectContaining({
        link: `/account/sales/${orderId}`,
        title: `You sold ${listing.title} — please send it`,
      }),
    ]);
    expect(await noticeOf(buyer, 'order_paid')).toEqual([
      expect.objectContaining({
        link: `/account/orders/${orderId}`,
        title: `Order confirmed: ${listing.title}`,
      }),
    ]);
    expect(await mailbox(seller.email, 'order.placed')).toHaveLength(1);

    await dispatchAndArrive(seller, buyer, orderId);
    const [dispatched] = await noticeOf(buyer, 'order_dispatched');
    expect(dispatched?.body).toContain('tracking reference AB123456789GB');
    expect(await mailbox(buyer.email, 'order.dispatched')).toHaveLength(1);
    expect(await noticeOf(seller, 'order_delivered')).toHaveLength(1);
    expect(await noticeOf(buyer, 'order_delivered')).toHaveLength(1);

    await as(buyer).commerce.orders.member.confirm.mutate({ orderId });
    expect(await noticeOf(buyer, 'order_completed')).toHaveLength(1);
    expect(await noticeOf(seller, 'payout_released')).toEqual([
      expect.objectContaining({
        link: '/account/payouts',
        body: expect.stringContaining('released to your payouts'),
      }),
    ]);

    // Staff refund part of it afterwards: the buyer is told.
    await as(admin).commerce.orders.staff.refund.mutate({
      orderId,
      amountMinor: 300,
      reason: 'A torn dust jacket',
    });
    expect(await noticeOf(buyer, 'refund')).toEqual([
      expect.objectContaining({ title: expect.stringContaining('Refund of £3.00') }),
    ]);
    expect(await mailbox(buyer.email, 'order.staff_refund')).toHaveLength(1);
  });

  it('tells the seller of a reported problem, and both sides of its resolution', async () => {
    const seller = await person('seller');
    const buyer = await person('buyer');
    const listing = await book(seller, 900, 'Emma');
    const orderId = await buy(buyer, listing.id);
    await dispatchAndArrive(seller, buyer, orderId);
    await as(buyer).commerce.disputes.member.report.mutate({
      orderId,
      problem: 'not_as_described',
      description: 'Half the pages are missing.',
      photos: [],
    });
    expect(await noticeOf(seller, 'dispute_opened')).toEqual([
      expect.objectContaining({ body: expect.stringContaining('Half the pages are missing.') }),
    ]);
    // The buyer reported it: not told of their own report.
    expect(await noticeOf(buyer, 'dispute_opened')).toEqual([]);

    const dispute = await db
      .selectFrom('disputes')
      .select('id')
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow();
    await as(staff).commerce.disputes.staff.decide.mutate({
      disputeId: dispute.id,
      decision: 'full_refund',
      note: 'The photos show the missing pages.',
    });
    expect(await noticeOf(buyer, 'dispute_resolved')).toHaveLength(1);
    expect(await noticeOf(seller, 'dispute_resolved')).toHaveLength(1);
    expect(await mailbox(buyer.email, 'order.dispute_decided')).toHaveLength(1);
  });
});

describe('charities', () => {
  it('tells the applicant of the decision, and an invited member of the invitation', async () => {
    const owner = await person('owner');
    const invitee = await person('invitee');
    n += 1;
    const charityId = await createCharity(db, {
      slug: `notify-charity-${n}`,
      name: `Books for All ${n}`,
      status: 'pending',
      ownerId: owner.id,
    });
    await as(staff).charities.review.mutate({ charityId, decision: 'approve' });
    expect(await noticeOf(owner, 'charity_application_decided')).toEqual([
      expect.objectContaining({ title: `Books for All ${n} is approved to sell on Reshelf` }),
    ]);

    await as(owner).charities.invite.mutate({ email: invitee.email });
    expect(await noticeOf(invitee, 'team_invitation')).toEqual([
      expect.objectContaining({
        link: '/charity/dashboard',
        body: expect.stringContaining(`Books for All ${n}`),
      }),
    ]);
  });
});

describe('emails as the member chooses', () => {
  it('emails wishlist price drops unless turned off in settings or by the one-click link', async () => {
    const seller = await person('seller');
    const buyer = await person('buyer');
    const listing = await book(seller, 1000, 'Dracula');
    await as(buyer).catalogue.wishlist.toggle.mutate({ listingId: listing.id, wished: true });
    const reprice = async (priceMinor: number) =>
      await as(seller).selling.listings.update.mutate({ listingId: listing.id, priceMinor });

    expect(await as(buyer).account.notifications.emailPreferences.query()).toEqual({
      lists: { messages: true, wishlist_alerts: true, saved_searches: true, wants: true },
    });
    await reprice(900);
    expect(await noticeOf(buyer, 'wishlist_price_drop')).toHaveLength(1);
    await runJob(jobs(), 'notifications.email');
    const [alert] = await mailbox(buyer.email, 'wishlist_alerts.price_drop');
    expect(alert).toMatchObject({
      list: 'wishlist_alerts',
      // All-in (decision 0071): £9.00 and 70p + 45p buyer protection.
      subject: `Price drop: ${listing.title} is now £10.15`,
    });
    // Sent once.
    await runJob(jobs(), 'notifications.email');
    expect(await mailbox(buyer.email, 'wishlist_alerts.price_drop')).toHaveLength(1);

    // Turned off in settings: the next drop is in the app, not emailed.
    expect(
      await as(buyer).account.notifications.setEmailPreference.mutate({
        list: 'wishlist_alerts',
        enabled: false,
      }),
    ).toEqual({ lists: { messages: true, wishlist_alerts: false, saved_searches: true, wants: true } });
    await as(buyer).account.notifications.markRead.mutate({ ids: 'all' });
    await reprice(800);
    expect((await noticeOf(buyer, 'wishlist_price_drop')).filter((item) => !item.read)).toHaveLength(1);
    await runJob(jobs(), 'notifications.email');
    expect(await mailbox(buyer.email, 'wishlist_alerts.price_drop')).toHaveLength(1);

    // On again; then the email's one-click link (RFC 8058) turns it off, as settings show.
    await as(buyer).account.notifications.setEmailPreference.mutate({
      list: 'wishlist_alerts',
      enabled: true,
    });
    await as(buyer).account.notifications.markRead.mutate({ ids: 'all' });
    await reprice(700);
    await runJob(jobs(), 'notifications.email');
    const sent = await mailbox(buyer.email, 'wishlist_alerts.price_drop');
    expect(sent).toHaveLength(2);
    const oneClick = new URL(sent[1]?.unsubscribe_url as string);
    const unsubscribed = await request(t.app.server)
      .post(`${oneClick.pathname}${oneClick.search}`)
      .type('form')
      .send('List-Unsubscribe=One-Click');
    expect(unsubscribed.status).toBe(200);
    expect((await as(buyer).account.notifications.emailPreferences.query()).lists.wishlist_alerts).toBe(
      false,
    );
  });

  it('always emails what cannot be turned off, and refuses to turn it off', async () => {
    const member = await person('member');
    const refused = await refusal(
      as(member).account.notifications.setEmailPreference.mutate({ list: 'order' as never, enabled: false }),
    );
    expect(refused.status).toBe(400);
    expect(refused.message).toMatch(/messages|wishlist_alerts/);
  });

  it('emails unread messages as one digest after 10 minutes, only if the member wants it', async () => {
    const reader = await person('reader');
    const quiet = await person('quiet');
    await as(quiet).account.notifications.setEmailPreference.mutate({ list: 'messages', enabled: false });
    const threadId = '00000000-0000-4000-8000-000000000001';
    // What the messages feature does for each message, in the message's transaction.
    for (const [to, text] of [
      [reader, 'Is the dust jacket intact?'],
      [reader, 'And does it have the map?'],
      [quiet, 'Hello?'],
    ] as const) {
      await db.transaction().execute((trx) =>
        notify(trx, {
          userId: to.id,
          kind: 'message_received',
          title: 'Ann asked about Middlemarch',
          body: text,
          link: `/messages/${threadId}`,
          entityId: threadId,
        }),
      );
    }
    await runJob(jobs(), 'notifications.email');
    expect(await mailbox(reader.email, 'messages.digest')).toEqual([]);
    // Ten minutes on (the job's clock).
    const later = new Date(Date.now() + 11 * 60_000);
    await emailDueNotifications(jobs(), later);
    const digest = await mailbox(reader.email, 'messages.digest');
    expect(digest).toHaveLength(1);
    expect(digest[0]).toMatchObject({ subject: 'You have 2 unread messages', list: 'messages' });
    expect(digest[0]?.text_body).toContain('Is the dust jacket intact?');
    expect(digest[0]?.text_body).toContain('And does it have the map?');
    expect(await mailbox(quiet.email, 'messages.digest')).toEqual([]);
    // Nothing twice.
    await emailDueNotifications(jobs(), new Date(later.getTime() + 60_000));
    expect(await mailbox(reader.email, 'messages.digest')).toHaveLength(1);
  });
});

describe('access', () => {
  it('lists, counts and marks only the member’s own notifications', async () => {
    const seller = await person('seller');
    const other = await person('other');
    const buyer = await person('buyer');
    const listing = await book(seller);
    await as(buyer).commerce.offers.member.make.mutate({ listingId: listing.id, amountMinor: 700 });
    const [mine] = (await notices(seller)).items;
    expect(mine).toBeDefined();

    // Another member sees none of them, and marking the seller's as read changes nothing.
    expect((await notices(other)).items).toEqual([]);
    expect(await as(other).account.notifications.unreadCount.query()).toEqual({ unread: 0 });
    expect(await as(other).account.notifications.markRead.mutate({ ids: [mine!.id] })).toEqual({
      unread: 0,
    });
    expect(await as(other).account.notifications.markRead.mutate({ ids: 'all' })).toEqual({ unread: 0 });
    expect((await notices(seller)).items[0]).toMatchObject({ id: mine?.id, read: false });
    expect((await notices(seller)).unread).toBe(1);

    // Signed out: refused.
    expect(await statusOf(api(t.app, 'not-a-token').account.notifications.list.query())).toBe(401);
    expect(
      await statusOf(api(t.app, 'not-a-token').account.notifications.markRead.mutate({ ids: 'all' })),
    ).toBe(401);

    // The seller marks theirs; the unread count follows.
    expect(await as(seller).account.notifications.markRead.mutate({ ids: [mine!.id] })).toEqual({
      unread: 0,
    });
    expect((await notices(seller)).items[0]).toMatchObject({ read: true });
    expect(await statusOf(as(seller).account.notifications.markRead.mutate({ ids: ['nope'] }))).toBe(400);
  });

  it('writes nothing, and announces nothing, when the event rolls back', async () => {
    const member = await person('rollback');
    await expect(
      db.transaction().execute(async (trx) => {
        await notify(trx, {
          userId: member.id,
          kind: 'refund',
          title: 'Refund of £3.00',
          body: 'On its way.',
        });
        throw new Error('the refund failed');
      }),
    ).rejects.toThrow('the refund failed');
    expect((await notices(member)).items).toEqual([]);
    expect(
      await db.selectFrom('realtime_events').select('id').where('topic', '=', `user:${member.id}`).execute(),
    ).toEqual([]);
  });

  it('pages through the list newest first, without skipping or repeating', async () => {
    const member = await person('pager');
    for (let i = 0; i < 5; i += 1) {
      await db.transaction().execute((trx) =>
        notify(trx, {
          userId: member.id,
          kind: 'team_invitation',
          title: `Invitation ${i}`,
          body: 'Join us.',
        }),
      );
    }
    const first = await as(member).account.notifications.list.query({ limit: 2 });
    const second = await as(member).account.notifications.list.query({ limit: 2, cursor: first.nextCursor });
    const third = await as(member).account.notifications.list.query({ limit: 2, cursor: second.nextCursor });
    const titles = [...first.items, ...second.items, ...third.items].map((item: Listed) => item.title);
    expect(titles).toEqual(['Invitation 4', 'Invitation 3', 'Invitation 2', 'Invitation 1', 'Invitation 0']);
    expect(third.nextCursor).toBeNull();
    expect(await statusOf(as(member).account.notifications.list.query({ limit: 2, cursor: 'soon' }))).toBe(
      400,
    );
  });
});
