/**
 * Issue 37's "done when", in Chromium through the real app on a marketplace of its own: a buyer
 * picks a locker at checkout and pays on the test payment page; the seller clicks "Get label"
 * and downloads the A4 PDF; the test carrier's scan page posts accepted → in transit →
 * delivered and the order moves to dispatched and delivered on both sides; the auto-complete
 * job completes it (time moved on as other tests do) and releases the payout; then the buyer's
 * change-of-mind return: the seller accepts, the buyer downloads the return label, the test
 * carrier's scans move it and the refund lands with no one tapping.
 *
 * Screenshots land in tests/.artifacts/ (parcels-*.png).
 */
import { CLIENT_HEADER, ORDER_BUTTON_WORDS } from '@reshelf/contracts';
import pg from 'pg';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedIn } from '../support/auth.ts';
import { snapshot } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: import('playwright-core').Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

const WEB = { [CLIENT_HEADER]: 'web', 'content-type': 'application/json' };
const POSTCODE = 'EC1A 1BB';
const SELLER = 'seller@reshelf.test';
const BUYER = 'buyer@reshelf.test';

async function mutate<T>(context: BrowserContext, procedure: string, input: unknown): Promise<T> {
  const response = await context.request.post(`/trpc/${procedure}`, { headers: WEB, data: input });
  expect(response.ok(), `${procedure}: ${response.status()} ${await response.text()}`).toBe(true);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

async function pdfAt(context: BrowserContext, href: string): Promise<Buffer> {
  const response = await context.request.get(href);
  expect(response.status(), href).toBe(200);
  expect(response.headers()['content-type']).toContain('application/pdf');
  return Buffer.from(await response.body());
}

/** The test carrier's page: one scan of the parcel with this tracking number. */
async function scan(page: Page, trackingRef: string, button: string): Promise<void> {
  await page.goto('/test-carrier');
  const row = page.locator('tr, li, article, section').filter({ hasText: trackingRef }).last();
  await row.getByRole('button', { name: button, exact: true }).click();
  await page.waitForLoadState('load');
}

describe('parcels: a locker, a label, scans that move the order, and a return label', () => {
  it('runs from checkout to payout, then a return to its refund, with no manual step', async () => {
    const db = new pg.Client({ connectionString: marketplace.databaseUrl });
    await db.connect();
    try {
      // One of the seller's books; the seller has an address to print, and takes returns.
      const { rows: listings } = await db.query<{ slug: string; seller_id: string }>(
        `select l.slug, l.seller_id from public.listings l join auth.users u on u.id = l.seller_id
         where u.email = $1 and l.status = 'active' and l.charity_id is null
         order by l.price_minor limit 1`,
        [SELLER],
      );
      const listing = listings[0];
      if (!listing) throw new Error('The seed has an active book of the seller');
      await db.query(
        `insert into public.addresses (user_id, full_name, line1, town, postcode, is_default)
         select $1, 'Sam Seller', '4 Castle Street', 'Reading', 'RG1 1AA', true
         where not exists (select 1 from public.addresses where user_id = $1)`,
        [listing.seller_id],
      );
      await db.query('update public.profiles set accepts_returns = true where id = $1', [listing.seller_id]);

      // The buyer picks a locker and pays on the test payment page.
      const buyer = await signedIn(browser, BUYER, { baseURL: marketplace.baseURL, viewport: 'desktop' });
      const page = buyer.page;
      await page.goto(`/checkout?listing=${listing.slug}`);
      const newAddress = page.getByLabel('Send it to a new address');
      if (await newAddress.count()) await newAddress.check();
      await page.getByLabel('Full name').fill('Ava Reader');
      await page.getByLabel('Address line 1').fill('1 Little Britain');
      await page.getByLabel('Town or city').fill('London');
      await page.getByLabel('Postcode').fill(POSTCODE);
      await page.getByRole('button', { name: 'Continue to confirm' }).click();
      await page.waitForURL(/\/checkout\/confirm/);
      await page.getByRole('radio', { name: /^Collect from a locker or parcel shop/ }).check();
      const locker = page.getByTestId('drop-off-point').filter({ hasText: 'Locker · InPost' }).first();
      await locker.waitFor();
      await locker.getByRole('radio').check();
      await page.getByRole('button', { name: new RegExp(`^${ORDER_BUTTON_WORDS} `) }).click();
      await page.waitForURL(/\/payments\/test\/tp_/);
      await page.getByRole('button', { name: 'Pay now' }).click();
      await page.waitForURL(/\/checkout\/success\?order=/);
      const orderId = new URL(page.url()).searchParams.get('order');
      if (!orderId) throw new Error('The success page names the order');

      // The seller gets the label and downloads the A4 PDF.
      const seller = await signedIn(browser, SELLER, { baseURL: marketplace.baseURL, viewport: 'desktop' });
      await seller.page.goto(`/account/sales/${orderId}`);
      await seller.page.getByRole('button', { name: 'Get label' }).click();
      const a4 = seller.page.getByRole('link', { name: 'Download A4 label (PDF)' });
      await a4.waitFor();
      const pdf = await pdfAt(seller.context, (await a4.getAttribute('href')) as string);
      expect(pdf.subarray(0, 4).toString()).toBe('%PDF');
      const { rows: outbound } = await db.query<{ tracking_ref: string; method: string }>(
        `select tracking_ref, method from public.shipments where order_id = $1 and direction = 'outbound'`,
        [orderId],
      );
      const trackingRef = outbound[0]!.tracking_ref;
      expect(outbound[0]!.method).toBe('drop_off');
      await snapshot(seller.page, 'parcels-label-desktop');

      // The test carrier's scans move the order: dispatched, then delivered, on both sides.
      await scan(seller.page, trackingRef, 'Accepted');
      await scan(seller.page, trackingRef, 'In transit');
      const status = async () =>
        (await db.query<{ status: string }>('select status from public.orders where id = $1', [orderId]))
          .rows[0]!.status;
      expect(await status()).toBe('dispatched');
      await scan(seller.page, trackingRef, 'Delivered');
      expect(await status()).toBe('delivered');
      await page.goto(`/account/orders/${orderId}`);
      await expect(
        page
          .locator('[data-testid="parcel-tracking"][data-direction="outbound"]')
          .getAttribute('data-status'),
      ).resolves.toBe('delivered');
      await seller.page.goto(`/account/sales/${orderId}`);
      await expect(
        seller.page
          .locator('[data-testid="parcel-tracking"][data-direction="outbound"]')
          .getAttribute('data-status'),
      ).resolves.toBe('delivered');

      // The buyer's window passes: the job completes the order and releases the payout.
      await db.query(`update public.orders set complete_after = now() - interval '1 minute' where id = $1`, [
        orderId,
      ]);
      await marketplace.runJob('orders.auto_complete');
      expect(await status()).toBe('completed');
      const { rows: payouts } = await db.query<{ status: string }>(
        'select status from public.payouts where order_id = $1',
        [orderId],
      );
      expect(payouts[0]!.status).not.toBe('held');

      // A change-of-mind return: the seller accepts, the buyer has a return label.
      const asked = await mutate<{ request: { id: string } }>(
        buyer.context,
        'commerce.disputes.member.requestReturn',
        { orderId, reason: 'I changed my mind about it' },
      );
      await mutate(seller.context, 'commerce.disputes.member.acceptReturn', {
        returnId: asked.request.id,
        address: 'Sam Seller, 4 Castle Street, Reading, RG1 1AA',
      });
      await page.goto(`/account/orders/${orderId}`);
      const panel = page.getByTestId('return-label');
      await panel.waitFor();
      await expect(page.getByTestId('return-label-payer').textContent()).resolves.toContain(
        'comes off your refund',
      );
      const returnA4 = page.getByRole('link', { name: 'Download A4 return label (PDF)' });
      const returnPdf = await pdfAt(buyer.context, (await returnA4.getAttribute('href')) as string);
      expect(returnPdf.subarray(0, 4).toString()).toBe('%PDF');
      await snapshot(page, 'parcels-return-label-desktop');
      await page.setViewportSize({ width: 390, height: 844 });
      await panel.scrollIntoViewIfNeeded();
      await snapshot(page, 'parcels-return-label-phone');

      // The return's scans send it back and, on delivery, refund it: nobody taps.
      const { rows: back } = await db.query<{ tracking_ref: string }>(
        `select tracking_ref from public.shipments where order_id = $1 and direction = 'return'`,
        [orderId],
      );
      await scan(seller.page, back[0]!.tracking_ref, 'Accepted');
      await scan(seller.page, back[0]!.tracking_ref, 'Delivered');
      const { rows: returned } = await db.query<{ status: string; refund_minor: number }>(
        'select status, refund_minor from public.return_requests where id = $1',
        [asked.request.id],
      );
      expect(returned[0]!.status).toBe('refunded');
      expect(returned[0]!.refund_minor).toBeGreaterThan(0);
      expect(await status()).toBe('refunded');
    } finally {
      await db.end();
    }
  });
});
