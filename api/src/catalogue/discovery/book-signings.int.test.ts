/** Book signings: staff create, edit, publish and unpublish events; each change audited. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { api, refusal, statusOf } from '../../testing/client.ts';

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
    const as = api(t.app, moderator.accessToken);
    const { id } = await as.catalogue.discovery.bookSignings.create.mutate(event);
    const later = { ...event, title: 'Ann Cleeves signs', startsAt: '2027-01-10T18:30:00Z', description: '' };
    await as.catalogue.discovery.bookSignings.create.mutate(later);
    let list = await as.catalogue.discovery.bookSignings.list.query();
    expect(list.map((row) => row.title)).toEqual(['Ann Cleeves signs', 'An evening with Ann Cleeves']);
    expect(list[1]).toMatchObject({
      id,
      author: 'Ann Cleeves',
      startsAt: '2027-03-04T19:00:00.000Z',
      publishedAt: null,
    });
    expect(list[0]?.description).toBeNull();

    await as.catalogue.discovery.bookSignings.update.mutate({ ...event, id, venue: 'Leeds Central Library' });
    await as.catalogue.discovery.bookSignings.setPublished.mutate({ id, published: true });
    list = await as.catalogue.discovery.bookSignings.list.query();
    expect(list[1]?.venue).toBe('Leeds Central Library');
    expect(Number.isNaN(Date.parse(list[1]?.publishedAt ?? ''))).toBe(false);
    expect(
      await refusal(as.catalogue.discovery.bookSignings.setPublished.mutate({ id, published: true })),
    ).toEqual({
      status: 409,
      message: 'That event is already published. Refresh the page.',
    });
    await as.catalogue.discovery.bookSignings.setPublished.mutate({ id, published: false });
    expect((await as.catalogue.discovery.bookSignings.list.query())[1]?.publishedAt).toBeNull();

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
    const as = api(t.app, moderator.accessToken);
    const before = await as.catalogue.discovery.bookSignings.list.query();
    expect(
      (
        await refusal(
          as.catalogue.discovery.bookSignings.create.mutate({ ...event, startsAt: 'next Tuesday' }),
        )
      ).message,
    ).toContain('Choose the date and time it starts');
    expect(
      await statusOf(as.catalogue.discovery.bookSignings.create.mutate({ ...event, author: '  ' })),
    ).toBe(400);
    expect(
      await refusal(
        as.catalogue.discovery.bookSignings.update.mutate({
          ...event,
          id: '00000000-0000-4000-8000-000000000000',
        }),
      ),
    ).toEqual({ status: 404, message: 'That event no longer exists. Refresh the page.' });
    const other = api(t.app, member.accessToken);
    expect(await statusOf(other.catalogue.discovery.bookSignings.list.query())).toBe(403);
    expect(await statusOf(other.catalogue.discovery.bookSignings.create.mutate(event))).toBe(403);
    expect(
      await statusOf(
        other.catalogue.discovery.bookSignings.setPublished.mutate({ id: before[0]!.id, published: true }),
      ),
    ).toBe(403);
    expect(await as.catalogue.discovery.bookSignings.list.query()).toEqual(before);
  });
});
