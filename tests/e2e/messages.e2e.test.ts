/**
 * Messages in Chromium, two people each in a browser of their own: a new buyer asks
 * seller@reshelf.test about one of their books with "Message the seller"; the seller, with the
 * conversation open, sees the question within 2 s without reloading; the seller replies with a
 * photo, and the buyer's open conversation shows it within 2 s; the buyer's message shows as
 * read; an offer the buyer made in between is a system line in the conversation; the inbox
 * lists the conversation and finds it by the book's title; the seller's bell and header count
 * a new message live, with the header's messages link and its count at every width. Screenshots at 1280 and 390 px land
 * in tests/.artifacts/.
 */
import {
  CLIENT_HEADER,
  minimumOfferMinor,
  REPORT_REASON_LABELS,
  REPORT_REASONS_FOR,
} from '@reshelf/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createConfirmedAccount, signedIn, toast, uniqueEmail } from '../support/auth.ts';
import { newPage, snapshot, withBrowser } from '../support/browser.ts';
import { makePng } from '../support/png.ts';

let browser: Browser;
withBrowser((started) => {
  browser = started;
});

const WEB = { [CLIENT_HEADER]: 'web' };
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
/** The promise: the other side's open conversation updates within 2 s. */
const LIVE_MS = 2_000;

async function query<T>(context: BrowserContext, procedure: string, input?: unknown): Promise<T> {
  const search = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const response = await context.request.get(`/trpc/${procedure}${search}`);
  if (!response.ok()) throw new Error(`${procedure}: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

async function mutate<T>(context: BrowserContext, procedure: string, input: unknown): Promise<T> {
  const response = await context.request.post(`/trpc/${procedure}`, { headers: WEB, data: input });
  if (!response.ok()) throw new Error(`${procedure}: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

/** Until the header's live stream of conversations is connected. */
async function live(page: Page) {
  await page.locator('[data-testid="messages-link"][data-live="pending"]').waitFor();
}

/** What the notification bell shows: its count, or 0 when it shows none. */
async function bellCount(page: Page): Promise<number> {
  const badge = page.getByTestId('notification-count');
  return (await badge.count()) ? Number(await badge.innerText()) : 0;
}

async function noSideways(page: Page) {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(1);
}

async function shots(page: Page, name: string, ready: () => Promise<unknown>) {
  await ready();
  await noSideways(page);
  await snapshot(page, `messages-${name}-desktop`);
  await page.setViewportSize(PHONE);
  await ready();
  await noSideways(page);
  await snapshot(page, `messages-${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

describe('messages', () => {
  it('a buyer asks from a listing; each side’s open conversation updates live', async () => {
    const seller = await signedIn(browser, 'seller@reshelf.test');
    const mine = await query<{ items: { slug: string | null; title: string | null; status: string }[] }>(
      seller.context,
      'selling.listings.mine',
      { status: 'active', pageSize: 5 },
    );
    const listing = mine.items.find((item) => item.slug);
    if (!listing?.slug || !listing.title) throw new Error('the demo seller has no active listing');

    const email = uniqueEmail('messages-buyer');
    const password = 'messages-e2e-password-1';
    const setup = await newPage(browser);
    await createConfirmedAccount(setup.context, email, password, 'Mina Buyer');
    await setup.context.close();
    const buyer = await signedIn(browser, email, { password });

    // The buyer asks from the listing page.
    await buyer.page.goto(`/listing/${listing.slug}`);
    await buyer.page.getByTestId('message-seller').click();
    await buyer.page.waitForURL(/\/messages\/[0-9a-f-]{36}$/);
    const threadPath = new URL(buyer.page.url()).pathname;
    await buyer.page.getByTestId('thread-empty').waitFor();
    expect(await buyer.page.getByTestId('thread-listing').textContent()).toContain('For sale');

    // The seller has the conversation open before anything is said.
    await seller.page.goto(threadPath);
    await seller.page.getByTestId('thread').waitFor();
    await live(seller.page);
    await live(buyer.page);

    const question = 'Hello! Is the spine uncracked, and is it a first edition?';
    await buyer.page.getByTestId('message-input').fill(question);
    await buyer.page.getByTestId('message-send').click();
    await buyer.page.getByTestId('message-text').filter({ hasText: question }).waitFor();
    await seller.page.getByTestId('message-text').filter({ hasText: question }).waitFor({ timeout: LIVE_MS });

    // The seller had it open: the buyer sees it read, live.
    await buyer.page.getByTestId('read-receipt').waitFor({ timeout: LIVE_MS });

    // The buyer makes an offer meanwhile; it joins the conversation as a system line.
    const detail = await query<{ id: string; price: { itemMinor: number } }>(
      buyer.context,
      'catalogue.listings.bySlug',
      {
        slug: listing.slug,
      },
    );
    await mutate(buyer.context, 'commerce.offers.member.make', {
      listingId: detail.id,
      amountMinor: Math.max(
        minimumOfferMinor(detail.price.itemMinor),
        Math.round(detail.price.itemMinor * 0.9),
      ),
    });

    // The seller replies with a photo.
    const reply = 'Yes, uncracked. Here is the copyright page.';
    await seller.page.getByTestId('message-photo-input').setInputFiles({
      name: 'copyright-page.png',
      mimeType: 'image/png',
      buffer: makePng(320, 240, [200, 180, 140]),
    });
    await seller.page.locator('[data-testid="pending-photo"][data-uploaded="true"]').waitFor();
    await seller.page.getByTestId('message-input').fill(reply);
    await seller.page.getByTestId('message-send').click();
    await seller.page.getByTestId('message-text').filter({ hasText: reply }).waitFor();

    const theirReply = buyer.page.getByTestId('message').filter({ hasText: reply });
    await theirReply.waitFor({ timeout: LIVE_MS });
    await theirReply.getByTestId('message-photo').waitFor({ timeout: LIVE_MS });
    expect(await theirReply.getAttribute('data-from')).toBe('them');
    await buyer.page
      .getByTestId('system-line')
      .filter({ hasText: /offered/ })
      .waitFor();
    await seller.page
      .getByTestId('system-line')
      .filter({ hasText: /offered/ })
      .waitFor();

    await shots(buyer.page, 'thread', () => theirReply.getByTestId('message-photo').waitFor());

    // The inbox: newest first, found by the book's title, not by something else.
    await buyer.page.goto('/messages');
    const row = buyer.page.getByTestId('thread-row').first();
    await row.waitFor();
    expect(await row.textContent()).toContain(listing.title);
    await buyer.page.getByTestId('messages-search').fill(listing.title.slice(0, 6));
    await expect.poll(() => new URL(buyer.page.url()).searchParams.get('q')).toBe(listing.title.slice(0, 6));
    await buyer.page.getByTestId('thread-row').first().waitFor();
    await buyer.page.getByTestId('messages-search').fill('zzzz-no-such-book');
    await buyer.page.getByTestId('messages-empty').waitFor();
    await buyer.page.getByTestId('messages-search').fill('');
    await shots(buyer.page, 'inbox', () => buyer.page.getByTestId('thread-row').first().waitFor());

    // The seller's header counts what they have not read, in the tab title too.
    // The bell too: from nothing unread, it counts the new message live.
    await mutate(seller.context, 'account.notifications.markRead', { ids: 'all' });
    await seller.page.goto('/messages');
    await live(seller.page);
    await expect.poll(() => bellCount(seller.page)).toBe(0);
    await buyer.page.goto(threadPath);
    await buyer.page
      .getByTestId('message-input')
      .fill('Lovely! Could I pay you by bank transfer to save the fee?');
    await buyer.page.getByTestId('message-send').click();
    await seller.page.getByTestId('messages-count').filter({ hasText: '1' }).waitFor({ timeout: LIVE_MS });
    await seller.page
      .getByTestId('notification-count')
      .filter({ hasText: /^1$/ })
      .waitFor({ timeout: LIVE_MS });
    await expect.poll(() => seller.page.title()).toMatch(/^\(1\) /);
    await shots(seller.page, 'seller-inbox', () => seller.page.getByTestId('thread-row').first().waitFor());
    // At every width the header has the messages link with its count, on the screen, the page
    // not scrolling sideways (down to a 320 px phone).
    for (const width of [PHONE.width, 320]) {
      await seller.page.setViewportSize({ ...PHONE, width });
      const link = seller.page.getByRole('banner').getByTestId('messages-link');
      await link.waitFor({ state: 'visible' });
      expect(await link.getAttribute('aria-label')).toBe('Messages: 1 unread');
      expect(await link.getByTestId('messages-count').innerText()).toBe('1');
      const box = await link.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= width).toBe(true);
      await noSideways(seller.page);
    }
    await snapshot(seller.page, 'messages-header-phone', { fullPage: false });
    await seller.page.setViewportSize(DESKTOP);

    // That message suggests paying outside Reshelf: both see the warning in the conversation.
    await seller.page.getByTestId('thread-row').first().click();
    await seller.page.getByTestId('off-platform-warning').waitFor();
    await buyer.page.getByTestId('off-platform-warning').waitFor({ timeout: LIVE_MS });
    await expect.poll(() => seller.page.title()).not.toMatch(/^\(\d+\) /);
    await shots(seller.page, 'warning', () => seller.page.getByTestId('off-platform-warning').waitFor());

    // The seller reports that message to the team…
    await seller.page
      .getByTestId('message')
      .filter({ hasText: 'bank transfer' })
      .getByTestId('report-message')
      .click();
    const dialog = seller.page.getByRole('dialog', { name: 'Report this message' });
    // A message's reasons, not a listing's.
    const offered = await dialog
      .getByRole('radio')
      .evaluateAll((radios) => radios.map((radio) => radio.closest('label')?.textContent?.trim()));
    expect(offered).toEqual(REPORT_REASONS_FOR.message.map((reason) => REPORT_REASON_LABELS[reason]));
    expect(offered).not.toContain(REPORT_REASON_LABELS.prohibited);
    await dialog.getByLabel(REPORT_REASON_LABELS.off_platform_payment).check();
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await toast(seller.page, 'Thanks — we’ll review this report').waitFor();
    // Reported: the message says so instead of offering "Report" again.
    const reportedMessage = seller.page.getByTestId('message').filter({ hasText: 'bank transfer' });
    await reportedMessage.getByTestId('message-reported').waitFor();
    expect(await reportedMessage.getByTestId('report-message').count()).toBe(0);

    // …and blocks the buyer: the buyer's open conversation turns read-only, live.
    await seller.page.getByTestId('block').click();
    await seller.page.getByRole('dialog').getByRole('button', { name: 'Block', exact: true }).click();
    await seller.page.getByTestId('unblock').waitFor();
    await seller.page.getByTestId('thread-read-only').waitFor();
    await buyer.page.getByTestId('thread-read-only').waitFor({ timeout: LIVE_MS });
    expect(await buyer.page.getByTestId('composer').count()).toBe(0);
    await shots(buyer.page, 'blocked', () => buyer.page.getByTestId('thread-read-only').waitFor());

    await buyer.context.close();
    await seller.context.close();
  });
});
