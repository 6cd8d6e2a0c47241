/**
 * /admin/trending-books in a real browser: the demo admin pins the last book of the
 * computed trending list and /trending then shows it first; hiding another takes it off
 * /trending; both are undone from the "Pinned and hidden" list. A moderator may curate too.
 * Curation changes the public list, so this file runs against a marketplace of its own.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openToast, signedIn } from '../support/auth.ts';
import { snapshot } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

async function hrefOf(item: Locator): Promise<string> {
  return (await item.getByRole('link').first().getAttribute('href'))!;
}

async function publicHrefs(page: Page): Promise<string[]> {
  await page.goto('/trending');
  await page.getByTestId('listing-card').first().waitFor();
  return page
    .getByTestId('listing-card')
    .evaluateAll((cards) =>
      cards.map((card) => card.querySelector('a[href^="/listing/"]')?.getAttribute('href') ?? ''),
    );
}

describe('admin trending books', () => {
  it('pins a book to the top of /trending and hides another from it, then undoes both', async () => {
    const { context, page } = await signedIn(browser, 'admin@reshelf.test', { baseURL: marketplace.baseURL });
    await page.goto('/admin/trending-books');
    const items = page.getByTestId('trending-item');
    await items.first().waitFor();
    const count = await items.count();
    expect(count).toBeGreaterThan(2);
    const last = items.last();
    const lastHref = await hrefOf(last);
    const lastTitle = (await last.getByRole('link').first().textContent())!;
    expect((await publicHrefs(page))[0]).not.toBe(lastHref);

    await page.goto('/admin/trending-books');
    await page.getByRole('button', { name: `Pin ${lastTitle}`, exact: true }).click();
    await openToast(page, 'Pinned to trending').waitFor();
    await page
      .locator('[data-testid="trending-override"][data-mode="pin"]')
      .filter({ hasText: lastTitle })
      .waitFor();
    expect(await hrefOf(items.first())).toBe(lastHref);
    await snapshot(page, 'admin-trending-desktop');
    expect((await publicHrefs(page))[0]).toBe(lastHref);

    await page.goto('/admin/trending-books');
    const second = items.nth(1);
    await second.waitFor();
    const hiddenHref = await hrefOf(second);
    const hiddenTitle = (await second.getByRole('link').first().textContent())!;
    await page.getByRole('button', { name: `Hide ${hiddenTitle}`, exact: true }).click();
    await openToast(page, 'Hidden from trending').waitFor();
    await page
      .locator('[data-testid="trending-override"][data-mode="hide"]')
      .filter({ hasText: hiddenTitle })
      .waitFor();
    expect(await publicHrefs(page)).not.toContain(hiddenHref);

    await page.goto('/admin/trending-books');
    await page.getByRole('button', { name: `Unhide ${hiddenTitle}`, exact: true }).click();
    await openToast(page, 'Override removed').waitFor();
    await page.getByRole('button', { name: `Unpin ${lastTitle}`, exact: true }).click();
    await page.getByTestId('trending-overrides-empty').waitFor();
    const after = await publicHrefs(page);
    expect(after).toContain(hiddenHref);
    expect(after[0]).not.toBe(lastHref);

    await page.goto('/admin/audit?action=trending');
    await page.getByTestId('audit-row').first().waitFor();
    expect(
      await page.getByTestId('audit-row').evaluateAll((rows) => rows.map((r) => r.dataset.action)),
    ).toEqual(['trending.unpin', 'trending.unhide', 'trending.hide', 'trending.pin']);
    await context.close();
  });

  it('a moderator curates trending on a phone', async () => {
    const { context, page } = await signedIn(browser, 'moderator@reshelf.test', {
      baseURL: marketplace.baseURL,
      viewport: 'phone',
    });
    await page.goto('/admin/trending');
    await page.getByRole('heading', { name: 'Trending books', level: 1 }).waitFor();
    await page.getByTestId('trending-item').first().waitFor();
    await snapshot(page, 'admin-trending-phone');
    await context.close();
  });
});
