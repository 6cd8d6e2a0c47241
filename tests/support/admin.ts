/** Steps in the staff area that several browser tests take. */
import type { Locator, Page } from 'playwright-core';
import { openToast } from './auth.ts';

/**
 * On /admin/disputes or /admin/shipping-disputes: reviews a queue row and refunds the buyer in
 * full ("Refund buyer", then the dialog's note to both parties); waits for the staff toast.
 */
export async function refundDispute(
  page: Page,
  row: Locator,
  note = 'The carrier lost the parcel: refunded in full.',
): Promise<void> {
  await row.getByRole('button', { name: /Review/ }).click();
  // The one decide path (commerce.disputes.staff.decide): it asks first, with the note in the dialog.
  await page
    .getByTestId('dispute-review')
    .getByTestId('resolve-panel')
    .getByRole('button', { name: 'Refund buyer' })
    .click();
  const dialog = page.getByRole('dialog', { name: /^Refund / });
  await dialog.getByLabel('Note to both parties').fill(note);
  await dialog.getByRole('button', { name: 'Refund buyer' }).click();
  await openToast(page, 'Buyer refunded').waitFor();
}
