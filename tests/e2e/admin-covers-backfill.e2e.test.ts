/**
 * /admin/covers-backfill in a real browser, with lookups offline (the embedded
 * default): two books on sale without any image, one with an ISBN and one without, are listed;
 * the page says lookups are offline; an admin, on a phone, chooses both and runs the backfill,
 * and the report says nothing was found and lists both books with their outcome. A moderator
 * reads the report but has no run button. Runs are recorded for everyone, so this file runs
 * against a marketplace of its own.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openToast, signedIn } from '../support/auth.ts';
import { launchBrowser, snapshot } from '../support/browser.ts';
import { type OwnMarketplace, startOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
const suffix = randomBytes(3).toString('hex');
const WITH_ISBN = `The Uncovered Atlas ${suffix}`;
const WITHOUT_ISBN = `An Old Pamphlet ${suffix}`;

/** A book without a cover and one listing of the demo seller's on sale with no photo. */
async function imagelessListing(db: pg.Client, title: string, isbn13: string | null): Promise<void> {
  const book = await db.query<{ id: string }>(
    `insert into public.books (title, authors, isbn13) values ($1, array['A. N. Author'], $2) returning id`,
    [title, isbn13],
  );
  await db.query(
    `insert into public.listings (seller_id, book_id, slug, status, condition, price_minor, parcel_size, published_at)
     select u.id, $1, $2, 'active', 'good', 650, 'small', now() from auth.users u where u.email = 'seller@reshelf.test'`,
    [book.rows[0]!.id, `uncovered-${randomBytes(5).toString('hex')}`],
  );
}

async function noHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}

beforeAll(async () => {
  [browser, marketplace] = await Promise.all([launchBrowser(), startOwnMarketplace()]);
  const db = new pg.Client({ connectionString: marketplace.databaseUrl });
  await db.connect();
  try {
    await imagelessListing(db, WITH_ISBN, '9781999999991');
    await imagelessListing(db, WITHOUT_ISBN, null);
  } finally {
    await db.end();
  }
});

afterAll(async () => {
  await browser?.close();
  await marketplace?.stop();
});

describe('admin covers backfill', { timeout: 120_000 }, () => {
  it('offline, an admin runs it on two books: 0 found, both listed with their outcome', async () => {
    const { context, page } = await signedIn(browser, 'admin@reshelf.test', {
      baseURL: marketplace.baseURL,
      viewport: 'phone',
    });
    await page.goto('/admin/covers-backfill');
    await page.getByRole('heading', { name: 'Covers backfill', level: 1 }).waitFor();
    await page.getByTestId('lookup-offline').getByText('Lookups are offline').waitFor();
    const missing = page.getByTestId('missing-book');
    await missing.filter({ hasText: WITH_ISBN }).getByText('ISBN 9781999999991').waitFor();
    await missing.filter({ hasText: WITHOUT_ISBN }).getByText('no ISBN').waitFor();
    await noHorizontalScroll(page);

    await page.getByRole('checkbox', { name: `Choose ${WITH_ISBN}` }).check();
    await page.getByRole('checkbox', { name: `Choose ${WITHOUT_ISBN}` }).check();
    await page.getByRole('button', { name: 'Run on the chosen (2)' }).click();
    await openToast(page, 'Backfill started').waitFor();

    const report = page.locator('[data-testid="backfill-report"][data-status="finished"]');
    await report.getByTestId('backfill-summary').getByText('Found 0 of 2; 1 without an ISBN').waitFor();
    await report.getByText('with lookups offline').waitFor();
    const items = report.getByTestId('backfill-item');
    expect(await items.count()).toBe(2);
    expect(await items.filter({ hasText: WITH_ISBN }).getAttribute('data-outcome')).toBe('not_found');
    expect(await items.filter({ hasText: WITHOUT_ISBN }).getAttribute('data-outcome')).toBe('no_isbn');
    // Still missing a cover, now marked as checked.
    await missing
      .filter({ hasText: WITH_ISBN })
      .getByText(/Last checked .*: not found/)
      .waitFor();
    await noHorizontalScroll(page);
    await snapshot(page, 'admin-covers-backfill-phone');
    await context.close();

    // A moderator reads the same report but cannot start a run.
    const moderator = await signedIn(browser, 'moderator@reshelf.test', { baseURL: marketplace.baseURL });
    await moderator.page.goto('/admin/covers-backfill');
    await moderator.page
      .getByTestId('backfill-summary')
      .getByText('Found 0 of 2; 1 without an ISBN')
      .waitFor();
    await moderator.page.getByText('Admins run the backfill; you can read the reports.').waitFor();
    expect(await moderator.page.getByRole('button', { name: /^Run on/ }).count()).toBe(0);
    await moderator.context.close();
  });
});
