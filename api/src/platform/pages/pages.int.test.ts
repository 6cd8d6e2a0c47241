import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../db/migrate.ts';
import { SITE_PAGES, seedSitePages } from '../../seed/site-pages.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { api, statusOf } from '../../testing/client.ts';

const EMAIL_PAGES_MIGRATION = '20261124130000_pages_say_what_emails_do.sql';
const NOTIFICATION_PAGES_MIGRATION = '20261124221500_pages_tell_the_truth_about_notifications.sql';

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
    const page = await api(t.app).platform.pages.bySlug.query({ slug });
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
    expect((await api(t.app).platform.pages.bySlug.query({ slug: 'book-fair-2027' })).bodyMarkdown).toBe(
      '## Stand 12',
    );
    expect(await statusOf(api(t.app).platform.pages.bySlug.query({ slug: 'draft-page' }))).toBe(404);
    expect(await statusOf(api(t.app).platform.pages.bySlug.query({ slug: 'nothing-here' }))).toBe(404);
    expect(await statusOf(api(t.app).platform.pages.bySlug.query({ slug: '../../etc/passwd' }))).toBe(400);
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

/** What the seeded FAQ and help centre said until 2026-11-24: the account has no such setting. */
const OLD_FAQ_ANSWER =
  "Use the unsubscribe link at the bottom of any email, or change your email settings in your account. You'll still get emails about your orders.";
const OLD_HELP_ACCOUNT =
  'Change your email preferences from your account settings, or use the unsubscribe link at the bottom of any email we send.';
/** Promises of an email setting in the account (there was none before decision 0036). */
const PROMISED_SETTING = /email (settings|preferences)/i;

describe('what the pages say about emails', () => {
  const setBody = (slug: string, body: string) =>
    t.database.handle.db.updateTable('pages').set({ body_markdown: body }).where('slug', '=', slug).execute();
  const bodyOf = async (slug: string) =>
    (
      await t.database.handle.db
        .selectFrom('pages')
        .select('body_markdown')
        .where('slug', '=', slug)
        .executeTakeFirstOrThrow()
    ).body_markdown;
  /** The FAQ and help centre as first seeded (the FAQ with a section of its own after). */
  const seedOldEmailPages = async () => {
    await setBody('faq', `## How do I stop getting emails?\n\n${OLD_FAQ_ANSWER}\n\n## Other\n\nKept.`);
    await setBody('help-centre', `## Your account\n\n${OLD_HELP_ACCOUNT}`);
  };

  it('says what is true: service emails cannot be turned off, the optional ones are in email settings', async () => {
    for (const slug of ['faq', 'help-centre']) {
      const page = await api(t.app).platform.pages.bySlug.query({ slug });
      expect(page.bodyMarkdown, slug).toMatch(/\[your email settings\]\(\/account\/settings#emails\)/);
      expect(page.bodyMarkdown, slug).toMatch(/can't be turned off while you have an account/);
      expect(page.bodyMarkdown, slug).toMatch(/Notifications/);
    }
    const faq = (await api(t.app).platform.pages.bySlug.query({ slug: 'faq' })).bodyMarkdown;
    expect(faq).toMatch(/price drops on books in your wishlist, and unread messages/);
    expect(faq).toMatch(/unsubscribe link/);
    expect(faq).toMatch(/We don't send newsletters or marketing emails/);
    expect(faq).not.toMatch(/appears under Notifications in your account instead/);
  });

  it('corrects pages that said no email can be turned off, and leaves staff’s words alone', async () => {
    const db = t.database.handle.db;
    const before = (await readFile(path.join(MIGRATIONS_DIR, EMAIL_PAGES_MIGRATION), 'utf8')).trim();
    const migration = (
      await readFile(path.join(MIGRATIONS_DIR, NOTIFICATION_PAGES_MIGRATION), 'utf8')
    ).trim();
    // A site seeded with the first FAQ, corrected by its migration and then by this one.
    await seedOldEmailPages();
    await sql.raw(before).execute(db);
    expect(await bodyOf('faq')).not.toMatch(PROMISED_SETTING);
    await sql.raw(migration).execute(db);
    for (const slug of ['faq', 'help-centre']) {
      expect(await bodyOf(slug), slug).toMatch(/\[your email settings\]\(\/account\/settings#emails\)/);
    }
    expect(await bodyOf('faq')).toMatch(/^## How do I stop getting emails\?\n\nWhat happens to your offers/);
    expect(await bodyOf('faq')).toMatch(/## Other\n\nKept\.$/);
    // Once more changes nothing; staff's own words are left alone.
    const corrected = await bodyOf('faq');
    await sql.raw(migration).execute(db);
    expect(await bodyOf('faq')).toBe(corrected);
    await setBody('help-centre', 'Rewritten by staff: we email you a lot.');
    await sql.raw(migration).execute(db);
    expect(await bodyOf('help-centre')).toBe('Rewritten by staff: we email you a lot.');
  });

  it('corrects a site seeded before, and leaves a page staff have rewritten alone', async () => {
    const db = t.database.handle.db;
    const migration = (await readFile(path.join(MIGRATIONS_DIR, EMAIL_PAGES_MIGRATION), 'utf8')).trim();

    await seedOldEmailPages();
    await sql.raw(migration).execute(db);
    for (const slug of ['faq', 'help-centre']) {
      expect(await bodyOf(slug), slug).not.toMatch(PROMISED_SETTING);
      expect(await bodyOf(slug), slug).toMatch(/can't be turned off while you have an account/);
    }
    expect(await bodyOf('faq')).toMatch(/^## How do I stop getting emails\?\n\nReshelf only emails you/);
    expect(await bodyOf('faq')).toMatch(/## Other\n\nKept\.$/);
    const corrected = await bodyOf('faq');
    await sql.raw(migration).execute(db);
    expect(await bodyOf('faq')).toBe(corrected);

    // Not the seeded sentence any more: staff's own words stay.
    const rewritten = `Rewritten by staff: ${OLD_HELP_ACCOUNT.replace('Change', 'Please change')}`;
    await setBody('help-centre', rewritten);
    await sql.raw(migration).execute(db);
    expect(await bodyOf('help-centre')).toBe(rewritten);
  });
});
