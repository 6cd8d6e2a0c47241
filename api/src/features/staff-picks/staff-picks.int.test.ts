/** Staff picks: staff choose, note, order and remove them; the home page shows them in that order. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { createBook, createListing, createPerson, trpcQuery } from '../../testing/catalogue.ts';
import { asUser, dataOf, errorOf } from '../../testing/selling.ts';

let t: TestApp;
let db: Database;
let moderator: TestUser;
let member: TestUser;
const listings: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  moderator = await createUser(db, t.services.identity, 'moderator@picks.test', { roles: ['moderator'] });
  member = await createUser(db, t.services.identity, 'member@picks.test');
  const seller = await createPerson(db, 'seller@picks.test');
  for (const title of ['Middlemarch', 'Persuasion', 'Villette']) {
    const bookId = await createBook(db, { title, authors: ['A. Novelist'] });
    listings[title] = (await createListing(db, { sellerId: seller, bookId })).id;
  }
  const soldBook = await createBook(db, { title: 'Sold Shirley' });
  listings.sold = (await createListing(db, { sellerId: seller, bookId: soldBook, status: 'sold' })).id;
});

afterAll(async () => {
  await t.close();
});

const homePicks = async () =>
  dataOf(await trpcQuery(t.app, 'discovery.home')).staffPicks.map((pick: { title: string }) => pick.title);

describe('staff picks', () => {
  it('staff find listings on sale, add them with a note, and the home page shows them in order', async () => {
    const as = asUser(t.app, moderator.accessToken);
    const found = dataOf(await as.query('staffPicks.candidates', { q: 'persua' }));
    expect(found.map((row: { title: string }) => row.title)).toEqual(['Persuasion']);
    expect(dataOf(await as.query('staffPicks.candidates', { q: 'shirley' }))).toEqual([]);

    for (const title of ['Middlemarch', 'Persuasion', 'Villette']) {
      dataOf(
        await as.mutation('staffPicks.add', {
          listingId: listings[title],
          note: title === 'Persuasion' ? 'A second chance' : '',
        }),
      );
    }
    expect(await homePicks()).toEqual(['Middlemarch', 'Persuasion', 'Villette']);
    const home = dataOf(await trpcQuery(t.app, 'discovery.home'));
    expect(home.staffPicks[1].note).toBe('A second chance');

    dataOf(
      await as.mutation('staffPicks.reorder', {
        listingIds: [listings.Villette, listings.Middlemarch, listings.Persuasion],
      }),
    );
    expect(await homePicks()).toEqual(['Villette', 'Middlemarch', 'Persuasion']);
    const list = dataOf(await as.query('staffPicks.list'));
    expect(list.map((pick: { title: string; position: number }) => [pick.title, pick.position])).toEqual([
      ['Villette', 0],
      ['Middlemarch', 1],
      ['Persuasion', 2],
    ]);
    expect(list[0].pickedBy).toBe('moderator@picks.test');

    dataOf(
      await as.mutation('staffPicks.note', { listingId: listings.Villette, note: 'Brontë at her best' }),
    );
    dataOf(await as.mutation('staffPicks.remove', { listingId: listings.Middlemarch }));
    expect(await homePicks()).toEqual(['Villette', 'Persuasion']);

    const actions = await db
      .selectFrom('audit_log')
      .select('action')
      .where('action', 'like', 'staff_pick.%')
      .orderBy('id')
      .execute();
    expect(actions.map((row) => row.action)).toEqual([
      'staff_pick.add',
      'staff_pick.add',
      'staff_pick.add',
      'staff_pick.reorder',
      'staff_pick.note',
      'staff_pick.remove',
    ]);
  });

  it('refuses what cannot be picked or ordered, and non-staff', async () => {
    const as = asUser(t.app, moderator.accessToken);
    expect(errorOf(await as.mutation('staffPicks.add', { listingId: listings.sold }))).toEqual({
      status: 412,
      message: 'Only a listing on sale can be a staff pick.',
    });
    expect(errorOf(await as.mutation('staffPicks.add', { listingId: listings.Villette })).status).toBe(409);
    expect(
      errorOf(await as.mutation('staffPicks.reorder', { listingIds: [listings.Villette] })).message,
    ).toContain('changed while you were ordering');
    expect(
      errorOf(await as.mutation('staffPicks.note', { listingId: listings.Villette, note: 'x'.repeat(281) }))
        .status,
    ).toBe(400);
    expect(
      errorOf(
        await asUser(t.app, member.accessToken).mutation('staffPicks.add', {
          listingId: listings.Middlemarch,
        }),
      ).status,
    ).toBe(403);
    expect(await homePicks()).toEqual(['Villette', 'Persuasion']);
  });
});
