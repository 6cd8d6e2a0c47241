/**
 * The book page (decision 0081) in Chromium, for a visitor and a signed-in buyer at 390 and
 * 1,280 px: the work, its editions and its copies, sorted by price and condition (by keyboard on
 * the table), narrowed to an edition, a copy followed to its listing, and from the listing "N more
 * copies from £x" and "Other editions" followed back; the server's HTML carries the title,
 * canonical and JSON-LD, whose AggregateOffer's lowPrice is the cheapest copy's all-in price.
 *
 * The book is this file's own (two editions, four copies of a seller of its own), removed after.
 */
import { type BookPage, CONDITION_LABELS, CONDITIONS, formatPence, poundsString } from '@reshelf/contracts';
import pg from 'pg';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signedIn } from '../support/auth.ts';
import { baseURL, launchBrowser, snapshot, VIEWPORTS } from '../support/browser.ts';

let browser: Browser;
let db: pg.Client;
let sellerId = '';
let workSlug = '';
const editionIds = { foxglove: '', tidewater: '' };
const TITLE = 'A Field Guide to Quiet Harbours';
const SLUGS = [
  'bookpage-e2e-fox-good',
  'bookpage-e2e-fox-fine',
  'bookpage-e2e-fox-signed',
  'bookpage-e2e-tide',
];

beforeAll(async () => {
  browser = await launchBrowser();
  db = new pg.Client({ connectionString: inject('e2eDatabaseUrl') });
  await db.connect();
  const one = async (sql: string, params: unknown[]) =>
    (await db.query<{ id: string }>(sql, params)).rows[0]!.id;
  sellerId = await one(`insert into auth.users (email, raw_user_meta_data) values ($1, $2) returning id`, [
    'bookpage-e2e@reshelf.test',
    JSON.stringify({ display_name: 'Harbour Lights Books' }),
  ]);
  const edition = (publisher: string, year: number, isbn: string) =>
    one(
      `insert into public.books (title, authors, isbn13, publisher, published_year, description)
       values ($1, '{Imogen Fairweather}', $2, $3, $4, 'Small harbours of the British coast, one by one.') returning id`,
      [TITLE, isbn, publisher, year],
    );
  editionIds.foxglove = await edition('Foxglove Press', 2001, '9781900000017');
  editionIds.tidewater = await edition('Tidewater Books', 2015, '9781900000024');
  const copy = (
    slug: string,
    bookId: string,
    condition: string,
    price: number,
    format: string,
    signed = false,
  ) =>
    db.query(
      `insert into public.listings (seller_id, book_id, slug, status, condition, price_minor, parcel_size, format,
         signed, first_edition, published_at)
       values ($1, $2, $3, 'active', $4, $5, 'small', $6, $7, $7, now() - interval '1 minute')`,
      [sellerId, bookId, slug, condition, price, format, signed],
    );
  await copy(SLUGS[0]!, editionIds.foxglove, 'good', 500, 'hardback');
  await copy(SLUGS[1]!, editionIds.foxglove, 'like_new', 900, 'hardback');
  await copy(SLUGS[2]!, editionIds.foxglove, 'very_good', 1400, 'hardback', true);
  await copy(SLUGS[3]!, editionIds.tidewater, 'well_read', 300, 'paperback');
  workSlug = (
    await db.query<{ slug: string }>(
      'select w.slug from public.works w join public.books b on b.work_id = w.id where b.id = $1',
      [editionIds.foxglove],
    )
  ).rows[0]!.slug;
});

afterAll(async () => {
  await db?.query('delete from public.listings where seller_id = $1', [sellerId]);
  await db?.query('delete from public.books where id = any($1::uuid[])', [Object.values(editionIds)]);
  await db?.query('delete from auth.users where id = $1', [sellerId]);
  await browser?.close();
  await db?.end();
});

async function bookFromApi(edition?: string): Promise<BookPage> {
  const response = await fetch(
    new URL(`/api/v1/books/${workSlug}${edition ? `?edition=${edition}` : ''}`, baseURL()),
  );
  expect(response.status).toBe(200);
  return (await response.json()) as BookPage;
}

type Viewport = keyof typeof VIEWPORTS;

async function visitor(viewport: Viewport) {
  const context = await browser.newContext({ baseURL: baseURL(), viewport: VIEWPORTS[viewport] });
  await context.addInitScript(() => {
    localStorage.setItem('cookie-consent', 'declined');
    localStorage.setItem('has-visited', 'true');
  });
  return { context, page: await context.newPage() };
}

/** The copies as shown at this width: the table's rows, or the cards on a phone. */
const rows = (page: Page, viewport: Viewport): Locator =>
  page.getByTestId(viewport === 'desktop' ? 'copy-row' : 'copy-card');

async function shownPrices(page: Page, viewport: Viewport): Promise<string[]> {
  return rows(page, viewport).getByTestId('copy-price').allTextContents();
}

async function shownConditions(page: Page, viewport: Viewport): Promise<string[]> {
  return rows(page, viewport).getByTestId('copy-condition').allTextContents();
}

/** Sorts: on the table by pressing a heading's button from the keyboard, on a phone with the menu. */
async function sortBy(page: Page, viewport: Viewport, key: 'price' | 'condition', direction: 'asc' | 'desc') {
  if (viewport === 'phone') {
    await page.getByTestId('copy-sort').selectOption(`${key}-${direction}`);
  } else {
    const header = page.locator('th').filter({ has: page.getByTestId(`sort-${key}`) });
    const want = direction === 'asc' ? 'ascending' : 'descending';
    for (let presses = 0; presses < 2 && (await header.getAttribute('aria-sort')) !== want; presses += 1) {
      const before = await header.getAttribute('aria-sort');
      await page.getByTestId(`sort-${key}`).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => header.getAttribute('aria-sort')).not.toBe(before);
    }
    expect(await header.getAttribute('aria-sort')).toBe(want);
  }
}

describe('the book page', () => {
  it('answers crawlers with its title, canonical and JSON-LD Book whose lowPrice is the cheapest all-in price', async () => {
    const book = await bookFromApi();
    const response = await fetch(new URL(`/book/${workSlug}?edition=${editionIds.foxglove}`, baseURL()), {
      headers: { accept: 'text/html' },
    });
    expect(response.status).toBe(200);
    const body = await response.text();
    expect(body).toContain(`<title>${TITLE} by Imogen Fairweather · Reshelf</title>`);
    // One address for the book whichever edition is chosen.
    expect(body).toContain(`<link rel="canonical" href="${new URL(`/book/${workSlug}`, baseURL()).href}" />`);
    const script = body.match(
      /<script type="application\/ld\+json" data-testid="book-json-ld">(.*?)<\/script>/s,
    );
    expect(script).not.toBeNull();

    const all = await fetch(new URL(`/book/${workSlug}`, baseURL()), { headers: { accept: 'text/html' } });
    const ld = JSON.parse(
      (await all.text()).match(
        /<script type="application\/ld\+json" data-testid="book-json-ld">(.*?)<\/script>/s,
      )![1]!,
    );
    expect(ld).toMatchObject({
      '@type': 'Book',
      name: TITLE,
      author: [{ '@type': 'Person', name: 'Imogen Fairweather' }],
      offers: {
        '@type': 'AggregateOffer',
        priceCurrency: 'GBP',
        offerCount: 4,
        lowPrice: poundsString(book.copies[0]!.allInMinor),
        highPrice: poundsString(book.copies[3]!.allInMinor),
      },
    });
    expect(ld.workExample.map((edition: { isbn: string }) => edition.isbn).sort()).toEqual([
      '9781900000017',
      '9781900000024',
    ]);
  });

  for (const role of ['visitor', 'buyer'] as const) {
    for (const viewport of ['desktop', 'phone'] as const) {
      it(`${role} at ${VIEWPORTS[viewport].width} px: sorts the copies, picks an edition, follows a copy and comes back`, async () => {
        const book = await bookFromApi();
        const { context, page } =
          role === 'buyer'
            ? await signedIn(browser, 'buyer@reshelf.test', { viewport })
            : await visitor(viewport);
        try {
          await page.goto(`/book/${workSlug}`);
          await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(TITLE);
          await expect.poll(() => rows(page, viewport).count()).toBe(4);
          expect(await page.getByTestId('book-summary').textContent()).toBe(
            `4 copies from ${formatPence(book.lowAllInMinor!)}`,
          );
          // The JSON-LD in the browser agrees with the cheapest copy shown.
          const ld = JSON.parse((await page.getByTestId('book-json-ld').textContent())!);
          expect(ld.offers.lowPrice).toBe(poundsString(book.copies[0]!.allInMinor));

          // Cheapest all-in first, then the other way round.
          const cheapestFirst = book.copies.map((copy) => formatPence(copy.allInMinor));
          expect(await shownPrices(page, viewport)).toEqual(cheapestFirst);
          await sortBy(page, viewport, 'price', 'desc');
          await expect.poll(() => shownPrices(page, viewport)).toEqual([...cheapestFirst].reverse());

          // By condition: best first, then worst first.
          const bestFirst = [...book.copies]
            .sort((a, b) => CONDITIONS.indexOf(a.condition) - CONDITIONS.indexOf(b.condition))
            .map((copy) => CONDITION_LABELS[copy.condition]);
          await sortBy(page, viewport, 'condition', 'asc');
          await expect.poll(() => shownConditions(page, viewport)).toEqual(bestFirst);
          await sortBy(page, viewport, 'condition', 'desc');
          await expect.poll(() => shownConditions(page, viewport)).toEqual([...bestFirst].reverse());
          await snapshot(page, `book-page-${role}-${viewport}`);
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - window.innerWidth,
          );
          expect(overflow).toBeLessThanOrEqual(1);

          // Pick the Tidewater edition: its one copy.
          await page
            .getByTestId('book-editions')
            .getByRole('link', { name: /Tidewater Books, 2015/ })
            .click();
          await expect.poll(() => new URL(page.url()).searchParams.get('edition')).toBe(editionIds.tidewater);
          await expect.poll(() => rows(page, viewport).count()).toBe(1);
          const tidewater = await bookFromApi(editionIds.tidewater);
          expect(await page.getByTestId('book-summary').textContent()).toBe(
            `1 copy from ${formatPence(tidewater.lowAllInMinor!)} of this edition`,
          );

          // Follow the copy to its listing.
          await rows(page, viewport).getByTestId('copy-link').click();
          await expect.poll(() => new URL(page.url()).pathname).toBe(`/listing/${SLUGS[3]}`);
          await page.getByTestId('listing-page').waitFor();
          const foxglove = await bookFromApi(editionIds.foxglove);
          const more = page.getByTestId('more-copies');
          await expect
            .poll(() => more.textContent())
            .toBe(`3 more copies from ${formatPence(foxglove.lowAllInMinor!)}`);
          const others = page.getByTestId('other-editions');
          expect(await others.textContent()).toContain('Foxglove Press, 2001');
          expect(await others.textContent()).toContain(
            `3 copies from ${formatPence(foxglove.lowAllInMinor!)}`,
          );
          await snapshot(page, `book-page-listing-${role}-${viewport}`);

          // "Other editions" leads to the book page at that edition…
          await others.getByRole('link', { name: /Foxglove Press, 2001/ }).click();
          await expect.poll(() => new URL(page.url()).searchParams.get('edition')).toBe(editionIds.foxglove);
          await expect.poll(() => rows(page, viewport).count()).toBe(3);
          // …and "N more copies" to the whole book.
          await page.goBack();
          await page.getByTestId('more-copies').click();
          await expect
            .poll(() => `${new URL(page.url()).pathname}${new URL(page.url()).search}`)
            .toBe(`/book/${workSlug}`);
          await expect.poll(() => rows(page, viewport).count()).toBe(4);
        } finally {
          await context.close();
        }
      });
    }
  }

  it('shows the not-found page for a book that does not exist', async () => {
    const response = await fetch(new URL('/book/no-such-book-anywhere', baseURL()), {
      headers: { accept: 'text/html' },
    });
    expect(response.status).toBe(404);
  });
});
