/**
 * A fair price in Chromium (issue 38, decision 0091): seller@reshelf.test lists an edition with
 * sales history and the price step suggests a price with its band and the number of sales
 * behind it; "Use £x" fills the price. A buyer sees the typical price on a listing page where
 * the data is enough. Screenshots at 390 and 1280 px land in tests/.artifacts/.
 */

import { type Condition, FAIR_PRICE_WORDS, type FairPrice, poundsString } from '@reshelf/contracts';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signedIn } from '../support/auth.ts';
import { launchBrowser, newPage, snapshot } from '../support/browser.ts';
import { makePng } from '../support/png.ts';
import { imagesLoaded, noHorizontalScroll, wizardStep } from '../support/selling.ts';
import { trpcQuery } from '../support/trpc.ts';

let browser: Browser;
let db: pg.Client;

beforeAll(async () => {
  browser = await launchBrowser();
  db = new pg.Client({ connectionString: inject('e2eDatabaseUrl') });
  await db.connect();
});

afterAll(async () => {
  await browser?.close();
  await db?.end();
});

/** The seeded sales of an edition in a condition, from the view that defines a sale (within two years). */
async function salesOf(bookId: string, condition: string): Promise<number> {
  const { rows } = await db.query<{ count: string }>(
    `select count(*) from public.fair_price_sales
      where book_id = $1 and condition = $2 and sold_at > now() - interval '730 days'`,
    [bookId, condition],
  );
  return Number(rows[0]?.count);
}

describe('a fair price', () => {
  it('is suggested in the sell wizard with its band and the sales behind it; "Use" fills the price', async () => {
    // The two demo editions with the most past sales in very good condition: one for each
    // viewport (a second pass with the same book would resume the first one's draft).
    const { rows: books } = await db.query<{ id: string; isbn13: string; title: string }>(
      `select b.id, b.isbn13, b.title from public.books b
         join public.sales_history h on h.book_id = b.id and h.condition = 'very_good'
        where b.isbn13 is not null
        group by b.id order by count(*) desc, b.id limit 2`,
    );

    for (const [index, viewport] of (['phone', 'desktop'] as const).entries()) {
      const book = books[index]!;
      const sales = await salesOf(book.id, 'very_good');
      expect(sales).toBeGreaterThanOrEqual(5);
      const seller = await signedIn(browser, 'seller@reshelf.test', { viewport });
      const page = seller.page;
      await page.goto('/sell/new');
      await page.getByTestId('isbn-input').waitFor();
      await page.getByTestId('isbn-input').fill(book.isbn13);
      await page.keyboard.press('Enter');
      // Through the wizard to the price step; a draft of this book the seller had started
      // already (the demo's, or an earlier run's) is resumed at its step instead.
      await page.waitForURL(/step=/);
      if (/step=details/.test(page.url())) {
        await wizardStep(page, 'details');
        expect(await page.getByTestId('found-book').innerText()).toContain(book.title);
        await page.getByTestId('step-submit').click();
      }
      if (/step=(details|condition)/.test(page.url())) {
        await wizardStep(page, 'condition');
        await page.getByText('Very good', { exact: true }).click();
        await page.getByTestId('step-submit').click();
      }
      if (/step=(details|condition|photos)/.test(page.url())) {
        await wizardStep(page, 'photos');
        await page
          .getByTestId('photo-input')
          .setInputFiles({ name: 'front-cover.png', mimeType: 'image/png', buffer: makePng(600, 800) });
        await page.getByTestId('photo-list').getByRole('img', { name: 'Your copy, main view' }).waitFor();
        await page.getByTestId('step-submit').click();
      }
      await wizardStep(page, 'price');

      const shown = page.getByTestId('fair-price-text');
      await shown.waitFor();
      const answer = await trpcQuery<FairPrice>(seller.context, 'commerce.fairPrice.suggest', {
        bookId: book.id,
        condition: 'very_good',
        format: null,
      });
      // At the edition's own level, resting on every one of its sales in the window.
      expect(answer).toMatchObject({ level: 'edition', salesCount: sales });
      expect(await shown.innerText()).toBe(FAIR_PRICE_WORDS.suggestion(answer, 'very_good'));
      expect(await shown.innerText()).toContain(
        `for this edition in Very good condition · from ${sales} sales`,
      );
      expect(answer.lowMinor).toBeLessThanOrEqual(answer.suggestionMinor);
      expect(answer.suggestionMinor).toBeLessThanOrEqual(answer.highMinor);

      await page.getByTestId('price-input').fill('');
      await page.getByTestId('fair-price-use').click();
      expect(await page.getByTestId('fair-price-use').innerText()).toBe(FAIR_PRICE_WORDS.use(answer));
      expect(await page.getByTestId('price-input').inputValue()).toBe(poundsString(answer.suggestionMinor));
      await imagesLoaded(page);
      await noHorizontalScroll(page);
      await snapshot(page, `fair-price-wizard-${viewport}`);
      await seller.context.close();
    }
  });

  it('shows a buyer the typical price in this condition on a listing page, and per condition on the book page, where the data is enough', async () => {
    // An active demo listing whose edition has the most sales in the copy's condition.
    const { rows } = await db.query<{ slug: string; book_id: string; condition: string }>(
      `select l.slug, l.book_id, l.condition from public.listings l
         join public.sales_history h on h.book_id = l.book_id and h.condition = l.condition
        where l.status = 'active' and l.slug is not null
        group by l.id order by count(*) desc, l.id limit 1`,
    );
    const listing = rows[0]!;
    expect(await salesOf(listing.book_id, listing.condition)).toBeGreaterThanOrEqual(5);
    for (const viewport of ['phone', 'desktop'] as const) {
      const { context, page } = await newPage(browser, viewport);
      await page.goto(`/listing/${listing.slug}`);
      const typical = page.getByTestId('typical-price');
      await typical.waitFor();
      const answer = await trpcQuery<FairPrice>(context, 'commerce.fairPrice.typical', {
        listingSlug: listing.slug,
      });
      expect(answer.level).toBe('edition');
      expect(await typical.innerText()).toContain(FAIR_PRICE_WORDS.typical(answer));
      await typical.scrollIntoViewIfNeeded();
      await imagesLoaded(page);
      await noHorizontalScroll(page);
      await snapshot(page, `fair-price-listing-${viewport}`, { fullPage: false });

      // The book page, with that edition chosen: the typical price in each condition with enough sales.
      const { rows: works } = await db.query<{ slug: string }>(
        'select w.slug from public.works w join public.books b on b.work_id = w.id where b.id = $1',
        [listing.book_id],
      );
      await page.goto(`/book/${works[0]!.slug}?edition=${listing.book_id}`);
      const lines = page.getByTestId('typical-prices');
      await lines.waitFor();
      const byCondition = await trpcQuery<{ condition: Condition; price: FairPrice }[]>(
        context,
        'commerce.fairPrice.typicalByCondition',
        { bookId: listing.book_id },
      );
      expect(byCondition.map((row) => row.condition)).toContain(listing.condition);
      const text = await lines.innerText();
      for (const row of byCondition)
        expect(text).toContain(FAIR_PRICE_WORDS.typicalIn(row.price, row.condition));
      await noHorizontalScroll(page);
      await snapshot(page, `fair-price-book-${viewport}`, { fullPage: false });
      await context.close();
    }
  });
});
