import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE_PAGES, seedSitePages } from '../../seed/site-pages.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { trpcQuery } from '../../testing/catalogue.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await seedSitePages(t.database.handle.db);
});

afterAll(async () => {
  await t?.close();
});

describe('static pages', () => {
  it.each(SITE_PAGES.map((page) => page.slug))('serves %s from the database as Markdown', async (slug) => {
    const response = await trpcQuery(t.app, 'pages.bySlug', { slug });
    expect(response.status).toBe(200);
    const page = response.body.result.data;
    expect(page.title.length).toBeGreaterThan(3);
    expect(page.bodyMarkdown.length).toBeGreaterThan(400);
    expect(page.bodyMarkdown).not.toMatch(/lorem ipsum/i);
  });

  it('serves a page staff added, hides an unpublished one and 404s an unknown one', async () => {
    const db = t.database.handle.db;
    await db
      .insertInto('pages')
      .values([
        {
          slug: 'book-fair-2027',
          title: 'Reshelf at the book fair',
          description: 'Meet us.',
          body_markdown: '## Stand 12',
        },
        {
          slug: 'draft-page',
          title: 'Draft',
          description: 'Not yet.',
          body_markdown: 'Soon',
          published: false,
        },
      ])
      .execute();
    expect(
      (await trpcQuery(t.app, 'pages.bySlug', { slug: 'book-fair-2027' })).body.result.data.bodyMarkdown,
    ).toBe('## Stand 12');
    expect((await trpcQuery(t.app, 'pages.bySlug', { slug: 'draft-page' })).status).toBe(404);
    expect((await trpcQuery(t.app, 'pages.bySlug', { slug: 'nothing-here' })).status).toBe(404);
    expect((await trpcQuery(t.app, 'pages.bySlug', { slug: '../../etc/passwd' })).status).toBe(400);
  });

  it('seeds the pages once, leaving staff edits alone', async () => {
    const db = t.database.handle.db;
    await db
      .updateTable('pages')
      .set({ title: 'About us (edited)' })
      .where('slug', '=', 'about-us')
      .execute();
    expect(await seedSitePages(db)).toEqual({ pages: 0 });
    const page = await db
      .selectFrom('pages')
      .select('title')
      .where('slug', '=', 'about-us')
      .executeTakeFirstOrThrow();
    expect(page.title).toBe('About us (edited)');
  });
});
