/**
 * Results by book (issue 36, decision 0079) in Chromium, for a visitor and a signed-in buyer at
 * 390 and 1,280 px: search and browse show one result per edition, or per book ("Each book",
 * `group=work`), each with the copies on sale and the lowest all-in price; a filter over copies
 * changes the count; "did you mean" corrects a misspelling and offers the words as typed; a
 * category browses by book; a seller's shelf stays copy by copy.
 *
 * The copies behind each result are read from the database, and their prices from the listing
 * page's own breakdown (the figure checkout charges, all-in-prices.e2e.test.ts), so a card that
 * counted or priced its copies wrongly fails.
 */
import { CORRECTION_WORDS, type ListingDetail } from '@reshelf/contracts';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn } from '../support/auth.ts';
import { bookResultsOn, copiesOnSale } from '../support/book-results.ts';
import { snapshot, VIEWPORTS } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

let db: pg.Client;
beforeAll(async () => {
  db = new pg.Client({ connectionString: marketplace.databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
});

type Who = 'visitor' | 'buyer';
type Size = keyof typeof VIEWPORTS;

async function open(who: Who, size: Size): Promise<{ context: BrowserContext; page: Page }> {
  if (who === 'buyer') {
    return signedIn(browser, 'buyer@reshelf.test', { baseURL: marketplace.baseURL, viewport: size });
  }
  const context = await browser.newContext({ baseURL: marketplace.baseURL, viewport: VIEWPORTS[size] });
  await context.addInitScript(() => {
    localStorage.setItem('cookie-consent', 'declined');
    localStorage.setItem('has-visited', 'true');
  });
  return { context, page: await context.newPage() };
}

async function allInOf(context: BrowserContext, slug: string): Promise<number> {
  const input = encodeURIComponent(JSON.stringify({ slug }));
  const response = await context.request.get(`/trpc/catalogue.listings.bySlug?input=${input}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { result: { data: ListingDetail } }).result.data.price.allInMinor;
}

/** Each result's copies are the edition's copies on sale, and its price the cheapest one's all-in. */
async function checkResults(page: Page, filter: { signed?: boolean } = {}): Promise<number> {
  const results = await bookResultsOn(page);
  for (const result of results) {
    const slugs = result.listingSlug
      ? [result.listingSlug]
      : (await copiesOnSale(db, result.editionId ?? '', filter)).map((copy) => copy.slug);
    expect(slugs.length, `${result.href}: copies`).toBe(result.copies);
    const prices = await Promise.all(slugs.map((slug) => allInOf(page.context(), slug)));
    expect(result.price, `${result.href}: from`).toBe(Math.min(...prices));
  }
  return results.length;
}

const countOn = async (page: Page) => (await page.getByTestId('result-count').innerText()).trim();
const number = (text: string) => Number(/^([\d,]+)/.exec(text)?.[1]?.replace(/,/g, '') ?? Number.NaN);

describe('results by book', { timeout: 180_000 }, () => {
  const runs: [Who, Size][] = [
    ['visitor', 'phone'],
    ['visitor', 'desktop'],
    ['buyer', 'phone'],
    ['buyer', 'desktop'],
  ];
  for (const [who, size] of runs) {
    it(`a ${who} at ${VIEWPORTS[size].width} px searches by edition and by book, filters copies, is offered "did you mean", browses a category by book and a seller copy by copy`, async () => {
      const { context, page } = await open(who, size);
      const tag = `results-by-book-${who}-${size}`;

      // A search by edition: every result's copies and lowest price are the copies on sale.
      await page.goto('/search?q=tolkien');
      expect(await checkResults(page)).toBeGreaterThan(0);
      expect(await countOn(page)).toMatch(/^\d+ editions?$/);
      expect(await page.getByTestId('did-you-mean').count()).toBe(0);
      await snapshot(page, `${tag}-search`);

      // By book: the address keeps it, the count is of books, each card says how many editions.
      await page.getByText('Each book', { exact: true }).click();
      await page.waitForURL(/group=work/);
      await page.locator('[data-testid="results"][data-group="work"]').waitFor();
      expect(await countOn(page)).toMatch(/^\d+ books?$/);
      const works = page.getByTestId('book-result');
      expect(await works.count()).toBeGreaterThan(0);
      for (const text of await works.getByTestId('result-edition').allInnerTexts()) {
        expect(text).toMatch(/^\d+ editions?$/);
      }
      await page.goBack();
      await page.locator('[data-testid="results"][data-group="edition"]').waitFor();

      // "Did you mean": the corrected words, and a link that runs the words as typed.
      await page.goto('/search?q=tolkein');
      const corrected = page.getByTestId('did-you-mean');
      await corrected.waitFor();
      expect((await corrected.innerText()).replace(/\s+/g, ' ').trim()).toBe(
        `${CORRECTION_WORDS.showing} tolkien — ${CORRECTION_WORDS.instead} tolkein`,
      );
      expect(await checkResults(page)).toBeGreaterThan(0);
      await snapshot(page, `${tag}-did-you-mean`);
      // As typed, "tolkein" finds nothing: the search's own not-found page, with its suggestions.
      await page.getByTestId('search-instead').click();
      await page.waitForURL(/\/search\/not-found\?q=tolkein$/);
      await page.getByTestId('search-not-found').waitFor();
      expect(await page.getByTestId('did-you-mean').count()).toBe(0);

      // A filter over copies changes the count: signed copies only.
      await page.goto('/listings');
      await page.getByTestId('book-result').first().waitFor();
      const before = number(await countOn(page));
      if (size === 'phone') await page.getByTestId('filters').locator('summary').click();
      await page.getByTestId('signed-filter').check();
      await page.waitForURL(/signed=1/);
      await expect.poll(async () => number(await countOn(page))).toBeLessThan(before);
      const { rows } = await db.query<{ editions: number }>(
        `select count(distinct book_id)::int as editions from public.listings where status = 'active' and signed`,
      );
      expect(number(await countOn(page))).toBe(rows[0]!.editions);
      for (const marks of await page.getByTestId('book-result').getByTestId('result-marks').allInnerTexts()) {
        expect(marks).toContain('Signed');
      }
      expect(await page.getByTestId('book-result').count()).toBe(rows[0]!.editions);
      // Each result counts and prices only its signed copies.
      expect(await checkResults(page, { signed: true })).toBe(rows[0]!.editions);
      await snapshot(page, `${tag}-filtered`);

      // A category, by book.
      const category = await db.query<{ slug: string }>(
        `select c.slug from public.categories c join public.books b on b.category_id = c.id
           join public.listings l on l.book_id = b.id and l.status = 'active'
          group by c.slug order by count(*) desc limit 1`,
      );
      await page.goto(`/c/${category.rows[0]!.slug}`);
      expect(await checkResults(page)).toBeGreaterThan(0);
      expect(await page.getByTestId('results').getByTestId('listing-card').count()).toBe(0);

      // A seller's shelf stays copy by copy.
      const seller = await db.query<{ seller_id: string }>(
        `select seller_id from public.listings where status = 'active' and charity_id is null
          group by seller_id order by count(*) desc limit 1`,
      );
      await page.goto(`/seller/${seller.rows[0]!.seller_id}`);
      await page.getByTestId('results').getByTestId('listing-card').first().waitFor();
      expect(await page.getByTestId('book-result').count()).toBe(0);
      await context.close();
    });
  }
});
