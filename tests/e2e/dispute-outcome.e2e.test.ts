/**
 * A settled dispute shows one outcome on all three sides (issue 32), in Chromium with the demo
 * accounts in browsers of their own: buyer@reshelf.test buys one of seller@reshelf.test's books
 * and it is dispatched; the buyer reports a problem; the seller disagrees; an admin decides
 * "Refund buyer" in the staff disputes queue. Then the buyer's order page, the seller's sale page
 * and the queue's Resolved tab show the same outcome and the same amount: nothing on any of them
 * says "no refund" or £0.00 (on main before the commerce rebuild the sides read "Resolved: the
 * buyer was refunded" beside "Settled: no refund", and the Resolved tab "Amount £0.00").
 *
 * A marketplace of its own (tests/support/server.ts); screenshots at 1280 and 390 px land in
 * tests/.artifacts/ as dispute-outcome-*.
 */
import { formatPence, ORDER_BUTTON_WORDS } from '@reshelf/contracts';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openToast, signedIn, toast } from '../support/auth.ts';
import { snapshotsAt } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';
import { trpcMutate, trpcQuery } from '../support/trpc.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

const ADDRESS = { fullName: 'Ava Reader', line1: '12 Turl Street', town: 'Oxford', postcode: 'OX1 3DP' };
const shots = snapshotsAt('dispute-outcome');

interface Person {
  context: BrowserContext;
  page: Page;
}

/**
 * What no side may say once the buyer was refunded (the seller's own "You receive £0.00" is
 * right: the queue's amount is checked apart).
 */
const CONTRADICTIONS = [/no refund/i, /payment went to the seller/i, /was released/i];

async function expectNoContradiction(region: Locator, name: string) {
  const text = (await region.textContent()) ?? '';
  for (const words of CONTRADICTIONS) expect(text, `${name} says ${words}`).not.toMatch(words);
}

describe('a settled dispute', { timeout: 240_000 }, () => {
  it('contested, then "Refund buyer" by staff: the buyer, the seller and the Resolved tab show one outcome and amount', async () => {
    const seller = await signedIn(browser, 'seller@reshelf.test', { baseURL: marketplace.baseURL });
    const buyer = await signedIn(browser, 'buyer@reshelf.test', { baseURL: marketplace.baseURL });
    const admin = await signedIn(browser, 'admin@reshelf.test', { baseURL: marketplace.baseURL });

    // The buyer buys one of the seller's books at its price; the seller sends it.
    const mine = await trpcQuery<{ items: { slug: string | null; priceMinor: number | null }[] }>(
      seller.context,
      'selling.listings.mine',
      { status: 'active', page: 1, pageSize: 48 },
    );
    const book = mine.items.find((item) => item.slug && (item.priceMinor ?? 0) >= 600);
    expect(book).toBeTruthy();
    const orderId = await buy(buyer, book!.slug!);
    await trpcMutate(seller.context, 'commerce.orders.member.dispatch', {
      orderId,
      carrier: 'royal_mail_tracked_48',
      trackingRef: 'RM123456785GB',
    });
    const { totalMinor, reference } = await trpcQuery<{ totalMinor: number; reference: string }>(
      buyer.context,
      'commerce.orders.member.get',
      { orderId },
    );
    const total = formatPence(totalMinor);

    // The buyer reports a problem from the order page.
    const description = 'The dust jacket is torn in half and the spine is split.';
    await buyer.page.goto(`/account/orders/${orderId}`);
    await buyer.page.getByRole('button', { name: 'Report a problem' }).click();
    const dialog = buyer.page.getByRole('dialog', { name: 'Report a problem' });
    await dialog.getByLabel('What went wrong?').selectOption({ label: 'Damaged' });
    await dialog.getByLabel('What’s wrong?').fill(description);
    await dialog.getByRole('button', { name: 'Send the report' }).click();
    await toast(buyer.page, 'Report sent').waitFor();
    await buyer.page.getByTestId('dispute-case').getByText(description).waitFor();

    // The seller disagrees.
    await seller.page.goto(`/account/sales/${orderId}`);
    const sellerCase = seller.page.getByTestId('dispute-case');
    await sellerCase.getByRole('button', { name: 'I disagree' }).click();
    const contest = seller.page.getByRole('dialog', { name: 'Tell us your side' });
    await contest
      .getByLabel('Why do you disagree?')
      .fill('It was wrapped in card and bubble wrap; it left whole.');
    await contest.getByRole('button', { name: 'Send my side' }).click();
    await toast(seller.page, 'Answer sent').waitFor();
    await sellerCase.getByTestId('dispute-stage').getByText('Our team is deciding').waitFor();

    // Staff decide "Refund buyer" in the disputes queue.
    await admin.page.goto('/admin/disputes');
    const openRow = admin.page.locator(`[data-testid="dispute-row"][data-reference="${reference}"]`);
    await expect(openRow.getByTestId('dispute-amount').textContent()).resolves.toBe(total);
    await openRow.getByRole('button', { name: /Review/ }).click();
    const staffCase = admin.page.getByTestId('staff-dispute-case');
    await staffCase.getByText(description).waitFor();
    await staffCase.getByTestId('resolve-panel').getByRole('button', { name: 'Refund buyer' }).click();
    const refund = admin.page.getByRole('dialog', { name: `Refund ${total} to Ava Reader?` });
    await refund
      .getByLabel('Note to both parties')
      .fill('The photos of the parcel show the damage in transit.');
    await refund.getByRole('button', { name: 'Refund buyer' }).click();
    await openToast(admin.page, 'Buyer refunded').waitFor();
    await openRow.waitFor({ state: 'detached' });

    // One outcome, in the same words and the same amount, on every side.
    const outcome = `Settled: ${total} refunded`;

    await buyer.page.reload();
    await buyer.page.locator('[data-testid="order-detail"][data-status="refunded"]').waitFor();
    const buyerCase = buyer.page.getByTestId('dispute-case');
    await expect(buyerCase.getByTestId('dispute-stage').textContent()).resolves.toBe(outcome);
    await expect(buyerCase.getByTestId('dispute-refunded').textContent()).resolves.toBe(`Refunded: ${total}`);
    await expect(buyer.page.getByTestId('refunded-line').locator('dd').textContent()).resolves.toContain(
      total,
    );
    await expectNoContradiction(buyer.page.getByTestId('order-detail'), 'the buyer’s order');
    await shots(buyer.page, 'buyer', () => buyerCase.getByTestId('dispute-stage').waitFor());

    await seller.page.reload();
    await seller.page.locator('[data-testid="order-detail"][data-status="refunded"]').waitFor();
    await expect(sellerCase.getByTestId('dispute-stage').textContent()).resolves.toBe(outcome);
    await expect(sellerCase.getByTestId('dispute-refunded').textContent()).resolves.toBe(
      `Refunded: ${total}`,
    );
    await expectNoContradiction(seller.page.getByTestId('order-detail'), 'the seller’s sale');
    await shots(seller.page, 'seller', () => sellerCase.getByTestId('dispute-stage').waitFor());

    // The Resolved tab: the amount refunded, and the case the same as the two sides read it.
    await admin.page.getByRole('link', { name: 'Resolved' }).click();
    await admin.page.waitForURL('**/admin/disputes?status=resolved');
    const resolvedRow = admin.page.locator(`[data-testid="dispute-row"][data-reference="${reference}"]`);
    await expect(resolvedRow.getByTestId('dispute-amount').textContent()).resolves.toBe(total);
    await expectNoContradiction(resolvedRow, 'the Resolved tab’s row');
    await shots(admin.page, 'staff-resolved', () => resolvedRow.waitFor());
    await resolvedRow.getByRole('button', { name: /View order/ }).click();
    const review = admin.page.getByTestId('dispute-review');
    await expect(review.getByTestId('dispute-stage').textContent()).resolves.toBe(outcome);
    await expect(review.getByTestId('dispute-refunded').textContent()).resolves.toBe(`Refunded: ${total}`);
    expect(await review.getByTestId('resolve-panel').count()).toBe(0);

    await Promise.all([seller.context.close(), buyer.context.close(), admin.context.close()]);
  });
});

/** The buyer buys the book at its price, as on the listing page, and pays; the order's id. */
async function buy(buyer: Person, slug: string): Promise<string> {
  await trpcMutate(buyer.context, 'commerce.checkout.saveAddress', { address: ADDRESS, makeDefault: true });
  await buyer.page.goto(`/listing/${slug}`);
  await buyer.page.getByRole('link', { name: 'Buy now' }).click();
  await buyer.page.waitForURL(/\/checkout\?listing=/);
  await buyer.page.getByTestId('saved-address').filter({ hasText: '12 Turl Street' }).waitFor();
  await buyer.page.getByRole('button', { name: 'Continue to confirm' }).click();
  await buyer.page.waitForURL(/\/checkout\/confirm\?/);
  const total = (await buyer.page.getByTestId('total').textContent())!.trim();
  await buyer.page.getByRole('button', { name: `${ORDER_BUTTON_WORDS} ${total}` }).click();
  await buyer.page.waitForURL(/\/payments\/test\/tp_/);
  await buyer.page.getByRole('button', { name: 'Pay now' }).click();
  await buyer.page.waitForURL(/\/checkout\/success\?order=/);
  return new URL(buyer.page.url()).searchParams.get('order')!;
}
