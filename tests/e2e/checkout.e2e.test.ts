/**
 * Buying in Chromium: a signed-in buyer goes from a listing to the test provider's payment
 * page and back, paying or declining, with the server's price breakdown all the way.
 */
import { ORDER_BUTTON_WORDS } from '@reshelf/contracts';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signInViaApi } from '../support/auth.ts';
import { newPage, snapshot, withBrowser } from '../support/browser.ts';

let browser: Browser;
withBrowser((launched) => (browser = launched));

async function buyFirstListing(
  viewport: 'phone' | 'desktop',
  outcome: 'Pay now' | 'Simulate a declined card',
) {
  const { context, page } = await newPage(browser, viewport);
  await context.addInitScript(() => {
    localStorage.setItem('cookie-consent', 'declined');
    localStorage.setItem('has-visited', 'true');
  });
  await signInViaApi(context, 'buyer@reshelf.test');
  // Copy by copy, cheapest first (/listings answers by book, decision 0079).
  await page.goto('/recently-added?sort=price_asc');
  await page.getByTestId('listing-card').first().click();
  await page.getByRole('link', { name: 'Buy now' }).click();
  await page.waitForURL(/\/checkout\?listing=/);
  await page.getByTestId('price-lines').waitFor();
  await page.getByLabel('Full name').fill('Ava Reader');
  await page.getByLabel('Address line 1').fill('12 Turl Street');
  await page.getByLabel('Town or city').fill('Oxford');
  await page.getByLabel('Postcode').fill('not a postcode');
  await page.getByRole('button', { name: 'Continue to confirm' }).click();
  await page.getByText('Enter a UK postcode, like SW1A 1AA').waitFor();
  await page.getByLabel('Postcode').fill('ox1 3dp');
  await page.getByRole('button', { name: 'Continue to confirm' }).click();
  await page.waitForURL(/\/checkout\/confirm/);
  await expect(page.getByTestId('address').textContent()).resolves.toContain('OX1 3DP');
  const total = (await page.getByTestId('total').textContent())!.trim();
  await snapshot(page, `checkout-confirm-${viewport}`);
  await page.getByRole('button', { name: `${ORDER_BUTTON_WORDS} ${total}` }).click();
  await page.waitForURL(/\/payments\/test\/tp_/);
  await expect(page.getByTestId('amount').textContent()).resolves.toBe(total);
  await snapshot(page, `checkout-test-provider-${viewport}`);
  await page.getByRole('button', { name: outcome }).click();
  return { context, page, total };
}

describe('checkout', () => {
  it('a buyer pays for a book and lands on the order confirmation', async () => {
    const { context, page } = await buyFirstListing('desktop', 'Pay now');
    await page.waitForURL(/\/checkout\/success\?order=/);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Thank you: your order is paid',
    );
    await expect(page.getByTestId('order-status').textContent()).resolves.toMatch(/^Paid\./);
    await snapshot(page, 'checkout-success-desktop');
    await context.close();
  });

  it('a declined card comes back to the cancel page with the book on sale again', async () => {
    const { context, page } = await buyFirstListing('phone', 'Simulate a declined card');
    await page.waitForURL(/\/checkout\/cancel\?order=/);
    // The reason appears once the order has loaded.
    await page
      .getByTestId('cancel-message')
      .getByText(/\(the payment was declined\)/)
      .waitFor();
    await page.getByRole('link', { name: 'Try again' }).click();
    await page.waitForURL(/\/checkout\?listing=/);
    await page.getByTestId('price-lines').waitFor();
    await snapshot(page, 'checkout-cancel-retry-phone');
    await context.close();
  });
});
