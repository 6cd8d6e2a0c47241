/**
 * Recommendations and seller analytics in Chromium: a new member picks genres and an
 * author in onboarding and sees recommendations, each explained, on /recommendations and on the
 * home page; the demo seller sees their analytics after the demo's ninety days of activity, per
 * period, with charts, tables for screen readers and suggestions; the demo charity sees the same
 * figures on its dashboard. Screenshots at 390 and 1280 px land in tests/.artifacts/.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createConfirmedAccount, signedIn, uniqueEmail } from '../support/auth.ts';
import { newPage, snapshot, withBrowser } from '../support/browser.ts';

let browser: Browser;
withBrowser((launched) => {
  browser = launched;
});

/** No sideways scrolling; on a miss, the widest elements that stick out are named. */
async function noHorizontalScroll(page: Page): Promise<void> {
  const { overflow, culprits } = await page.evaluate(() => {
    const width = window.innerWidth;
    const culprits = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((element) => element.getBoundingClientRect().right > width + 1)
      .slice(0, 8)
      .map((element) => `${element.tagName.toLowerCase()}.${String(element.className).slice(0, 80)}`);
    return { overflow: document.documentElement.scrollWidth - width, culprits };
  });
  expect(overflow, culprits.join('\n')).toBeLessThanOrEqual(1);
}

async function signedInNew(
  email: string,
  viewport: 'phone' | 'desktop',
): Promise<{ context: BrowserContext; page: Page }> {
  const password = 'a-long-enough-password-1';
  const anon = await newPage(browser, 'phone');
  await createConfirmedAccount(anon.context, email, password, 'Rhea Reader');
  await anon.context.close();
  return signedIn(browser, email, { viewport, password });
}

/** A stat card's figure as a number ("£12.50" reads 12.5, "–" reads NaN). */
async function stat(page: Page, testId: string): Promise<number> {
  const text = await page.getByTestId(testId).locator('p').nth(1).innerText();
  return Number(text.replace(/[£,%]/g, ''));
}

describe('recommendations', { timeout: 120_000 }, () => {
  it('follow what a new member told onboarding, each explained, here and on the home page', async () => {
    const { context, page } = await signedInNew(uniqueEmail('recs'), 'desktop');

    // Before onboarding: the cold start says so and offers to ask.
    await page.goto('/recommendations');
    await page.getByRole('heading', { name: 'Recommended for you' }).waitFor();
    await page.getByTestId('recommendations-cold-start').waitFor();

    await page.getByRole('link', { name: 'Pick genres and authors' }).click();
    await page.waitForURL('**/onboarding');
    await page.getByTestId('genre-options').getByText('Classics', { exact: true }).click();
    await page.getByTestId('author-input').fill('jane austen');
    await page.keyboard.press('Enter');
    await page.getByTestId('chosen-authors').getByText('jane austen').waitFor();
    await snapshot(page, 'recommendations-onboarding-desktop');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await page.waitForURL('**/onboarding/complete');

    await page.goto('/recommendations');
    const grid = page.getByTestId('recommendations-grid');
    await grid.waitFor();
    expect(await page.getByTestId('recommendations-cold-start').count()).toBe(0);
    const reasons = await grid.getByTestId('recommendation-reason').allInnerTexts();
    // Spelt as the catalogue spells her; the genre by its name.
    expect(reasons).toContain('Because you like Jane Austen');
    expect(reasons).toContain('Because you like Classics');
    expect(reasons.every((reason) => reason.length > 0)).toBe(true);
    await snapshot(page, 'recommendations-desktop');

    // The home page has a row of them for this member.
    await page.goto('/');
    const row = page.getByTestId('recommended-for-you');
    await row.getByTestId('recommendation-reason').first().waitFor();
    expect(await row.getByTestId('listing-card').count()).toBeGreaterThan(0);
    expect(await row.getByTestId('listing-card').count()).toBeLessThanOrEqual(8);
    await context.close();

    // At phone size the cards and their reasons fit.
    const phone = await signedIn(browser, 'buyer@reshelf.test', { viewport: 'phone' });
    await phone.page.goto('/recommendations');
    await phone.page
      .getByTestId('recommendations-grid')
      .getByTestId('recommendation-reason')
      .first()
      .waitFor();
    await noHorizontalScroll(phone.page);
    await snapshot(phone.page, 'recommendations-phone');
    await phone.context.close();
  });
});

describe('seller analytics', { timeout: 120_000 }, () => {
  it('show the demo seller ninety days of views, saves, offers and sales, by period', async () => {
    for (const viewport of ['desktop', 'phone'] as const) {
      const { context, page } = await signedIn(browser, 'seller@reshelf.test', { viewport });
      await page.goto('/account');
      await page.getByRole('link', { name: 'Seller analytics' }).click();
      await page.waitForURL('**/account/analytics');
      await page.getByRole('heading', { name: 'Your seller analytics' }).waitFor();
      await page.getByTestId('seller-analytics').waitFor();
      expect(await stat(page, 'stat-views')).toBeGreaterThan(0);
      expect(await stat(page, 'stat-sales')).toBeGreaterThan(0);
      expect(await stat(page, 'stat-revenue')).toBeGreaterThan(0);
      await page.getByTestId('activity-chart').locator('svg').first().waitFor();
      await page.getByTestId('revenue-chart').locator('svg').first().waitFor();
      // Screen readers get the same figures as tables.
      const byDay = page.getByRole('table', { name: /by day/ }).first();
      expect(await byDay.locator('tbody tr').count()).toBe(30);
      const listings = page.getByTestId('listing-figures');
      expect(await listings.locator('tbody tr').count()).toBeGreaterThan(0);
      await noHorizontalScroll(page);
      await snapshot(page, `seller-analytics-${viewport}`);

      // Twelve months: the whole ninety days, month by month, kept in the URL.
      await page.getByTestId('analytics-period').getByText('Last 12 months').click();
      await page.waitForURL('**/account/analytics?period=12m');
      const byMonth = page.getByRole('table', { name: /Revenue by month/ });
      await expect.poll(() => byMonth.locator('tbody tr').count()).toBe(12);
      expect(await stat(page, 'stat-sales')).toBeGreaterThanOrEqual(12);
      expect(await stat(page, 'stat-days-to-sell')).toBeGreaterThan(0);
      await context.close();
    }
  });

  it('show the demo charity its books’ figures on its dashboard', async () => {
    const { context, page } = await signedIn(browser, 'charity@reshelf.test', { viewport: 'desktop' });
    await page.goto('/charity/dashboard');
    const section = page.getByRole('region', { name: 'How your books are doing' });
    await section.getByTestId('seller-analytics').waitFor();
    await section.getByTestId('analytics-period').getByText('Last 12 months').click();
    await expect.poll(() => stat(page, 'stat-sales')).toBeGreaterThanOrEqual(10);
    expect(await stat(page, 'stat-views')).toBeGreaterThan(0);
    await section.getByTestId('activity-chart').locator('svg').first().waitFor();
    await snapshot(page, 'charity-dashboard-analytics-desktop');
    await context.close();
  });
});
