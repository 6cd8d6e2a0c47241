/**
 * Reports in a real browser: a buyer reports a listing from its page (reporting it
 * again is kindly refused), a moderator finds it at /admin/reports on a phone and removes the
 * listing, and dismisses another report with a note; a charity's page is reported (not by its
 * own team) and its description taken down. Removing a listing changes what every
 * visitor sees, so this file runs against a marketplace of its own (whose demo seed also
 * leaves a few open reports, on other listings).
 */
import { CLIENT_HEADER } from '@reshelf/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openToast, signedIn, toast } from '../support/auth.ts';
import { snapshot } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

interface StaffListing {
  id: string;
  slug: string;
  title: string;
  priceMinor: number;
}

/** Two active listings of the demo seller, found through the staff search. */
async function sellerListings(context: BrowserContext, limit = 2): Promise<StaffListing[]> {
  const input = encodeURIComponent(
    JSON.stringify({ seller: 'seller@reshelf.test', status: 'active', limit }),
  );
  const response = await context.request.get(`/trpc/community.moderation.listings.search?input=${input}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { result: { data: StaffListing[] } }).result.data;
}

async function noSideways(page: Page) {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
  ).toBe(true);
}

describe('reports', () => {
  it('a buyer reports a listing; a moderator removes it and dismisses another report', async () => {
    const staff = await signedIn(browser, 'moderator@reshelf.test', {
      baseURL: marketplace.baseURL,
      viewport: 'phone',
    });
    const [fake, fine] = await sellerListings(staff.context);
    if (!fake || !fine) throw new Error('the demo seller has fewer than two active listings');

    // Signed out, the link leads to sign in and back.
    const visitor = await browser.newContext({ baseURL: marketplace.baseURL });
    const outside = await visitor.newPage();
    await outside.goto(`/listing/${fake.slug}`);
    await outside.getByRole('link', { name: 'Report this listing' }).click();
    await outside.waitForURL(/\/login\?next=/);
    expect(new URL(outside.url()).searchParams.get('next')).toBe(`/listing/${fake.slug}`);
    await visitor.close();

    // The seller is not offered it on their own listing.
    const seller = await signedIn(browser, 'seller@reshelf.test', { baseURL: marketplace.baseURL });
    await seller.page.goto(`/listing/${fake.slug}`);
    await seller.page.getByTestId('seller-card').waitFor();
    await seller.page.getByTestId('listing-price').waitFor();
    expect(await seller.page.getByRole('button', { name: 'Report this listing' }).count()).toBe(0);
    await seller.context.close();

    const buyer = await signedIn(browser, 'buyer@reshelf.test', { baseURL: marketplace.baseURL });
    await buyer.page.goto(`/listing/${fake.slug}`);
    await buyer.page.getByRole('button', { name: 'Report this listing' }).click();
    const dialog = buyer.page.getByRole('dialog', { name: 'Report this listing' });
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Choose a reason from the list.' }).waitFor();
    await dialog.getByLabel('Counterfeit or not as described').check();
    await dialog.getByLabel('Details (optional)').fill('The photos are of a different edition.');
    await snapshot(buyer.page, 'report-listing-dialog-desktop', { fullPage: false });
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await toast(buyer.page, 'Thanks — we’ll review this report').waitFor();
    await dialog.waitFor({ state: 'hidden' });

    // Again while it is open: the dialog closes and says so.
    await buyer.page.getByRole('button', { name: 'Report this listing' }).click();
    await dialog.getByLabel('Prohibited item').check();
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await toast(buyer.page, 'You’ve already reported this; our team will review it.').waitFor();

    // A second report, on another listing, through the API as the web does.
    const second = await buyer.context.request.post('/trpc/community.moderation.member.listing', {
      headers: { [CLIENT_HEADER]: 'web' },
      data: { listingId: fine.id, reason: 'wrong_details', details: 'Says first edition; it is not.' },
    });
    expect(second.ok()).toBe(true);

    const { page } = staff;
    await page.goto('/admin/reports');
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    const reported = page.getByTestId('report').filter({ hasText: fake.title });
    await reported.getByText('Counterfeit or not as described').waitFor();
    await reported.getByText('“The photos are of a different edition.”').waitFor();
    await reported.getByText(/Reported by .* \(buyer@reshelf\.test\)/).waitFor();
    await reported.getByText(/^Seller: .* \(seller@reshelf\.test\)$/).waitFor();
    await noSideways(page);
    await snapshot(page, 'admin-reports-phone');

    await reported.getByRole('button', { name: 'Remove listing…' }).click();
    await reported
      .getByLabel('Reason (the member who posted it is told, and may appeal)')
      .fill('Counterfeit copy');
    await reported.getByRole('button', { name: 'Remove listing', exact: true }).click();
    await openToast(page, 'Listing removed').waitFor();
    await reported.waitFor({ state: 'detached' });

    const other = page.getByTestId('report').filter({ hasText: fine.title });
    await other.getByRole('button', { name: 'Dismiss…' }).click();
    await other
      .getByLabel('Why it needs no action (for the team; the reporter is told it stays up)')
      .fill('The edition is described correctly');
    await other.getByRole('button', { name: 'Dismiss report' }).click();
    await openToast(page, 'Report dismissed').waitFor();
    await other.waitFor({ state: 'detached' });

    await page.getByLabel('Status').selectOption('actioned');
    const actioned = page.getByTestId('report').filter({ hasText: fake.title });
    await actioned
      .getByTestId('resolution')
      .filter({ hasText: 'Actioned by moderator@reshelf.test' })
      .filter({ hasText: 'Counterfeit copy' })
      .waitFor();
    expect(new URL(page.url()).searchParams.get('status')).toBe('actioned');
    await page.getByLabel('Status').selectOption('dismissed');
    await page
      .getByTestId('report')
      .filter({ hasText: fine.title })
      .getByTestId('resolution')
      .filter({ hasText: 'The edition is described correctly' })
      .waitFor();

    // The listing is gone from the shop, and the report link with it.
    await buyer.page.goto(`/listing/${fake.slug}`);
    await buyer.page.getByText('This listing has been removed').waitFor();
    expect(await buyer.page.getByRole('button', { name: 'Report this listing' }).count()).toBe(0);

    await page.goto('/admin/audit?action=report');
    await page.getByTestId('audit-row').first().waitFor();
    expect(
      await page.getByTestId('audit-row').evaluateAll((rows) => rows.map((r) => r.dataset.action)),
    ).toEqual(['report.dismiss', 'report.action']);
    await buyer.context.close();
    await staff.context.close();
  });

  it('a buyer reports a charity’s page; its own team is refused; a moderator takes its description down', async () => {
    const slug = 'cherwell-valley-hospice-books';
    const description = 'Every book we sell is donated';

    const team = await signedIn(browser, 'charity@reshelf.test', { baseURL: marketplace.baseURL });
    await team.page.goto(`/charity/${slug}`);
    await team.page.getByRole('button', { name: 'Report this charity’s page' }).click();
    const own = team.page.getByRole('dialog', { name: 'Report this charity’s page' });
    await own.getByLabel('Spam', { exact: true }).check();
    await own.getByRole('button', { name: 'Send report' }).click();
    await own.getByText('You can’t report your own charity’s page.').waitFor();
    await team.context.close();

    const buyer = await signedIn(browser, 'buyer@reshelf.test', {
      baseURL: marketplace.baseURL,
      viewport: 'phone',
    });
    await buyer.page.goto(`/charity/${slug}`);
    await buyer.page.getByText(description).waitFor();
    await noSideways(buyer.page);
    await snapshot(buyer.page, 'charity-page-report-phone', { fullPage: false });
    await buyer.page.getByRole('button', { name: 'Report this charity’s page' }).click();
    const dialog = buyer.page.getByRole('dialog', { name: 'Report this charity’s page' });
    // A profile's reasons, fraud first; not a listing's.
    expect(await dialog.getByLabel('Prohibited item').count()).toBe(0);
    await dialog.getByLabel('Scam or fraud').check();
    await dialog.getByLabel('Details (optional)').fill('Asks for donations by bank transfer.');
    await snapshot(buyer.page, 'report-charity-dialog-phone', { fullPage: false });
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await toast(buyer.page, 'Thanks — we’ll review this report').waitFor();

    const staff = await signedIn(browser, 'moderator@reshelf.test', { baseURL: marketplace.baseURL });
    const { page } = staff;
    await page.goto('/admin/reports?kind=charity');
    const reported = page.getByTestId('report').filter({ hasText: 'Cherwell Valley Hospice Books' });
    await reported.getByText('Charity’s page', { exact: true }).waitFor();
    await reported.getByText(/owner charity@reshelf\.test/).waitFor();
    await reported.getByText('“Asks for donations by bank transfer.”').waitFor();
    await noSideways(page);
    await snapshot(page, 'admin-reports-charity-desktop');
    await reported.getByRole('button', { name: 'Remove charity’s description and logo…' }).click();
    await reported
      .getByLabel('Reason (the charity’s owner is told, and may appeal)')
      .fill('Asks for payment outside Reshelf');
    await reported
      .getByRole('button', { name: 'Remove charity’s description and logo', exact: true })
      .click();
    await openToast(page, 'Description and logo taken down').waitFor();
    await reported.waitFor({ state: 'detached' });

    // The page keeps its name and books, without the description.
    await buyer.page.reload();
    await buyer.page.getByRole('heading', { name: 'Cherwell Valley Hospice Books', level: 1 }).waitFor();
    expect(await buyer.page.getByText(description).count()).toBe(0);
    await snapshot(buyer.page, 'charity-page-taken-down-phone', { fullPage: false });
    await buyer.context.close();
    await staff.context.close();
  });

  it('a seller reports a rude offer message; a moderator removes it and the buyer’s thread says so', async () => {
    const staff = await signedIn(browser, 'moderator@reshelf.test', { baseURL: marketplace.baseURL });
    // The first test removed the newest; take another on sale.
    const listings = await sellerListings(staff.context, 5);
    const target = listings.at(-1);
    if (!target) throw new Error('the demo seller has no active listing left');
    const buyer = await signedIn(browser, 'buyer@reshelf.test', { baseURL: marketplace.baseURL });
    const made = await buyer.context.request.post('/trpc/commerce.offers.member.make', {
      headers: { [CLIENT_HEADER]: 'web' },
      data: {
        listingId: target.id,
        amountMinor: Math.ceil(target.priceMinor * 0.75),
        message: 'Take it or leave it, you thief',
      },
    });
    if (!made.ok()) throw new Error(`offer: ${made.status()} ${await made.text()}`);

    const seller = await signedIn(browser, 'seller@reshelf.test', {
      baseURL: marketplace.baseURL,
      viewport: 'phone',
    });
    await seller.page.goto('/account/offers?view=received');
    const thread = seller.page.getByTestId('offer-thread').filter({ hasText: target.title });
    await thread.getByText('“Take it or leave it, you thief”').waitFor();
    await thread.getByRole('button', { name: /^Report this message from / }).click();
    const dialog = seller.page.getByRole('dialog', { name: 'Report this message' });
    await dialog.getByLabel('Harassment or threats').check();
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await toast(seller.page, 'Thanks — we’ll review this report').waitFor();
    await noSideways(seller.page);

    // The buyer sees their own message, with nothing to report.
    await buyer.page.goto('/account/offers?view=made');
    const mine = buyer.page.getByTestId('offer-thread').filter({ hasText: target.title });
    await mine.getByText('“Take it or leave it, you thief”').waitFor();
    expect(await mine.getByRole('button', { name: /^Report/ }).count()).toBe(0);

    const { page } = staff;
    await page.goto('/admin/reports?kind=offer_message');
    // The sidebar counts the open queue: the demo seed's three and this one.
    const badge = page.getByRole('navigation', { name: 'Staff' }).getByTestId('sidebar-badge');
    await badge.filter({ hasText: /^4$/ }).waitFor();
    const report = page.getByTestId('report').filter({ hasText: 'Take it or leave it, you thief' });
    await report.getByText('Harassment or threats').first().waitFor();
    await report.getByRole('button', { name: 'Remove message…' }).click();
    await report
      .getByLabel('Reason (the member who posted it is told, and may appeal)')
      .fill('Abusive language');
    await report.getByLabel('Warn the sender by email').check();
    await report.getByRole('button', { name: 'Remove message', exact: true }).click();
    await openToast(page, 'Message removed').waitFor();
    await badge.filter({ hasText: /^3$/ }).waitFor();

    for (const [who, view] of [
      [buyer.page, 'made'],
      [seller.page, 'received'],
    ] as const) {
      await who.goto(`/account/offers?view=${view}`);
      const shown = who.getByTestId('offer-thread').filter({ hasText: target.title });
      await shown.getByTestId('message-removed').filter({ hasText: 'Message removed by Reshelf' }).waitFor();
      expect(await shown.getByText('Take it or leave it').count()).toBe(0);
    }
    const mail = await staff.context.request.get(
      `/trpc/platform.dev.mailbox?input=${encodeURIComponent(JSON.stringify({ to: 'buyer@reshelf.test' }))}`,
    );
    // The warning (and, beside it, the notice of the removal with the appeal).
    const latest = (
      (await mail.json()) as { result: { data: { template: string; text: string }[] } }
    ).result.data.find((email) => email.template === 'offer_message_removed');
    expect(latest?.text).toContain('The reason: Abusive language');
    await Promise.all([buyer.context.close(), seller.context.close(), staff.context.close()]);
  });

  it('report → outcome → appeal: the reporter is told, the seller appeals, a second member of staff upholds it', async () => {
    const moderator = await signedIn(browser, 'moderator@reshelf.test', { baseURL: marketplace.baseURL });
    const [target] = await sellerListings(moderator.context, 1);
    if (!target) throw new Error('the demo seller has no active listing left');

    const buyer = await signedIn(browser, 'buyer@reshelf.test', { baseURL: marketplace.baseURL });
    await buyer.page.goto(`/listing/${target.slug}`);
    await buyer.page.getByRole('button', { name: 'Report this listing' }).click();
    const dialog = buyer.page.getByRole('dialog', { name: 'Report this listing' });
    // Fraud is the first reason offered.
    await expect
      .poll(async () => (await dialog.getByRole('radio').first().getAttribute('value')) ?? '')
      .toBe('scam_or_fraud');
    await dialog.getByLabel('Scam or fraud').check();
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await toast(buyer.page, 'Thanks — we’ll review this report').waitFor();

    // The queue by harm: fraud first, with how long each report has waited.
    const { page } = moderator;
    await page.goto('/admin/reports');
    const groups = page.getByTestId('harm-group');
    await groups.first().waitFor();
    expect(await groups.first().getAttribute('data-harm')).toBe('fraud');
    const reported = groups.first().getByTestId('report').filter({ hasText: target.title });
    await reported
      .getByTestId('waiting')
      .filter({ hasText: /^waiting \d+ min$/ })
      .waitFor();
    await snapshot(page, 'admin-reports-by-harm-desktop', { fullPage: false });
    await reported.getByRole('button', { name: 'Remove listing…' }).click();
    await reported
      .getByLabel('Reason (the member who posted it is told, and may appeal)')
      .fill('Asking buyers to pay by bank transfer breaks our payment rules');
    await reported.getByRole('button', { name: 'Remove listing', exact: true }).click();
    await openToast(page, 'Listing removed').waitFor();

    // The reporter is told the outcome, without the note.
    await buyer.page.goto('/account/notifications');
    const outcome = buyer.page
      .getByTestId('notification')
      .filter({ hasText: 'We removed the listing you reported' })
      // Newest first: the first test's report was removed too.
      .first();
    await outcome.waitFor();
    expect(await outcome.textContent()).not.toContain('bank transfer');

    // The seller is told why and appeals.
    const seller = await signedIn(browser, 'seller@reshelf.test', {
      baseURL: marketplace.baseURL,
      viewport: 'phone',
    });
    await seller.page.goto('/account/notifications');
    await seller.page
      .getByTestId('notification')
      .filter({ hasText: `We removed your listing “${target.title}”` })
      .click();
    await seller.page.waitForURL(/\/account\/removals\//);
    await seller.page.getByTestId('removal-reason').filter({ hasText: 'bank transfer' }).waitFor();
    await seller.page.getByRole('button', { name: 'Send appeal' }).click();
    await seller.page.getByRole('alert').filter({ hasText: 'at least 10 characters' }).waitFor();
    await seller.page
      .getByLabel('Why the removal was wrong')
      .fill('I never asked anyone to pay outside Reshelf; the buyer must have mistaken me for someone else.');
    await snapshot(seller.page, 'removal-appeal-phone');
    await seller.page.getByRole('button', { name: 'Send appeal' }).click();
    await seller.page.getByTestId('appeal').and(seller.page.locator('[data-status="open"]')).waitFor();
    await noSideways(seller.page);

    // The moderator who removed it may not decide the appeal.
    await page.goto('/admin/appeals');
    const mine = page.getByTestId('appeal').filter({ hasText: target.title });
    await mine.getByTestId('not-yours').waitFor();
    expect(await mine.getByRole('button', { name: 'Decide…' }).count()).toBe(0);

    // Someone else does, and upholds it.
    const admin = await signedIn(browser, 'admin@reshelf.test', {
      baseURL: marketplace.baseURL,
      viewport: 'phone',
    });
    await admin.page.goto('/admin/appeals');
    const appeal = admin.page.getByTestId('appeal').filter({ hasText: target.title });
    await appeal.getByTestId('appeal-text').filter({ hasText: 'mistaken me' }).waitFor();
    await appeal.getByRole('button', { name: 'Decide…' }).click();
    await appeal
      .getByLabel('What you decided and why (the member reads it)')
      .fill('The report was mistaken: the listing is fine.');
    await snapshot(admin.page, 'admin-appeals-phone');
    await appeal.getByRole('button', { name: 'Uphold: put it back' }).click();
    await openToast(admin.page, 'Appeal upheld: the content is back').waitFor();

    // The seller sees the decision, and the listing is back on sale.
    await seller.page.reload();
    await seller.page.getByTestId('appeal-decision').filter({ hasText: 'The report was mistaken' }).waitFor();
    await buyer.page.goto(`/listing/${target.slug}`);
    await buyer.page.getByRole('button', { name: 'Report this listing' }).waitFor();
    expect(await buyer.page.getByText('This listing has been removed').count()).toBe(0);
    await Promise.all([
      buyer.context.close(),
      seller.context.close(),
      moderator.context.close(),
      admin.context.close(),
    ]);
  });
});
