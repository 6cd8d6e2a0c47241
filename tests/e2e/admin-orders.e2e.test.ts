/**
 * /admin/orders and /admin/payments in a real browser: the shared basic dashboard on
 * top; the demo admin opens an order, reads its events, refunds part of it and then the rest
 * through the payment port; the payments page shows the refunded money and the audit log both
 * refunds. A moderator may look but not refund. Refunds change the figures, so this file runs
 * against a marketplace of its own.
 */
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openToast, signedIn } from '../support/auth.ts';
import { snapshot } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

describe('admin orders and payments', () => {
  it('an admin refunds part of a paid order, then the rest; payments and the audit log show it', async () => {
    const { context, page } = await signedIn(browser, 'admin@reshelf.test', { baseURL: marketplace.baseURL });
    await page.goto('/admin/orders?status=paid');
    await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
    await page.getByTestId('basic-dashboard').getByTestId('metric-revenue-value').waitFor();
    const first = page.getByTestId('staff-order').first();
    const reference = (await first.locator('.font-mono').textContent())!;
    await first.click();
    const sheet = page.getByTestId('order-sheet');
    await sheet.getByText(reference).first().waitFor();
    await sheet.getByText('Demo order from the seed').waitFor();

    await sheet.getByLabel('Part of it').check();
    await sheet.getByLabel('Amount (£)').fill('1.00');
    await sheet.getByLabel('Reason').fill('Dust jacket torn');
    await sheet.getByRole('button', { name: 'Refund' }).click();
    await openToast(page, 'Refund sent').waitFor();
    await sheet
      .getByText('Partial refund of £1.00 (£1.00 from the seller’s payout): Dust jacket torn')
      .waitFor();
    await sheet.getByText('£1.00 refunded').waitFor();
    await snapshot(page, 'admin-orders-refund-desktop', { fullPage: false });

    await sheet.getByLabel(/Everything left/).check();
    await sheet.getByLabel('Reason').fill('Seller cannot send it');
    await sheet.getByRole('button', { name: 'Refund' }).click();
    await openToast(page, 'Refund sent').waitFor();
    await sheet
      .getByText(/Refunded £[\d.]+ by staff \(£[\d.]+ from the seller’s payout\): Seller cannot send it/)
      .waitFor();
    expect(await sheet.getByTestId('refund-form').count()).toBe(0);
    await page.keyboard.press('Escape');

    await page.goto(`/admin/payments?q=${reference}`);
    await page.getByRole('heading', { name: 'Payments', level: 1 }).waitFor();
    await page.getByTestId('basic-dashboard').waitFor();
    const payment = page.getByTestId('staff-payment').filter({ hasText: reference });
    const cells = await payment.locator('td').allTextContents();
    expect(cells.at(-1)).toBe(cells.at(-2));

    // This order's entries: the demo seed's money out has staff refunds of its own.
    await page.goto(`/admin/audit?action=order&q=${reference}`);
    await page.getByTestId('audit-row').first().waitFor();
    expect(
      await page.getByTestId('audit-row').evaluateAll((rows) => rows.map((r) => r.dataset.action)),
    ).toEqual(['order.refund', 'order.refund']);
    // Amounts in pounds and keys in words, who by name and email, never raw pence or ids.
    const details = await page.getByTestId('audit-details').first().innerText();
    expect(details).toMatch(/Amount\s+£\d+\.\d{2}/);
    expect(details).not.toMatch(/Minor/);
    const who = await page.getByTestId('audit-who').first().innerText();
    expect(who).toContain('admin@reshelf.test');
    expect(who).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(who.split('\n')[0]).not.toBe('admin@reshelf.test');
    await context.close();
  });

  it('a moderator sees orders but the refund is refused', async () => {
    const { context, page } = await signedIn(browser, 'moderator@reshelf.test', {
      baseURL: marketplace.baseURL,
      viewport: 'phone',
    });
    await page.goto('/admin/orders?status=paid');
    await page.getByTestId('staff-order').first().click();
    const sheet = page.getByTestId('order-sheet');
    await sheet.getByLabel('Reason').fill('Trying');
    await sheet.getByRole('button', { name: 'Refund' }).click();
    await openToast(page, 'Refund not sent').getByText('Access denied: admin role required').waitFor();
    await context.close();
  });
});
