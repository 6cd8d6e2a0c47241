/**
 * /admin/accessibility in a real browser: the demo admin edits the accessibility
 * statement, which /pages/accessibility-policy then shows, and runs the automated check: axe-core
 * runs on each key page and the results are listed by rule and impact. The statement is public,
 * so this file runs against a marketplace of its own (tests/support/server.ts).
 */
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signInViaApi } from '../support/auth.ts';
import { snapshot, VIEWPORTS } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

describe('admin accessibility', () => {
  it('an admin edits the statement and runs axe on the key pages', async () => {
    const context = await browser.newContext({ baseURL: marketplace.baseURL, viewport: VIEWPORTS.desktop });
    await context.addInitScript(() => {
      localStorage.setItem('cookie-consent', 'declined');
      localStorage.setItem('has-visited', 'true');
    });
    await signInViaApi(context, 'admin@reshelf.test');
    const page = await context.newPage();
    await page.goto('/admin/accessibility');
    await page.getByRole('heading', { name: 'Accessibility', level: 1 }).waitFor();

    const body = page.getByLabel('Statement (Markdown)');
    await expect.poll(() => body.inputValue()).not.toBe('');
    await body.fill('## Our standard\n\nReshelf aims to meet WCAG 2.2 level AA on every page.');
    await page.getByRole('button', { name: 'Save statement' }).click();
    await page
      .locator('[data-testid="primary-toast"][data-state="open"]')
      .filter({ hasText: 'Statement saved' })
      .waitFor();

    await page.getByRole('button', { name: 'Run the check' }).click();
    const results = page.getByTestId('axe-page');
    // Finished when every key page is done or failed (each page waits for its content to settle).
    await page.waitForFunction(
      () => {
        const rows = [...document.querySelectorAll<HTMLElement>('[data-testid="axe-page"]')];
        return rows.length > 0 && rows.every((row) => ['done', 'failed'].includes(row.dataset.state ?? ''));
      },
      null,
      { timeout: 120_000 },
    );
    const states = await results.evaluateAll((rows) =>
      rows.map((row) => [row.dataset.path, row.dataset.state]),
    );
    expect(states).toEqual([
      ['/', 'done'],
      ['/categories', 'done'],
      ['/recently-added', 'done'],
      ['/login', 'done'],
      ['/pages/accessibility-policy', 'done'],
    ]);
    for (const summary of await results.getByTestId('axe-summary').allTextContents()) {
      expect(summary).toMatch(/ [1-9][0-9]* rules passed\.$/);
    }
    // Every listed violation names its impact and rule.
    for (const row of await page.getByTestId('axe-violation').all()) {
      expect(await row.locator('td').first().textContent()).toMatch(
        /^(critical|serious|moderate|minor|unknown)$/,
      );
    }
    await snapshot(page, 'admin-accessibility-desktop');

    await page.goto('/pages/accessibility-policy');
    await page.getByText('Reshelf aims to meet WCAG 2.2 level AA on every page.').waitFor();
    await page.getByRole('heading', { name: 'Our standard' }).waitFor();
    await context.close();
  });
});
