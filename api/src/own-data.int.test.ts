/**
 * The member's own: every procedure that answers with a member's personal data reads
 * it for the caller alone. For each row, an owner's data is made; the owner sees it, another
 * member (and a charity's outsider) does not, a visitor is refused (401), and no input can name
 * someone else (the procedure's input has no user, seller or charity field).
 *
 * Rows: recommendations, seller analytics (own books and charity), onboarding's choices, follows
 * and saved searches.
 */
import type { AnyProcedure } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from './router.ts';
import { createTestApp, type TestApp } from './testing/app.ts';
import { createUser, type TestUser, WEB } from './testing/auth.ts';
import { createBook, createCharity, createListing, createPerson } from './testing/catalogue.ts';
import { api, refusal, type TestClient } from './testing/client.ts';

let t: TestApp;
let owner: TestUser;
let other: TestUser;
const db = () => t.database.handle.db;
const as = (user: TestUser | null): TestClient =>
  api(t.app, user ? { token: user.accessToken, headers: WEB } : { headers: WEB });

interface Row {
  /** The procedure's path. */
  path: string;
  /** Makes the owner's data; answers a marker only the owner's answer may hold. */
  seed: () => Promise<string>;
  read: (client: TestClient) => Promise<unknown>;
  /** An outsider is refused (403) rather than answered with nothing of the owner's. */
  outsider?: 403;
  /** The input's fields: none of them names a member, seller or charity. */
  input: string[];
}

const ROWS: Row[] = [
  {
    path: 'community.recommendations.list',
    seed: async () => {
      const sellerId = await createPerson(db(), 'recs-seller@own.test');
      const wished = await createListing(db(), {
        sellerId,
        bookId: await createBook(db(), { title: 'Owner Wished', authors: ['Only Owner'] }),
      });
      const more = await createListing(db(), {
        sellerId,
        bookId: await createBook(db(), { title: 'Owner Would Like', authors: ['Only Owner'] }),
      });
      await as(owner).catalogue.wishlist.toggle.mutate({ listingId: wished.id, wished: true });
      return more.id;
    },
    read: (client) => client.community.recommendations.list.query({ limit: 48 }),
    input: ['limit'],
  },
  {
    path: 'selling.analytics.mine',
    seed: async () => {
      const listing = await createListing(db(), {
        sellerId: owner.id,
        bookId: await createBook(db(), { title: 'Owner Sells' }),
      });
      return listing.id;
    },
    read: (client) => client.selling.analytics.mine.query({ period: '30d' }),
    input: ['period'],
  },
  {
    path: 'selling.analytics.charity',
    outsider: 403,
    seed: async () => {
      const charityId = await createCharity(db(), {
        slug: 'own-data-charity',
        name: 'Own Data Charity',
        ownerId: owner.id,
      });
      const listing = await createListing(db(), {
        sellerId: owner.id,
        charityId,
        bookId: await createBook(db(), { title: 'Charity Sells' }),
      });
      return listing.id;
    },
    read: (client) => client.selling.analytics.charity.query({ period: '30d' }),
    input: ['period'],
  },
  {
    path: 'account.member.profile',
    seed: async () => {
      await as(owner).account.member.completeOnboarding.mutate({
        genreIds: [],
        authors: ['Owner Favourite Author'],
      });
      return 'Owner Favourite Author';
    },
    read: (client) => client.account.member.profile.query(),
    input: [],
  },
  {
    path: 'community.social.follows.mine',
    seed: async () => {
      await as(owner).community.social.follows.set.mutate({
        target: { kind: 'author', author: 'Owner Followed Author' },
        following: true,
      });
      return 'Owner Followed Author';
    },
    read: (client) => client.community.social.follows.mine.query(),
    input: [],
  },
  {
    path: 'community.social.savedSearches.list',
    seed: async () => {
      await as(owner).community.social.savedSearches.save.mutate({
        query: 'q=owner+saved+words',
        name: 'Owner Saved Words',
      });
      return 'Owner Saved Words';
    },
    read: (client) => client.community.social.savedSearches.list.query(),
    input: [],
  },
];

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(db(), t.services.identity, 'owner@own.test');
  other = await createUser(db(), t.services.identity, 'other@own.test');
});

afterAll(async () => {
  await t.close();
});

const procedures = (appRouter as unknown as { _def: { procedures: Record<string, AnyProcedure> } })._def
  .procedures;

describe('the member’s own data', () => {
  it.each(ROWS.map((row) => [row.path, row] as const))('%s: the owner’s alone', async (_path, row) => {
    const marker = await row.seed();
    expect(JSON.stringify(await row.read(as(owner)))).toContain(marker);
    if (row.outsider) {
      expect(await refusal(row.read(as(other)))).toMatchObject({ status: row.outsider });
    } else {
      expect(JSON.stringify(await row.read(as(other)))).not.toContain(marker);
    }
    expect(await refusal(row.read(as(null)))).toMatchObject({ status: 401 });
  });

  it.each(ROWS.map((row) => [row.path, row] as const))('%s: no input names another member', (path, row) => {
    const procedure = procedures[path];
    expect(procedure, path).toBeDefined();
    expect(procedure!._def.meta).toMatchObject({ access: 'authed' });
    const inputs = (procedure!._def as { inputs: { _zod?: { def?: { shape?: object } } }[] }).inputs.flatMap(
      (input) =>
        Object.keys(
          (input as { shape?: object }).shape ??
            (input as { def?: { innerType?: { shape?: object } } }).def?.innerType?.shape ??
            {},
        ),
    );
    expect(inputs).toEqual(row.input);
    expect(inputs.join(' ')).not.toMatch(/user|seller|charity|member|owner/i);
  });
});
