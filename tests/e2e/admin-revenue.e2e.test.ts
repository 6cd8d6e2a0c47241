/**
 * /admin/revenue in a real browser: buyer protection and postage for each period.
 * The demo admin resolves a shipping dispute with a refund on /admin/shipping-disputes; the
 * money goes back through the payment port and today's protection refunded rises by the
 * order's buyer protection on the revenue page. A first order with WELCOME20 shows as a
 * discount Reshelf funds and comes off net income; each period's CSV has the
 * page's figures. Runs against a marketplace of its own (buyer@reshelf.test has no orders).
 */
import { CLIENT_HEADER, ORDER_BUTTON_WORDS, parsePounds } from '@reshelf/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { refundDispute } from '../support/admin.ts';
import { signedIn } from '../support/auth.ts';
import { snapshot } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

const pence = (text: string | null) => {
  const value = parsePounds((text ?? '').trim().replace(/^[−-]/, ''));
  if (value === null) throw new Error(`not an amount: ${text}`);
  return /^\s*[−-]/.test(text ?? '') ? -value : value;
};

async function rowFigures(page: Page, period: string) {
  const row = page.locator(`[data-testid="revenue-row"][data-period="${period}"]`);
  await row.waitFor();
  const read = async (id: string) => pence(await row.getByTestId(id).textContent());
  return {
    charged: await read('protection-charged'),
    refunded: await read('protection-refunded'),
    protectionNet: await read('protection-net'),
    discounts: await read('discounts-funded'),
    net: await read('net-income'),
    refunds: await read('refunds-total'),
  };
}

async function query<T>(context: BrowserContext, procedure: string, input?: unknown): Promise<T> {
  const search = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const response = await context.request.get(`/trpc/${procedure}${search}`);
  if (!response.ok()) throw new Error(`${procedure}: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

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
      `/trpc/commerce.orders.staff.search?input=${encodeURIComponent(JSON.stringify({ q: reference }))}`,
    );
    const orderId = ((await orders.json()) as { result: { data: { id: string }[] } }).result.data[0]!.id;
    const detail = await context.request.get(
      `/trpc/commerce.orders.staff.order?input=${encodeURIComponent(JSON.stringify({ orderId }))}`,
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

  it('a WELCOME20 first order is a discount Reshelf funds, off net income; each period’s CSV says the same', async () => {
    const admin = await signedIn(browser, 'admin@reshelf.test', { baseURL: marketplace.baseURL });
    await admin.page.goto('/admin/revenue');
    const before = await rowFigures(admin.page, 'today');

    // buyer@reshelf.test's first order: one of seller@reshelf.test's books, WELCOME20 applied.
    const seller = await signedIn(browser, 'seller@reshelf.test', { baseURL: marketplace.baseURL });
    const mine = await query<{ items: { slug: string | null; priceMinor: number | null }[] }>(
      seller.context,
      'selling.listings.mine',
      { status: 'active', page: 1, pageSize: 48 },
    );
    const book = mine.items.find((item) => item.slug && (item.priceMinor ?? 0) >= 500)!;
    const buyer = await signedIn(browser, 'buyer@reshelf.test', { baseURL: marketplace.baseURL });
    const saved = await buyer.context.request.post('/trpc/commerce.checkout.saveAddress', {
      headers: { [CLIENT_HEADER]: 'web' },
      data: {
        address: { fullName: 'Ava Reader', line1: '12 Turl Street', town: 'Oxford', postcode: 'OX1 3DP' },
        makeDefault: true,
      },
    });
    expect(saved.ok()).toBe(true);
    await buyer.page.goto(`/listing/${book.slug}`);
    await buyer.page.getByRole('link', { name: 'Buy now' }).click();
    await buyer.page.waitForURL(/\/checkout\?listing=/);
    const discountLine = buyer.page.getByTestId('discount-line');
    await expect(discountLine.locator('dt').textContent()).resolves.toBe(
      'WELCOME20: 20% off your first order',
    );
    const discount = Math.abs(pence(await discountLine.locator('dd').textContent()));
    const fee = pence(await buyer.page.getByTestId('protection-fee').textContent());
    expect(discount).toBe(Math.round((book.priceMinor ?? 0) * 0.2));
    await buyer.page.getByTestId('saved-address').first().waitFor();
    await buyer.page.getByRole('button', { name: 'Continue to confirm' }).click();
    await buyer.page.waitForURL(/\/checkout\/confirm\?/);
    const total = (await buyer.page.getByTestId('total').textContent())!.trim();
    await buyer.page.getByRole('button', { name: `${ORDER_BUTTON_WORDS} ${total}` }).click();
    await buyer.page.waitForURL(/\/payments\/test\/tp_/);
    await buyer.page.getByRole('button', { name: 'Pay now' }).click();
    await buyer.page.waitForURL(/\/checkout\/success\?order=/);

    // Staff: today's discounts funded rise by the discount, net income by the fee less it.
    await admin.page.goto('/admin/revenue');
    const after = await rowFigures(admin.page, 'today');
    expect(after.charged - before.charged).toBe(fee);
    expect(after.discounts - before.discounts).toBe(discount);
    expect(after.net - before.net).toBe(fee - discount);
    await admin.page
      .getByTestId('revenue-net-line')
      .getByText('= buyer protection charged − protection refunded − discounts funded.')
      .waitFor();

    // Every row: net income = buyer protection (net) − discounts funded; its CSV's total row agrees.
    for (const period of ['today', 'mtd', 'last30', 'ytd']) {
      const shown = await rowFigures(admin.page, period);
      expect(shown.net, period).toBe(shown.protectionNet - shown.discounts);
      const row = admin.page.locator(`[data-testid="revenue-row"][data-period="${period}"]`);
      const href = (await row.getByTestId('revenue-csv').getAttribute('href'))!;
      const response = await admin.context.request.get(href);
      expect(response.ok(), period).toBe(true);
      const [header, ...lines] = (await response.text())
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r?\n/);
      const names = header!.split(',');
      const total = Object.fromEntries(
        names.map((name, i) => [name, lines.find((line) => line.startsWith('total,'))!.split(',')[i]]),
      );
      const gbp = (minor: number) => (minor / 100).toFixed(2);
      expect(total, period).toMatchObject({
        buyer_protection_charged_gbp: gbp(shown.charged),
        buyer_protection_refunded_gbp: gbp(shown.refunded),
        buyer_protection_net_gbp: gbp(shown.protectionNet),
        discounts_funded_gbp: gbp(shown.discounts),
        net_gbp: gbp(shown.net),
        refunds_gbp: gbp(shown.refunds),
      });
    }

    await snapshot(admin.page, 'admin-revenue-discounts-desktop');
    await Promise.all([admin.context.close(), seller.context.close(), buyer.context.close()]);

    // On a phone the table scrolls inside its box; the page itself does not scroll sideways.
    const phone = await signedIn(browser, 'admin@reshelf.test', {
      baseURL: marketplace.baseURL,
      viewport: 'phone',
    });
    await phone.page.goto('/admin/revenue');
    await phone.page.getByTestId('revenue-table').waitFor();
    const wide = await phone.page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
        .filter((element) => !element.closest('.overflow-x-auto'))
        .map((element) => `${element.tagName}.${element.className}`.slice(0, 120))
        .slice(0, 5),
    );
    expect(wide).toEqual([]);
    const overflow = await phone.page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(1);
    await snapshot(phone.page, 'admin-revenue-discounts-phone');
    await phone.context.close();
  });
});
