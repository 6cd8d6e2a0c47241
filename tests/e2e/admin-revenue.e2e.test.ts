/**
 * /admin/revenue in a real browser (issue 9): buyer protection and postage for each period.
 * The demo admin resolves a shipping dispute with a refund on /admin/shipping-disputes; the
 * money goes back through the payment port and today's protection refunded rises by the
 * order's buyer protection on the revenue page. Runs against a marketplace of its own.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { refundDispute } from '../support/admin.ts';
import { signedIn } from '../support/auth.ts';
import { snapshot } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

const pence = (text: string | null) => Math.round(Number((text ?? '').replace(/[£,]/g, '')) * 100);

async function todayFigures(page: Page) {
  await page.goto('/admin/revenue');
  const today = page.locator('[data-testid="revenue-row"][data-period="today"]');
  await today.waitFor();
  return {
    refunded: pence(await today.getByTestId('protection-refunded').textContent()),
    net: pence(await today.getByTestId('protection-net').textContent()),
    refunds: pence(await today.getByTestId('refunds-total').textContent()),
  };
}

describe('admin revenue', () => {
  it('shows a shipping dispute refunded on /admin/shipping-disputes in today’s figures', async () => {
    const { context, page } = await signedIn(browser, 'admin@reshelf.test', { baseURL: marketplace.baseURL });
    const before = await todayFigures(page);
    expect(
      await page.getByTestId('revenue-row').evaluateAll((rows) => rows.map((r) => r.dataset.period)),
    ).toEqual(['today', 'mtd', 'last30', 'ytd']);

    await page.goto('/admin/shipping-disputes');
    const row = page.getByTestId('dispute-row').first();
    await row.waitFor();
    const reference = (await row.getAttribute('data-reference'))!;
    const orders = await context.request.get(
      `/trpc/staffOrders.search?input=${encodeURIComponent(JSON.stringify({ q: reference }))}`,
    );
    const orderId = ((await orders.json()) as { result: { data: { id: string }[] } }).result.data[0]!.id;
    const detail = await context.request.get(
      `/trpc/disputes.order?input=${encodeURIComponent(JSON.stringify({ orderId }))}`,
    );
    const order = (
      (await detail.json()) as { result: { data: { protectionMinor: number; totalMinor: number } } }
    ).result.data;

    await refundDispute(page, row);

    const after = await todayFigures(page);
    expect(after.refunded - before.refunded).toBe(order.protectionMinor);
    expect(before.net - after.net).toBe(order.protectionMinor);
    expect(after.refunds - before.refunds).toBe(order.totalMinor);
    await snapshot(page, 'admin-revenue-desktop');
    await context.close();
  });
});
