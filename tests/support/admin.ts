/** Steps in the staff area that several browser tests take. */
import type { Locator, Page } from 'playwright-core';
import { openToast } from './auth.ts';

/**
 * On /admin/disputes or /admin/shipping-disputes: reviews a queue row and refunds the buyer in
 * full, with a note to both parties; waits for the staff toast.
 */
export async function refundDispute(
  page: Page,
  row: Locator,
  note = 'The carrier lost the parcel: refunded in full.',
): Promise<void> {
  await row.getByRole('button', { name: /Review/ }).click();
  const review = page.getByTestId('dispute-review');
  await review.getByLabel('Note to both parties').fill(note);
  await review.getByRole('button', { name: 'Refund buyer' }).click();
  await page
    .getByRole('dialog', { name: /^Refund / })
    .getByRole('button', { name: 'Refund buyer' })
    .click();
  await openToast(page, 'Buyer refunded').waitFor();
}
