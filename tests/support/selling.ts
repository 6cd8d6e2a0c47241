/**
 * Listing a book as a seller clicks through it (the sell wizard from the ISBN to published), for
 * the browser tests that need a book put on sale through the real pages (selling, payouts).
 */
import { formatPence, POSTAGE_BANDS, postageFromFor } from '@reshelf/contracts';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { snapshot } from './browser.ts';
import { makePng } from './png.ts';

/** Waits until every image on the page has loaded (for screenshots worth looking at). */
export async function imagesLoaded(page: Page): Promise<void> {
  // Lazy images below the fold (the demo covers in a grid) load only when scrolled to: a
  // full-page screenshot needs them all, so they are asked for now.
  await page.evaluate(() => {
    for (const image of document.images) image.loading = 'eager';
  });
  await page.waitForFunction(() => [...document.images].every((image) => image.complete));
}

export async function noHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}

/** Waits for the sell wizard's step `name` (its address and its form). */
export async function wizardStep(page: Page, name: string): Promise<void> {
  await page.waitForURL(new RegExp(`step=${name}`));
  await page.locator(`[data-testid="sell-wizard"][data-step="${name}"]`).waitFor();
}

/**
 * The wizard from the ISBN to published, as a seller clicks through it, with a screenshot of
 * every step when asked (named `selling-<step>-<shots>`). Answers the listing's id and its address.
 */
export async function listBook(
  page: Page,
  book: { isbn: string; title: string; price: string },
  shots?: string,
  /** A signed first edition with its dust jacket (Near Fine), checked at the review step. */
  { collectable = false }: { collectable?: boolean } = {},
): Promise<{ id: string; url: string }> {
  const shot = async (name: string) => {
    if (!shots) return;
    await imagesLoaded(page);
    await noHorizontalScroll(page);
    await snapshot(page, `selling-${name}-${shots}`);
  };
  await page.goto('/sell/new');
  const isbn = page.getByTestId('isbn-input');
  await isbn.waitFor();
  // The ISBN field has the focus: typing starts at once.
  expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('isbn-input');
  await shot('1-isbn');
  await page.keyboard.type(book.isbn);
  await page.keyboard.press('Enter');

  await wizardStep(page, 'details');
  expect(await page.getByTestId('found-book').innerText()).toContain(book.title);
  await shot('2-details');
  await page.getByTestId('step-submit').click();

  await wizardStep(page, 'condition');
  await page.getByText('Very good', { exact: true }).click();
  await page.getByLabel('Notes on any defects').fill('Light shelf wear to the spine; pages clean.');
  if (collectable) {
    const details = page.getByTestId('collector-attributes');
    // The Bookman grade is asked for only once the copy is collectable.
    expect(await page.getByLabel('Bookman grade', { exact: true }).count()).toBe(0);
    await details.getByText('First edition', { exact: true }).click();
    await details.getByText('Signed', { exact: true }).click();
    await page.getByLabel('Dust jacket', { exact: true }).selectOption('near_fine');
    const bookman = page.getByLabel('Bookman grade', { exact: true });
    await bookman.waitFor();
    // It defaults to the everyday grade's mapping.
    expect(await bookman.inputValue()).toBe('');
    expect(await bookman.locator('option:checked').innerText()).toBe('As its condition: Very Good');
  }
  await shot('3-condition');
  await page.getByTestId('step-submit').click();

  await wizardStep(page, 'photos');
  await page
    .getByTestId('photo-input')
    .setInputFiles({ name: 'front-cover.png', mimeType: 'image/png', buffer: makePng(600, 800) });
  await page.getByTestId('photo-list').getByRole('img', { name: 'Your copy, main view' }).waitFor();
  await shot('4-photos');
  await page.getByTestId('step-submit').click();

  await wizardStep(page, 'price');
  await page.getByTestId('price-suggestion').waitFor();
  await page.getByTestId('price-input').fill(book.price);
  await shot('5-price');
  await page.getByTestId('step-submit').click();

  await wizardStep(page, 'parcel');
  // The cheapest label for the book as a small one, from the rate card (the band depends on its pages).
  const postageWords = await page.getByTestId('postage-small').innerText();
  expect(POSTAGE_BANDS.map((band) => `Buyer pays ${formatPence(postageFromFor(band))} postage`)).toContain(
    postageWords,
  );
  await page.getByText('Small parcel', { exact: true }).click();
  await shot('6-parcel');
  await page.getByTestId('step-submit').click();

  await wizardStep(page, 'review');
  expect(await page.getByTestId('review-price').innerText()).toBe(`£${book.price}`);
  if (collectable) {
    const condition = await page.getByTestId('review-condition').innerText();
    for (const words of [
      'Very good (Bookman: Very Good)',
      'First edition',
      'Signed',
      'Dust jacket: Near Fine',
    ])
      expect(condition).toContain(words);
  }
  await shot('7-review');
  await page.getByTestId('publish').click();

  await page.waitForURL(/\/sell\/confirm\?listing=/);
  const link = page.getByTestId('share-link');
  await link.waitFor();
  const url = await link.inputValue();
  const id = new URL(page.url()).searchParams.get('listing')!;
  await shot('8-confirm');
  return { id, url };
}
