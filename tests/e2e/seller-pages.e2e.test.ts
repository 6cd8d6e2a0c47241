/**
 * Seller and charity pages lead with their books: on a phone the reviews came before
 * any book (books began about 1,500 px down). The page's rating line sits at the top with a link
 * to all the reviews, which follow the books. And a seller's rating (stars and count) shows
 * wherever the seller is named: the discover page and the listing page's seller card.
 */
import type { Rating } from '@reshelf/contracts';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newPage, snapshotsAt, VIEWPORTS, withBrowser } from '../support/browser.ts';

let browser: Browser;
withBrowser((launched) => (browser = launched));

const shots = snapshotsAt('seller-pages');

/** A returning visitor who has declined cookies: nothing opens over the page. */
async function visitor(viewport: keyof typeof VIEWPORTS) {
  const opened = await newPage(browser, viewport);
  await opened.context.addInitScript(() => {
    localStorage.setItem('cookie-consent', 'declined');
    localStorage.setItem('has-visited', 'true');
  });
  return opened;
}

async function query<T>(page: Page, procedure: string, input: unknown): Promise<T> {
  const response = await page.request.get(
    `/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`,
  );
  expect(response.ok(), procedure).toBe(true);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

/** The demo seller (Sam's Shelf, who has reviews), from the discover page's own answer. */
async function demoSeller(page: Page): Promise<{ id: string; displayName: string }> {
  const sellers = await query<{ id: string; displayName: string; charity: unknown }[]>(
    page,
    'catalogue.sellers.discover',
    { limit: 48 },
  );
  const sam = sellers.find((seller) => seller.displayName === "Sam's Shelf" && !seller.charity);
  if (!sam) throw new Error('the demo seller is not on the discover page');
  return sam;
}

/** The page leads with its books: the rating line on the first screen, the reviews after every book. */
async function booksFirst(page: Page): Promise<void> {
  const reviews = page.getByTestId('reviews');
  const summary = page.getByTestId('rating-summary');
  await summary.getByTestId('rating').waitFor();
  await reviews.getByTestId('review').first().waitFor();
  await page.getByTestId('listing-card').first().waitFor();
  // The same rating as the reviews section's, on the first screen.
  expect(await summary.getByTestId('rating').textContent()).toBe(
    await reviews.getByTestId('rating').textContent(),
  );
  const top = await summary.evaluate((element) => element.getBoundingClientRect().bottom);
  expect(top).toBeLessThanOrEqual(VIEWPORTS.phone.height);
  // Every book above the reviews.
  const reviewsTop = await reviews.evaluate((element) => element.getBoundingClientRect().top);
  const booksBottom = await page
    .getByTestId('listing-card')
    .evaluateAll((cards) => Math.max(...cards.map((card) => card.getBoundingClientRect().bottom)));
  expect(booksBottom).toBeLessThan(reviewsTop);
  // The link goes down to them.
  await summary.getByRole('link', { name: /^Read all \d+ reviews$/ }).click();
  await expect
    .poll(() => reviews.evaluate((element) => Math.round(element.getBoundingClientRect().top)))
    .toBeLessThan(VIEWPORTS.phone.height / 2);
  expect(new URL(page.url()).hash).toBe('#reviews');
}

describe('seller and charity pages', () => {
  it('lead with the books on a phone: the rating line at the top links to the reviews after them', async () => {
    const { context, page } = await visitor('phone');
    const seller = await demoSeller(page);
    await page.goto(`/seller/${seller.id}`);
    await booksFirst(page);
    await page.goto('/charity/cherwell-valley-hospice-books');
    await booksFirst(page);
    await context.close();
  });

  it('show the seller’s rating, stars and count, wherever a seller is named', async () => {
    const { context, page } = await visitor('desktop');
    const seller = await demoSeller(page);
    const ratings = await query<Record<string, Rating>>(page, 'community.reviews.public.ratings', {
      sellerIds: [seller.id],
    });
    const rating = ratings[seller.id]!;
    expect(rating.count).toBeGreaterThan(0);
    const words = `${rating.average?.toFixed(1)} (${rating.count} reviews)`;

    await page.goto('/discover-sellers');
    const card = page
      .getByTestId('seller-list')
      .getByRole('listitem')
      .filter({ has: page.locator(`a[href="/seller/${seller.id}"]`) });
    const onCard = card.getByTestId('seller-rating');
    await onCard.waitFor();
    expect((await onCard.innerText()).replace(/\s+/g, ' ').trim()).toBe(words);
    expect(await onCard.getByRole('img').getAttribute('aria-label')).toBe(`${rating.average} out of 5 stars`);
    await shots(page, 'discover', () => onCard.waitFor());

    // The listing page's seller card.
    await page.goto(`/seller/${seller.id}`);
    await page.getByTestId('listing-card').first().getByRole('link').first().click();
    await page.waitForURL(/\/listing\//);
    const sellerCard = page.getByTestId('seller-card').getByTestId('seller-rating');
    await sellerCard.waitFor();
    expect((await sellerCard.innerText()).replace(/\s+/g, ' ').trim()).toBe(words);
    await context.close();
  });
});
