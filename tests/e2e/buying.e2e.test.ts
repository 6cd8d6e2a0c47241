/**
 * Buying in Chromium, with the demo accounts, each in a browser of their own:
 *
 * - the offer path: buyer@reshelf.test finds one of seller@reshelf.test's books and offers
 *   under the asking price; the seller counters; the buyer accepts, pays at /checkout/offer
 *   with WELCOME20 applied (their first order) and a saved address; the seller dispatches with
 *   a carrier and tracking; the buyer taps "Everything is OK"; the seller's payouts show the
 *   payout released; the dev mailbox has every step's email;
 * - the dispute path: the buyer buys, the seller dispatches, the buyer reports a problem; the
 *   staff dashboard's Open Disputes goes up by one, an admin refunds it at /admin/disputes, the
 *   buyer's order shows Refunded and Buyer Protection revenue drops by the order's fee;
 * - a parcel that never came: after the carrier's window (moved on in the database), the buyer
 *   reports it missing with a photo (the dispute report) and staff release the payment
 *   from /admin/shipping-disputes.
 *
 * The dashboard's figures cover the whole marketplace and WELCOME20 needs a buyer with no
 * orders yet, so this file runs against a marketplace of its own (tests/support/server.ts):
 * there buyer@reshelf.test has never bought anything. Screenshots at 375 and 1280 px land in
 * tests/.artifacts/.
 */
import {
  buyerProtectionFee,
  CLIENT_HEADER,
  COMMERCIAL_DEFAULTS,
  formatPence,
  minimumOfferMinor,
  parsePounds,
} from '@reshelf/contracts';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fillSignIn, signedIn, toast } from '../support/auth.ts';
import { snapshot, VIEWPORTS } from '../support/browser.ts';
import { fillAddress, payOnConfirmPage } from '../support/checkout.ts';
import { makePng } from '../support/png.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

const PHONE = { width: 375, height: 812 };
const WEB = { [CLIENT_HEADER]: 'web' };

interface Person {
  context: BrowserContext;
  page: Page;
}

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

async function mailSubjects(context: BrowserContext, to: string): Promise<string[]> {
  const messages = await query<{ subject: string }[]>(context, 'platform.dev.mailbox', { to });
  return messages.map((message) => message.subject);
}

async function noHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}

/** The page at 1280 and at 375 px, each without sideways scrolling. */
async function shots(page: Page, name: string, ready: () => Promise<unknown>): Promise<void> {
  await ready();
  await noHorizontalScroll(page);
  await snapshot(page, `buying-${name}-desktop`);
  await page.setViewportSize(PHONE);
  await ready();
  await noHorizontalScroll(page);
  await snapshot(page, `buying-${name}-phone`);
  await page.setViewportSize(VIEWPORTS.desktop);
}

const pence = (text: string | null) => {
  const value = parsePounds((text ?? '').trim().replace('−', ''));
  if (value === null) throw new Error(`not an amount: ${text}`);
  return value;
};

/** Rounds an amount in pence up to a whole pound, so offers read naturally. */
const wholePounds = (minor: number) => Math.ceil(minor / 100) * 100;

interface SellerListing {
  id: string;
  slug: string | null;
  title: string | null;
  priceMinor: number | null;
}

/** The seller's books on sale (at least three), dearest first, with distinct titles. */
async function sellerBooks(seller: Person): Promise<SellerListing[]> {
  const mine = await query<{ items: SellerListing[] }>(seller.context, 'selling.listings.mine', {
    status: 'active',
    page: 1,
    pageSize: 48,
  });
  const books = mine.items
    .filter((item) => item.slug && item.title && (item.priceMinor ?? 0) >= 600)
    .sort((a, b) => (b.priceMinor ?? 0) - (a.priceMinor ?? 0))
    .filter((item, index, all) => all.findIndex((other) => other.title === item.title) === index);
  expect(books.length).toBeGreaterThanOrEqual(3);
  return books;
}

let books: SellerListing[] = [];

const ADDRESS = { fullName: 'Ava Reader', line1: '12 Turl Street', town: 'Oxford', postcode: 'OX1 3DP' };

/** The seller dispatches an order from its page in /account/sales. */
async function dispatch(seller: Person, orderId: string, title: string) {
  const { page } = seller;
  await page.goto('/account/sales');
  await page.getByTestId('order-row').filter({ hasText: title }).first().click();
  await page.waitForURL(`**/account/sales/${orderId}`);
  const panel = page.getByTestId('seller-actions');
  await panel.waitFor();
  // Nothing sent without a carrier and a proper tracking reference.
  await panel.getByLabel('Tracking reference').fill('123');
  await panel.getByRole('button', { name: 'Mark as dispatched' }).click();
  await panel.getByText('Choose the carrier you sent it with').waitFor();
  await panel
    .getByText('Enter the tracking reference from your proof of postage (at least 6 characters)')
    .waitFor();
  await panel.getByLabel('Carrier').selectOption({ label: 'Royal Mail Tracked 24' });
  await panel.getByLabel('Tracking reference').fill('rm 1234 5678 gb');
  await panel.getByRole('button', { name: 'Mark as dispatched' }).click();
  await toast(page, 'Dispatched').waitFor();
  await expect(page.getByTestId('tracking-ref').textContent()).resolves.toBe('RM12345678GB');
  await page.locator('[data-testid="order-detail"][data-status="dispatched"]').waitFor();
  expect(await page.getByTestId('seller-actions').count()).toBe(0);
}

// Each test is a whole journey of two or three people: more than the project's minute on a busy machine.
describe('buying', { timeout: 180_000 }, () => {
  it('offer, counter, accept, pay with WELCOME20, dispatch, "Everything is OK", payout released', async () => {
    const seller = await signedIn(browser, 'seller@reshelf.test', { baseURL: marketplace.baseURL });
    const buyer = await signedIn(browser, 'buyer@reshelf.test', { baseURL: marketplace.baseURL });
    books = await sellerBooks(seller);
    const book = books[0]!;
    const title = book.title!;
    const asking = book.priceMinor!;

    // The buyer finds the book by searching for it.
    // By book (decision 0079): the result is the copy itself, or its edition, whose book page
    // lists the copies; the buyer then opens this seller's copy.
    await buyer.page.goto(`/search?q=${encodeURIComponent(title)}`);
    const found = buyer.page.getByTestId('book-result').filter({
      has: buyer.page.getByRole('heading', { name: title, exact: true }),
    });
    await found.first().waitFor();
    const href = (await found.first().getByRole('link').getAttribute('href')) ?? '';
    expect(href === `/listing/${book.slug}` || href.startsWith('/book/')).toBe(true);
    await buyer.page.goto(`/listing/${book.slug}`);
    await buyer.page.getByRole('button', { name: 'Make an offer' }).click();
    const dialog = buyer.page.getByRole('dialog', { name: 'Make an offer' });
    await dialog.waitFor();
    const least = minimumOfferMinor(asking);
    expect(await dialog.textContent()).toContain(`Offer at least ${formatPence(least)}`);
    // Under half the asking price: refused at once, with the reason.
    await dialog.getByLabel('Your offer').fill(((least - 1) / 100).toFixed(2));
    await dialog.getByRole('button', { name: 'Send offer' }).click();
    await dialog.getByText(`Offer at least ${formatPence(least)}: half the asking price`).waitFor();
    await snapshot(buyer.page, 'buying-make-offer-desktop', { fullPage: false });
    const offered = Math.max(least, wholePounds(Math.ceil(asking * 0.6)));
    expect(offered).toBeLessThan(asking - 100);
    await dialog.getByLabel('Your offer').fill((offered / 100).toFixed(2));
    await dialog.getByLabel('Message').fill('Would you take this? I can pay straight away.');
    await dialog.getByRole('button', { name: 'Send offer' }).click();
    await dialog.waitFor({ state: 'detached' });
    await toast(buyer.page, 'Offer sent').waitFor();
    await buyer.page
      .getByTestId('offer-state')
      .getByText(`Your offer of ${formatPence(offered)} is waiting for the seller`)
      .waitFor();

    // The seller counters from their offers.
    await seller.page.goto('/account/offers?view=received');
    const received = seller.page.getByTestId('offer-thread').filter({ hasText: title });
    await received
      .getByTestId('offer-summary')
      .getByText(`Ava Reader offers ${formatPence(offered)}`)
      .waitFor();
    await received.getByText('“Would you take this? I can pay straight away.”').waitFor();
    await received.getByRole('button', { name: 'Counter' }).click();
    const counterForm = received.getByTestId('counter-form');
    // A counter must sit between the offer and the asking price.
    await counterForm.getByLabel('Your counter-offer').fill((asking / 100).toFixed(2));
    await counterForm.getByRole('button', { name: 'Send counter-offer' }).click();
    await counterForm.getByText(`Counter with at most ${formatPence(asking - 1)}`).waitFor();
    // Halfway between, in 50p steps (the offer is at least £1 under the asking price).
    const countered = offered + Math.floor((asking - offered) / 100) * 50;
    expect(countered).toBeGreaterThan(offered);
    expect(countered).toBeLessThan(asking);
    await counterForm.getByLabel('Your counter-offer').fill((countered / 100).toFixed(2));
    await counterForm.getByRole('button', { name: 'Send counter-offer' }).click();
    await toast(seller.page, 'Counter-offer sent').waitFor();
    await received
      .getByTestId('offer-summary')
      .getByText(`Waiting for Ava Reader to answer your counter-offer of ${formatPence(countered)}`)
      .waitFor();
    await shots(seller.page, 'offers-received', () => received.getByTestId('offer-round').nth(1).waitFor());

    // The buyer sees the counter on the book's page and answers it in their offers.
    await buyer.page.reload();
    await buyer.page
      .getByTestId('offer-state')
      .getByText(`The seller countered with ${formatPence(countered)} — answer in your offers`)
      .waitFor();
    await buyer.page.getByRole('link', { name: 'Answer the counter-offer' }).click();
    await buyer.page.waitForURL('**/account/offers?view=made');
    const made = buyer.page.getByTestId('offer-thread').filter({ hasText: title });
    await made.getByRole('button', { name: `Accept ${formatPence(countered)}` }).click();
    await toast(buyer.page, 'Accepted: pay by').waitFor();
    await made
      .getByTestId('offer-summary')
      .getByText(`Accepted at ${formatPence(countered)}: pay by`)
      .waitFor();
    await shots(buyer.page, 'offers-made', () => made.getByRole('link', { name: 'Pay now' }).waitFor());

    // Pay at the offer's price, with WELCOME20 taken off by the server on this first order.
    await made.getByRole('link', { name: 'Pay now' }).click();
    await buyer.page.waitForURL(/\/checkout\/offer\?offer=/);
    await buyer.page
      .getByTestId('offer-deadline')
      .getByText('The seller is holding it for you until')
      .waitFor();
    expect(pence(await buyer.page.getByTestId('item-price').textContent())).toBe(countered);
    const discount = buyer.page.getByTestId('discount-line');
    await expect(discount.locator('dt').textContent()).resolves.toBe('WELCOME20: 20% off your first order');
    expect(pence(await discount.locator('dd').textContent())).toBe(Math.round(countered * 0.2));
    const fee = buyerProtectionFee(countered, {
      fixedMinor: COMMERCIAL_DEFAULTS.buyerProtectionFixedMinor,
      percent: COMMERCIAL_DEFAULTS.buyerProtectionPercent,
    });
    expect(pence(await buyer.page.getByTestId('protection-fee').textContent())).toBe(fee);
    await fillAddress(buyer.page);
    await buyer.page.getByLabel('Save this address for next time').check();
    await shots(buyer.page, 'checkout-offer', () => buyer.page.getByTestId('offer-deadline').waitFor());
    await buyer.page.getByRole('button', { name: 'Continue to confirm' }).click();
    await buyer.page.waitForURL(/\/checkout\/confirm\?offer=/);
    // Back to the first step: the address is saved now, and chosen.
    await buyer.page.getByRole('link', { name: 'Change' }).click();
    await buyer.page.waitForURL(/\/checkout\/offer\?offer=/);
    const saved = buyer.page.getByTestId('saved-address');
    await saved.first().waitFor();
    await expect(saved.count()).resolves.toBe(1);
    expect(await saved.getByRole('radio').isChecked()).toBe(true);
    expect(await saved.textContent()).toContain('12 Turl Street, Oxford, OX1 3DP');
    await buyer.page.getByRole('button', { name: 'Continue to confirm' }).click();
    const lines = buyer.page.getByTestId('price-lines');
    await lines.waitFor();
    const postage = pence(await lines.getByTestId('postage').textContent());
    const total = pence(await buyer.page.getByTestId('total').textContent());
    expect(total).toBe(countered + postage + fee - Math.round(countered * 0.2));
    await expect(buyer.page.getByTestId('address').textContent()).resolves.toContain('OX1 3DP');
    const { orderId } = await payOnConfirmPage(buyer.page);

    // The seller sends it.
    await dispatch(seller, orderId, title);

    // The buyer confirms everything is OK.
    await buyer.page.goto('/account/orders');
    await buyer.page.getByTestId('order-row').filter({ hasText: title }).first().click();
    await buyer.page.waitForURL(`**/account/orders/${orderId}`);
    await buyer.page.getByTestId('order-tracking').getByText('Royal Mail Tracked 24').waitFor();
    await shots(buyer.page, 'order-dispatched', () => buyer.page.getByTestId('buyer-actions').waitFor());
    await buyer.page.getByRole('button', { name: 'Everything is OK' }).click();
    const sure = buyer.page.getByRole('dialog', { name: 'Is everything OK?' });
    await sure.getByText("releases the payment to Sam's Shelf").waitFor();
    await sure.getByRole('button', { name: 'Yes, everything is OK' }).click();
    await toast(buyer.page, 'Order complete').waitFor();
    await buyer.page.locator('[data-testid="order-detail"][data-status="completed"]').waitFor();
    await expect(buyer.page.getByTestId('order-status-badge').first().textContent()).resolves.toBe(
      'Completed',
    );
    expect(await buyer.page.getByTestId('buyer-actions').count()).toBe(0);
    await buyer.page.getByTestId('timeline-event').filter({ hasText: 'Everything is OK' }).waitFor();

    // The payout is released to the seller: item at the offer price plus postage. The demo seller
    // has not set up payouts, so it waits for them (never "Paid out": issue 32).
    await seller.page.goto('/account/payouts');
    const reference = (
      await query<{ reference: string }>(seller.context, 'commerce.orders.member.get', { orderId })
    ).reference;
    const row = seller.page.getByTestId('payout-row').filter({ hasText: reference });
    await expect(row.getByTestId('payout-status').textContent()).resolves.toBe('Waiting for you');
    expect(pence(await row.getByTestId('payout-amount').textContent())).toBe(countered + postage);
    expect(
      pence(await seller.page.getByTestId('payouts-waiting-value').textContent()),
    ).toBeGreaterThanOrEqual(countered + postage);
    await shots(seller.page, 'payouts', () => row.waitFor());

    // Every step was emailed (the development mailbox).
    const toBuyer = await mailSubjects(buyer.context, 'buyer@reshelf.test');
    expect(toBuyer).toEqual(
      expect.arrayContaining([
        `Counter-offer: ${formatPence(countered)} for ${title}`,
        `Offer accepted: ${title} for ${formatPence(countered)}`,
        `Order confirmed: ${title}`,
        `On its way: ${title}`,
        `Order complete: ${title}`,
      ]),
    );
    const toSeller = await mailSubjects(seller.context, 'seller@reshelf.test');
    expect(toSeller).toEqual(
      expect.arrayContaining([
        `New offer: ${formatPence(offered)} for ${title}`,
        `Counter-offer accepted: ${title}`,
        `You sold ${title} — please send it`,
        `Payout released: ${formatPence(countered + postage)}`,
      ]),
    );
    await seller.context.close();
    await buyer.context.close();
  });

  it('a reported problem goes to the dispute queue; staff refund it and the dashboard follows', async () => {
    const seller = await signedIn(browser, 'seller@reshelf.test', { baseURL: marketplace.baseURL });
    const buyer = await signedIn(browser, 'buyer@reshelf.test', { baseURL: marketplace.baseURL });
    const admin = await signedIn(browser, 'admin@reshelf.test', { baseURL: marketplace.baseURL });
    if (books.length === 0) books = await sellerBooks(seller);
    const book = books[1]!;
    const title = book.title!;
    // The buyer has a saved address (the first test saved one; saving it again keeps one).
    await mutate(buyer.context, 'commerce.checkout.saveAddress', { address: ADDRESS, makeDefault: true });

    const dashboard = async () => {
      await admin.page.goto('/admin?period=ytd');
      await admin.page.locator('[data-testid="metrics"][data-period="ytd"][aria-busy="false"]').waitFor();
      return {
        disputes: Number(
          (await admin.page.getByTestId('metric-disputes-value').textContent())?.replace(/,/g, ''),
        ),
        revenue: pence(await admin.page.getByTestId('metric-revenue-value').textContent()),
      };
    };
    const before = await dashboard();

    // The buyer buys it at its price, sending it to their saved (default) address.
    await buyer.page.goto(`/listing/${book.slug}`);
    await buyer.page.getByRole('link', { name: 'Buy now' }).click();
    await buyer.page.waitForURL(/\/checkout\?listing=/);
    const saved = buyer.page.getByTestId('saved-address').filter({ hasText: '12 Turl Street' });
    await saved.waitFor();
    expect(await saved.getByRole('radio').isChecked()).toBe(true);
    const fee = pence(await buyer.page.getByTestId('protection-fee').textContent());
    await buyer.page.getByRole('button', { name: 'Continue to confirm' }).click();
    const { orderId, total } = await payOnConfirmPage(buyer.page);

    await dispatch(seller, orderId, title);

    // The buyer reports a problem.
    await buyer.page.goto(`/account/orders/${orderId}`);
    await buyer.page.getByRole('button', { name: 'Report a problem' }).click();
    const report = buyer.page.getByRole('dialog', { name: 'Report a problem' });
    await report.getByLabel('What’s wrong?').fill('Torn');
    await report.getByRole('button', { name: 'Send the report' }).click();
    await report.getByText('Tell us what went wrong in at least 10 characters').waitFor();
    const reason = 'Pages 40 to 56 are missing, which the listing did not mention.';
    await report.getByLabel('What’s wrong?').fill(reason);
    await report.getByRole('button', { name: 'Send the report' }).click();
    await toast(buyer.page, 'Report sent').waitFor();
    await buyer.page.locator('[data-testid="order-detail"][data-status="disputed"]').waitFor();
    await buyer.page.getByTestId('dispute-case').getByText(reason).waitFor();
    await buyer.page.getByRole('button', { name: 'Withdraw my report' }).waitFor();

    // Staff: one more open dispute, and this order's fee in the year's revenue.
    const opened = await dashboard();
    expect(opened.disputes).toBe(before.disputes + 1);
    expect(opened.revenue).toBe(before.revenue + fee);
    await admin.page.getByRole('link', { name: 'Go to Disputes' }).click();
    await admin.page.waitForURL('**/admin/disputes');
    const reference = (
      await query<{ reference: string }>(buyer.context, 'commerce.orders.member.get', { orderId })
    ).reference;
    const row = admin.page.locator(`[data-testid="dispute-row"][data-reference="${reference}"]`);
    await row.getByText(reason).waitFor();
    await expect(row.textContent()).resolves.toContain(total);
    await shots(admin.page, 'dispute-queue', () => row.waitFor());
    await row.getByRole('button', { name: /Review/ }).click();
    const review = admin.page.getByTestId('dispute-review');
    await review.getByTestId('order-timeline').getByText('Issue reported').waitFor();
    // The one decide path (commerce.disputes.staff.decide): it asks first, with a note for both parties.
    await review.getByTestId('resolve-panel').getByRole('button', { name: 'Refund buyer' }).click();
    const confirm = admin.page.getByRole('dialog', { name: `Refund ${total} to Ava Reader?` });
    await confirm.getByRole('button', { name: 'Refund buyer' }).click();
    await confirm.getByText('Write a short note for both parties (at least 5 characters)').waitFor();
    await confirm
      .getByLabel('Note to both parties')
      .fill('The seller’s photos did not show the missing pages.');
    await snapshot(admin.page, 'buying-dispute-review-desktop', { fullPage: false });
    await confirm.getByRole('button', { name: 'Refund buyer' }).click();
    const done = admin.page.locator('[data-testid="primary-toast"][data-state="open"]').filter({
      hasText: 'Buyer refunded',
    });
    await done.getByText(`${total} went back to Ava Reader for order ${reference}.`).waitFor();
    await row.waitFor({ state: 'detached' });
    await admin.page.getByRole('link', { name: 'Resolved' }).click();
    await row.getByText('The seller’s photos did not show the missing pages.').waitFor();

    const resolved = await dashboard();
    expect(resolved.disputes).toBe(before.disputes);
    expect(resolved.revenue).toBe(opened.revenue - fee);

    // The buyer's order shows the refund and the decision.
    await buyer.page.reload();
    await buyer.page.locator('[data-testid="order-detail"][data-status="refunded"]').waitFor();
    await expect(buyer.page.getByTestId('order-status-badge').first().textContent()).resolves.toBe(
      'Refunded',
    );
    // One outcome, in the words every side reads (disputeStateText).
    await expect(buyer.page.getByTestId('dispute-stage').textContent()).resolves.toBe(
      `Settled: ${total} refunded`,
    );
    expect(pence(await buyer.page.getByTestId('refunded-line').locator('dd').textContent())).toBe(
      pence(total),
    );
    await shots(buyer.page, 'order-refunded', () => buyer.page.getByTestId('dispute-case').waitFor());

    const toBuyer = await mailSubjects(buyer.context, 'buyer@reshelf.test');
    expect(toBuyer).toEqual(
      expect.arrayContaining([`We have your report: ${title}`, `Refund of ${total} on its way: ${title}`]),
    );
    // The one decide path's letters (order.dispute_decided).
    const toSeller = await mailSubjects(seller.context, 'seller@reshelf.test');
    expect(toSeller).toEqual(
      expect.arrayContaining([
        `The buyer reported a problem: ${title}`,
        `Report decided: the buyer is refunded: ${title}`,
      ]),
    );
    await Promise.all([seller.context.close(), buyer.context.close(), admin.context.close()]);
  });

  it('a parcel that never came: "It hasn’t arrived" after the carrier’s window, staff release to the seller', async () => {
    const seller = await signedIn(browser, 'seller@reshelf.test', { baseURL: marketplace.baseURL });
    const buyer = await signedIn(browser, 'buyer@reshelf.test', { baseURL: marketplace.baseURL });
    const admin = await signedIn(browser, 'admin@reshelf.test', { baseURL: marketplace.baseURL });
    if (books.length < 3) books = await sellerBooks(seller);
    const book = books[2]!;
    const title = book.title!;

    await mutate(buyer.context, 'commerce.checkout.saveAddress', { address: ADDRESS, makeDefault: true });
    const york = {
      fullName: 'Ava Reader',
      line1: 'Flat 2, 5 High Petergate',
      town: 'York',
      postcode: 'YO1 7HH',
    };
    await mutate(buyer.context, 'commerce.checkout.saveAddress', { address: york, makeDefault: false });
    await buyer.page.goto(`/checkout?listing=${book.slug}`);
    // The default is chosen; an address no longer wanted can be removed here.
    const oxford = buyer.page.getByTestId('saved-address').filter({ hasText: '12 Turl Street' });
    await oxford.waitFor();
    expect(await oxford.getByRole('radio').isChecked()).toBe(true);
    await buyer.page
      .getByRole('button', { name: 'Remove the address for Ava Reader, Flat 2, 5 High Petergate' })
      .click();
    await toast(buyer.page, 'Address removed').waitFor();
    await buyer.page.getByTestId('saved-address').filter({ hasText: 'York' }).waitFor({ state: 'detached' });
    expect(await oxford.getByRole('radio').isChecked()).toBe(true);
    await buyer.page.getByRole('button', { name: 'Continue to confirm' }).click();
    const { orderId } = await payOnConfirmPage(buyer.page);
    await dispatch(seller, orderId, title);

    // Before the carrier's window ends, a missing parcel cannot be reported yet.
    await buyer.page.goto(`/account/orders/${orderId}`);
    await buyer.page.getByTestId('buyer-actions').getByText('you can report it missing here').waitFor();
    expect(await buyer.page.getByRole('button', { name: 'It hasn’t arrived' }).count()).toBe(0);

    // The carrier's window passes (Royal Mail Tracked 24: 2 working days).
    const db = new pg.Client({ connectionString: marketplace.databaseUrl });
    await db.connect();
    try {
      const moved = await db.query(
        "update orders set delivery_due_at = now() - interval '1 hour' where id = $1 and status = 'dispatched'",
        [orderId],
      );
      expect(moved.rowCount).toBe(1);
    } finally {
      await db.end();
    }
    await buyer.page.reload();
    await buyer.page.getByRole('button', { name: 'It hasn’t arrived' }).click();
    const missing = buyer.page.getByRole('dialog', { name: 'It hasn’t arrived' });
    await missing
      .getByLabel('What happened?')
      .fill('Tracking has shown "in transit" for days and nothing came.');
    // The same report as a problem with the book: a photo, here of the tracking page.
    await missing.getByTestId('evidence-file').setInputFiles({
      name: 'tracking.png',
      mimeType: 'image/png',
      buffer: makePng(320, 240, [60, 90, 160]),
    });
    await missing.getByTestId('evidence-photos').locator('img').waitFor();
    await missing.getByRole('button', { name: 'Report it missing' }).click();
    await toast(buyer.page, 'Report sent').waitFor();
    await buyer.page.locator('[data-testid="order-detail"][data-status="disputed"]').waitFor();
    const missingCase = buyer.page.getByTestId('dispute-case');
    await missingCase.getByText('Tracking has shown "in transit" for days and nothing came.').waitFor();
    await missingCase.locator('img').first().waitFor();

    // It is a shipping dispute, not one about the book.
    const reference = (
      await query<{ reference: string }>(buyer.context, 'commerce.orders.member.get', { orderId })
    ).reference;
    await admin.page.goto('/admin/disputes');
    await admin.page.getByTestId('dispute-queue').waitFor();
    await admin.page.getByRole('heading', { name: 'Disputes', level: 1 }).waitFor();
    // The seed's open disputes about books are listed (one query answers the whole list).
    await admin.page.getByTestId('dispute-row').first().waitFor();
    expect(
      await admin.page.locator(`[data-testid="dispute-row"][data-reference="${reference}"]`).count(),
    ).toBe(0);
    await admin.page
      .getByRole('navigation', { name: 'Staff', exact: true })
      .getByRole('link', { name: 'Shipping disputes' })
      .click();
    await admin.page.waitForURL('**/admin/shipping-disputes');
    const row = admin.page.locator(`[data-testid="dispute-row"][data-reference="${reference}"]`);
    await row.getByText('Not received').waitFor();
    await row.getByRole('button', { name: /Review/ }).click();
    const review = admin.page.getByTestId('dispute-review');
    await review.getByTestId('resolve-panel').getByRole('button', { name: 'Release to seller' }).click();
    const release = admin.page.getByRole('dialog', { name: "Release the payment to Sam's Shelf?" });
    await release.getByLabel('Note to both parties').fill('The carrier confirmed delivery to the porch.');
    await release.getByRole('button', { name: 'Release to seller' }).click();
    await admin.page
      .locator('[data-testid="primary-toast"][data-state="open"]')
      .filter({ hasText: 'Released to the seller' })
      .waitFor();
    await row.waitFor({ state: 'detached' });

    // The order completes: the seller is paid, the buyer sees the decision.
    await buyer.page.reload();
    await buyer.page.locator('[data-testid="order-detail"][data-status="completed"]').waitFor();
    await expect(buyer.page.getByTestId('dispute-stage').textContent()).resolves.toBe(
      'Settled: no refund, the payment went to the seller',
    );
    // Released, and waiting for the demo seller's payout set-up.
    await seller.page.goto('/account/payouts');
    const payout = seller.page.getByTestId('payout-row').filter({ hasText: reference });
    await expect(payout.getByTestId('payout-status').textContent()).resolves.toBe('Waiting for you');
    await Promise.all([seller.context.close(), buyer.context.close(), admin.context.close()]);
  });

  it('signed out, "Make an offer" goes to sign in and comes back to the book', async () => {
    const context = await browser.newContext({ baseURL: marketplace.baseURL, viewport: PHONE });
    await context.addInitScript(() => {
      localStorage.setItem('cookie-consent', 'declined');
      localStorage.setItem('has-visited', 'true');
    });
    const page = await context.newPage();
    // Copy by copy (/listings answers by book, decision 0079).
    await page.goto('/recently-added');
    await page.getByTestId('listing-card').first().locator('a[href^="/listing/"]').first().click();
    await page.waitForURL('**/listing/**');
    const path = new URL(page.url()).pathname;
    await page.getByRole('link', { name: 'Make an offer' }).click();
    await page.waitForURL(`**/login?next=${encodeURIComponent(path)}`);
    await fillSignIn(page, 'buyer@reshelf.test');
    await page.waitForURL(`**${path}`);
    await page.getByRole('button', { name: 'Make an offer' }).waitFor();
    await context.close();
  });
});
