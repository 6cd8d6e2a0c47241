/** Staff picks: staff choose, note, order and remove them; the home page shows them in that order. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { createBook, createListing, createPerson } from '../../testing/catalogue.ts';
import { api, refusal, statusOf } from '../../testing/client.ts';

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
  (await api(t.app).catalogue.discovery.public.home.query()).staffPicks.map((pick) => pick.title);

describe('staff picks', () => {
  it('staff find listings on sale, add them with a note, and the home page shows them in order', async () => {
    const as = api(t.app, moderator.accessToken);
    const found = await as.catalogue.discovery.picks.candidates.query({ q: 'persua' });
    expect(found.map((row) => row.title)).toEqual(['Persuasion']);
    expect(await as.catalogue.discovery.picks.candidates.query({ q: 'shirley' })).toEqual([]);

    for (const title of ['Middlemarch', 'Persuasion', 'Villette']) {
      await as.catalogue.discovery.picks.add.mutate({
        listingId: listings[title]!,
        note: title === 'Persuasion' ? 'A second chance' : '',
      });
    }
    expect(await homePicks()).toEqual(['Middlemarch', 'Persuasion', 'Villette']);
    const home = await api(t.app).catalogue.discovery.public.home.query();
    expect(home.staffPicks[1]?.note).toBe('A second chance');

    await as.catalogue.discovery.picks.reorder.mutate({
      listingIds: [listings.Villette!, listings.Middlemarch!, listings.Persuasion!],
    });
    expect(await homePicks()).toEqual(['Villette', 'Middlemarch', 'Persuasion']);
    const list = await as.catalogue.discovery.picks.list.query();
    expect(list.map((pick) => [pick.title, pick.position])).toEqual([
      ['Villette', 0],
      ['Middlemarch', 1],
      ['Persuasion', 2],
    ]);
    expect(list[0]?.pickedBy).toBe('moderator@picks.test');

    await as.catalogue.discovery.picks.note.mutate({
      listingId: listings.Villette!,
      note: 'Brontë at her best',
    });
    await as.catalogue.discovery.picks.remove.mutate({ listingId: listings.Middlemarch! });
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
    const as = api(t.app, moderator.accessToken);
    expect(await refusal(as.catalogue.discovery.picks.add.mutate({ listingId: listings.sold! }))).toEqual({
      status: 412,
      message: 'Only a listing on sale can be a staff pick.',
    });
    expect(await statusOf(as.catalogue.discovery.picks.add.mutate({ listingId: listings.Villette! }))).toBe(
      409,
    );
    expect(
      (await refusal(as.catalogue.discovery.picks.reorder.mutate({ listingIds: [listings.Villette!] })))
        .message,
    ).toContain('changed while you were ordering');
    expect(
      await statusOf(
        as.catalogue.discovery.picks.note.mutate({ listingId: listings.Villette!, note: 'x'.repeat(281) }),
      ),
    ).toBe(400);
    expect(
      await statusOf(
        api(t.app, member.accessToken).catalogue.discovery.picks.add.mutate({
          listingId: listings.Middlemarch!,
        }),
      ),
    ).toBe(403);
    expect(await homePicks()).toEqual(['Villette', 'Persuasion']);
  });
});
