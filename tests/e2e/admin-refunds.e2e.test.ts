/**
 * /admin/refunds in a real browser: the demo admin refunds part of a paid order on
 * /admin/orders; the refunds ledger then shows it — found by reference, kept by the "Today"
 * filter, with its amount, reason and who made it — and its reference leads back to the order
 * on /admin/orders. A moderator reads the ledger too. Refunds change the figures, so this file
 * runs against a marketplace of its own.
 */
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openToast, signedIn } from '../support/auth.ts';
import { snapshot } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

describe('admin refunds', () => {
  it('a refund made on /admin/orders shows in the ledger, found by reference and period, linked to its order', async () => {
    const { context, page } = await signedIn(browser, 'admin@reshelf.test', { baseURL: marketplace.baseURL });
    await page.goto('/admin/orders?status=paid');
    const first = page.getByTestId('staff-order').first();
    const reference = (await first.locator('.font-mono').textContent())!;
    await first.click();
    const sheet = page.getByTestId('order-sheet');
    await sheet.getByText(reference).first().waitFor();
    await sheet.getByLabel('Part of it').check();
    await sheet.getByLabel('Amount (£)').fill('1.25');
    await sheet.getByLabel('Reason').fill('Spine cracked in transit');
    await sheet.getByRole('button', { name: 'Refund' }).click();
    await openToast(page, 'Refund sent').waitFor();

    await page.goto('/admin/refunds');
    const ledger = page.getByTestId('refunds-page');
    await ledger.getByRole('heading', { name: 'Refunds', level: 1 }).waitFor();
    await ledger.getByLabel('Order reference').fill(reference);
    await ledger.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(/[?&]q=/);
    const row = page.locator(`[data-testid="refund-row"][data-reference="${reference}"]`);
    await row.waitFor();
    expect(await page.getByTestId('refund-row').count()).toBe(1);
    expect(await row.getByTestId('refund-amount').textContent()).toBe('£1.25');
    expect(await row.getByTestId('refund-protection').textContent()).toBe('£0.00');
    expect(await row.getByTestId('refund-reason').textContent()).toBe('Spine cracked in transit');
    expect(await row.getByTestId('refund-by').textContent()).toBe('admin@reshelf.test');
    expect(await page.getByTestId('refunds-sum').textContent()).toBe('£1.25');

    await ledger.getByLabel('Period').selectOption('today');
    await page.waitForURL(/[?&]period=today/);
    await row.waitFor();
    await snapshot(page, 'admin-refunds-desktop');

    await row.getByRole('link', { name: reference }).click();
    await page.waitForURL(/\/admin\/orders\?/);
    await page
      .getByTestId('order-sheet')
      .getByText('Partial refund of £1.25 (£1.25 from the seller’s payout): Spine cracked in transit')
      .waitFor();
    await context.close();
  });

  it('a moderator reads the ledger; a reference that matches nothing says so', async () => {
    const { context, page } = await signedIn(browser, 'moderator@reshelf.test', {
      baseURL: marketplace.baseURL,
      viewport: 'phone',
    });
    await page.goto('/admin/refunds?q=NO-SUCH-ORDER');
    await page.getByTestId('refunds-empty').getByText('No refunds match.').waitFor();
    await snapshot(page, 'admin-refunds-mobile');
    await context.close();
  });
});
