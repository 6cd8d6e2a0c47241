/**
 * Photos uploaded to a conversation (or to a report's evidence) but never sent: each upload is
 * recorded until a message, report or contest uses it, and the job message_photos.sweep deletes
 * the files of those unused for more than UNSENT_PHOTO_HOURS, then their records. Real
 * PostgreSQL, the real upload route and the embedded storage.
 */
import { MESSAGE_TEXTS, UNSENT_PHOTO_HOURS, withoutSignature } from '@reshelf/contracts';
import { sql } from 'kysely';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportProblem, respondAsSeller } from '../../commerce/disputes/disputes.service.ts';
import { dispatchOrder, markArrived } from '../../commerce/orders/orders.service.ts';
import type { Database } from '../../db/index.ts';
import { type JobContext, runJob } from '../../jobs.ts';
import type { StoragePort } from '../../platform/storage/port.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { createBook, createListing } from '../../testing/catalogue.ts';
import { api, refusal } from '../../testing/client.ts';
import { orderDepsFor, paidOrder } from '../../testing/orders.ts';
import { photo } from '../../testing/selling.ts';
import { startOrderThread, storeMessagePhoto } from './messages.service.ts';

let t: TestApp;
let db: Database;
let storage: StoragePort;
let context: JobContext;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  storage = t.services.storage;
  context = { ...orderDepsFor(t), storage };
});

afterAll(async () => {
  await t.close();
});

const as = (user: TestUser) => api(t.app, user.accessToken);

/** Uploads a photo to a thread through the real route, as the member's bearer token. */
async function upload(
  user: { accessToken: string },
  threadId: string,
): Promise<{ url: string; thumbUrl: string }> {
  const response = await request(t.app.server)
    .post(`/api/uploads/message-photo?threadId=${threadId}`)
    .set('authorization', `Bearer ${user.accessToken}`)
    .attach('photo', await photo(60, 40), { filename: 'p.png', contentType: 'image/png' });
  expect(response.status).toBe(201);
  // The answer is signed for the page (a private photo: decision 0060); the records keep the plain address.
  const body = response.body as { url: string; thumbUrl: string };
  expect(body.url).toMatch(/\?expires=\d+&sig=/);
  return { url: withoutSignature(body.url), thumbUrl: withoutSignature(body.thumbUrl) };
}

/** The storage key behind an embedded URL (/storage/<key>). */
const keyOf = (url: string) => url.replace(/^.*\/storage\//, '');

/** Whether both sizes of an uploaded photo are still stored. */
async function stored(photo: { url: string; thumbUrl: string }): Promise<[boolean, boolean]> {
  return [Boolean(await storage.get(keyOf(photo.url))), Boolean(await storage.get(keyOf(photo.thumbUrl)))];
}

const uploadRows = async (threadId: string) =>
  (
    await db
      .selectFrom('message_photo_uploads')
      .select('url')
      .where('thread_id', '=', threadId)
      .orderBy('url')
      .execute()
  ).map((row) => row.url);

/** Moves every upload of a thread past the cut-off (as if a day and a bit had passed). */
async function age(threadId: string, hours = UNSENT_PHOTO_HOURS + 1) {
  await sql`update message_photo_uploads set created_at = now() - make_interval(hours => ${hours})
            where thread_id = ${threadId}`.execute(db);
}

async function listingThread(label: string) {
  const seller = await createUser(db, t.services.identity, `seller-${label}@sweep.test`);
  const buyer = await createUser(db, t.services.identity, `buyer-${label}@sweep.test`);
  const listing = await createListing(db, {
    sellerId: seller.id,
    bookId: await createBook(db, { title: `Sweep ${label}` }),
  });
  const { threadId } = await as(buyer).community.messages.member.startForListing.mutate({
    listingId: listing.id,
  });
  return { seller, buyer, threadId: threadId as string };
}

describe('photos uploaded to a conversation but never sent', () => {
  it('are deleted a day after upload, with their record; a sent one is kept; a second run deletes nothing', async () => {
    const { buyer, threadId } = await listingThread('messages');
    const sent = await upload(buyer, threadId);
    const unsent = await upload(buyer, threadId);
    // Each upload is recorded until a message uses it.
    expect(await uploadRows(threadId)).toEqual([sent.url, unsent.url].sort());
    await as(buyer).community.messages.member.send.mutate({
      threadId,
      text: 'Here it is',
      photos: [sent.url],
    });
    expect(await uploadRows(threadId)).toEqual([unsent.url]);

    // Not yet a day old: nothing goes.
    await age(threadId, UNSENT_PHOTO_HOURS - 1);
    expect(await runJob(context, 'message_photos.sweep')).toBe(0);
    expect(await stored(unsent)).toEqual([true, true]);

    await age(threadId);
    expect(await runJob(context, 'message_photos.sweep')).toBe(1);
    expect(await stored(sent)).toEqual([true, true]);
    expect(await stored(unsent)).toEqual([false, false]);
    expect(await uploadRows(threadId)).toEqual([]);
    expect(await runJob(context, 'message_photos.sweep')).toBe(0);
    const runs = await db
      .selectFrom('job_runs')
      .select(['affected', 'error'])
      .where('job', '=', 'message_photos.sweep')
      .orderBy('id')
      .execute();
    expect(runs.slice(-2)).toEqual([
      { affected: 1, error: null },
      { affected: 0, error: null },
    ]);
  });

  it('refuses to send a photo that was swept (a composer left open for days)', async () => {
    const { buyer, threadId } = await listingThread('stale');
    const late = await upload(buyer, threadId);
    await age(threadId);
    expect(await runJob(context, 'message_photos.sweep')).toBe(1);
    expect(
      await refusal(
        as(buyer).community.messages.member.send.mutate({ threadId, text: 'Late', photos: [late.url] }),
      ),
    ).toEqual({ status: 400, message: MESSAGE_TEXTS.photoGone });
  });

  it('never deletes the files of a photo a message uses, even if its record was left behind', async () => {
    const { buyer, threadId } = await listingThread('belt');
    const kept = await upload(buyer, threadId);
    await as(buyer).community.messages.member.send.mutate({ threadId, text: '', photos: [kept.url] });
    // A record that should have gone with the message (as if written by an older instance).
    await db
      .insertInto('message_photo_uploads')
      .values({
        large_key: keyOf(kept.url),
        thumb_key: keyOf(kept.thumbUrl),
        url: kept.url,
        thread_id: threadId,
        uploaded_by: buyer.id,
      })
      .execute();
    await age(threadId);
    expect(await runJob(context, 'message_photos.sweep')).toBe(1);
    expect(await stored(kept)).toEqual([true, true]);
    expect(await uploadRows(threadId)).toEqual([]);
  });

  it('keeps the record when storage fails to delete, and deletes it on the next run', async () => {
    const { buyer, threadId } = await listingThread('flaky');
    const first = await upload(buyer, threadId);
    const second = await upload(buyer, threadId);
    await age(threadId);
    let calls = 0;
    const flaky: StoragePort = {
      ...storage,
      kind: storage.kind,
      publicUrl: (key) => storage.publicUrl(key),
      get: (key) => storage.get(key),
      put: (key, body, type) => storage.put(key, body, type),
      async delete(keys) {
        calls += 1;
        if (calls === 1) throw new Error('storage is down');
        await storage.delete(keys);
      },
    };
    expect(await runJob({ ...context, storage: flaky }, 'message_photos.sweep')).toBe(1);
    // One of the two is still recorded, and its files are still there.
    const left = await uploadRows(threadId);
    expect(left).toHaveLength(1);
    const survivor = left[0] === first.url ? first : second;
    expect(await stored(survivor)).toEqual([true, true]);
    expect(await runJob(context, 'message_photos.sweep')).toBe(1);
    expect(await stored(first)).toEqual([false, false]);
    expect(await stored(second)).toEqual([false, false]);
    expect(await uploadRows(threadId)).toEqual([]);
  });
});

describe('evidence photos of a report and of a seller’s contest', () => {
  it('are kept once the report or contest uses them; the ones left out are deleted', async () => {
    const buyer = await createUser(db, t.services.identity, 'buyer-dispute@sweep.test');
    const order = await paidOrder(t, 1200, 'Sweep evidence', { buyer });
    const deps = { ...context };
    await dispatchOrder(deps, order.seller.id, {
      orderId: order.orderId,
      carrier: 'royal_mail_tracked_48',
      trackingRef: 'AB123456789GB',
    });
    await markArrived(deps, order.buyer.id, order.orderId);
    const { threadId } = await startOrderThread(db, order.buyer.id, order.orderId);
    const reported = await upload(buyer, threadId);
    const dropped = await upload(buyer, threadId);
    // The seller's contest photo is stored as the route stores it (the helpers' seller has no password).
    const image = { body: Buffer.from('webp'), contentType: 'image/webp' };
    const contested = await storeMessagePhoto(
      { db, storage },
      { threadId, uploaderId: order.seller.id },
      { large: image, thumb: image },
      'cccccccccccccccc',
    );
    const { disputeId } = await reportProblem(deps, order.buyer.id, {
      orderId: order.orderId,
      problem: 'damaged',
      description: 'The cover is torn across and the spine is cracked.',
      photos: [reported.url],
    });
    expect(await uploadRows(threadId)).toEqual([dropped.url, contested.url].sort());
    await respondAsSeller(deps, order.seller.id, {
      disputeId,
      response: 'contest',
      statement: 'It left here in perfect condition.',
      photos: [contested.url],
    });
    expect(await uploadRows(threadId)).toEqual([dropped.url]);
    await age(threadId);
    expect(await runJob(context, 'message_photos.sweep')).toBe(1);
    expect(await stored(reported)).toEqual([true, true]);
    expect(await stored(contested)).toEqual([true, true]);
    expect(await stored(dropped)).toEqual([false, false]);
    expect(await uploadRows(threadId)).toEqual([]);
  });
});
