/**
 * "Buy more from this seller and save" (issue 23): anyone reads a seller's or an approved
 * charity shop's bundle tiers, fewest books first, [] when off; a shop that is not approved
 * (or not there) is not found; bad input says what is wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { createCharity } from '../../testing/catalogue.ts';
import { api, refusal } from '../../testing/client.ts';

let t: TestApp;
let db: Database;
let seller: TestUser;
let plain: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  seller = await createUser(db, t.services.identity, 'seller@public-tiers.test');
  plain = await createUser(db, t.services.identity, 'plain@public-tiers.test');
  const owner = await createUser(db, t.services.identity, 'owner@public-tiers.test');
  const shop = await createCharity(db, { slug: 'open-shop', name: 'Open Shop', ownerId: owner.id });
  await createCharity(db, { slug: 'waiting-shop', name: 'Waiting Shop', status: 'pending' });
  await api(t.app, seller.accessToken).account.member.bundleTiers.set.mutate({
    tiers: [
      { minBooks: 2, percent: 5 },
      { minBooks: 4, percent: 12 },
    ],
  });
  await db.insertInto('bundle_tiers').values({ charity_id: shop, min_books: 3, percent: 10 }).execute();
});

afterAll(async () => {
  await t?.close();
});

describe('sellers.bundleTiers, for visitors', () => {
  it("answers a seller's tiers, and [] for a seller without any", async () => {
    const visitor = api(t.app);
    expect(await visitor.sellers.bundleTiers.query({ sellerId: seller.id })).toEqual({
      tiers: [
        { minBooks: 2, percent: 5 },
        { minBooks: 4, percent: 12 },
      ],
    });
    expect(await visitor.sellers.bundleTiers.query({ sellerId: plain.id })).toEqual({ tiers: [] });
  });

  it("answers an approved charity shop's tiers; a shop not approved or unknown is not found", async () => {
    const visitor = api(t.app);
    expect(await visitor.sellers.bundleTiers.query({ charitySlug: 'open-shop' })).toEqual({
      tiers: [{ minBooks: 3, percent: 10 }],
    });
    for (const charitySlug of ['waiting-shop', 'no-such-shop']) {
      expect(await refusal(visitor.sellers.bundleTiers.query({ charitySlug }))).toEqual({
        status: 404,
        message: 'We could not find that charity.',
      });
    }
  });

  it('refuses input that names no seller', async () => {
    const { status } = await refusal(api(t.app).sellers.bundleTiers.query({ sellerId: 'nope' }));
    expect(status).toBe(400);
  });
});
