/**
 * /admin/launch-plan in a real browser: a moderator adds an item with an owner, ticks
 * it off (the page then says who did and when), moves it to the top and sees the order kept
 * after a reload. The plan is staff-only, so the shared e2e marketplace is enough; the titles
 * are unique to this run.
 */
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signInViaApi } from '../support/auth.ts';
import { baseURL, snapshot, VIEWPORTS, withBrowser } from '../support/browser.ts';

let browser: Browser;
withBrowser((launched) => (browser = launched));

describe('admin launch plan', () => {
  it('a moderator adds items, ticks one off and moves it to the top', async () => {
    const context = await browser.newContext({ baseURL: baseURL(), viewport: VIEWPORTS.phone });
    await context.addInitScript(() => {
      localStorage.setItem('cookie-consent', 'declined');
      localStorage.setItem('has-visited', 'true');
    });
    await signInViaApi(context, 'moderator@reshelf.test');
    const page = await context.newPage();
    await page.goto('/admin/launch-plan');
    await page.getByRole('heading', { name: 'Launch plan', level: 1 }).waitFor();

    const run = Date.now().toString(36);
    const first = `Brief the support team ${run}`;
    const second = `Announce the launch ${run}`;
    const items = page.getByTestId('launch-plan-item');
    for (const [title, owner] of [
      [first, 'Priya'],
      [second, 'Tom'],
    ]) {
      await page.getByLabel('What needs doing').fill(title!);
      await page.getByLabel('Owner (optional)').fill(owner!);
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      await items.filter({ hasText: title! }).waitFor();
    }
    const ours = () =>
      items.evaluateAll(
        (rows, marker) =>
          rows
            .map((row) => row.querySelector('span.font-semibold')?.textContent ?? '')
            .filter((title) => title.endsWith(marker)),
        run,
      );
    expect(await ours()).toEqual([first, second]);

    const announce = items.filter({ hasText: second });
    await announce.getByRole('checkbox').click();
    await page.locator(`[data-testid="launch-plan-item"][data-done="true"]`, { hasText: second }).waitFor();
    await announce.getByText('Done by moderator@reshelf.test').waitFor();
    await announce.getByText('Owner: Tom').waitFor();

    await page.getByRole('button', { name: `Move ${second} up` }).click();
    await expect.poll(ours).toEqual([second, first]);

    await page.reload();
    await items.filter({ hasText: second }).waitFor();
    expect(await ours()).toEqual([second, first]);
    expect(await items.filter({ hasText: second }).getAttribute('data-done')).toBe('true');
    await snapshot(page, 'admin-launch-plan-phone');
    await context.close();
  });
});
