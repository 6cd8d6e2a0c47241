/**
 * The seller ships with a prepaid label (issue 37), in Chromium with the demo accounts in
 * browsers of their own: buyer@reshelf.test buys one of seller@reshelf.test's books; on the sale
 * page the seller presses "Get label" and downloads the A4 PDF (it starts %PDF and opens in
 * pdf-lib); the test carrier's page posts "Accepted" then "Delivered" as signed webhooks; both
 * sides' order pages show the order dispatched, then delivered, with the tracking timeline
 * newest first and the link to the carrier's page.
 *
 * A marketplace of its own (tests/support/server.ts); screenshots at 1280 and 390 px land in
 * tests/.artifacts/ as seller-label-*.
 */
import { createRequire } from 'node:module';
import { formatPence, ORDER_BUTTON_WORDS, type SHIPMENT_STATUS_TEXT } from '@reshelf/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedIn } from '../support/auth.ts';
import { snapshotsAt } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';
import { trpcMutate, trpcQuery } from '../support/trpc.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

const BUYER_ADDRESS = {
  fullName: 'Ava Reader',
  line1: '12 Turl Street',
  town: 'Oxford',
  postcode: 'OX1 3DP',
};
const SELLER_ADDRESS = {
  fullName: 'Sam Seller',
  line1: '4 Walton Street',
  town: 'Oxford',
  postcode: 'OX2 6AE',
};
const shots = snapshotsAt('seller-label');
// pdf-lib is the API's (the carriers draw labels with it): the test opens the label with it.
const { PDFDocument } = createRequire(new URL('../../api/package.json', import.meta.url))('pdf-lib') as {
  PDFDocument: { load(bytes: Uint8Array): Promise<{ getPageCount(): number }> };
};

interface Person {
  context: BrowserContext;
  page: Page;
}

async function buy(buyer: Person, slug: string): Promise<string> {
  await trpcMutate(buyer.context, 'commerce.checkout.saveAddress', {
    address: BUYER_ADDRESS,
    makeDefault: true,
  });
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

/** The order page at its status, its parcel's timeline showing these scans, newest first. */
async function showsParcel(page: Page, status: string, scans: (keyof typeof SHIPMENT_STATUS_TEXT)[]) {
  await page.locator(`[data-testid="order-detail"][data-status="${status}"]`).waitFor();
  const parcel = page.getByTestId('parcel-tracking');
  await parcel.locator(`[data-scan="${scans[0]}"]`).waitFor();
  const timeline = parcel.getByRole('list', { name: 'Tracking timeline' });
  expect(await timeline.locator('li').evaluateAll((items) => items.map((item) => item.dataset.scan))).toEqual(
    scans,
  );
  const link = parcel.getByRole('link', { name: /Track on Royal Mail’s site/ });
  expect(await link.getAttribute('rel')).toContain('noopener');
  expect(await link.getAttribute('href')).toMatch(/\/test-carrier\/track\//);
}

/** Presses a scan button for the parcel on the test carrier's page (it posts a signed webhook). */
async function scan(page: Page, trackingRef: string, button: string) {
  await page.goto('/test-carrier');
  await page
    .locator(`section.parcel[data-tracking-ref="${trackingRef}"]`)
    .getByRole('button', { name: button })
    .click();
  await page.getByTestId('notice').filter({ hasText: 'answered 200' }).waitFor();
}

describe('the seller ships with a prepaid label', { timeout: 240_000 }, () => {
  it('gets a label, downloads the A4 PDF, and the carrier’s scans move the order on both sides', async () => {
    const seller = await signedIn(browser, 'seller@reshelf.test', { baseURL: marketplace.baseURL });
    const buyer = await signedIn(browser, 'buyer@reshelf.test', { baseURL: marketplace.baseURL });
    await trpcMutate(seller.context, 'commerce.checkout.saveAddress', {
      address: SELLER_ADDRESS,
      makeDefault: true,
    });

    const mine = await trpcQuery<{ items: { slug: string | null; priceMinor: number | null }[] }>(
      seller.context,
      'selling.listings.mine',
      { status: 'active', page: 1, pageSize: 48 },
    );
    const book = mine.items.find((item) => item.slug && (item.priceMinor ?? 0) >= 600);
    expect(book).toBeTruthy();
    const orderId = await buy(buyer, book!.slug!);

    // The seller's sale: "Post it" with the deadline and "Get label".
    await seller.page.goto(`/account/sales/${orderId}`);
    const postIt = seller.page.getByTestId('post-it');
    await postIt.getByTestId('post-by').waitFor();
    await shots(seller.page, 'post-it', () => postIt.getByRole('button', { name: 'Get label' }).waitFor());
    await postIt.getByRole('button', { name: 'Get label' }).click();
    const a4 = postIt.getByRole('link', { name: 'Download A4 label (PDF)' });
    await a4.waitFor();
    await postIt.getByRole('link', { name: 'Download 4×6 inch label (PDF)' }).waitFor();
    await postIt.getByRole('img', { name: /QR code for Royal Mail drop-off/ }).waitFor();
    await postIt.getByText('No printer? Show this at Royal Mail drop-off.').waitFor();
    await shots(seller.page, 'label-ready', () => a4.waitFor());

    // The A4 label is a PDF that opens.
    const download = await seller.context.request.get((await a4.getAttribute('href'))!);
    expect(download.status()).toBe(200);
    expect(download.headers()['content-type']).toBe('application/pdf');
    const bytes = await download.body();
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBeGreaterThanOrEqual(1);
    // Not the buyer's to download.
    expect((await buyer.context.request.get((await a4.getAttribute('href'))!)).status()).toBe(404);

    const [parcel] = await trpcQuery<{ trackingRef: string; costMinor: number }[]>(
      seller.context,
      'commerce.parcels.member.forOrder',
      { orderId },
    );
    const trackingRef = parcel!.trackingRef;

    // The seller's money names the label the buyer's postage paid for.
    await seller.page.reload();
    const labelCost = seller.page.getByTestId('order-money').getByTestId('label-cost');
    await labelCost.waitFor();
    expect((await labelCost.textContent())?.trim()).toBe(`−${formatPence(parcel!.costMinor)}`);

    // The carrier accepts it: the order is dispatched, on both sides.
    const carrierPage = await seller.context.newPage();
    await scan(carrierPage, trackingRef, 'Accepted');
    await seller.page.reload();
    await showsParcel(seller.page, 'dispatched', ['accepted']);
    await buyer.page.goto(`/account/orders/${orderId}`);
    await showsParcel(buyer.page, 'dispatched', ['accepted']);

    // Delivered: the buyer's window starts.
    await scan(carrierPage, trackingRef, 'Delivered');
    await buyer.page.reload();
    await showsParcel(buyer.page, 'delivered', ['delivered', 'accepted']);
    await shots(buyer.page, 'buyer-delivered', () => buyer.page.getByTestId('parcel-tracking').waitFor());
    await seller.page.reload();
    await showsParcel(seller.page, 'delivered', ['delivered', 'accepted']);
    await shots(seller.page, 'seller-delivered', () => seller.page.getByTestId('parcel-tracking').waitFor());
  });
});
