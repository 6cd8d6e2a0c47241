/**
 * API tokens in Chromium: seller@reshelf.test creates a read-only token in
 * account settings, sees it once, an integrator uses it on /api/v1, the seller revokes it and
 * it stops working at once. A buyer is told who may have tokens. The interactive API docs
 * load with everything from this site (no CDN). Screenshots at 390 and 1280 px.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedIn } from '../support/auth.ts';
import { baseURL, newPage, snapshot, withBrowser } from '../support/browser.ts';

let browser: Browser;
withBrowser((launched) => (browser = launched));

async function noHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}

const myListings = (token: string) =>
  fetch(`${baseURL()}/api/v1/me/listings?status=active`, { headers: { authorization: `Bearer ${token}` } });

describe('API tokens in account settings', () => {
  it('creates a token shown once, which works on the API until it is revoked', async () => {
    const { context, page } = await signedIn(browser, 'seller@reshelf.test', {
      viewport: 'phone',
      returning: false,
    });
    await page.goto('/account');
    await page.getByRole('link', { name: 'API tokens' }).click();
    await page.waitForURL('**/account/settings');
    const section = page.getByTestId('api-tokens');
    await section.getByRole('heading', { name: 'API tokens' }).waitFor();

    const form = page.getByRole('form', { name: 'Create an API token' });
    // An empty name gets its message, and nothing is created.
    await form.getByRole('button', { name: 'Create token' }).click();
    await expect.poll(() => form.getByTestId('field-error').textContent()).toMatch(/Give the token a name/);

    await form.getByLabel('Name').fill('Stock script');
    await form.getByLabel('Read only').check();
    await form.getByLabel('Expires after').selectOption('30');
    await form.getByRole('button', { name: 'Create token' }).click();
    const value = page.getByTestId('new-token-value');
    await value.waitFor();
    const token = (await value.textContent())?.trim() ?? '';
    expect(token).toMatch(/^rsk_[A-Za-z0-9_-]{40}$/);
    await noHorizontalScroll(page);
    await snapshot(page, 'api-tokens-created-390');

    // An integrator with the token reads the seller's listings.
    const listed = await myListings(token);
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { items: unknown[] }).items.length).toBeGreaterThan(0);
    // A read-only token cannot change anything.
    const refused = await fetch(`${baseURL()}/api/v1/me/tokens/00000000-0000-4000-8000-000000000000`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(refused.status).toBe(403);

    // Shown once: after a reload only its start is listed, with its last use.
    await page.reload();
    const row = page.getByTestId('token-row').filter({ hasText: 'Stock script' });
    await row.waitFor();
    expect(await page.getByTestId('new-token-value').count()).toBe(0);
    expect(await page.content()).not.toContain(token);
    expect(await row.textContent()).toContain(token.slice(0, 12));
    expect(await row.textContent()).toMatch(/Active/);
    expect(await row.textContent()).not.toMatch(/last used never/);

    await row.getByRole('button', { name: 'Revoke Stock script' }).click();
    await row.getByRole('button', { name: 'Revoke', exact: true }).click();
    await page.getByText('Revoked "Stock script": it no longer works.').waitFor();
    await expect.poll(() => row.textContent()).toMatch(/Revoked/);
    const after = await myListings(token);
    expect(after.status).toBe(401);
    expect(((await after.json()) as { message: string }).message).toMatch(/has been revoked/);
    await snapshot(page, 'api-tokens-revoked-390');
    await context.close();
  });

  it('tells a buyer who may have tokens', async () => {
    const { context, page } = await signedIn(browser, 'buyer@reshelf.test', { returning: false });
    await page.goto('/account/settings');
    await page.getByTestId('tokens-not-eligible').waitFor();
    expect(await page.getByTestId('tokens-not-eligible').textContent()).toMatch(
      /staff, sellers and charities/,
    );
    expect(await page.getByRole('form', { name: 'Create an API token' }).count()).toBe(0);
    await snapshot(page, 'api-tokens-buyer-1280');
    await context.close();
  });

  it('serves the interactive API docs from this site alone', async () => {
    const { context, page } = await newPage(browser, 'desktop');
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(baseURL()) && !request.url().startsWith('data:'))
        elsewhere.push(request.url());
    });
    await page.goto('/api/docs');
    await page.getByText('/listings/search').first().waitFor();
    expect(await page.title()).toBe('Reshelf API');
    expect(elsewhere).toEqual([]);
    await snapshot(page, 'api-docs-1280', { fullPage: false });
    await context.close();
  });
});
