/**
 * The site's static pages, written for Reshelf and kept as Markdown in pages/ beside this file. Staff
 * edit them in the database afterwards; this only fills an empty site.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../db/index.ts';
import { SITE_PAGES_DIR } from '../paths.ts';

export const SITE_PAGES = [
  {
    slug: 'about-us',
    title: 'About Reshelf',
    description:
      'Reshelf is the UK marketplace for pre-loved books: why we started, how it works and who we are.',
  },
  {
    slug: 'sustainability',
    title: 'Sustainability',
    description:
      'Why second-hand books are the greenest books, and what Reshelf does to keep them in circulation.',
  },
  {
    slug: 'accessibility-policy',
    title: 'Accessibility statement',
    description:
      'How Reshelf works for everyone: our accessibility standard, known problems and how to report one.',
  },
  {
    slug: 'privacy-policy',
    title: 'Privacy policy',
    description:
      'What personal information Reshelf collects, why we use it, who we share it with and your rights.',
  },
  {
    slug: 'cookie-policy',
    title: 'Cookie policy',
    description:
      'The cookies Reshelf uses, what each is for, and how to accept, decline or change your choice.',
  },
  {
    slug: 'terms',
    title: 'Terms and conditions',
    description:
      'The terms for buying and selling books on Reshelf, including buyer protection, postage and returns.',
  },
  {
    slug: 'help-centre',
    title: 'Help centre',
    description: 'Help with buying, selling, postage, payments and your Reshelf account.',
  },
  {
    slug: 'faq',
    title: 'Frequently asked questions',
    description:
      'Quick answers about buyer protection, postage, conditions, returns, offers and your account.',
  },
] as const;

export async function seedSitePages(db: Database): Promise<{ pages: number }> {
  const rows = await Promise.all(
    SITE_PAGES.map(async (page) => ({
      ...page,
      body_markdown: await readFile(path.join(SITE_PAGES_DIR, `${page.slug}.md`), 'utf8'),
    })),
  );
  const inserted = await db
    .insertInto('pages')
    .values(rows)
    .onConflict((oc) => oc.column('slug').doNothing())
    .returning('slug')
    .execute();
  return { pages: inserted.length };
}
