/**
 * The buyer's steps at checkout as they click through them, shared by the browser tests that buy
 * through the real pages (buying, payouts).
 */
import { ORDER_BUTTON_WORDS } from '@reshelf/contracts';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The buyer's address form at checkout, filled in. */
export async function fillAddress(page: Page): Promise<void> {
  await page.getByLabel('Full name').fill('Ava Reader');
  await page.getByLabel('Address line 1').fill('12 Turl Street');
  await page.getByLabel('Town or city').fill('Oxford');
  await page.getByLabel('Postcode').fill('ox1 3dp');
}

/** From the confirm page through the test provider's page to the success page; the order id. */
export async function payOnConfirmPage(page: Page): Promise<{ orderId: string; total: string }> {
  await page.waitForURL(/\/checkout\/confirm\?/);
  const total = (await page.getByTestId('total').textContent())!.trim();
  await page.getByRole('button', { name: `${ORDER_BUTTON_WORDS} ${total}` }).click();
  await page.waitForURL(/\/payments\/test\/tp_/);
  await expect(page.getByTestId('amount').textContent()).resolves.toBe(total);
  await page.getByRole('button', { name: 'Pay now' }).click();
  await page.waitForURL(/\/checkout\/success\?order=/);
  await page.getByRole('heading', { name: 'Thank you: your order is paid', level: 1 }).waitFor();
  const orderId = new URL(page.url()).searchParams.get('order')!;
  return { orderId, total };
}
