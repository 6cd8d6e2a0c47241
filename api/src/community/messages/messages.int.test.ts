/**
 * Messages through the real app and real PostgreSQL: who may read, write and subscribe (a
 * matrix: the two members, a charity's team, strangers, blocked and suspended members, staff
 * with and without a report or dispute), what a message may be, the rate limit, read receipts
 * and unread counts, search, reports, and the live stream resuming after a lost connection with
 * exactly the messages missed, once.
 */
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import {
  MESSAGE_TEXTS,
  REPORT_REASON_MESSAGE,
  suggestsOffPlatform,
  withoutSignature,
} from '@reshelf/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailDueNotifications } from '../../account/notifications/notification-mail.ts';
import { buildApp } from '../../app.ts';
import { createDatabase, type Database } from '../../db/index.ts';
import { publish, userTopic } from '../../platform/realtime/realtime.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, lastEmailTo, type TestUser } from '../../testing/auth.ts';
import { createBook, createCharity, createListing } from '../../testing/catalogue.ts';
import { api, failure, refusal, statusOf } from '../../testing/client.ts';
import { disputedOrder, paidOrder } from '../../testing/orders.ts';
import { recordSubscription, testClient } from '../../testing/realtime.ts';
import { photo } from '../../testing/selling.ts';
import { until } from '../../testing/until.ts';
import { MESSAGE_RATE, STAFF_NEEDS_REASON, startOrderThread } from './messages.service.ts';

let t: TestApp;
let db: Database;
let url: string;
let seller: TestUser;
let buyer: TestUser;
let stranger: TestUser;
let moderator: TestUser;
let listing: { id: string; slug: string };
let threadId: string;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  seller = await createUser(db, t.services.identity, 'seller@messages.test');
  buyer = await createUser(db, t.services.identity, 'buyer@messages.test');
  stranger = await createUser(db, t.services.identity, 'stranger@messages.test');
  moderator = await createUser(db, t.services.identity, 'moderator@messages.test', { roles: ['moderator'] });
  listing = await createListing(db, {
    sellerId: seller.id,
    bookId: await createBook(db, { title: 'The Lighthouse Keeper' }),
    price: 850,
  });
  threadId = (
    await api(t.app, buyer.accessToken).community.messages.member.startForListing.mutate({
      listingId: listing.id,
    })
  ).threadId;
});

afterAll(async () => {
  await t.close();
});

const as = (user: TestUser) => api(t.app, user.accessToken);

async function send(user: TestUser, thread: string, text: string, photos: string[] = []) {
  return as(user).community.messages.member.send.mutate({ threadId: thread, text, photos });
}

/**
 * A charity (owner and one staff member, owner@<label>.messages.test and helper@…) with one
 * donated book listed.
 */
async function charityWithDonation(label: string, slug: string, name: string, title: string) {
  const owner = await createUser(db, t.services.identity, `owner@${label}.messages.test`);
  const helper = await createUser(db, t.services.identity, `helper@${label}.messages.test`);
  const charityId = await createCharity(db, { slug, name, ownerId: owner.id });
  await db
    .insertInto('charity_members')
    .values({ charity_id: charityId, user_id: helper.id, role: 'staff' })
    .execute();
  const donated = await createListing(db, {
    sellerId: owner.id,
    charityId,
    bookId: await createBook(db, { title }),
  });
  return { owner, helper, charityId, donated };
}

async function newThread(title: string, price = 500) {
  const owner = await createUser(
    db,
    t.services.identity,
    `${title.toLowerCase().replace(/\W+/g, '-')}@messages.test`,
  );
  const item = await createListing(db, {
    sellerId: owner.id,
    bookId: await createBook(db, { title }),
    price,
  });
  const id = (await as(buyer).community.messages.member.startForListing.mutate({ listingId: item.id }))
    .threadId as string;
  return { owner, listing: item, threadId: id };
}

describe('a conversation about a listing', () => {
  it('is one thread per listing and buyer, started from the listing; not on your own listing', async () => {
    const again = await as(buyer).community.messages.member.startForListing.mutate({ listingId: listing.id });
    expect(again.threadId).toBe(threadId);
    expect(
      await refusal(as(seller).community.messages.member.startForListing.mutate({ listingId: listing.id })),
    ).toEqual({
      status: 400,
      message: MESSAGE_TEXTS.ownListing,
    });
    const draft = await createListing(db, {
      sellerId: seller.id,
      bookId: await createBook(db, { title: 'Unpublished' }),
      status: 'draft',
    });
    expect(
      await refusal(as(buyer).community.messages.member.startForListing.mutate({ listingId: draft.id })),
    ).toEqual({
      status: 404,
      message: MESSAGE_TEXTS.listingGone,
    });
  });

  it('carries messages both ways, with read receipts and unread counts', async () => {
    await send(buyer, threadId, 'Hello! Is the dust jacket intact?');
    expect(await as(seller).community.messages.member.unread.query()).toEqual({ messages: 1, threads: 1 });
    expect(await as(buyer).community.messages.member.unread.query()).toEqual({ messages: 0, threads: 0 });

    const inbox = await as(seller).community.messages.member.threads.query({});
    expect(inbox).toHaveLength(1);
    expect(inbox[0]).toMatchObject({
      id: threadId,
      side: 'seller',
      counterpartName: 'buyer',
      unread: 1,
      listing: { title: 'The Lighthouse Keeper', priceMinor: 850, status: 'active' },
      lastMessage: { text: 'Hello! Is the dust jacket intact?', fromMe: false },
    });

    const before = await as(buyer).community.messages.member.thread.query({ threadId });
    expect(before.entries.at(-1)).toMatchObject({ fromMe: true, readAt: null });

    expect(await as(seller).community.messages.member.markRead.mutate({ threadId })).toEqual({ marked: 1 });
    expect(await as(seller).community.messages.member.unread.query()).toEqual({ messages: 0, threads: 0 });
    const after = await as(buyer).community.messages.member.thread.query({ threadId });
    expect(after.entries.at(-1)).toMatchObject({ readAt: expect.any(String) });

    await send(seller, threadId, 'It is, and unclipped.');
    const view = await as(buyer).community.messages.member.thread.query({ threadId });
    expect(view).toMatchObject({
      side: 'buyer',
      counterpartName: 'seller',
      canWrite: true,
      offPlatformWarning: false,
      listing: { title: 'The Lighthouse Keeper', priceMinor: 850 },
      order: null,
    });
    expect(view.entries.map((entry) => entry.text)).toEqual([
      'Hello! Is the dust jacket intact?',
      'It is, and unclipped.',
    ]);
  });

  it('lists the newest conversation first and finds one by book title or member name', async () => {
    const other = await newThread('Moby Dick');
    await send(buyer, other.threadId, 'Which edition is it?');
    const all = await as(buyer).community.messages.member.threads.query({});
    expect(all.map((thread) => thread.id)).toEqual([other.threadId, threadId]);
    const byTitle = await as(buyer).community.messages.member.threads.query({ q: 'lighthouse' });
    expect(byTitle.map((thread) => thread.id)).toEqual([threadId]);
    const byName = await as(buyer).community.messages.member.threads.query({ q: 'moby-dick' });
    expect(byName.map((thread) => thread.id)).toEqual([other.threadId]);
    const byBuyer = await as(seller).community.messages.member.threads.query({ q: 'BUYER' });
    expect(byBuyer.map((thread) => thread.id)).toEqual([threadId]);
    expect(await as(seller).community.messages.member.threads.query({ q: 'moby' })).toEqual([]);
    // Wildcards are searched for, not used.
    expect(await as(buyer).community.messages.member.threads.query({ q: '%' })).toEqual([]);
  });

  it('shows offers and the order as system lines, and the order state inline', async () => {
    const order = await paidOrder(t, 1200, 'Ordered book', { buyer: { id: buyer.id, email: buyer.email } });
    const sellerUser = order.seller;
    const orderThread = (
      await as(buyer).community.messages.member.startForOrder.mutate({ orderId: order.orderId })
    ).threadId as string;
    // The seller's side opens the same thread from the order page.
    expect((await startOrderThread(db, sellerUser.id, order.orderId)).threadId).toBe(orderThread);
    expect(
      await statusOf(as(stranger).community.messages.member.startForOrder.mutate({ orderId: order.orderId })),
    ).toBe(404);
    const view = await as(buyer).community.messages.member.thread.query({ threadId: orderThread });
    expect(view.order).toMatchObject({ id: order.orderId, reference: order.reference, status: 'paid' });
    const system = view.entries.filter((entry) => entry.kind === 'system');
    expect(system.map((entry) => entry.text)).toContain(`Order ${order.reference}: Paid — to dispatch`);
  });
});

describe('what a message may be', () => {
  it('refuses empty, too long and too many photos, naming what is wrong', async () => {
    expect(await refusal(send(buyer, threadId, '   '))).toEqual({
      status: 400,
      message: `text: ${MESSAGE_TEXTS.empty}`,
    });
    expect(await refusal(send(buyer, threadId, 'x'.repeat(2001)))).toEqual({
      status: 400,
      message: `text: ${MESSAGE_TEXTS.tooLong}`,
    });
    expect(await statusOf(send(buyer, threadId, 'x'.repeat(2000)))).toBe(200);
    const five = Array.from({ length: 5 }, (_, i) => `${url}/storage/messages/${threadId}/${i}/1600.webp`);
    expect(await refusal(send(buyer, threadId, 'pics', five))).toEqual({
      status: 400,
      message: `photos: ${MESSAGE_TEXTS.tooManyPhotos}`,
    });
    expect(
      await statusOf(as(buyer).community.messages.member.send.mutate({ threadId: 'nope', text: 'hi' })),
    ).toBe(400);
  });

  it('takes photos uploaded to this conversation only, checked as listing photos are', async () => {
    const upload = (user: TestUser, thread: string, bytes: Buffer, name = 'p.png', type = 'image/png') =>
      import('supertest').then(({ default: request }) =>
        request(t.app.server)
          .post(`/api/uploads/message-photo?threadId=${thread}`)
          .set('authorization', `Bearer ${user.accessToken}`)
          .attach('photo', bytes, { filename: name, contentType: type }),
      );
    const notImage = await upload(buyer, threadId, Buffer.from('hello, not a picture'), 'x.png');
    expect(notImage.status).toBe(400);
    const nosy = await upload(stranger, threadId, await photo(80, 60));
    expect(nosy.status).toBe(404);
    const ok = await upload(buyer, threadId, await photo(80, 60));
    expect(ok.status).toBe(201);
    // Signed for a while (a private photo: decision 0060); sent back as it is.
    expect(ok.body.url).toMatch(
      new RegExp(`^/storage/messages/${threadId}/[0-9a-f]{16}/1600\\.webp\\?expires=\\d+&sig=`),
    );
    const sent = await send(buyer, threadId, '', [ok.body.url]);
    expect(sent.id).toEqual(expect.any(String));
    const view = await as(seller).community.messages.member.thread.query({ threadId });
    const last = view.entries.at(-1)!;
    expect(last).toMatchObject({ text: '' });
    expect(last.kind === 'message' ? last.photos.map(withoutSignature) : []).toEqual([
      withoutSignature(ok.body.url),
    ]);
    // Another thread's photo, or any other URL, is refused.
    const other = await newThread('Photo thief');
    expect(await refusal(send(buyer, other.threadId, 'look', [ok.body.url]))).toMatchObject({ status: 400 });
    expect(await refusal(send(buyer, threadId, 'look', ['https://evil.example/x.webp']))).toMatchObject({
      status: 400,
    });
  });

  it('flags a message that suggests paying off the platform, and the thread warns', async () => {
    expect(suggestsOffPlatform('Can you do a bank transfer instead?')).toBe(true);
    expect(suggestsOffPlatform('my sort code is 12-34-56')).toBe(true);
    expect(suggestsOffPlatform('PayPal friends and family saves the fees')).toBe(true);
    expect(suggestsOffPlatform('Text me on 07700 900123')).toBe(true);
    expect(suggestsOffPlatform('email me at someone@example.com')).toBe(true);
    expect(suggestsOffPlatform('Is the spine cracked? Posted 2nd class?')).toBe(false);
    const fresh = await newThread('Off platform');
    await send(buyer, fresh.threadId, 'Is it still available?');
    expect(
      (await as(fresh.owner).community.messages.member.thread.query({ threadId: fresh.threadId }))
        .offPlatformWarning,
    ).toBe(false);
    const sent = await send(fresh.owner, fresh.threadId, 'Yes! Pay me by bank transfer and save the fees');
    expect(sent.offPlatform).toBe(true);
    for (const user of [buyer, fresh.owner]) {
      expect(
        (await as(user).community.messages.member.thread.query({ threadId: fresh.threadId }))
          .offPlatformWarning,
      ).toBe(true);
    }
  });

  it('limits how many messages a member sends', async () => {
    const fresh = await newThread('Chatty');
    // This minute's window and the next are full (so a minute ending mid-test changes nothing).
    await sql`
      insert into rate_limits (bucket, key, window_start, hits)
      select ${MESSAGE_RATE.bucket}, ${fresh.owner.id}, windows.start, ${MESSAGE_RATE.limit}
      from (select to_timestamp(floor(extract(epoch from now()) / ${MESSAGE_RATE.windowSeconds}) * ${MESSAGE_RATE.windowSeconds}) as current) now_window,
        lateral (values (now_window.current), (now_window.current + make_interval(secs => ${MESSAGE_RATE.windowSeconds}))) as windows(start)
    `.execute(db);
    const refused = await failure(send(fresh.owner, fresh.threadId, 'One too many'));
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toEqual(expect.any(String));
    // Someone else is not affected.
    expect(await statusOf(send(buyer, fresh.threadId, 'Still here'))).toBe(200);
  });
});

describe('who may read, write and subscribe', () => {
  it('is a matrix: members in, strangers and staff out (as if it did not exist), blocked read-only, suspended refused', async () => {
    const request = (await import('supertest')).default;
    const open = await newThread('Matrix open');
    const blocked = await newThread('Matrix blocked');
    const suspended = await newThread('Matrix suspended');
    const fromSeller = {
      open: (await send(open.owner, open.threadId, 'Hi from the seller')).id,
      blocked: (await send(blocked.owner, blocked.threadId, 'Hi from the seller')).id,
      suspended: (await send(suspended.owner, suspended.threadId, 'Hi from the seller')).id,
    };
    await as(blocked.owner).community.messages.member.block.mutate({ threadId: blocked.threadId });
    // A buyer of their own, suspended after the thread started.
    const suspendedBuyer = await createUser(db, t.services.identity, 'suspended-buyer@messages.test');
    const suspendedThread = (
      await as(suspendedBuyer).community.messages.member.startForListing.mutate({
        listingId: suspended.listing.id,
      })
    ).threadId as string;
    await db
      .updateTable('auth.users')
      .set({ banned_until: new Date(Date.now() + 86_400_000) })
      .where('id', '=', suspendedBuyer.id)
      .execute();
    const png = await photo(40, 30);
    const operations = {
      read: (user: TestUser, thread: string) =>
        statusOf(as(user).community.messages.member.thread.query({ threadId: thread })),
      send: (user: TestUser, thread: string) => statusOf(send(user, thread, 'Matrix message')),
      markRead: (user: TestUser, thread: string) =>
        statusOf(as(user).community.messages.member.markRead.mutate({ threadId: thread })),
      photo: async (user: TestUser, thread: string) =>
        (
          await request(t.app.server)
            .post(`/api/uploads/message-photo?threadId=${thread}`)
            .set('authorization', `Bearer ${user.accessToken}`)
            .attach('photo', png, { filename: 'p.png', contentType: 'image/png' })
        ).status,
      report: (user: TestUser, _thread: string, message: string) =>
        statusOf(as(user).community.messages.member.report.mutate({ messageId: message, reason: 'other' })),
    };
    const cases: [string, TestUser, string, string][] = [
      ['buyer', buyer, open.threadId, fromSeller.open],
      ['stranger', stranger, open.threadId, fromSeller.open],
      ['staff, not in it', moderator, open.threadId, fromSeller.open],
      ['blocked buyer', buyer, blocked.threadId, fromSeller.blocked],
      ['suspended buyer', suspendedBuyer, suspendedThread, fromSeller.suspended],
    ];
    const results: Record<string, Record<string, number>> = {};
    for (const [who, user, thread, message] of cases) {
      const row: Record<string, number> = {};
      for (const [name, operation] of Object.entries(operations)) {
        row[name] = await operation(user, thread, message);
      }
      results[who] = row;
    }
    expect(results).toEqual({
      buyer: { read: 200, send: 200, markRead: 200, photo: 201, report: 200 },
      stranger: { read: 404, send: 404, markRead: 404, photo: 404, report: 404 },
      'staff, not in it': { read: 404, send: 404, markRead: 404, photo: 404, report: 404 },
      'blocked buyer': { read: 200, send: 403, markRead: 200, photo: 403, report: 200 },
      'suspended buyer': { read: 401, send: 401, markRead: 401, photo: 401, report: 401 },
    });
  });

  it('refuses a stranger everything, as if the thread did not exist', async () => {
    const notFound = { status: 404, message: MESSAGE_TEXTS.notFound };
    expect(await refusal(as(stranger).community.messages.member.thread.query({ threadId }))).toEqual(
      notFound,
    );
    expect(await refusal(send(stranger, threadId, 'Hi'))).toEqual(notFound);
    expect(await refusal(as(stranger).community.messages.member.markRead.mutate({ threadId }))).toEqual(
      notFound,
    );
    expect(await refusal(as(stranger).community.messages.member.block.mutate({ threadId }))).toEqual(
      notFound,
    );
    expect(await as(stranger).community.messages.member.threads.query({})).toEqual([]);
    const message = await db
      .selectFrom('messages')
      .select('id')
      .where('thread_id', '=', threadId)
      .executeTakeFirstOrThrow();
    expect(
      await statusOf(
        as(stranger).community.messages.member.report.mutate({
          messageId: message.id,
          reason: 'spam',
        }),
      ),
    ).toBe(404);
    // Signed out: nothing at all.
    expect(await statusOf(api(t.app).community.messages.member.thread.query({ threadId }))).toBe(401);
  });

  it('lets a charity’s whole team share its inbox', async () => {
    const { owner, helper, donated } = await charityWithDonation(
      'charity',
      'books-for-all',
      'Books For All',
      'Donated Atlas',
    );
    // A team member cannot ask about the charity's own book; the session tells the web which
    // charity's team they are on, so the listing page does not offer "Message the charity".
    expect(
      await statusOf(as(helper).community.messages.member.startForListing.mutate({ listingId: donated.id })),
    ).toBe(400);
    expect((await as(helper).account.auth.me.query()).user?.charitySlug).toBe('books-for-all');
    expect((await as(owner).account.auth.me.query()).user?.charitySlug).toBe('books-for-all');
    expect((await as(buyer).account.auth.me.query()).user?.charitySlug).toBeNull();
    const id = (await as(buyer).community.messages.member.startForListing.mutate({ listingId: donated.id }))
      .threadId;
    await send(buyer, id, 'Is this the 1990 edition?');
    expect(await as(helper).community.messages.member.unread.query()).toEqual({ messages: 1, threads: 1 });
    const inbox = await as(helper).community.messages.member.threads.query({});
    expect(inbox[0]).toMatchObject({ id, side: 'seller', counterpartName: 'buyer' });
    await send(helper, id, 'It is!');
    const view = await as(buyer).community.messages.member.thread.query({ threadId: id });
    expect(view.counterpartName).toBe('Books For All');
    expect(view.entries.at(-1)).toMatchObject({ senderName: 'Books For All', text: 'It is!' });
    // Read by one of the team, read for the team.
    await as(owner).community.messages.member.markRead.mutate({ threadId: id });
    expect((await as(helper).community.messages.member.unread.query()).messages).toBe(0);
  });

  it('stops new messages both ways after a block; the thread stays to read; unblocking restores it', async () => {
    const fresh = await newThread('Blocked book');
    await send(buyer, fresh.threadId, 'Hi there');
    expect(
      await as(fresh.owner).community.messages.member.block.mutate({ threadId: fresh.threadId }),
    ).toEqual({
      ok: true,
    });
    const blocked = { status: 403, message: MESSAGE_TEXTS.blocked };
    expect(await refusal(send(buyer, fresh.threadId, 'Hello?'))).toEqual(blocked);
    expect(await refusal(send(fresh.owner, fresh.threadId, 'Bye'))).toEqual(blocked);
    const buyerView = await as(buyer).community.messages.member.thread.query({ threadId: fresh.threadId });
    expect(buyerView).toMatchObject({ canWrite: false, blockedByMe: false, blockedByThem: true });
    expect(buyerView.entries).toHaveLength(1);
    const ownerView = await as(fresh.owner).community.messages.member.thread.query({
      threadId: fresh.threadId,
    });
    expect(ownerView).toMatchObject({ canWrite: false, blockedByMe: true });
    // No new conversation between them either.
    const another = await createListing(db, {
      sellerId: fresh.owner.id,
      bookId: await createBook(db, { title: 'Second book' }),
    });
    expect(
      await refusal(as(buyer).community.messages.member.startForListing.mutate({ listingId: another.id })),
    ).toEqual(blocked);
    // Only the one who blocked can unblock.
    await as(buyer).community.messages.member.unblock.mutate({ threadId: fresh.threadId });
    expect(await refusal(send(buyer, fresh.threadId, 'Hello?'))).toEqual(blocked);
    await as(fresh.owner).community.messages.member.unblock.mutate({ threadId: fresh.threadId });
    expect(await statusOf(send(buyer, fresh.threadId, 'Hello again'))).toBe(200);
  });

  it('refuses a suspended member, and messages to one', async () => {
    const fresh = await newThread('Suspended seller');
    await send(buyer, fresh.threadId, 'Hi');
    await db
      .updateTable('auth.users')
      .set({ banned_until: new Date(Date.now() + 86_400_000) })
      .where('id', '=', fresh.owner.id)
      .execute();
    // A suspension ends the member's sessions: every call is refused.
    expect(await statusOf(send(fresh.owner, fresh.threadId, 'Reply'))).toBe(401);
    expect(await statusOf(as(fresh.owner).community.messages.member.threads.query({}))).toBe(401);
    expect(await db.selectFrom('messages').select('id').where('body', '=', 'Reply').execute()).toEqual([]);
    expect(await refusal(send(buyer, fresh.threadId, 'Are you there?'))).toEqual({
      status: 403,
      message: MESSAGE_TEXTS.recipientSuspended,
    });
    const client = testClient(url, fresh.owner.accessToken);
    const stream = recordSubscription((handlers) =>
      client.community.messages.member.live.subscribe(undefined, handlers),
    );
    await until(() => stream.errors.length > 0, 'the refusal');
    expect(stream.errors[0]?.data?.code).toBe('UNAUTHORIZED');
    stream.close();
  });

  it('refuses staff without a report or a dispute; with one they read, and it is audited', async () => {
    const fresh = await newThread('Reported book');
    const rude = await send(fresh.owner, fresh.threadId, 'You are an idiot');
    const staff = as(moderator);
    expect(
      await refusal(staff.community.messages.staff.thread.query({ threadId: fresh.threadId })),
    ).toMatchObject({
      status: 400,
    });
    // A report on another thread's message does not open this one.
    const elsewhere = await db
      .selectFrom('messages')
      .select('id')
      .where('thread_id', '=', threadId)
      .where('sender_id', '=', seller.id)
      .executeTakeFirstOrThrow();
    const otherReport = (
      await as(buyer).community.messages.member.report.mutate({ messageId: elsewhere.id, reason: 'other' })
    ).id;
    expect(
      await refusal(
        staff.community.messages.staff.thread.query({ threadId: fresh.threadId, reportId: otherReport }),
      ),
    ).toEqual({ status: 403, message: STAFF_NEEDS_REASON });
    // Members are not staff.
    expect(
      await statusOf(
        as(buyer).community.messages.staff.thread.query({ threadId: fresh.threadId, reportId: otherReport }),
      ),
    ).toBe(403);
    // Members report only the other side's messages, once while open.
    expect(
      await statusOf(
        as(fresh.owner).community.messages.member.report.mutate({ messageId: rude.id, reason: 'harassment' }),
      ),
    ).toBe(403);
    // A message is reported for what a message can do wrong, not for a listing's faults.
    expect(
      await refusal(
        as(buyer).community.messages.member.report.mutate({
          messageId: rude.id,
          reason: 'prohibited' as never,
        }),
      ),
    ).toEqual({ status: 400, message: expect.stringContaining(REPORT_REASON_MESSAGE) });
    const unreported = await as(buyer).community.messages.member.thread.query({ threadId: fresh.threadId });
    expect(unreported.entries.find((entry) => entry.id === rude.id)).toMatchObject({ reportedByMe: false });
    const reportId = (
      await as(buyer).community.messages.member.report.mutate({
        messageId: rude.id,
        reason: 'harassment',
        details: 'Rude',
      })
    ).id;
    expect(
      await statusOf(
        as(buyer).community.messages.member.report.mutate({ messageId: rude.id, reason: 'harassment' }),
      ),
    ).toBe(409);
    // The reporter's thread says so, for the message they reported; the sender's says nothing.
    const reported = await as(buyer).community.messages.member.thread.query({ threadId: fresh.threadId });
    expect(reported.entries.find((entry) => entry.id === rude.id)).toMatchObject({ reportedByMe: true });
    const sender = await as(fresh.owner).community.messages.member.thread.query({ threadId: fresh.threadId });
    expect(sender.entries.find((entry) => entry.id === rude.id)).toMatchObject({ reportedByMe: false });
    const read = await staff.community.messages.staff.thread.query({ threadId: fresh.threadId, reportId });
    expect(read.side).toBe('staff');
    expect(read.entries.map((entry) => entry.text)).toEqual(['You are an idiot']);
    const audit = await db
      .selectFrom('audit_log')
      .select(['actor_id', 'target_id', 'details'])
      .where('action', '=', 'message_thread.read')
      .execute();
    expect(audit).toEqual([{ actor_id: moderator.id, target_id: fresh.threadId, details: { reportId } }]);

    // The report is in the staff queue; acting hides the message from both members.
    const queue = await staff.community.moderation.staff.list.query({ kind: 'message' });
    expect(queue.find((report) => report.id === reportId)).toMatchObject({
      kind: 'message',
      threadMessage: {
        messageId: rude.id,
        threadId: fresh.threadId,
        text: 'You are an idiot',
        hidden: false,
      },
    });
    await staff.community.moderation.staff.act.mutate({
      reportId,
      note: 'Abusive language',
      warnSender: true,
    });
    const warning = await lastEmailTo(db, fresh.owner.email);
    expect(warning?.text_body).toContain('a message you sent about “Reported book”');
    expect(warning?.text_body).toContain('The reason: Abusive language');
    expect(warning?.text_body).toContain(`/messages/${fresh.threadId}`);
    const hideAudit = await db
      .selectFrom('audit_log')
      .select(['action', 'target_id'])
      .where('action', 'in', ['message.hide', 'report.action'])
      .where('actor_id', '=', moderator.id)
      .execute();
    expect(hideAudit).toEqual(
      expect.arrayContaining([
        { action: 'message.hide', target_id: rude.id },
        { action: 'report.action', target_id: reportId },
      ]),
    );
    const afterHide = await as(buyer).community.messages.member.thread.query({ threadId: fresh.threadId });
    expect(afterHide.entries[0]).toMatchObject({ hidden: true, text: null });
  });

  it('lets staff read an order’s thread through its dispute', async () => {
    const order = await disputedOrder(t);
    const { threadId: orderThread } = await startOrderThread(db, order.buyer.id, order.orderId);
    const staff = as(moderator);
    const read = await staff.community.messages.staff.thread.query({
      threadId: orderThread,
      disputeId: order.disputeId,
    });
    expect(read.order).toMatchObject({ id: order.orderId });
    expect(
      await refusal(staff.community.messages.staff.thread.query({ threadId, disputeId: order.disputeId })),
    ).toEqual({ status: 403, message: STAFF_NEEDS_REASON });
    const audit = await db
      .selectFrom('audit_log')
      .select(['target_id', 'details'])
      .where('action', '=', 'message_thread.read')
      .where('target_id', '=', orderThread)
      .execute();
    expect(audit).toEqual([{ target_id: orderThread, details: { disputeId: order.disputeId } }]);
    // From the dispute queue, by the dispute alone.
    const viaDispute = await staff.community.messages.staff.forDispute.query({ disputeId: order.disputeId });
    expect(viaDispute?.id).toBe(orderThread);
    expect(
      await statusOf(as(buyer).community.messages.staff.forDispute.query({ disputeId: order.disputeId })),
    ).toBe(403);
    // A dispute whose buyer and seller never wrote: nothing to read, nothing audited.
    const quiet = await disputedOrder(t);
    expect(await staff.community.messages.staff.forDispute.query({ disputeId: quiet.disputeId })).toBeNull();
    const reads = await db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'message_thread.read')
      .where('target_id', '=', orderThread)
      .execute();
    expect(reads).toHaveLength(2);
  });
});

interface Live {
  kind: string;
  messageId: string | null;
  thread: { id: string; unread: number };
}

describe('the live stream', () => {
  it('brings each member their own conversations’ messages, and nobody else’s', async () => {
    const sellerClient = testClient(url, seller.accessToken);
    const strangerClient = testClient(url, stranger.accessToken);
    const sellerStream = recordSubscription<Live>((handlers) =>
      sellerClient.community.messages.member.live.subscribe(undefined, handlers),
    );
    const strangerStream = recordSubscription<Live>((handlers) =>
      strangerClient.community.messages.member.live.subscribe(undefined, handlers),
    );
    await until(() => t.app.realtime.stats().live >= 2, 'two live subscribers');
    const sent = await send(buyer, threadId, 'Are you still there?');
    const [event] = await sellerStream.waitFor(1, 'the message');
    expect(event?.data).toMatchObject({ kind: 'message.sent', messageId: sent.id, thread: { id: threadId } });
    expect(event?.data.thread.unread).toBeGreaterThan(0);
    await send(buyer, (await newThread('Unrelated')).threadId, 'Not for the seller');
    await as(seller).community.messages.member.markRead.mutate({ threadId });
    const received = await sellerStream.waitFor(2, 'the read receipt');
    expect(received.map((r) => r.data.kind)).toEqual(['message.sent', 'message.read']);
    expect(strangerStream.received).toEqual([]);
    sellerStream.close();
    strangerStream.close();
    await until(() => t.app.realtime.stats().subscribers === 0, 'the subscribers to leave');
  });

  it('passes on offer and order events (for an open thread to read again), and nothing else', async () => {
    const stream = recordSubscription<Live>((handlers) =>
      testClient(url, seller.accessToken).community.messages.member.live.subscribe(undefined, handlers),
    );
    await until(() => t.app.realtime.stats().live >= 1, 'a live subscriber');
    const some = '00000000-0000-4000-8000-000000000001';
    await db.transaction().execute((trx) =>
      publish(trx, [
        { topic: userTopic(seller.id), kind: 'wishlist.price_drop', entityId: some },
        { topic: userTopic(seller.id), kind: 'offer.received', entityId: some },
      ]),
    );
    const [event] = await stream.waitFor(1, 'the offer event');
    expect(event?.data).toEqual({ kind: 'offer.received', messageId: null, thread: null });
    expect(stream.received).toHaveLength(1);
    stream.close();
    await until(() => t.app.realtime.stats().subscribers === 0, 'the subscriber to leave');
  });

  it('reaches a member on another instance of the BFF', async () => {
    const database = createDatabase(t.database.appUrl, { max: 4 });
    const other = await buildApp({
      config: t.config,
      database,
      secrets: t.secrets,
      logStream: new Writable({ write: (_chunk, _encoding, callback) => callback() }),
    });
    try {
      await other.listen({ port: 0, host: '127.0.0.1' });
      const otherUrl = `http://127.0.0.1:${(other.server.address() as AddressInfo).port}`;
      const stream = recordSubscription<Live>((handlers) =>
        testClient(otherUrl, seller.accessToken).community.messages.member.live.subscribe(
          undefined,
          handlers,
        ),
      );
      await until(() => other.realtime.stats().live >= 1, 'a live subscriber on the other instance');
      // Sent through this instance, received through the other.
      const sent = await send(buyer, threadId, 'Across instances');
      const [event] = await stream.waitFor(1, 'the message on the other instance');
      expect(event?.data).toMatchObject({
        kind: 'message.sent',
        messageId: sent.id,
        thread: { id: threadId },
      });
      stream.close();
      await until(() => other.realtime.stats().subscribers === 0, 'the subscriber to leave');
    } finally {
      await other.close();
      await database.close();
    }
  });

  it('resumes after a lost connection with exactly the messages missed, once', async () => {
    const client = testClient(url, seller.accessToken);
    const first = recordSubscription<Live>((handlers) =>
      client.community.messages.member.live.subscribe(undefined, handlers),
    );
    await until(() => t.app.realtime.stats().live >= 1, 'a live subscriber');
    await send(buyer, threadId, 'Before the drop');
    await first.waitFor(1);
    const resumeFrom = first.lastEventId() as string;
    first.close();
    await until(() => t.app.realtime.stats().subscribers === 0, 'the connection to close');

    const missed: string[] = [];
    for (const text of ['One', 'Two', 'Three']) missed.push((await send(buyer, threadId, text)).id);

    const again = recordSubscription<Live>((handlers) =>
      testClient(url, seller.accessToken).community.messages.member.live.subscribe(
        { lastEventId: resumeFrom },
        handlers,
      ),
    );
    await again.waitFor(3, 'the three missed messages');
    await until(() => t.app.realtime.stats().live >= 1, 'live again');
    const after = await send(buyer, threadId, 'After');
    const received = await again.waitFor(4, 'the next message');
    expect(received.map((r) => r.data.messageId)).toEqual([...missed, after.id]);
    again.close();
  });
});

describe('notifications and the unread-message email', () => {
  const notices = (user: TestUser) =>
    db
      .selectFrom('notifications')
      .select(['kind', 'title', 'body', 'link', 'read_at', 'emailed_at'])
      .where('user_id', '=', user.id)
      .where('kind', '=', 'message_received')
      .orderBy('created_at')
      .execute();
  const digests = (user: TestUser) =>
    db
      .selectFrom('email_outbox')
      .select(['subject', 'text_body'])
      .where('to_address', '=', user.email)
      .where('template', '=', 'messages.digest')
      .execute();
  const mailDeps = () => ({ db, mailer: t.services.mailer, origin: t.config.siteOrigin });

  it('tells the other side (a charity’s whole team) with a notification; reading the thread reads it for the side', async () => {
    const { owner, helper, donated } = await charityWithDonation(
      'notify',
      'notify-books',
      'Notify Books',
      'Notified Atlas',
    );
    const asker = await createUser(db, t.services.identity, 'asker@notify.messages.test');
    const id = (await as(asker).community.messages.member.startForListing.mutate({ listingId: donated.id }))
      .threadId;
    await send(asker, id, 'Does it have the fold-out maps?');
    for (const member of [owner, helper]) {
      expect(await notices(member)).toEqual([
        expect.objectContaining({
          title: 'New message about “Notified Atlas”',
          body: 'Does it have the fold-out maps?',
          link: `/messages/${id}`,
          read_at: null,
          emailed_at: null,
        }),
      ]);
    }
    // The sender is not told about their own message.
    expect(await notices(asker)).toEqual([]);
    // One of the team reads the thread: read for the whole team, and no email for it.
    await as(helper).community.messages.member.markRead.mutate({ threadId: id });
    for (const member of [owner, helper]) {
      expect((await notices(member))[0]?.read_at).not.toBeNull();
    }
    await emailDueNotifications(mailDeps(), new Date(Date.now() + 11 * 60_000));
    expect(await digests(owner)).toEqual([]);
    // The reply reaches the buyer.
    await send(owner, id, 'Yes, all three.');
    expect(await notices(asker)).toEqual([
      expect.objectContaining({ body: 'Yes, all three.', read_at: null }),
    ]);
  });

  it('emails messages left unread for 10 minutes as one digest', async () => {
    const { owner, threadId: id } = await newThread('Digest Almanac');
    await send(buyer, id, 'Is the spine cracked?');
    await send(buyer, id, 'And is there a dust jacket?');
    await emailDueNotifications(mailDeps(), new Date(Date.now() + 60_000));
    expect(await digests(owner)).toEqual([]);
    await emailDueNotifications(mailDeps(), new Date(Date.now() + 11 * 60_000));
    const mail = await digests(owner);
    expect(mail).toHaveLength(1);
    expect(mail[0]?.subject).toBe('You have 2 unread messages');
    expect(mail[0]?.text_body).toContain('Is the spine cracked?');
    expect(mail[0]?.text_body).toContain(`/messages/${id}`);
  });
});
