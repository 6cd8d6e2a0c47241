/**
 * The site works under its own Content-Security-Policy (decision 0025): the policy production
 * sends is sent in every mode, so this walks the kinds of page people use — the public
 * catalogue, a listing, signing in, selling, the account, the staff area with axe-core run in
 * frames on /admin/accessibility, global admin and the API docs — and fails on anything the
 * browser blocked.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signInViaApi } from '../support/auth.ts';
import { baseURL, snapshot, VIEWPORTS, watchContentSecurityPolicy, withBrowser } from '../support/browser.ts';

let browser: Browser;
withBrowser((launched) => (browser = launched));

async function visitor(email?: string): Promise<{ context: BrowserContext; page: Page; blocked: string[] }> {
  const context = await browser.newContext({ baseURL: baseURL(), viewport: VIEWPORTS.desktop });
  await context.addInitScript(() => {
    localStorage.setItem('cookie-consent', 'declined');
    localStorage.setItem('has-visited', 'true');
  });
  const blocked = await watchContentSecurityPolicy(context);
  if (email) await signInViaApi(context, email);
  return { context, page: await context.newPage(), blocked };
}

/** Opens a page and waits for its main heading, so everything it loads has had its chance. */
async function open(page: Page, path: string, errors: string[]): Promise<void> {
  const response = await page.goto(path);
  expect(response?.headers()['content-security-policy'], path).toMatch(/script-src 'self'/);
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle');
  if (errors.length) throw new Error(`${path}: ${errors.join('\n')}`);
}

describe('the Content-Security-Policy', () => {
  it('blocks nothing on the public pages, a listing and the sign-in page', async () => {
    const { context, page, blocked } = await visitor();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    for (const path of [
      '/',
      '/listings',
      '/search?q=the',
      '/categories',
      '/trending',
      '/recently-added',
      '/staff-picks',
      '/charity/directory',
      '/pages/about-us',
      '/login',
    ]) {
      await open(page, path, errors);
    }
    // Copy by copy (a search answers by book, decision 0079).
    await page.goto('/recently-added');
    await page.getByTestId('results').getByTestId('listing-card').first().getByRole('link').first().click();
    await page.waitForURL(/\/listing\//);
    await page.getByRole('heading', { name: 'Similar books' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(errors).toEqual([]);
    expect(blocked).toEqual([]);
    await context.close();
  });

  it('blocks nothing for a seller in the account and the listing wizard', async () => {
    const { context, page, blocked } = await visitor('seller@reshelf.test');
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    for (const path of ['/account', '/account/listings', '/account/offers', '/sell']) {
      await open(page, path, errors);
    }
    expect(blocked).toEqual([]);
    await context.close();
  });

  it('blocks nothing in the staff area, axe-core in frames included, global admin and the API docs', async () => {
    const { context, page, blocked } = await visitor('super@reshelf.test');
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    for (const path of ['/admin', '/admin/users', '/admin/analytics', '/admin/logs', '/global-admin']) {
      await open(page, path, errors);
    }

    await open(page, '/admin/accessibility', errors);
    await page.getByRole('button', { name: 'Run the check' }).click();
    await page.waitForFunction(
      () => {
        const rows = [...document.querySelectorAll<HTMLElement>('[data-testid="axe-page"]')];
        return rows.length > 0 && rows.every((row) => ['done', 'failed'].includes(row.dataset.state ?? ''));
      },
      null,
      { timeout: 120_000 },
    );
    const states = await page
      .getByTestId('axe-page')
      .evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.state));
    expect(states.every((state) => state === 'done')).toBe(true);
    await snapshot(page, 'csp-admin-accessibility-desktop');

    const docs = await page.goto('/api/docs');
    expect(docs?.headers()['content-security-policy']).toMatch(/default-src 'self'/);
    await page.locator('.swagger-ui .info .title').waitFor();
    await page.waitForLoadState('networkidle');
    await snapshot(page, 'csp-api-docs-desktop');

    expect(errors).toEqual([]);
    expect(blocked).toEqual([]);
    await context.close();
  });
});
