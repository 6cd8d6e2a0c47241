/**
 * Buying as a newcomer, and coming back to a payment, in Chromium:
 *
 * - "Buy now" signed out → create an account → confirm with the link in the dev mailbox →
 *   profile → onboarding → the checkout for that very book (`next` survives all of it);
 * - the payment page left with "Cancel and return to Reshelf": /checkout/cancel, the listing and
 *   /account/orders each offer "Finish paying" to this buyer while someone else still sees the
 *   book reserved; finishing goes back to the same payment, which pays the same order;
 * - the success page says the order is paid and what happens next, not that the book is on
 *   its way; /checkout/cancel without an order says nothing about a book.
 *
 * Signing up and buying change what others see, so this file runs on a marketplace of its own.
 * Screenshots at 390 and 1280 px land in tests/.artifacts/.
 */
import { ORDER_BUTTON_WORDS } from '@reshelf/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SIGN_IN_TO_CONTINUE } from '../../web/src/account/auth/sign-in-words.ts';
import { signedIn, uniqueEmail } from '../support/auth.ts';
import { snapshot, VIEWPORTS } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

async function noHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}

/** The page at 1280 and at 390 px, each without sideways scrolling, then back to 1280. */
async function shots(page: Page, name: string, ready: () => Promise<unknown>): Promise<void> {
  await ready();
  await noHorizontalScroll(page);
  await snapshot(page, `checkout-resume-${name}-desktop`);
  await page.setViewportSize(VIEWPORTS.phone);
  await ready();
  await noHorizontalScroll(page);
  await snapshot(page, `checkout-resume-${name}-phone`);
  await page.setViewportSize(VIEWPORTS.desktop);
}

async function newcomer(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: marketplace.baseURL, viewport: VIEWPORTS.desktop });
  await context.addInitScript(() => {
    localStorage.setItem('cookie-consent', 'declined');
    localStorage.setItem('has-visited', 'true');
  });
  return { context, page: await context.newPage() };
}

describe('buying as a newcomer, leaving the payment page and coming back', () => {
  it('keeps the checkout through sign-up, and lets only the buyer finish paying the same order', async () => {
    const { context, page } = await newcomer();
    const email = uniqueEmail('new-buyer');

    // Buy now, signed out: the sign-in page, keeping where they were going.
    // Copy by copy, cheapest first (/listings answers by book, decision 0079).
    await page.goto('/recently-added?sort=price_asc');
    await page.getByTestId('listing-card').first().click();
    await page.waitForURL(/\/listing\//);
    const slug = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    const listingPage = page.getByTestId('listing-page');
    await listingPage.waitFor();
    const title = (await listingPage.getByRole('heading', { level: 1 }).textContent())!.trim();
    await page.getByRole('link', { name: 'Buy now' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    const checkoutPath = `/checkout?listing=${encodeURIComponent(slug)}`;
    expect(new URL(page.url()).searchParams.get('next')).toBe(checkoutPath);
    // A first-time visitor is not greeted as one coming back, and is offered an account.
    await page.getByRole('heading', { name: 'Sign in', exact: true, level: 1 }).waitFor();
    expect(await page.getByText('Welcome back').count()).toBe(0);
    await page.getByText(SIGN_IN_TO_CONTINUE).waitFor();

    // Create an account instead of signing in.
    await page.getByRole('link', { name: 'Create an account' }).first().click();
    await page.waitForURL((url) => url.searchParams.get('mode') === 'signup');
    expect(new URL(page.url()).searchParams.get('next')).toBe(checkoutPath);
    const form = page.getByRole('form', { name: 'Create an account' });
    await form.getByLabel('Display name').fill('Nell Newcomer');
    await form.getByLabel('Email address').fill(email);
    await form.getByLabel('Password', { exact: true }).fill('a-long-and-unusual-passphrase');
    await form.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((url) => url.pathname === '/email-confirmation');
    expect(new URL(page.url()).searchParams.get('next')).toBe(checkoutPath);

    // The link in the email, read in the dev mailbox, carries the checkout on.
    await page.getByTestId('dev-mailbox-hint').getByRole('link', { name: 'dev mailbox' }).click();
    await page.waitForURL((url) => url.pathname === '/dev/mailbox');
    await page.getByTestId('mailbox-item').filter({ hasText: 'Confirm your email address' }).click();
    const link = page.getByTestId('mailbox-message').getByRole('link', { name: /\/auth\/confirm\?token=/ });
    // The link as emailed (the mailbox shows it in full, and opens it in this tab).
    const href = new URL((await link.textContent())!.trim());
    expect(href.origin).toBe(marketplace.baseURL);
    expect(href.searchParams.get('next')).toBe(checkoutPath);
    await link.click();

    await page.waitForURL((url) => url.pathname === '/complete-signup');
    await page.getByTestId('confirmed-notice').waitFor();
    await page
      .getByRole('form', { name: 'Your profile' })
      .getByRole('button', { name: 'Save and continue' })
      .click();
    await page.waitForURL((url) => url.pathname === '/onboarding');
    await page.getByTestId('genre-options').waitFor();
    await page.getByRole('button', { name: 'Skip for now' }).click();

    // Onboarding over: the checkout that was started, for that book.
    await page.waitForURL((url) => `${url.pathname}${url.search}` === checkoutPath);
    await page.getByTestId('price-lines').waitFor();
    expect(await page.locator('main').textContent()).toContain(title);
    await snapshot(page, 'checkout-resume-after-signup-desktop');

    await page.getByLabel('Full name').fill('Ava Reader');
    await page.getByLabel('Address line 1').fill('12 Turl Street');
    await page.getByLabel('Town or city').fill('Oxford');
    await page.getByLabel('Postcode').fill('OX1 3DP');
    await page.getByRole('button', { name: 'Continue to confirm' }).click();
    await page.waitForURL(/\/checkout\/confirm\?/);
    const total = (await page.getByTestId('total').textContent())!.trim();
    await page.getByRole('button', { name: `${ORDER_BUTTON_WORDS} ${total}` }).click();
    await page.waitForURL(/\/payments\/test\/tp_/);
    const paymentPage = page.url();

    // Leaving the payment page: nothing taken, the book still held for them.
    await page.getByRole('button', { name: 'Cancel and return to Reshelf' }).click();
    await page.waitForURL(/\/checkout\/cancel\?order=/);
    const orderId = new URL(page.url()).searchParams.get('order')!;
    const held = page.getByTestId('held-for-you');
    await held.getByRole('button', { name: 'Finish paying' }).waitFor();
    expect(await held.getByRole('heading').textContent()).toMatch(/^Reserved for you until \d{2}:\d{2}$/);
    expect(await page.getByTestId('cancel-message').textContent()).toContain('We’re still holding');
    expect(await page.getByTestId('cancel-message').textContent()).not.toContain('back on sale');
    await shots(page, 'cancel', () => held.waitFor());

    // On the listing: theirs to finish paying for; to anyone else, reserved.
    await page.goto(`/listing/${slug}`);
    await page.getByTestId('held-for-you').getByRole('button', { name: 'Finish paying' }).waitFor();
    expect(await page.getByTestId('held-order').textContent()).toMatch(new RegExp(`${total} to pay$`));
    expect(await page.getByTestId('listing-unavailable').count()).toBe(0);
    await shots(page, 'listing-held', () => page.getByTestId('held-for-you').waitFor());
    const other = await signedIn(browser, 'buyer@reshelf.test', { baseURL: marketplace.baseURL });
    await other.page.goto(`/listing/${slug}`);
    await other.page.getByTestId('listing-unavailable').getByText('This copy is reserved').waitFor();
    expect(await other.page.getByTestId('held-for-you').count()).toBe(0);
    await snapshot(other.page, 'checkout-resume-listing-reserved-for-others-desktop');
    await other.context.close();

    // In their orders, and from there back to the very same payment page.
    await page.goto('/account/orders');
    const row = page.locator(`[data-testid="order-row"][data-status="pending_payment"]`);
    await row.getByRole('button', { name: 'Finish paying' }).waitFor();
    expect(await row.getByTestId('order-next-step').textContent()).toMatch(
      /^Reserved for you until \d{2}:\d{2}: finish paying$/,
    );
    await shots(page, 'orders', () => row.waitFor());
    await row.getByRole('button', { name: 'Finish paying' }).click();
    await page.waitForURL(/\/payments\/test\/tp_/);
    expect(page.url()).toBe(paymentPage);
    await expect(page.getByTestId('amount').textContent()).resolves.toBe(total);
    await page.getByRole('button', { name: 'Pay now' }).click();

    // Paid, not sent: what happens next.
    await page.waitForURL(`**/checkout/success?order=${orderId}`);
    await page.getByRole('heading', { name: 'Thank you: your order is paid', level: 1 }).waitFor();
    const status = (await page.getByTestId('order-status').textContent())!;
    expect(status).toBe('Paid. The seller has 5 working days to send it, and we’ll email you at each step.');
    expect(await page.locator('main').textContent()).not.toMatch(/on its way:/i);
    expect(await page.getByTestId('what-next').textContent()).toMatch(
      /The seller posts it within 5 working days — by \w{3} \d{1,2} \w{3} \d{4}\./,
    );
    await shots(page, 'success', () => page.getByTestId('what-next').waitFor());

    // The emailed order confirmation links to this marketplace, not to an internal address.
    const mail = await context.request.get(
      `/trpc/platform.dev.mailbox?input=${encodeURIComponent(JSON.stringify({ to: email }))}`,
    );
    const messages = ((await mail.json()) as { result: { data: { subject: string; text: string }[] } }).result
      .data;
    const confirmed = messages.find((message) => message.subject.startsWith('Order confirmed'));
    expect(confirmed?.text).toContain(`${marketplace.baseURL}/account/orders/${orderId}`);
    await context.close();
  });

  it('says nothing about a book on /checkout/cancel without an order', async () => {
    const { context, page } = await newcomer();
    await page.goto('/checkout/cancel');
    const message = page.getByTestId('cancel-message');
    await message.waitFor();
    expect((await message.textContent())!.trim()).toBe(
      'Nothing was taken from your account. Your payment didn’t go through.',
    );
    expect(await page.getByRole('link', { name: 'Try again' }).count()).toBe(0);
    await shots(page, 'cancel-without-order', () => message.waitFor());
    await context.close();
  });
});
