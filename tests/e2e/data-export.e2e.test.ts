/**
 * "Download your data" in Chromium (UK GDPR right of access): the demo buyer opens
 * /account/settings, reads what the file holds, clicks "Download your data" and a file named
 * reshelf-data-YYYY-MM-DD.json arrives holding their account and orders. Read-only apart from
 * the export's rate-limit count, so it runs against the shared demo marketplace. Screenshots at
 * 1280 and 390 px.
 */
import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedIn } from '../support/auth.ts';
import { snapshotsAt, withBrowser } from '../support/browser.ts';

let browser: Browser;
withBrowser((launched) => (browser = launched));
const shots = snapshotsAt('data-export');

describe('download your data', () => {
  it('saves reshelf-data-….json with the member’s own data', async () => {
    const { context, page } = await signedIn(browser, 'buyer@reshelf.test');
    await page.goto('/account/settings');
    const section = page.getByTestId('download-data');
    await section.getByRole('heading', { name: 'Download your data' }).waitFor();
    await expect.poll(() => section.textContent()).toContain('your orders and sales');

    const button = section.getByRole('button', { name: 'Download your data' });
    const arriving = page.waitForEvent('download');
    await button.click();
    const download = await arriving;
    expect(download.suggestedFilename()).toMatch(/^reshelf-data-\d{4}-\d{2}-\d{2}\.json$/);
    const file = await download.path();
    const data = JSON.parse(await readFile(file, 'utf8')) as {
      version: number;
      account: { email: string };
      orders: { asBuyer: { reference: string }[] };
    };
    expect(data.version).toBe(1);
    expect(data.account.email).toBe('buyer@reshelf.test');
    expect(JSON.stringify(data)).not.toContain('seller@reshelf.test');
    await section.getByRole('status').getByText(download.suggestedFilename()).waitFor();

    await shots(page, 'settings', () =>
      section.getByRole('button', { name: 'Download your data' }).waitFor(),
    );
    await context.close();
  });
});
