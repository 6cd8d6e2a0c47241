/**
 * /admin/categories in a real browser: the demo admin adds a category with a
 * description, renames it, and /categories shows it under its new name; then retires it and
 * it is gone. A moderator is refused by the server. Categories are public, so this file runs
 * against a marketplace of its own (tests/support/server.ts).
 */
import type { Browser, BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signInViaApi } from '../support/auth.ts';
import { snapshot, VIEWPORTS } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

async function staffContext(email: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: marketplace.baseURL, viewport: VIEWPORTS.desktop });
  await context.addInitScript(() => {
    localStorage.setItem('cookie-consent', 'declined');
    localStorage.setItem('has-visited', 'true');
  });
  await signInViaApi(context, email);
  return context;
}

describe('admin categories', () => {
  it('an admin adds and renames a category that /categories then shows, and retires it', async () => {
    const context = await staffContext('admin@reshelf.test');
    const page = await context.newPage();
    await page.goto('/admin/categories');
    await page.getByRole('heading', { name: 'Categories', level: 1 }).waitFor();
    const categories = page.getByTestId('category-tree');
    await categories.getByTestId('taxonomy-node').first().waitFor();

    await page.getByText('Add a category').click();
    const add = page.getByRole('form', { name: 'Add a category' });
    await add.getByLabel('Name').fill('Pamphlets');
    expect(await add.getByLabel('Slug').inputValue()).toBe('pamphlets');
    await add.getByLabel('Description (optional)').fill('Short, cheap and radical.');
    await add.getByRole('button', { name: 'Add category' }).click();
    const node = categories.locator('[data-testid="taxonomy-node"][data-slug="pamphlets"]');
    await node.waitFor();

    await node.getByRole('button', { name: 'Edit Pamphlets' }).click();
    const edit = page.getByRole('form', { name: 'Edit Pamphlets' });
    await edit.getByLabel('Name').fill('Pamphlets and tracts');
    await edit.getByLabel('Slug').fill('pamphlets-and-tracts');
    await edit.getByRole('button', { name: 'Save' }).click();
    const renamed = categories.locator('[data-testid="taxonomy-node"][data-slug="pamphlets-and-tracts"]');
    await renamed.getByText('Pamphlets and tracts').waitFor();
    await snapshot(page, 'admin-categories-desktop');

    await page.goto('/categories');
    const card = page.locator('[data-testid="category-card"][href="/c/pamphlets-and-tracts"]');
    await card.getByText('Short, cheap and radical.').waitFor();
    expect(await page.locator('[data-testid="category-card"][href="/c/pamphlets"]').count()).toBe(0);

    await page.goto('/admin/categories');
    await renamed.getByRole('button', { name: 'Retire Pamphlets and tracts' }).click();
    await renamed.waitFor({ state: 'detached' });
    await page.goto('/categories');
    await page.getByTestId('category-card').first().waitFor();
    expect(await card.count()).toBe(0);
    await context.close();
  });

  it('a moderator is refused by the server', async () => {
    const context = await staffContext('moderator@reshelf.test');
    const response = await context.request.get('/trpc/catalogue.taxonomy.staff.trees');
    expect(response.status()).toBe(403);
    expect(await response.text()).toContain('Access denied: admin role required');
    await context.close();
  });
});
