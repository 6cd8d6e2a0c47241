/**
 * The basket in Chromium, on a marketplace of its own (tests/support/server.ts), so
 * buyer@reshelf.test has never bought anything and the books are the seed's:
 *
 * - seller@reshelf.test (Sam's Shelf) sets bundle discount tiers in their settings;
 * - buyer@reshelf.test adds one of Sam's books as a visitor, signs in (the basket comes with
 *   them), adds two more of Sam's and one of the hospice's books: the basket shows two parcels,
 *   Sam's with the 3-book bundle discount, one postage each; they pay once with the test
 *   provider and get two orders;
 * - Sam dispatches the one parcel with one tracking number; the sale page lists the three books;
 * - the buyer reports a problem with one book; staff refund that book only.
 *
 * Screenshots at 390 and 1280 px land in tests/.artifacts/ (basket-*.png).
 */
import {
  CLIENT_HEADER,
  formatPence,
  type ListingCard,
  type ListingDetail,
  orderButtonLabel,
  parcelFor,
  parsePounds,
  percentOf,
  postageFor,
} from '@reshelf/contracts';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fillSignIn, signedIn, toast } from '../support/auth.ts';
import { snapshot, VIEWPORTS } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

const WEB = { [CLIENT_HEADER]: 'web' };
const PHONE = { width: 390, height: 844 };
const HOSPICE = 'cherwell-valley-hospice-books';

interface Person {
  context: BrowserContext;
  page: Page;
}

async function query<T>(context: BrowserContext, procedure: string, input?: unknown): Promise<T> {
  const search = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const response = await context.request.get(`/trpc/${procedure}${search}`, { headers: WEB });
  if (!response.ok()) throw new Error(`${procedure}: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

const pence = (text: string | null) => {
  const value = parsePounds((text ?? '').trim().replace('−', ''));
  if (value === null) throw new Error(`not an amount: ${text}`);
  return value;
};

async function noHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}

/** The page at 1280 and at 390 px, each without sideways scrolling. */
async function shots(page: Page, name: string, ready: () => Promise<unknown>): Promise<void> {
  await ready();
  await noHorizontalScroll(page);
  await snapshot(page, `basket-${name}-desktop`);
  await page.setViewportSize(PHONE);
  await ready();
  await noHorizontalScroll(page);
  await snapshot(page, `basket-${name}-phone`);
  await page.setViewportSize(VIEWPORTS.desktop);
}

/** Books on sale from a shelf (a seller or a charity), dearest first, distinct titles. */
async function booksOf(context: BrowserContext, fixed: { seller?: string; charity?: string }) {
  const page = await query<{ items: ListingCard[] }>(context, 'catalogue.listings.browse', {
    ...fixed,
    sort: 'price_desc',
    page: 1,
    pageSize: 24,
  });
  return page.items
    .filter((item) => item.status === 'active')
    .filter((item, index, all) => all.findIndex((other) => other.title === item.title) === index);
}

async function addFromListingPage(page: Page, slug: string, count: number) {
  await page.goto(`/listing/${slug}`);
  await page.getByRole('button', { name: 'Add to basket' }).click();
  await page.getByRole('link', { name: 'In your basket' }).waitFor();
  await page
    .getByRole('banner')
    .getByRole('link', { name: `Basket: ${count} ${count === 1 ? 'book' : 'books'}` })
    .waitFor();
}

describe('the basket', { timeout: 240_000 }, () => {
  it('three books from one seller and one from a charity: one payment, two orders, one parcel each; one book refunded', async () => {
    const seller = await signedIn(browser, 'seller@reshelf.test', { baseURL: marketplace.baseURL });
    const me = await query<{ user: { id: string } }>(seller.context, 'account.auth.me');
    const hospice = await booksOf(seller.context, { charity: HOSPICE });
    expect(hospice.length).toBeGreaterThanOrEqual(1);
    const charityBook = hospice[0] as ListingCard;
    // Distinct titles, so each book can be found by its title on every page.
    const sams = (await booksOf(seller.context, { seller: me.user.id })).filter(
      (book) => book.title !== charityBook.title,
    );
    expect(sams.length).toBeGreaterThanOrEqual(3);
    const [first, second, third] = sams as [ListingCard, ListingCard, ListingCard];

    // Sam turns on bundle discounts in their settings: 2 books 5% off, 3 books 10% off.
    await seller.page.goto('/account/settings');
    const tiers = seller.page.getByTestId('bundle-tiers');
    // The demo seed may have given Sam tiers already: start from none.
    await tiers.getByRole('button', { name: 'Save bundle discounts' }).waitFor();
    while ((await tiers.getByTestId('tier-row').count()) > 0) {
      await tiers
        .getByRole('button', { name: /^Remove tier/ })
        .first()
        .click();
    }
    await tiers.getByTestId('tiers-off').waitFor();
    await tiers.getByRole('button', { name: 'Add a tier' }).click();
    await tiers.getByRole('button', { name: 'Add a tier' }).click();
    // Not rising: refused on the field, nothing saved.
    await tiers.getByLabel('Tier 2: books').fill('2');
    await tiers.getByRole('button', { name: 'Save bundle discounts' }).click();
    await tiers.getByText('Each tier needs more books than the one before (more than 2)').waitFor();
    await tiers.getByLabel('Tier 2: books').fill('3');
    await tiers.getByRole('button', { name: 'Save bundle discounts' }).click();
    await toast(seller.page, 'Bundle discounts saved: 2 books: 5% off · 3 books: 10% off').waitFor();
    await shots(seller.page, 'tiers-settings', () => tiers.getByTestId('tier-row').nth(1).waitFor());

    // The seller's page: "Buy more from this seller and save" with their tiers.
    await seller.page.goto(`/seller/${me.user.id}`);
    const buyMore = seller.page.getByTestId('buy-more');
    await buyMore.getByText('Buy more from this seller and save').waitFor();
    await expect(buyMore.getByTestId('buy-more-tier').allTextContents()).resolves.toEqual([
      '2 books: 5% off',
      '3 books: 10% off',
    ]);

    // A visitor adds one of Sam's books, then signs in: the basket comes with them.
    const visitor = await browser.newContext({ baseURL: marketplace.baseURL, viewport: VIEWPORTS.desktop });
    await visitor.addInitScript(() => {
      localStorage.setItem('cookie-consent', 'declined');
      localStorage.setItem('has-visited', 'true');
    });
    const buyer: Person = { context: visitor, page: await visitor.newPage() };
    await addFromListingPage(buyer.page, first.slug, 1);
    await buyer.page.goto('/basket');
    await buyer.page.getByTestId('basket-item').filter({ hasText: first.title }).waitFor();
    await buyer.page.getByRole('link', { name: 'Sign in to check out' }).click();
    await buyer.page.waitForURL(/\/login/);
    await fillSignIn(buyer.page, 'buyer@reshelf.test');
    await buyer.page.waitForURL('**/basket');
    await buyer.page.getByTestId('basket-group').filter({ hasText: first.title }).waitFor();
    await buyer.page.getByRole('banner').getByRole('link', { name: 'Basket: 1 book' }).waitFor();
    expect(await buyer.page.evaluate(() => localStorage.getItem('reshelf:basket'))).toBeNull();

    // Two more of Sam's and one of the hospice's.
    await addFromListingPage(buyer.page, second.slug, 2);
    await addFromListingPage(buyer.page, third.slug, 3);
    await addFromListingPage(buyer.page, charityBook.slug, 4);

    // The basket: two parcels; Sam's with the 3-book discount; one postage each.
    await buyer.page.goto('/basket');
    const groups = buyer.page.getByTestId('basket-group');
    await expect.poll(() => groups.count()).toBe(2);
    const samGroup = buyer.page.locator('[data-testid="basket-group"][aria-label="From Sam\'s Shelf"]');
    const charityGroup = buyer.page.locator(
      `[data-testid="basket-group"][aria-label="From ${charityBook.charity?.name}"]`,
    );
    await samGroup.getByTestId('group-price-lines').waitFor();
    expect(await samGroup.getByTestId('basket-item').count()).toBe(3);
    const subtotal = first.priceMinor + second.priceMinor + third.priceMinor;
    expect(pence(await samGroup.getByTestId('group-items').textContent())).toBe(subtotal);
    const bundle = samGroup.getByTestId('bundle-discount');
    await expect(bundle.locator('dt').textContent()).resolves.toBe('Bundle discount (3 books: 10% off)');
    expect(pence(await bundle.locator('dd').textContent())).toBe(percentOf(subtotal, 10));
    expect(await samGroup.getByTestId('group-postage').count()).toBe(1);
    // One parcel for Sam's three books, by home delivery (the choice until the buyer makes one).
    const parcelBooks = await Promise.all(
      [first, second, third].map(async (book) => {
        const detail = await query<ListingDetail>(buyer.context, 'catalogue.listings.bySlug', {
          slug: book.slug,
        });
        return { parcelSize: book.parcelSize, format: detail.format, pageCount: detail.pageCount };
      }),
    );
    expect(pence(await samGroup.getByTestId('group-postage').textContent())).toBe(
      postageFor(parcelFor(parcelBooks).band, 'home'),
    );
    expect(await charityGroup.getByTestId('group-postage').count()).toBe(1);
    await samGroup.getByTestId('group-saving').waitFor();
    const groupTotals = [
      pence(await samGroup.getByTestId('group-total').textContent()),
      pence(await charityGroup.getByTestId('group-total').textContent()),
    ];
    const total = pence(await buyer.page.getByTestId('basket-total').textContent());
    expect(total).toBe(groupTotals[0]! + groupTotals[1]!);
    await shots(buyer.page, 'page', () => samGroup.getByTestId('bundle-discount').waitFor());

    // One payment for both parcels.
    await buyer.page.getByRole('link', { name: 'Check out all 2 parcels' }).click();
    await buyer.page.waitForURL('**/checkout/basket');
    await expect.poll(() => buyer.page.getByTestId('checkout-group').count()).toBe(2);
    await buyer.page.getByLabel('Full name').fill('Ava Reader');
    await buyer.page.getByLabel('Address line 1').fill('12 Turl Street');
    await buyer.page.getByLabel('Town or city').fill('Oxford');
    await buyer.page.getByLabel('Postcode').fill('ox1 3dp');
    expect(pence(await buyer.page.getByTestId('total').textContent())).toBe(total);
    await shots(buyer.page, 'checkout', () => buyer.page.getByTestId('checkout-group').first().waitFor());
    await buyer.page.getByRole('button', { name: orderButtonLabel(total) }).click();
    await buyer.page.waitForURL(/\/payments\/test\/tp_/);
    await expect(buyer.page.getByTestId('amount').textContent()).resolves.toBe(formatPence(total));
    await buyer.page.getByRole('button', { name: 'Pay now' }).click();
    await buyer.page.waitForURL(/\/checkout\/success\?/);
    await buyer.page.getByRole('heading', { name: 'Thank you: your orders are paid', level: 1 }).waitFor();
    const paid = buyer.page.getByTestId('payment-order');
    await expect.poll(() => paid.count()).toBe(2);
    await shots(buyer.page, 'success', () => paid.first().waitFor());
    await buyer.page.getByRole('banner').getByRole('link', { name: 'Basket: empty' }).waitFor();
    const samOrderLink = paid.filter({ hasText: first.title }).getByRole('link');
    const samOrderId = (await samOrderLink.getAttribute('href'))!.split('/').pop()!;

    // Sam dispatches one parcel with one tracking number; the sale lists the three books.
    await seller.page.goto(`/account/sales/${samOrderId}`);
    const books = seller.page.getByTestId('order-books');
    await expect.poll(() => books.getByTestId('order-book').count()).toBe(3);
    const panel = seller.page.getByTestId('seller-actions');
    await panel.getByText('3 books in one parcel').waitFor();
    await shots(seller.page, 'sale', () => panel.waitFor());
    await panel.getByLabel('Carrier').selectOption({ label: 'Royal Mail Tracked 24' });
    await panel.getByLabel('Tracking reference').fill('rm 1234 5678 gb');
    await panel.getByRole('button', { name: 'Mark as dispatched' }).click();
    await toast(seller.page, 'Dispatched').waitFor();
    await seller.page.locator('[data-testid="order-detail"][data-status="dispatched"]').waitFor();

    // The buyer reports a problem with one book.
    await buyer.page.goto(`/account/orders/${samOrderId}`);
    await expect.poll(() => buyer.page.getByTestId('order-book').count()).toBe(3);
    await buyer.page.getByRole('button', { name: 'Report a problem' }).click();
    const report = buyer.page.getByRole('dialog', { name: 'Report a problem' });
    await report.getByRole('checkbox', { name: second.title }).check();
    const reason = 'Pages 40 to 56 are missing, which the listing did not mention.';
    await report.getByLabel('What’s wrong?').fill(reason);
    await report.getByRole('button', { name: 'Send the report' }).click();
    await toast(buyer.page, 'Report sent').waitFor();
    await buyer.page.locator('[data-testid="order-detail"][data-status="disputed"]').waitFor();
    await buyer.page.getByTestId('dispute-case').getByText(second.title).first().waitFor();

    // Staff refund that book only.
    const admin = await signedIn(browser, 'admin@reshelf.test', { baseURL: marketplace.baseURL });
    const order = await query<{
      reference: string;
      totalMinor: number;
      items: { listingId: string; paidMinor: number }[];
    }>(buyer.context, 'commerce.orders.member.get', { orderId: samOrderId });
    const paidForIt = order.items.find((item) => item.listingId === second.id)?.paidMinor;
    await admin.page.goto('/admin/disputes');
    const row = admin.page.locator(`[data-testid="dispute-row"][data-reference="${order.reference}"]`);
    await row
      .getByTestId('dispute-books')
      .filter({ hasText: `${second.title} (of 3 in the order)` })
      .waitFor();
    await row.getByRole('button', { name: /Review/ }).click();
    const review = admin.page.getByTestId('dispute-review');
    // The one decide path: it asks first, showing the amount, with a note for both parties.
    await review.getByTestId('resolve-panel').getByRole('button', { name: 'Refund buyer' }).click();
    const confirm = admin.page.getByRole('dialog', { name: /^Refund £[\d.]+ to Ava Reader\?$/ });
    await confirm.waitFor();
    await confirm
      .getByLabel('Note to both parties')
      .fill('The missing pages are clear in the buyer’s photos.');
    const refunded = pence(
      /Refund (£[\d.]+)/.exec((await confirm.getByRole('heading').textContent()) ?? '')?.[1] ?? '',
    );
    // What the buyer paid for that book: its price less its shares of the discounts, plus its
    // share of the protection fee (the rest of the order is kept).
    expect(refunded).toBe(paidForIt);
    expect(refunded).toBeLessThan(order.totalMinor);
    await snapshot(admin.page, 'basket-refund-one-book-desktop', { fullPage: false });
    await confirm.getByRole('button', { name: 'Refund buyer' }).click();
    await row.waitFor({ state: 'detached' });

    // The buyer's order: that book refunded, the others kept.
    await buyer.page.reload();
    expect(pence(await buyer.page.getByTestId('refunded-line').locator('dd').textContent())).toBe(refunded);
    const refundedBook = buyer.page.getByTestId('order-book').filter({ hasText: second.title });
    await refundedBook.getByText('Refunded').waitFor();
    expect(await buyer.page.getByTestId('order-book').filter({ hasText: 'Refunded' }).count()).toBe(1);
    await shots(buyer.page, 'order-refunded', () => refundedBook.waitFor());

    await Promise.all([seller.context.close(), buyer.context.close(), admin.context.close()]);
  });

  it('a book withdrawn meanwhile shows as gone, to remove; the basket is priced without it; a price changed at checkout is shown before paying', async () => {
    const buyer = await signedIn(browser, 'buyer@reshelf.test', { baseURL: marketplace.baseURL });
    const seller = await signedIn(browser, 'seller@reshelf.test', { baseURL: marketplace.baseURL });
    const me = await query<{ user: { id: string } }>(seller.context, 'account.auth.me');
    await seller.context.close();
    const [kept, withdrawn] = (await booksOf(buyer.context, { seller: me.user.id })) as [
      ListingCard,
      ListingCard,
    ];
    await addFromListingPage(buyer.page, kept.slug, 1);
    await addFromListingPage(buyer.page, withdrawn.slug, 2);
    const db = new pg.Client({ connectionString: marketplace.databaseUrl });
    await db.connect();
    try {
      await db.query("update listings set status = 'withdrawn' where id = $1", [withdrawn.id]);
    } finally {
      await db.end();
    }
    await buyer.page.goto('/basket');
    const gone = buyer.page.locator('[data-testid="basket-item"][data-state="gone"]');
    await gone.getByText('No longer for sale: it sold or was withdrawn').waitFor();
    await expect(gone.textContent()).resolves.toContain(withdrawn.title);
    // Priced without it: one book, one parcel.
    await expect(buyer.page.getByTestId('group-items').textContent()).resolves.toBe(
      formatPence(kept.priceMinor),
    );
    await buyer.page.getByRole('banner').getByRole('link', { name: 'Basket: 1 book' }).waitFor();
    await shots(buyer.page, 'gone', () => gone.waitFor());
    await gone.getByRole('button', { name: `Remove ${withdrawn.title}` }).click();
    await gone.waitFor({ state: 'detached' });
    expect(await buyer.page.getByTestId('basket-item').count()).toBe(1);

    // The price changes while the buyer is at checkout: the payment stops and shows the new
    // price; paying again charges exactly that.
    await buyer.page.getByRole('link', { name: 'Check out', exact: true }).click();
    await buyer.page.waitForURL('**/checkout/basket');
    await buyer.page.getByLabel('Full name').fill('Ava Reader');
    await buyer.page.getByLabel('Address line 1').fill('12 Turl Street');
    await buyer.page.getByLabel('Town or city').fill('Oxford');
    await buyer.page.getByLabel('Postcode').fill('OX1 3DP');
    const before = pence(await buyer.page.getByTestId('total').textContent());
    const raised = new pg.Client({ connectionString: marketplace.databaseUrl });
    await raised.connect();
    try {
      await raised.query('update listings set price_minor = price_minor + 100 where id = $1', [kept.id]);
    } finally {
      await raised.end();
    }
    await buyer.page.getByRole('button', { name: orderButtonLabel(before) }).click();
    const changed = buyer.page.getByTestId('quote-changed');
    await changed.waitFor();
    // The new quote replaces the old one on the page.
    await expect
      .poll(async () => pence(await buyer.page.getByTestId('total').textContent()))
      .toBeGreaterThan(before);
    const after = pence(await buyer.page.getByTestId('total').textContent());
    await expect(changed.textContent()).resolves.toContain(
      `it was ${formatPence(before)}, it is now ${formatPence(after)}`,
    );
    await shots(buyer.page, 'quote-changed', () => changed.waitFor());
    await buyer.page.getByRole('button', { name: orderButtonLabel(after) }).click();
    await buyer.page.waitForURL(/\/payments\/test\/tp_/);
    await expect(buyer.page.getByTestId('amount').textContent()).resolves.toBe(formatPence(after));
    await buyer.context.close();
  });
});
