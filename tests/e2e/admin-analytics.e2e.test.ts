/**
 * /admin/analytics in a real browser: the demo admin sees listings published, orders
 * paid and sign-ups as charts, by day for the last 30 days, then by month for this year; the
 * numbers behind each chart agree with its total and with the API. A moderator sees it too.
 * Read-only, so it runs against the shared demo marketplace.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedIn } from '../support/auth.ts';
import { snapshot, withBrowser } from '../support/browser.ts';

let browser: Browser;
withBrowser((launched) => (browser = launched));

async function chartNumbers(page: Page, metric: string) {
  const chart = page.locator(`[data-testid="analytics-chart"][data-metric="${metric}"]`);
  const values = await chart
    .getByTestId('analytics-point')
    .evaluateAll((rows) =>
      rows.map((row) => [row.dataset.bucket, Number(row.querySelector('td')?.textContent)]),
    );
  const total = Number((await chart.getByTestId('analytics-total').textContent())!.replace(/,/g, ''));
  return { values: values as [string, number][], total };
}

describe('admin analytics', () => {
  it('shows the three series as charts by day, then by month, matching the API', async () => {
    const { context, page } = await signedIn(browser, 'admin@reshelf.test');
    await page.goto('/admin/analytics');
    await page.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor();
    await page.locator('[data-testid="analytics-charts"][data-range="daily"]').waitFor();
    expect(await page.getByTestId('analytics-chart').count()).toBe(3);
    // Recharts drew real bars: the demo data has listings published and people signed up.
    await page.locator('[data-metric="listingsPublished"] .recharts-bar-rectangle path').first().waitFor();

    const api = await context.request.get(
      `/trpc/staff.analytics.series?input=${encodeURIComponent(JSON.stringify({ range: 'daily' }))}`,
    );
    const daily = (
      (await api.json()) as {
        result: { data: { points: { bucket: string; signUps: number }[]; totals: { signUps: number } } };
      }
    ).result.data;
    const signUps = await chartNumbers(page, 'signUps');
    expect(signUps.values).toHaveLength(30);
    expect(signUps.values).toEqual(daily.points.map((p) => [p.bucket, p.signUps]));
    expect(signUps.total).toBe(daily.totals.signUps);
    expect(signUps.total).toBeGreaterThan(0);
    const listings = await chartNumbers(page, 'listingsPublished');
    expect(listings.total).toBe(listings.values.reduce((sum, [, value]) => sum + value, 0));
    await snapshot(page, 'admin-analytics-desktop');

    await page.getByRole('button', { name: 'This year by month' }).click();
    await page.waitForURL(/[?&]range=monthly/);
    await page.locator('[data-testid="analytics-charts"][data-range="monthly"]').waitFor();
    const monthly = await chartNumbers(page, 'ordersPaid');
    expect(monthly.values.map(([bucket]) => bucket.slice(5))).toEqual([
      '01',
      '02',
      '03',
      '04',
      '05',
      '06',
      '07',
      '08',
      '09',
      '10',
      '11',
      '12',
    ]);
    expect(monthly.total).toBe(monthly.values.reduce((sum, [, value]) => sum + value, 0));
    await context.close();
  });

  it('a moderator reads it on a phone', async () => {
    const { context, page } = await signedIn(browser, 'moderator@reshelf.test', { viewport: 'phone' });
    await page.goto('/admin/analytics?range=monthly');
    await page.locator('[data-testid="analytics-charts"][data-range="monthly"]').waitFor();
    await snapshot(page, 'admin-analytics-phone');
    await context.close();
  });
});
