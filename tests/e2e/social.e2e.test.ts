/**
 * The reader's side in Chromium, on a marketplace of this file's own (so the test
 * can run the saved-search job when it chooses; the e2e server runs no job runner): a new
 * member follows seller@reshelf.test from their page and saves an advanced search (signed
 * copies by McCarthy); the seller lists a signed copy of The Road through the selling wizard;
 * it appears at the top of the member's feed, and, once the job has run, as a notification and
 * an email for the saved search. Screenshots at 390 and 1280 px land in tests/.artifacts/.
 */

import { SAVED_SEARCH_ALERT_LABELS } from '@reshelf/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createConfirmedAccount, signedIn, uniqueEmail } from '../support/auth.ts';
import { snapshot, VIEWPORTS } from '../support/browser.ts';
import { makePng } from '../support/png.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => {
  ({ browser, marketplace } = started);
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

async function step(page: Page, name: string): Promise<void> {
  await page.waitForURL(new RegExp(`step=${name}`));
  await page.locator(`[data-testid="sell-wizard"][data-step="${name}"]`).waitFor();
}

/** The seller lists a signed hardback of The Road through the wizard; answers its address. */
async function listSignedCopy(page: Page): Promise<string> {
  await page.goto('/sell/new');
  const isbn = page.getByTestId('isbn-input');
  await isbn.waitFor();
  await isbn.fill('978-0-330-46846-6');
  await page.keyboard.press('Enter');
  await step(page, 'details');
  await page.getByTestId('step-submit').click();
  await step(page, 'condition');
  await page.getByText('Very good', { exact: true }).click();
  await page.getByLabel('Format').selectOption('hardback');
  await page.getByText('Signed', { exact: true }).click();
  await page.getByTestId('step-submit').click();
  await step(page, 'photos');
  await page
    .getByTestId('photo-input')
    .setInputFiles({ name: 'front-cover.png', mimeType: 'image/png', buffer: makePng(600, 800) });
  await page.getByTestId('photo-list').getByRole('img', { name: 'Your copy, main view' }).waitFor();
  await page.getByTestId('step-submit').click();
  await step(page, 'price');
  await page.getByTestId('price-input').fill('24.00');
  await page.getByTestId('step-submit').click();
  await step(page, 'parcel');
  await page.getByText('Small parcel', { exact: true }).click();
  await page.getByTestId('step-submit').click();
  await step(page, 'review');
  await page.getByTestId('publish').click();
  await page.waitForURL(/\/sell\/confirm\?listing=/);
  const link = page.getByTestId('share-link');
  await link.waitFor();
  return link.inputValue();
}

describe('follows, the feed and saved searches', { timeout: 180_000 }, () => {
  it('a member follows a seller and saves a search; the seller lists a book; it is in the feed and a notification', async () => {
    const email = uniqueEmail('social-reader');
    const password = 'a-long-enough-password-1';
    const signup = await browser.newContext({ baseURL: marketplace.baseURL });
    await createConfirmedAccount(signup, email, password, 'Fern Follower');
    await signup.close();
    const reader = await signedIn(browser, email, {
      baseURL: marketplace.baseURL,
      viewport: 'phone',
      password,
    });
    const seller = await signedIn(browser, 'seller@reshelf.test', { baseURL: marketplace.baseURL });
    const errors: string[] = [];
    reader.page.on('pageerror', (error) => errors.push(String(error)));
    // No request of the member's is shed (a page of follow buttons once asked for all their
    // statuses at once, more than the database pool would queue).
    const shed: string[] = [];
    reader.page.on('response', (response) => {
      if (response.status() === 503) shed.push(response.url());
    });
    const { user } = await query<{ user: { id: string } }>(seller.context, 'account.auth.me');

    // An empty feed suggests whom to follow.
    await reader.page.goto('/social');
    await reader.page.getByTestId('follow-suggestions').waitFor();
    await noHorizontalScroll(reader.page);
    await snapshot(reader.page, 'social-1-empty-feed-phone');

    // Follow the seller from their page.
    await reader.page.goto(`/seller/${user.id}`);
    const follow = reader.page.getByTestId('follow-button');
    // Once the session is known the button says how many follow the seller; then it follows.
    const count = reader.page.getByTestId('follower-count');
    await count.waitFor();
    // The demo reader (buyer@reshelf.test) follows this seller already.
    const before = Number.parseInt(await count.innerText(), 10);
    await follow.click();
    await reader.page.locator('[data-testid="follow-button"][aria-pressed="true"]').waitFor();
    await expect.poll(() => count.innerText()).toBe(`${before + 1} followers`);
    expect(await follow.innerText()).toContain('Following');
    await snapshot(reader.page, 'social-2-following-seller-phone');

    // An advanced search, saved: signed copies by McCarthy.
    await reader.page.goto('/search/advanced');
    const form = reader.page.getByRole('form', { name: 'Advanced search' });
    await form.getByLabel('Author').fill('McCarthy');
    await form.getByText('Signed copies only').click();
    await noHorizontalScroll(reader.page);
    await snapshot(reader.page, 'social-3-advanced-search-phone');
    await form.getByRole('button', { name: 'Search', exact: true }).click();
    await reader.page.waitForURL(/\/search\?author=McCarthy&signed=1$/);
    await reader.page.getByTestId('save-search').click();
    await reader.page.getByTestId('search-saved').waitFor();
    const [saved] = await query<{ name: string; alerts: string }[]>(
      reader.context,
      'community.social.savedSearches.list',
    );
    expect(saved).toMatchObject({ name: 'by McCarthy · signed', alerts: 'instant' });

    // The seller lists a signed copy of The Road.
    const address = await listSignedCopy(seller.page);
    const slug = address.split('/listing/')[1]!;

    // It is at the top of the member's feed, from the seller they follow.
    await reader.page.goto('/social');
    const first = reader.page.getByTestId('feed-item').first();
    await first.waitFor();
    expect(await first.getAttribute('data-kind')).toBe('new_listing');
    expect(await first.innerText()).toContain('The Road');
    expect(await first.innerText()).toContain("New from Sam's Shelf");
    await noHorizontalScroll(reader.page);
    await snapshot(reader.page, 'social-4-feed-phone');

    // The job matches it against the saved search: a notification, and an email at once.
    // Three: this member's match; the demo reader's saved search (signed hardbacks under £30)
    // matches the same copy, and that reader's first daily digest goes out with it.
    expect(await marketplace.runJob('saved_searches.alerts')).toBe(3);
    await reader.page.goto('/account/notifications');
    const notice = reader.page.getByText('New for “by McCarthy · signed”: The Road');
    await notice.waitFor();
    await snapshot(reader.page, 'social-5-notification-phone');
    const mail = await query<{ template: string; subject: string; text: string }[]>(
      reader.context,
      'platform.dev.mailbox',
      {
        to: email,
      },
    );
    const alert = mail.find((message) => message.template === 'saved-search.alert');
    expect(alert?.subject).toBe('New for your saved search “by McCarthy · signed”');
    expect(alert?.text).toContain(`/search?author=McCarthy&signed=1&sort=newest`);
    expect(alert?.text).toMatch(/unsubscribe/i);
    // Counted in words that agree with the count: no "book(s)".
    expect(alert?.text).toContain('New on Reshelf for your saved search “by McCarthy · signed”: 1 new book.');
    // The notification leads to the book.
    await notice.click();
    await reader.page.waitForURL(new RegExp(`/listing/${slug}$`));

    // The same pages at desktop width.
    await reader.page.setViewportSize(VIEWPORTS.desktop);
    await reader.page.goto('/social');
    await reader.page.getByTestId('feed-item').first().waitFor();
    await snapshot(reader.page, 'social-4-feed-desktop');
    await reader.page.goto('/account/saved-searches');
    await reader.page.getByTestId('saved-search').first().waitFor();
    await snapshot(reader.page, 'social-6-saved-searches-desktop');
    // One new book, in the singular; each alert setting explained once, not "No alerts: no alerts".
    expect(await reader.page.getByTestId('saved-search').first().innerText()).toContain(
      '1 new book in the last 7 days',
    );
    const help = await reader.page.getByTestId('saved-search-alerts-help').innerText();
    for (const label of Object.values(SAVED_SEARCH_ALERT_LABELS)) {
      expect(help).toContain(`${label}: `);
      expect(help.toLowerCase()).not.toContain(`${label}: ${label}`.toLowerCase());
    }
    await reader.page.goto('/listings?following=1');
    await reader.page.getByTestId('results').getByTestId('listing-card').first().waitFor();
    await snapshot(reader.page, 'social-7-following-filter-desktop');
    expect(errors).toEqual([]);
    expect(shed).toEqual([]);
    await reader.context.close();
    await seller.context.close();
  });
});
