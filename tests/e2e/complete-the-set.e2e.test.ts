/**
 * "Complete the set" in Chromium (issue 38, decision 0089), at 390 and 1,280 px: a member who
 * has volumes 1, 2 and 4 of a series (2 bought on Reshelf, 1 and 4 marked as theirs) opens
 * volume 1's book page and sees "Series: …, book 1 of 4", the missing volume 3 with its lowest
 * all-in price (the book page's own figure for it), follows it to its copies, wants the rest of
 * the series and still sees that want after a reload; /account/series shows the gap too.
 *
 * The series, its books, the copy of volume 3, the seller and the member are this file's own,
 * removed after.
 */
import { type BookPage, formatPence } from '@reshelf/contracts';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createConfirmedAccount, signedIn } from '../support/auth.ts';
import { baseURL, launchBrowser, snapshot, VIEWPORTS } from '../support/browser.ts';

const SERIES = 'The Lantern Quartet';
const AUTHOR = 'Marisol Penhallow';
const TITLES = [
  'The Lantern at Porthcurno',
  'The Lantern in the Fog',
  'The Lantern Keeper',
  'The Last Lantern',
];
const EMAIL = 'set-e2e-member@reshelf.test';
const PASSWORD = 'lantern-quartet-e2e';

let browser: Browser;
let db: pg.Client;
let sellerId = '';
let memberId = '';
let seriesId = '';
const bookIds: string[] = [];
const workSlugs: string[] = [];
let seriesSlug = '';

beforeAll(async () => {
  browser = await launchBrowser();
  db = new pg.Client({ connectionString: inject('e2eDatabaseUrl') });
  await db.connect();
  const one = async (sql: string, params: unknown[]) =>
    (await db.query<{ id: string }>(sql, params)).rows[0]!.id;
  sellerId = await one(`insert into auth.users (email, raw_user_meta_data) values ($1, $2) returning id`, [
    'set-e2e-seller@reshelf.test',
    JSON.stringify({ display_name: 'Cornish Lanterns Books' }),
  ]);
  seriesSlug = 'lantern-quartet-e2e';
  seriesId = await one(`insert into public.series (slug, name) values ($1, $2) returning id`, [
    seriesSlug,
    SERIES,
  ]);
  for (const [index, title] of TITLES.entries()) {
    const bookId = await one(
      `insert into public.books (title, authors, publisher, published_year, description)
       values ($1, $2, 'Kernow Press', 2019, 'A lighthouse keeper’s family on the far west coast of Cornwall.')
       returning id`,
      [title, [AUTHOR]],
    );
    bookIds.push(bookId);
    const work = await db.query<{ id: string; slug: string }>(
      'select w.id, w.slug from public.works w join public.books b on b.work_id = w.id where b.id = $1',
      [bookId],
    );
    workSlugs.push(work.rows[0]!.slug);
    await db.query('update public.works set series_id = $1, series_position = $2 where id = $3', [
      seriesId,
      index + 1,
      work.rows[0]!.id,
    ]);
  }
  const listing = (slug: string, bookId: string, status: string, price: number) =>
    one(
      `insert into public.listings (seller_id, book_id, slug, status, condition, price_minor, parcel_size, published_at)
       values ($1, $2, $3, $4, 'very_good', $5, 'small', now() - interval '1 minute') returning id`,
      [sellerId, bookId, slug, status, price],
    );
  // Volume 3 is on sale; volume 2's copy was sold to the member.
  await listing('set-e2e-lantern-keeper', bookIds[2]!, 'active', 650);
  const sold = await listing('set-e2e-lantern-fog', bookIds[1]!, 'sold', 420);

  const context = await browser.newContext({ baseURL: baseURL() });
  await createConfirmedAccount(context, EMAIL, PASSWORD, 'Tamsin Reader');
  await context.close();
  memberId = await one('select id from auth.users where lower(email) = $1', [EMAIL]);
  // An order and its book in one transaction (an order without books is refused at commit).
  await db.query('begin');
  const orderId = await one(
    `insert into public.orders (buyer_id, seller_id, status, item_price_minor, total_minor)
     values ($1, $2, 'completed', 420, 420) returning id`,
    [memberId, sellerId],
  );
  await db.query(
    `insert into public.order_items (order_id, listing_id, position, price_minor) values ($1, $2, 1, 420)`,
    [orderId, sold],
  );
  await db.query('commit');
  await db.query(
    `insert into public.member_books (user_id, work_id, source)
     select $1, b.work_id, 'reshelf' from public.books b where b.id = any($2::uuid[])`,
    [memberId, [bookIds[0], bookIds[3]]],
  );
});

afterAll(async () => {
  if (db) {
    await db.query('delete from public.wants where user_id = $1', [memberId]);
    await db.query('delete from public.member_books where user_id = $1', [memberId]);
    await db.query('begin');
    await db.query(
      'delete from public.order_items where order_id in (select id from public.orders where buyer_id = $1)',
      [memberId],
    );
    await db.query('delete from public.orders where buyer_id = $1', [memberId]);
    await db.query('commit');
    await db.query('delete from public.listings where seller_id = $1', [sellerId]);
    await db.query('delete from public.books where id = any($1::uuid[])', [bookIds]);
    await db.query('delete from public.series where id = $1', [seriesId]);
    await db.query('delete from auth.users where id = any($1::uuid[])', [
      [sellerId, memberId].filter(Boolean),
    ]);
    await db.end();
  }
  await browser?.close();
});

/** Volume 3's lowest all-in price, as its own book page answers it. */
async function volumeThreeFrom(): Promise<string> {
  const response = await fetch(new URL(`/api/v1/books/${workSlugs[2]}`, baseURL()));
  expect(response.status).toBe(200);
  const page = (await response.json()) as BookPage;
  expect(page.lowAllInMinor).not.toBeNull();
  return formatPence(page.lowAllInMinor!);
}

describe('complete the set', () => {
  for (const viewport of ['phone', 'desktop'] as const) {
    it(`shows the missing volume 3 with its price and follows it to its copies (${VIEWPORTS[viewport].width} px)`, async () => {
      const from = await volumeThreeFrom();
      const { context, page } = await signedIn(browser, EMAIL, { viewport, password: PASSWORD });
      try {
        await page.goto(`/book/${workSlugs[0]}`);
        await expect
          .poll(() => page.getByTestId('series-place').textContent())
          .toBe(`Series: ${SERIES}, book 1 of 4`);
        const panel = page.getByTestId('complete-the-set');
        await expect
          .poll(() => panel.getByTestId('set-line').textContent())
          .toBe(`You have 1, 2 and 4: 3 is on sale from ${from}`);
        const volumes = panel.getByTestId('set-volume');
        expect(await volumes.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-have')))).toEqual(
          ['true', 'true', 'false', 'true'],
        );
        const three = volumes.nth(2);
        expect(await three.textContent()).toContain(TITLES[2]);
        expect(await three.getByTestId('set-volume-copies').textContent()).toBe(`1 copy from ${from}`);
        await snapshot(page, `complete-the-set-${viewport}`);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
          true,
        );

        await three.getByTestId('set-volume-copies').click();
        await page.waitForURL((url) => url.pathname === `/book/${workSlugs[2]}`);
        await expect.poll(() => page.locator('h1').textContent()).toBe(TITLES[2]);
        const copies = page.getByTestId('book-copies');
        await expect.poll(() => copies.getByTestId('copy-price').first().textContent()).toContain(from);
      } finally {
        await context.close();
      }
    });
  }

  it('wants the rest of the series, kept after a reload; a bought volume cannot be unmarked', async () => {
    const { context, page } = await signedIn(browser, EMAIL, { viewport: 'phone', password: PASSWORD });
    try {
      await page.goto(`/book/${workSlugs[0]}`);
      await page.getByTestId('set-want-rest').click();
      await page.getByTestId('set-want-saved').waitFor();
      await page.reload();
      await page.getByTestId('set-want-saved').waitFor();
      expect(await page.getByTestId('set-want-rest').count()).toBe(0);
      const wants = await db.query<{ kind: string; series_id: string }>(
        'select kind, series_id from public.wants where user_id = $1',
        [memberId],
      );
      expect(wants.rows).toEqual([{ kind: 'series', series_id: seriesId }]);
      // Volume 2 was bought here: a purchase is not unmarked, so no "I don't have this" for it.
      await page.goto(`/book/${workSlugs[1]}`);
      await page.getByTestId('set-bought-this').waitFor();
      expect(await page.getByTestId('set-have-this').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('lists the series with its gap on /account/series', async () => {
    const from = await volumeThreeFrom();
    for (const viewport of ['phone', 'desktop'] as const) {
      const { context, page } = await signedIn(browser, EMAIL, { viewport, password: PASSWORD });
      try {
        await page.goto('/account/series');
        const card = page.getByTestId('my-series-card').filter({ hasText: SERIES });
        await expect
          .poll(() => card.textContent())
          .toContain(`You have 1, 2 and 4: 3 is on sale from ${from}`);
        await snapshot(page, `my-series-${viewport}`);
      } finally {
        await context.close();
      }
    }
  });
});
