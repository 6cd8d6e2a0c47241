/**
 * Conversation photos (messages, and the evidence of a dispute, which are the order
 * conversation's photos) are private: served only at a short-lived signed address
 * that the API hands to those who may see them (the conversation's members, staff handling
 * it), and cached privately; the plain address, a forged or expired signature, or one made for
 * another photo is a 404. Listing photos stay public and cached for a year.
 */
import { photoThumbUrl } from '@reshelf/contracts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchOrder, markArrived } from '../../commerce/index.ts';
import { startOrderThread } from '../../community/messages/messages.service.ts';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { createBook, createListing } from '../../testing/catalogue.ts';
import { api } from '../../testing/client.ts';
import { orderDepsFor, paidOrder } from '../../testing/orders.ts';
import { photo } from '../../testing/selling.ts';
import { signStoredUrl } from './private-photos.ts';

let t: TestApp;
let db: Database;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
});

afterAll(async () => {
  await t?.close();
});

const plain = (url: string) => url.split('?')[0]!;
const fetchStored = (url: string) => request(t.app.server).get(url);

async function uploadTo(user: TestUser, threadId: string): Promise<{ url: string; thumbUrl: string }> {
  const response = await request(t.app.server)
    .post(`/api/uploads/message-photo?threadId=${threadId}`)
    .set('authorization', `Bearer ${user.accessToken}`)
    .attach('photo', await photo(80, 60), { filename: 'p.png', contentType: 'image/png' });
  expect(response.status).toBe(201);
  return response.body;
}

async function signedInOrder() {
  const order = await paidOrder(t, 1200, 'Private photo book');
  const buyer = await createUser(db, t.services.identity, order.buyer.email);
  const seller = await createUser(db, t.services.identity, order.seller.email);
  return { order, buyer, seller };
}

describe('conversation photos', () => {
  it('are served only at a signed address, privately cached, to the conversation’s members', async () => {
    const { order, buyer, seller } = await signedInOrder();
    const { threadId } = await startOrderThread(db, order.buyer.id, order.orderId);
    const uploaded = await uploadTo(buyer, threadId);
    // The plain address is no longer a way in: not even for the member who uploaded it.
    expect((await fetchStored(plain(uploaded.url))).status).toBe(404);
    expect((await fetchStored(plain(uploaded.thumbUrl))).status).toBe(404);
    // The upload's own answer shows the photo (the page previews it) …
    const preview = await fetchStored(uploaded.thumbUrl);
    expect(preview.status).toBe(200);
    expect(preview.headers['content-type']).toBe('image/webp');
    // … and is what the member sends: the signature is not part of the photo.
    await api(t.app, buyer.accessToken).community.messages.member.send.mutate({
      threadId,
      text: '',
      photos: [uploaded.url],
    });
    const stored = await db
      .selectFrom('messages')
      .select('photos')
      .where('thread_id', '=', threadId)
      .executeTakeFirstOrThrow();
    expect(stored.photos).toEqual([plain(uploaded.url)]);

    const view = await api(t.app, seller.accessToken).community.messages.member.thread.query({ threadId });
    const last = view.entries.at(-1)!;
    const shown = last.kind === 'message' ? last.photos[0] : undefined;
    if (!shown) throw new Error('the message with the photo is not the last entry');
    expect(plain(shown)).toBe(plain(uploaded.url));
    expect(shown).toMatch(/\?expires=\d+&sig=[\w-]+$/);
    for (const address of [shown, photoThumbUrl(shown)]) {
      const answer = await fetchStored(address);
      expect(answer.status, address).toBe(200);
      expect(answer.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
      const maxAge = /max-age=(\d+)/.exec(String(answer.headers['cache-control']))?.[1];
      expect(Number(maxAge)).toBeLessThanOrEqual(2 * 3600);
    }
  });

  it('refuse a forged, expired or borrowed signature', async () => {
    const { order, buyer } = await signedInOrder();
    const { threadId } = await startOrderThread(db, order.buyer.id, order.orderId);
    const one = await uploadTo(buyer, threadId);
    const two = await uploadTo(buyer, threadId);
    const query = (url: string) => url.slice(url.indexOf('?'));
    // Another photo's signature does not open this one.
    expect((await fetchStored(`${plain(one.url)}${query(two.url)}`)).status).toBe(404);
    // A changed signature, or a changed expiry.
    const forged = one.url.replace(/sig=([\w-])/, (_, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);
    expect((await fetchStored(forged)).status).toBe(404);
    const later = one.url.replace(/expires=(\d+)/, (_, e: string) => `expires=${Number(e) + 3600}`);
    expect((await fetchStored(later)).status).toBe(404);
    // Signed long ago: expired.
    const old = signStoredUrl(t.secrets, plain(one.url), Date.now() - 3 * 3600 * 1000);
    expect(old).toMatch(/\?expires=/);
    expect((await fetchStored(old)).status).toBe(404);
  });

  it('are a dispute’s evidence: the parties and staff get signed addresses, nobody the plain one', async () => {
    const { order, buyer, seller } = await signedInOrder();
    const deps = orderDepsFor(t);
    await dispatchOrder(deps, order.seller.id, {
      orderId: order.orderId,
      carrier: 'royal_mail_tracked_48',
      trackingRef: 'AB123456789GB',
    });
    await markArrived(deps, order.buyer.id, order.orderId);
    const { threadId } = await startOrderThread(db, order.buyer.id, order.orderId);
    const evidence = await uploadTo(buyer, threadId);
    // The page sends back the address the upload answered with.
    const { disputeId } = await api(t.app, buyer.accessToken).commerce.disputes.member.report.mutate({
      orderId: order.orderId,
      problem: 'damaged',
      description: 'The cover is torn across and the spine is cracked.',
      photos: [evidence.url],
    });
    const moderator = await createUser(db, t.services.identity, `moderator-${disputeId}@photos.test`, {
      roles: ['moderator'],
    });
    const views = [
      (await api(t.app, seller.accessToken).commerce.disputes.member.forOrder.query({
        orderId: order.orderId,
      }))!.photos,
      (await api(t.app, buyer.accessToken).commerce.disputes.member.forOrder.query({
        orderId: order.orderId,
      }))!.photos,
      (await api(t.app, moderator.accessToken).commerce.disputes.staff.get.query({ disputeId })).photos,
    ];
    for (const photos of views) {
      expect(photos.map(plain)).toEqual([plain(evidence.url)]);
      expect((await fetchStored(photos[0]!)).status).toBe(200);
    }
    expect((await fetchStored(plain(evidence.url))).status).toBe(404);
  });
});

describe('listing photos', () => {
  it('stay public and cached for a year', async () => {
    const seller = await createUser(db, t.services.identity, 'public-photos@photos.test');
    const bookId = await createBook(db, { title: 'A public photo book' });
    const draft = await createListing(db, { sellerId: seller.id, bookId, status: 'draft' });
    const response = await request(t.app.server)
      .post(`/api/uploads/listing-photo?listingId=${draft.id}`)
      .set('authorization', `Bearer ${seller.accessToken}`)
      .attach('photo', await photo(80, 60), { filename: 'p.png', contentType: 'image/png' });
    expect(response.status).toBe(201);
    expect(response.body.url).not.toContain('?');
    const served = await fetchStored(response.body.url);
    expect(served.status).toBe(200);
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
