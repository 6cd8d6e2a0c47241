/**
 * Money out in Chromium, on a marketplace of its own, in test mode end to end: a new
 * seller lists a book through the selling pages (ISBN to published) and sees "Set up payouts";
 * a buyer buys it from its page, through checkout and the test provider's payment page; the
 * seller completes onboarding on the test onboarding page and comes back Active; the seller
 * sends it, the buyer confirms everything is OK, and the payout to the seller's bank appears as
 * Paid. Then an admin refunds part of the order after release, and the
 * seller's monthly statement shows the reversal of the transfer. Screenshots at 1280 and 375 px.
 */
import { randomBytes } from 'node:crypto';
import { CLIENT_HEADER, formatPence } from '@reshelf/contracts';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createConfirmedAccount, signedIn } from '../support/auth.ts';
import { snapshot, snapshotsAt } from '../support/browser.ts';
import { fillAddress, payOnConfirmPage } from '../support/checkout.ts';
import { listBook } from '../support/selling.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';
import { trpcMutate } from '../support/trpc.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

const _WEB = { [CLIENT_HEADER]: 'web' };
const _PHONE = { width: 390, height: 844 };

const shots = snapshotsAt('payouts');

/** Reloads until the condition holds (the provider's events arrive on their own, a moment later). */
async function untilShown(page: Page, selector: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if ((await page.locator(selector).count()) > 0) return;
    if (Date.now() > deadline) throw new Error(`never shown: ${selector}`);
    await page.reload();
    await page.getByTestId('payout-account').waitFor();
  }
}

describe('payouts', { timeout: 240_000 }, () => {
  it('a new seller is paid through the provider, and a refund after release is a reversal on their statement', async () => {
    const suffix = randomBytes(4).toString('hex');
    const email = `new-seller-${suffix}@reshelf.test`;
    const password = 'a-new-seller-password';
    const title = 'Pride and Prejudice';
    const setup = await browser.newContext({ baseURL: marketplace.baseURL });
    await createConfirmedAccount(setup, email, password, 'Nell Newseller');
    await setup.close();
    const seller = await signedIn(browser, email, { baseURL: marketplace.baseURL, password });

    // The new seller lists a book through the selling pages: ISBN, details, condition, photo,
    // price, parcel, publish.
    const listed = await listBook(seller.page, { isbn: '9780141439518', title, price: '12.00' });
    const path = new URL(listed.url).pathname;

    // The new seller sees that payouts are not set up yet.
    await seller.page.goto('/account/payouts');
    const account = seller.page.getByTestId('payout-account');
    await expect(account.getAttribute('data-state')).resolves.toBe('not_started');
    await seller.page.getByRole('button', { name: 'Set up payouts' }).waitFor();

    // A buyer buys the book from its page, through checkout and the test provider's payment page.
    const buyer = await signedIn(browser, 'buyer@reshelf.test', { baseURL: marketplace.baseURL });
    await buyer.page.goto(path);
    // The all-in headline (decision 0071): £12.00 and £1.30 buyer protection.
    await buyer.page.getByTestId('listing-price').filter({ hasText: '£13.30' }).waitFor();
    await buyer.page.getByRole('link', { name: 'Buy now' }).click();
    await buyer.page.waitForURL(/\/checkout\?listing=/);
    await fillAddress(buyer.page);
    await buyer.page.getByRole('button', { name: 'Continue to confirm' }).click();
    const { orderId } = await payOnConfirmPage(buyer.page);

    // The seller sets up payouts on the provider's (test) onboarding page and comes back active.
    await seller.page.reload();
    await shots(seller.page, 'set-up', () =>
      seller.page.getByRole('button', { name: 'Set up payouts' }).waitFor(),
    );
    await seller.page.getByRole('button', { name: 'Set up payouts' }).click();
    await seller.page.waitForURL(/\/payments\/test\/onboarding\//);
    await snapshot(seller.page, 'payouts-onboarding-desktop');
    await seller.page.getByRole('button', { name: 'Complete set-up' }).click();
    await seller.page.waitForURL(/\/account\/payouts/);
    await untilShown(seller.page, '[data-testid="payout-account"][data-state="active"]');

    // The seller sends it; the buyer confirms everything is OK; the payout reaches the bank.
    await trpcMutate(seller.context, 'commerce.orders.member.dispatch', {
      orderId,
      carrier: 'royal_mail_tracked_48',
      trackingRef: 'AB123456789GB',
    });
    await trpcMutate(buyer.context, 'commerce.orders.member.markArrived', { orderId });
    await trpcMutate(buyer.context, 'commerce.orders.member.confirm', { orderId });
    await untilShown(seller.page, '[data-testid="bank-payout"][data-status="paid"]');
    const paid = seller.page.locator('[data-testid="bank-payout"][data-status="paid"]').first();
    await expect(paid.getByTestId('bank-payout-status').textContent()).resolves.toBe('Paid');
    await paid.getByRole('button', { name: 'Details' }).click();
    await paid.getByTestId('bank-payout-detail').getByText(title).waitFor();
    await shots(seller.page, 'paid', () => paid.waitFor());

    // An admin refunds £3.00 after release: taken back from the seller's transfer.
    const admin = await signedIn(browser, 'admin@reshelf.test', { baseURL: marketplace.baseURL });
    await trpcMutate(admin.context, 'commerce.orders.staff.refund', {
      orderId,
      amountMinor: 300,
      reason: 'A page was torn, agreed with the buyer',
    });
    const month = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Europe/London',
      year: 'numeric',
      month: '2-digit',
    })
      .format(new Date())
      .slice(0, 7);
    await seller.page.goto(`/account/payouts/statement/${month}`);
    const reversal = seller.page.locator('[data-testid="statement-entry"][data-kind="transfer_reversal"]');
    await reversal.waitFor();
    await expect(reversal.getByTestId('statement-amount').textContent()).resolves.toBe(formatPence(-300));
    await expect(reversal.textContent()).resolves.toContain('Reversal');
    await shots(seller.page, 'statement', () => reversal.waitFor());
    // Paid out before the refund, the seller owes it back: their payouts page says so, and how.
    await seller.page.goto('/account/payouts');
    const owed = seller.page.getByTestId('payout-owed');
    await owed.waitFor();
    await expect(owed.textContent()).resolves.toBe(
      `You owe ${formatPence(300)}: a refund to a buyer was taken back after the money had gone to your bank. It comes off your next payouts.`,
    );
    await shots(seller.page, 'owed', () => owed.waitFor());

    // Staff see the transfer and the reconciliation balances.
    await admin.page.goto('/admin/payouts');
    await admin.page.getByTestId('staff-money-out-row').first().waitFor();
    await snapshot(admin.page, 'payouts-admin-desktop');
    await admin.page.goto('/admin/payments/reconciliation');
    await expect(admin.page.getByTestId('reconciliation-summary').textContent()).resolves.toMatch(
      /^All \d+ orders balance$/,
    );
    await snapshot(admin.page, 'payouts-reconciliation-desktop');
    await Promise.all([seller.context.close(), buyer.context.close(), admin.context.close()]);
  });
});
