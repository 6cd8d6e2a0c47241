/**
 * /admin/seo in a real browser: the demo admin gives the About us page and the
 * Fiction category their own search titles and descriptions; the public pages' tab title and
 * meta description follow. Page meta is public, so this file runs against a marketplace of its
 * own (tests/support/server.ts).
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signInViaApi } from '../support/auth.ts';
import { snapshot, VIEWPORTS } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

const metaDescription = (page: Page) => page.locator('meta[name="description"]').getAttribute('content');

describe('admin seo', () => {
  it('an admin sets search titles and descriptions that the public pages then use', async () => {
    const context = await browser.newContext({ baseURL: marketplace.baseURL, viewport: VIEWPORTS.phone });
    await context.addInitScript(() => {
      localStorage.setItem('cookie-consent', 'declined');
      localStorage.setItem('has-visited', 'true');
    });
    await signInViaApi(context, 'admin@reshelf.test');
    const page = await context.newPage();
    await page.goto('/admin/seo');
    await page.getByRole('heading', { name: 'SEO', level: 1 }).waitFor();

    const about = page.locator('[data-testid="seo-entry"][data-path="/pages/about-us"]');
    await about.getByRole('button', { name: /Edit/ }).click();
    await about.getByLabel('Search title').fill('About Reshelf, the pre-loved book marketplace');
    await about.getByLabel('Search description').fill('Who we are and why second-hand books matter.');
    await about.getByRole('button', { name: 'Save' }).click();
    await about.getByText('About Reshelf, the pre-loved book marketplace').waitFor();

    const fiction = page.locator('[data-testid="seo-entry"][data-path="/c/fiction"]');
    await fiction.getByRole('button', { name: /Edit/ }).click();
    await fiction.getByLabel('Search title').fill('Second-hand fiction: novels and stories');
    await fiction.getByRole('button', { name: 'Save' }).click();
    await fiction.getByText('Second-hand fiction: novels and stories').waitFor();
    await snapshot(page, 'admin-seo-phone');

    await page.goto('/pages/about-us');
    await page.waitForFunction(() => document.title.startsWith('About Reshelf, the pre-loved'));
    expect(await page.title()).toBe('About Reshelf, the pre-loved book marketplace · Reshelf');
    expect(await metaDescription(page)).toBe('Who we are and why second-hand books matter.');

    await page.goto('/c/fiction');
    await page.waitForFunction(() => document.title.startsWith('Second-hand fiction:'));
    expect(await page.title()).toBe('Second-hand fiction: novels and stories · Reshelf');
    // No description set for the category: it keeps its own line.
    expect(await metaDescription(page)).toMatch(/^Second-hand fiction books for sale on Reshelf\./);
    await context.close();
  });
});
