/**
 * /admin/offers in a real browser: the demo buyer offers on one of the demo seller's
 * books and the seller accepts (the book is held); a moderator, on a phone, finds the thread by
 * the buyer's email, reads its round, and cancels it with a reason: the open-offers figure goes
 * down, the book is back on sale, and the buyer's /account/offers shows the offer cancelled.
 * Offers change the page's figures, so this file runs against a marketplace of its own.
 */
import { CLIENT_HEADER, formatPence } from '@reshelf/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openToast, signedIn } from '../support/auth.ts';
import { snapshot } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

async function query<T>(context: BrowserContext, procedure: string, input?: unknown): Promise<T> {
  const search = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const response = await context.request.get(`/trpc/${procedure}${search}`);
  if (!response.ok()) throw new Error(`${procedure}: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

async function mutate<T>(context: BrowserContext, procedure: string, input: unknown): Promise<T> {
  const response = await context.request.post(`/trpc/${procedure}`, {
    headers: { [CLIENT_HEADER]: 'web' },
    data: input,
  });
  if (!response.ok()) throw new Error(`${procedure}: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

async function noHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}

describe('admin offers', { timeout: 120_000 }, () => {
  it('a moderator finds an accepted offer and cancels it; the buyer sees it cancelled', async () => {
    const options = { baseURL: marketplace.baseURL };
    const seller = await signedIn(browser, 'seller@reshelf.test', options);
    const buyer = await signedIn(browser, 'buyer@reshelf.test', options);
    const mine = await query<{ items: { id: string; title: string | null; priceMinor: number | null }[] }>(
      seller.context,
      'selling.listings.mine',
      { status: 'active', page: 1, pageSize: 48 },
    );
    const book = mine.items.find((item) => item.title && (item.priceMinor ?? 0) >= 600);
    if (!book?.title || !book.priceMinor) throw new Error('the demo seller has no book to offer on');
    const amount = Math.ceil((book.priceMinor * 0.7) / 100) * 100;
    const { offerId } = await mutate<{ offerId: string }>(buyer.context, 'commerce.offers.member.make', {
      listingId: book.id,
      amountMinor: amount,
      message: 'Would you take this?',
    });
    await mutate(seller.context, 'commerce.offers.member.respond', { offerId, action: 'accept' });

    const { context, page } = await signedIn(browser, 'moderator@reshelf.test', {
      ...options,
      viewport: 'phone',
    });
    await page.goto('/admin/offers');
    await page.getByRole('heading', { name: 'Offers', level: 1 }).waitFor();
    const open = page.getByTestId('offers-open');
    await expect.poll(async () => Number(await open.textContent())).toBeGreaterThanOrEqual(1);
    const openBefore = Number(await open.textContent());

    await page.getByLabel('Book title, buyer or seller email').fill('buyer@reshelf.test');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(/[?&]q=buyer%40reshelf\.test/);
    // This offer's thread (the demo data may hold older offers of the buyer's on the same book).
    const thread = page.locator(`[data-testid="staff-offer"][data-thread-id="${offerId}"]`);
    await thread.waitFor();
    expect(await thread.getAttribute('data-status')).toBe('accepted');
    const round = thread.getByTestId('staff-offer-round');
    await round.getByText(`Ava Reader offered ${formatPence(amount)}`).waitFor();
    await round.getByText('“Would you take this?”').waitFor();
    await round.getByText(/Checkout deadline/).waitFor();
    await noHorizontalScroll(page);

    await thread.getByRole('button', { name: `Cancel offer on ${book.title}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this offer?' });
    await dialog.getByText('the book goes back on sale').waitFor();
    // A reason is required.
    await dialog.getByRole('button', { name: 'Cancel the offer' }).click();
    await dialog.getByText('Give a reason (at least 3 characters)').waitFor();
    await dialog.getByLabel('Reason (for staff and the audit log)').fill('Buyer harassing the seller');
    await dialog.getByRole('button', { name: 'Cancel the offer' }).click();
    await openToast(page, 'Offer cancelled').waitFor();
    await page
      .locator(`[data-testid="staff-offer"][data-thread-id="${offerId}"][data-status="cancelled"]`)
      .waitFor();
    await thread.getByTestId('staff-offer-cancel-reason').getByText('Buyer harassing the seller').waitFor();
    expect(await thread.getByRole('button', { name: /Cancel offer/ }).count()).toBe(0);
    await expect.poll(async () => Number(await open.textContent())).toBe(openBefore - 1);
    await snapshot(page, 'admin-offers-phone');

    // The book is back on sale, and the buyer sees the offer cancelled.
    const listings = await query<{ items: { id: string }[] }>(seller.context, 'selling.listings.mine', {
      status: 'active',
      page: 1,
      pageSize: 48,
    });
    expect(listings.items.some((item) => item.id === book.id)).toBe(true);
    await buyer.page.goto('/account/offers?view=made');
    const made = buyer.page.locator(
      `[data-testid="offer-thread"][data-offer-id="${offerId}"][data-status="cancelled"]`,
    );
    await made.getByTestId('offer-status').getByText('Cancelled by Reshelf').waitFor();
    expect(await made.getByRole('link', { name: 'Pay now' }).count()).toBe(0);

    await Promise.all([context.close(), seller.context.close(), buyer.context.close()]);
  });
});
