/**
 * /admin/promotions and the promo code at checkout, in a real browser: an admin
 * creates a code, a buyer applies it at checkout (after a code that does not exist), sees the
 * discount on every step and pays the discounted total, and the admin's table shows the use.
 * It sells a book, so it runs on a marketplace of its own.
 */
import { orderButtonLabel } from '@reshelf/contracts';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openToast, signedIn } from '../support/auth.ts';
import { launchBrowser, snapshot } from '../support/browser.ts';
import { type OwnMarketplace, startOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let market: OwnMarketplace;

beforeAll(async () => {
  [browser, market] = await Promise.all([launchBrowser(), startOwnMarketplace()]);
});

afterAll(async () => {
  await browser?.close();
  await market?.stop();
});

const pence = (text: string | null) => Math.round(Number((text ?? '').replace(/[^0-9.]/g, '')) * 100);

describe('admin promotions', () => {
  it('an admin creates a code, a buyer uses it at checkout, and the table counts the use', async () => {
    const code = `HALF${Date.now().toString(36).slice(-6).toUpperCase()}`;
    const admin = await signedIn(browser, 'admin@reshelf.test', { baseURL: market.baseURL });
    await admin.page.goto('/admin/promotions');
    await admin.page.getByRole('heading', { name: 'Promotions', level: 1 }).waitFor();
    await admin.page.getByRole('button', { name: 'New code' }).click();
    const form = admin.page.getByTestId('promotion-form');
    await form.getByLabel('Code', { exact: true }).fill('welcome20');
    await form.getByLabel('Percentage off').fill('95');
    await form.getByRole('button', { name: 'Create code' }).click();
    await form.getByText('WELCOME20 is the built-in first-order gift').waitFor();
    await form.getByText('Use a whole percentage from 1 to 90').waitFor();
    await form.getByText('Choose when the code ends').waitFor();

    await form.getByLabel('Code', { exact: true }).fill(code.toLowerCase());
    await form.getByLabel('Percentage off').fill('50');
    await form.getByLabel('Ends').fill('2099-12-31T23:30');
    await form.getByLabel('Total uses').fill('10');
    await form.getByRole('button', { name: 'Create code' }).click();
    await openToast(admin.page, 'Code created').waitFor();
    const row = admin.page.locator(`[data-testid="promotion-row"][data-code="${code}"]`);
    await row.getByTestId('promotion-status').getByText('Live').waitFor();
    expect(await row.getByTestId('promotion-used').textContent()).toMatch(/^0 of 10/);

    const buyer = await signedIn(browser, 'buyer@reshelf.test', {
      baseURL: market.baseURL,
      viewport: 'phone',
    });
    const page = buyer.page;
    // Copy by copy, cheapest first (/listings answers by book, decision 0079).
    await page.goto('/recently-added?sort=price_asc');
    await page.getByTestId('listing-card').first().click();
    await page.getByRole('link', { name: 'Buy now' }).click();
    await page.waitForURL(/\/checkout\?listing=/);
    await page.getByTestId('price-lines').waitFor();

    const promo = page.getByRole('form', { name: 'Promo code' });
    await promo.getByLabel('Promo code').fill('NOSUCHCODE');
    await promo.getByRole('button', { name: 'Apply' }).click();
    await promo.getByText('We don’t recognise that code.').waitFor();

    await promo.getByLabel('Promo code').fill(code.toLowerCase());
    await promo.getByRole('button', { name: 'Apply' }).click();
    await page.getByTestId('promo-applied').getByText(`Promo code ${code} applied`).waitFor();
    const discount = page.getByTestId('discount-line');
    await expect(discount.locator('dt').textContent()).resolves.toBe(`${code}: 50% off`);
    const item = pence(await page.getByTestId('item-price').textContent());
    const off = pence(await discount.locator('dd').textContent());
    expect(off).toBe(Math.floor(item * 0.5 + 0.5));
    const total =
      item +
      pence(await page.getByTestId('postage').textContent()) +
      pence(await page.getByTestId('protection-fee').textContent()) -
      off;
    expect(pence(await page.getByTestId('total').textContent())).toBe(total);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await snapshot(page, 'checkout-promo-phone');

    await page.getByLabel('Full name').fill('Ava Reader');
    await page.getByLabel('Address line 1').fill('12 Turl Street');
    await page.getByLabel('Town or city').fill('Oxford');
    await page.getByLabel('Postcode', { exact: true }).fill('OX1 3DP');
    await page.getByRole('button', { name: 'Continue to confirm' }).click();
    await page.waitForURL(/\/checkout\/confirm/);
    await expect(page.getByTestId('discount-line').locator('dt').textContent()).resolves.toBe(
      `${code}: 50% off`,
    );
    await page.getByRole('button', { name: orderButtonLabel(total) }).click();
    await page.waitForURL(/\/payments\/test\/tp_/);
    expect(pence(await page.getByTestId('amount').textContent())).toBe(total);
    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.waitForURL(/\/checkout\/success\?order=/);
    await expect(page.getByTestId('discount-line').locator('dt').textContent()).resolves.toBe(
      `Promo code ${code}`,
    );

    await admin.page.reload();
    await admin.page.getByTestId('promotions-table').waitFor();
    expect(await row.getByTestId('promotion-used').textContent()).toMatch(/^1 of 10/);
    expect(pence(await row.getByTestId('promotion-discounted').textContent())).toBe(off);

    await row.getByRole('button', { name: `Edit ${code}` }).click();
    const edit = admin.page.getByTestId('promotion-form');
    expect(await edit.getByLabel('Code', { exact: true }).getAttribute('readonly')).not.toBeNull();
    expect(await edit.getByLabel('Ends').inputValue()).toBe('2099-12-31T23:30');
    await edit.getByLabel('Total uses').fill('20');
    await edit.getByRole('button', { name: 'Save code' }).click();
    await openToast(admin.page, 'Code saved').waitFor();
    await expect.poll(() => row.getByTestId('promotion-used').textContent()).toMatch(/^1 of 20/);

    await row.getByRole('button', { name: `Pause ${code}` }).click();
    await row.getByTestId('promotion-status').getByText('Paused').waitFor();
    await snapshot(admin.page, 'admin-promotions-desktop');

    // Moderators see the table, on a phone too, but cannot change it.
    const moderator = await signedIn(browser, 'moderator@reshelf.test', {
      baseURL: market.baseURL,
      viewport: 'phone',
    });
    await moderator.page.goto('/admin/promotions');
    const seen = moderator.page.locator(`[data-testid="promotion-row"][data-code="${code}"]`);
    await seen.getByTestId('promotion-status').getByText('Paused').waitFor();
    await moderator.page.getByText('Only admins can create, edit or pause codes.').waitFor();
    expect(await moderator.page.getByRole('button', { name: 'New code' }).count()).toBe(0);
    expect(await seen.getByRole('button').count()).toBe(0);
    const overflow = await moderator.page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(1);
    await snapshot(moderator.page, 'admin-promotions-moderator-phone');
    await moderator.context.close();
    await buyer.context.close();
    await admin.context.close();
  });
});
