/**
 * Notifications in Chromium, two people in browsers of their own: a new buyer makes
 * an offer on one of seller@reshelf.test's books; the seller, with a page open, sees the bell's
 * count go up within 2 seconds without a reload (the realtime stream, not polling); they open
 * /account/notifications, find the offer leading to their offers, and mark all read. Their
 * email settings show what is always emailed and what they may turn off. Screenshots at 390
 * and 1280 px land in tests/.artifacts/.
 */
import { formatPence, minimumOfferMinor } from '@reshelf/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createConfirmedAccount, signedIn, toast, uniqueEmail } from '../support/auth.ts';
import { newPage, snapshot, VIEWPORTS, withBrowser } from '../support/browser.ts';

let browser: Browser;
withBrowser((launched) => {
  browser = launched;
});

async function query<T>(context: BrowserContext, procedure: string, input?: unknown): Promise<T> {
  const search = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const response = await context.request.get(`/trpc/${procedure}${search}`);
  if (!response.ok()) throw new Error(`${procedure}: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

async function noHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}

/** What the bell shows: its count, or 0 when it shows none. */
async function bellCount(page: Page): Promise<number> {
  const badge = page.getByTestId('notification-count');
  return (await badge.count()) ? Number(await badge.innerText()) : 0;
}

describe('notifications', { timeout: 120_000 }, () => {
  it('the seller’s bell counts a new offer live, and the page marks all read', async () => {
    const seller = await signedIn(browser, 'seller@reshelf.test');
    // A new reader, so no earlier offer of theirs stands in the way.
    const buyer = await signedInNew(uniqueEmail('offer-buyer'));
    const mine = await query<{
      items: { slug: string | null; title: string | null; priceMinor: number | null }[];
    }>(seller.context, 'selling.listings.mine', { status: 'active', page: 1, pageSize: 48 });
    const book = mine.items.find((item) => item.slug && item.title && (item.priceMinor ?? 0) >= 800);
    if (!book) throw new Error('seller@reshelf.test has no book on sale at £8 or more');

    // The seller has a page open, its live stream connected, and the bell showing the count.
    const streaming = seller.page.waitForResponse((response) =>
      response.url().includes('/trpc/platform.realtime.events'),
    );
    await seller.page.goto('/account');
    await streaming;
    const { unread: before } = await query<{ unread: number }>(
      seller.context,
      'account.notifications.unreadCount',
    );
    await expect.poll(() => bellCount(seller.page)).toBe(Math.min(before, 99));
    await seller.page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });

    // The buyer offers.
    await buyer.page.goto(`/listing/${book.slug}`);
    await buyer.page.getByRole('button', { name: 'Make an offer' }).click();
    const dialog = buyer.page.getByRole('dialog', { name: 'Make an offer' });
    await dialog.waitFor();
    const offered = Math.ceil(minimumOfferMinor(book.priceMinor as number) / 100) * 100;
    await dialog.getByLabel('Your offer').fill((offered / 100).toFixed(2));
    const made = buyer.page.waitForResponse(
      (response) =>
        response.url().includes('/trpc/commerce.offers.member.make') &&
        response.request().method() === 'POST',
    );
    await dialog.getByRole('button', { name: 'Send offer' }).click();
    expect((await made).ok()).toBe(true);
    const committedAt = Date.now();

    // Within 2 seconds of the offer, without a reload, the seller's bell counts it.
    await seller.page
      .getByTestId('notification-count')
      .filter({ hasText: String(Math.min(before + 1, 99)) })
      .waitFor({ timeout: 2_000 });
    expect(Date.now() - committedAt).toBeLessThan(2_000);
    expect(
      await seller.page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded),
    ).toBe(true);
    await toast(buyer.page, 'Offer sent').waitFor();

    // The notifications page: the offer, leading to the seller's offers.
    await seller.page.getByTestId('notification-bell').click();
    await seller.page.waitForURL('**/account/notifications');
    const notice = seller.page
      .locator('[data-testid="notification"][data-kind="offer_received"]')
      .filter({ hasText: `New offer: ${formatPence(offered)} for ${book.title}` })
      .first();
    await notice.waitFor();
    expect(await notice.getAttribute('data-read')).toBe('false');
    expect(await notice.getByRole('link').first().getAttribute('href')).toBe('/account/offers?view=received');
    await noHorizontalScroll(seller.page);
    await snapshot(seller.page, 'notifications-desktop', { fullPage: false });
    await seller.page.setViewportSize(VIEWPORTS.phone);
    await noHorizontalScroll(seller.page);
    await snapshot(seller.page, 'notifications-phone', { fullPage: false });

    // Mark all as read: every one is read, and the bell shows no count.
    await seller.page.getByTestId('mark-all-read').click();
    await seller.page.getByTestId('notification-count').waitFor({ state: 'detached' });
    await seller.page.getByTestId('notifications-unread').filter({ hasText: 'All read' }).waitFor();
    await expect.poll(() => notice.getAttribute('data-read')).toBe('true');
    expect(await seller.page.locator('[data-testid="notification"][data-read="false"]').count()).toBe(0);
    expect(
      (await query<{ unread: number }>(seller.context, 'account.notifications.unreadCount')).unread,
    ).toBe(0);
    await snapshot(seller.page, 'notifications-read-phone', { fullPage: false });

    // The email settings: what is always emailed, and the switches for the rest.
    await seller.page.getByRole('link', { name: 'Email settings' }).click();
    await seller.page.waitForURL('**/account/settings#emails');
    const settings = seller.page.getByTestId('email-preferences');
    await settings.getByRole('switch', { name: 'A book on your wishlist drops in price' }).waitFor();
    const offers = await settings.getByTestId('email-always-offers').innerText();
    expect(offers).toContain('Always emailed');
    expect(offers).toContain('You receive an offer');
    await noHorizontalScroll(seller.page);
    await snapshot(seller.page, 'notifications-email-settings-phone');
    await seller.page.setViewportSize(VIEWPORTS.desktop);
    await seller.page.evaluate(() => window.scrollTo(0, 0));
    await snapshot(seller.page, 'notifications-email-settings-desktop');

    // The buyer, who has been told nothing yet, sees the empty page.
    await buyer.page.goto('/account/notifications');
    await buyer.page.getByTestId('notifications-empty').waitFor();
    await noHorizontalScroll(buyer.page);
    await snapshot(buyer.page, 'notifications-empty-phone');

    await seller.context.close();
    await buyer.context.close();
  });
});

/** A confirmed new account, signed in in a browser of its own (phone-sized). */
async function signedInNew(email: string): Promise<{ context: BrowserContext; page: Page }> {
  const password = 'a-long-enough-password-1';
  const anon = await newPage(browser, 'phone');
  await createConfirmedAccount(anon.context, email, password, 'Nora Offer');
  await anon.context.close();
  return signedIn(browser, email, { viewport: 'phone', password });
}
