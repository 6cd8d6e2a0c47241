/** Book signings: staff create, edit, publish and unpublish events; each change audited. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { asUser, dataOf, errorOf } from '../../testing/selling.ts';

let t: TestApp;
let db: Database;
let moderator: TestUser;
let member: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  moderator = await createUser(db, t.services.identity, 'moderator@signings.test', { roles: ['moderator'] });
  member = await createUser(db, t.services.identity, 'member@signings.test');
});

afterAll(async () => {
  await t.close();
});

const event = {
  title: ' An evening with Ann Cleeves ',
  author: 'Ann Cleeves',
  venue: 'Reshelf Books, Leeds',
  startsAt: '2027-03-04T19:00:00+00:00',
  description: 'Signing the new Vera novel.',
};

describe('book signings', () => {
  it('staff create, edit, publish and unpublish an event', async () => {
    const as = asUser(t.app, moderator.accessToken);
    const { id } = dataOf(await as.mutation('bookSignings.create', event));
    const later = { ...event, title: 'Ann Cleeves signs', startsAt: '2027-01-10T18:30:00Z', description: '' };
    dataOf(await as.mutation('bookSignings.create', later));
    let list = dataOf(await as.query('bookSignings.list'));
    expect(list.map((row: { title: string }) => row.title)).toEqual([
      'Ann Cleeves signs',
      'An evening with Ann Cleeves',
    ]);
    expect(list[1]).toMatchObject({
      id,
      author: 'Ann Cleeves',
      startsAt: '2027-03-04T19:00:00.000Z',
      publishedAt: null,
    });
    expect(list[0].description).toBeNull();

    dataOf(await as.mutation('bookSignings.update', { ...event, id, venue: 'Leeds Central Library' }));
    dataOf(await as.mutation('bookSignings.setPublished', { id, published: true }));
    list = dataOf(await as.query('bookSignings.list'));
    expect(list[1].venue).toBe('Leeds Central Library');
    expect(Number.isNaN(Date.parse(list[1].publishedAt))).toBe(false);
    expect(errorOf(await as.mutation('bookSignings.setPublished', { id, published: true }))).toEqual({
      status: 409,
      message: 'That event is already published. Refresh the page.',
    });
    dataOf(await as.mutation('bookSignings.setPublished', { id, published: false }));
    expect(dataOf(await as.query('bookSignings.list'))[1].publishedAt).toBeNull();

    const actions = await db
      .selectFrom('audit_log')
      .select('action')
      .where('action', 'like', 'book_signing.%')
      .orderBy('id')
      .execute();
    expect(actions.map((row) => row.action)).toEqual([
      'book_signing.create',
      'book_signing.create',
      'book_signing.update',
      'book_signing.publish',
      'book_signing.unpublish',
    ]);
  });

  it('refuses bad input, unknown events and non-staff, writing nothing', async () => {
    const as = asUser(t.app, moderator.accessToken);
    const before = dataOf(await as.query('bookSignings.list'));
    expect(
      errorOf(await as.mutation('bookSignings.create', { ...event, startsAt: 'next Tuesday' })).message,
    ).toContain('Choose the date and time it starts');
    expect(errorOf(await as.mutation('bookSignings.create', { ...event, author: '  ' })).status).toBe(400);
    expect(
      errorOf(
        await as.mutation('bookSignings.update', { ...event, id: '00000000-0000-4000-8000-000000000000' }),
      ),
    ).toEqual({ status: 404, message: 'That event no longer exists. Refresh the page.' });
    const other = asUser(t.app, member.accessToken);
    expect(errorOf(await other.query('bookSignings.list')).status).toBe(403);
    expect(errorOf(await other.mutation('bookSignings.create', event)).status).toBe(403);
    expect(
      errorOf(await other.mutation('bookSignings.setPublished', { id: before[0].id, published: true }))
        .status,
    ).toBe(403);
    expect(dataOf(await as.query('bookSignings.list'))).toEqual(before);
  });
});
