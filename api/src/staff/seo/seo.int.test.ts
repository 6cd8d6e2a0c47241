/**
 * SEO: admins set search-engine titles and descriptions of static and category pages; the
 * public page and category calls carry them (null = the page's own). Others are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { api, refusal, statusOf } from '../../testing/client.ts';

let t: TestApp;
let db: Database;
let admin: TestUser;
let moderator: TestUser;
let member: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  admin = await createUser(db, t.services.identity, 'admin@seo.test', { roles: ['admin'] });
  moderator = await createUser(db, t.services.identity, 'moderator@seo.test', { roles: ['moderator'] });
  member = await createUser(db, t.services.identity, 'member@seo.test');
  await db
    .insertInto('pages')
    .values({
      slug: 'seo-test-page',
      title: 'About the fair',
      description: 'The book fair.',
      body_markdown: 'Hi',
    })
    .execute();
});

afterAll(async () => {
  await t.close();
});

const publicPage = async () => await api(t.app).platform.pages.bySlug.query({ slug: 'seo-test-page' });
const publicCategory = async () =>
  await api(t.app).catalogue.discovery.public.category.query({ slug: 'fiction' });

describe('seo', () => {
  it('admins set and clear titles and descriptions that the public pages then carry', async () => {
    const as = api(t.app, admin.accessToken);
    const list = await as.staff.seo.list.query();
    expect(list.pages.find((entry) => entry.slug === 'seo-test-page')).toEqual({
      slug: 'seo-test-page',
      name: 'About the fair',
      defaultDescription: 'The book fair.',
      seoTitle: null,
      seoDescription: null,
    });
    expect(list.categories.some((entry) => entry.slug === 'fiction')).toBe(true);
    expect(await publicPage()).toMatchObject({ seoTitle: null, seoDescription: null });

    await as.staff.seo.set.mutate({
      kind: 'page',
      slug: 'seo-test-page',
      seoTitle: '  Reshelf Book Fair 2027 ',
      seoDescription: 'Tickets, stalls and times.',
    });
    await as.staff.seo.set.mutate({ kind: 'category', slug: 'fiction', seoTitle: 'Second-hand fiction' });
    expect(await publicPage()).toMatchObject({
      title: 'About the fair',
      seoTitle: 'Reshelf Book Fair 2027',
      seoDescription: 'Tickets, stalls and times.',
    });
    expect(await publicCategory()).toMatchObject({
      name: 'Fiction',
      seoTitle: 'Second-hand fiction',
      seoDescription: null,
    });

    await as.staff.seo.set.mutate({ kind: 'page', slug: 'seo-test-page', seoTitle: '', seoDescription: '' });
    expect(await publicPage()).toMatchObject({ seoTitle: null, seoDescription: null });

    const audit = await db
      .selectFrom('audit_log')
      .select(['action', 'target_type', 'target_id'])
      .where('action', '=', 'seo.update')
      .orderBy('id')
      .execute();
    expect(audit.map((row) => [row.target_type, row.target_id])).toEqual([
      ['page', 'seo-test-page'],
      ['category', 'fiction'],
      ['page', 'seo-test-page'],
    ]);
  });

  it('refuses too long text, unknown pages and anyone but an admin', async () => {
    const as = api(t.app, admin.accessToken);
    expect(
      (
        await refusal(
          as.staff.seo.set.mutate({ kind: 'page', slug: 'seo-test-page', seoTitle: 'x'.repeat(71) }),
        )
      ).message,
    ).toContain('Keep the title to 70 characters or fewer');
    expect(
      await statusOf(
        as.staff.seo.set.mutate({ kind: 'category', slug: 'fiction', seoDescription: 'x'.repeat(161) }),
      ),
    ).toBe(400);
    expect(
      await refusal(as.staff.seo.set.mutate({ kind: 'category', slug: 'no-such-shelf', seoTitle: 'Hi' })),
    ).toEqual({
      status: 404,
      message: 'There is no category called “no-such-shelf”. Refresh the page.',
    });
    for (const user of [moderator, member]) {
      const other = api(t.app, user.accessToken);
      expect(await statusOf(other.staff.seo.list.query())).toBe(403);
      expect(
        await statusOf(other.staff.seo.set.mutate({ kind: 'category', slug: 'fiction', seoTitle: 'Hacked' })),
      ).toBe(403);
    }
    expect(await publicCategory()).toMatchObject({ seoTitle: 'Second-hand fiction' });
  });
});
