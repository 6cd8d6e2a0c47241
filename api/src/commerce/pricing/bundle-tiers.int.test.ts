/**
 * Bundle discount tiers: a seller sets their own, a charity's owner sets the shop's;
 * up to three, rising in books and percentage, off by default; refused input changes nothing;
 * only the charity's owner may set the shop's, any member may read them, nobody else either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser, WEB } from '../../testing/auth.ts';
import { createCharity } from '../../testing/catalogue.ts';
import { api, failure, refusal } from '../../testing/client.ts';

let t: TestApp;
let db: Database;
let seller: TestUser;
let other: TestUser;
let owner: TestUser;
let teamMember: TestUser;
let charityId: string;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  seller = await createUser(db, t.services.identity, 'seller@tiers.test');
  other = await createUser(db, t.services.identity, 'other@tiers.test');
  owner = await createUser(db, t.services.identity, 'owner@tiers.test');
  teamMember = await createUser(db, t.services.identity, 'team@tiers.test');
  charityId = await createCharity(db, { slug: 'tier-books', name: 'Tier Books', ownerId: owner.id });
  await db
    .insertInto('charity_members')
    .values({ charity_id: charityId, user_id: teamMember.id, role: 'staff' })
    .execute();
});

afterAll(async () => {
  await t?.close();
});

describe("a seller's bundle tiers", () => {
  it('are off by default, then set, replaced and turned off again', async () => {
    const tiers = api(t.app, seller.accessToken).account.member.bundleTiers;
    expect(await tiers.get.query()).toEqual({ tiers: [] });
    const set = [
      { minBooks: 2, percent: 5 },
      { minBooks: 3, percent: 10 },
      { minBooks: 5, percent: 15 },
    ];
    expect(await tiers.set.mutate({ tiers: set })).toEqual({ tiers: set });
    expect(await tiers.get.query()).toEqual({ tiers: set });
    // Someone else's tiers are their own.
    expect(await api(t.app, other.accessToken).account.member.bundleTiers.get.query()).toEqual({ tiers: [] });
    await tiers.set.mutate({ tiers: [{ minBooks: 4, percent: 12 }] });
    expect(await tiers.get.query()).toEqual({ tiers: [{ minBooks: 4, percent: 12 }] });
    const rows = await db.selectFrom('bundle_tiers').selectAll().where('seller_id', '=', seller.id).execute();
    expect(rows).toHaveLength(1);
    await tiers.set.mutate({ tiers: [] });
    expect(await tiers.get.query()).toEqual({ tiers: [] });
  });

  it.each([
    ['four tiers', [2, 3, 4, 5].map((minBooks, i) => ({ minBooks, percent: 5 + i })), 'Set at most 3 tiers'],
    [
      'books not rising',
      [
        { minBooks: 3, percent: 5 },
        { minBooks: 3, percent: 10 },
      ],
      'more books than the one before',
    ],
    [
      'percent not rising',
      [
        { minBooks: 2, percent: 10 },
        { minBooks: 3, percent: 10 },
      ],
      'bigger discount',
    ],
    ['one book', [{ minBooks: 1, percent: 5 }], 'starts at 2 books'],
    ['21 books', [{ minBooks: 21, percent: 5 }], 'at most'],
    ['0%', [{ minBooks: 2, percent: 0 }], 'at least 1%'],
    ['51%', [{ minBooks: 2, percent: 51 }], 'at most 50%'],
    ['a fraction', [{ minBooks: 2, percent: 7.5 }], 'whole percentage'],
  ])('refuses %s with a clear message and keeps the tiers as they were', async (_, bad, message) => {
    const tiers = api(t.app, seller.accessToken).account.member.bundleTiers;
    await tiers.set.mutate({ tiers: [{ minBooks: 2, percent: 5 }] });
    const refused = await failure(tiers.set.mutate({ tiers: bad }));
    expect(refused.status).toBe(400);
    expect(refused.message).toContain(message);
    expect(await tiers.get.query()).toEqual({ tiers: [{ minBooks: 2, percent: 5 }] });
  });

  it('needs a session', async () => {
    expect((await refusal(api(t.app).account.member.bundleTiers.get.query())).status).toBe(401);
    expect(
      (await refusal(api(t.app, { headers: WEB }).account.member.bundleTiers.set.mutate({ tiers: [] })))
        .status,
    ).toBe(401);
  });

  it('the database refuses a fourth tier or a falling one whoever writes it', async () => {
    const writer = await createUser(db, t.services.identity, 'writer@tiers.test');
    await expect(
      db
        .insertInto('bundle_tiers')
        .values([2, 3, 4, 5].map((n) => ({ seller_id: writer.id, min_books: n, percent: n })))
        .execute(),
    ).rejects.toThrow(/at most three/);
    await expect(
      db
        .insertInto('bundle_tiers')
        .values([
          { seller_id: writer.id, min_books: 2, percent: 10 },
          { seller_id: writer.id, min_books: 3, percent: 5 },
        ])
        .execute(),
    ).rejects.toThrow(/rise/);
  });
});

describe("a charity shop's bundle tiers", () => {
  it('the owner sets them; the team reads them; they are the shop’s, not the owner’s own', async () => {
    const set = [
      { minBooks: 2, percent: 10 },
      { minBooks: 4, percent: 20 },
    ];
    expect(await api(t.app, owner.accessToken).charities.bundleTiers.set.mutate({ tiers: set })).toEqual({
      tiers: set,
    });
    expect(await api(t.app, teamMember.accessToken).charities.bundleTiers.get.query()).toEqual({
      tiers: set,
    });
    const row = await db
      .selectFrom('bundle_tiers')
      .select(['charity_id', 'seller_id'])
      .where('charity_id', '=', charityId)
      .execute();
    expect(row).toHaveLength(2);
    expect(row.every((r) => r.seller_id === null)).toBe(true);
    // The owner's own seller tiers are untouched.
    expect(await api(t.app, owner.accessToken).account.member.bundleTiers.get.query()).toEqual({ tiers: [] });
  });

  it('a team member who is not the owner cannot set them', async () => {
    const refused = await refusal(
      api(t.app, teamMember.accessToken).charities.bundleTiers.set.mutate({ tiers: [] }),
    );
    expect(refused.status).toBe(403);
    expect(refused.message).toBe('Only the charity’s owner can do this.');
    expect((await api(t.app, owner.accessToken).charities.bundleTiers.get.query()).tiers).toHaveLength(2);
  });

  it('someone outside any charity can neither read nor set them', async () => {
    // Each call made only when it is awaited: a refusal made early would reject unobserved.
    for (const call of [
      () => api(t.app, other.accessToken).charities.bundleTiers.get.query(),
      () => api(t.app, other.accessToken).charities.bundleTiers.set.mutate({ tiers: [] }),
    ]) {
      expect((await refusal(call())).status).toBe(403);
    }
    expect((await refusal(api(t.app).charities.bundleTiers.get.query())).status).toBe(401);
  });

  it('validates the shop’s tiers as a seller’s', async () => {
    const refused = await failure(
      api(t.app, owner.accessToken).charities.bundleTiers.set.mutate({
        tiers: [
          { minBooks: 2, percent: 20 },
          { minBooks: 3, percent: 15 },
        ],
      }),
    );
    expect(refused.status).toBe(400);
    expect(refused.message).toContain('bigger discount');
  });
});
