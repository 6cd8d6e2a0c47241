/**
 * /admin/listings in a real browser: a moderator finds a seller's listing, removes it
 * with a reason (the listing page then says it is unavailable, the seller has the email in the
 * dev mailbox), and restores it; both actions are in the audit log. Removing changes what
 * every visitor sees, so this file runs against a marketplace of its own.
 */
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openToast, signedIn } from '../support/auth.ts';
import { snapshot } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

describe('admin listings', () => {
  it('a moderator removes a listing with a reason and restores it', async () => {
    const { context, page } = await signedIn(browser, 'moderator@reshelf.test', {
      baseURL: marketplace.baseURL,
    });
    await page.goto('/admin/listings?seller=seller%40reshelf.test&status=active');
    await page.getByRole('heading', { name: 'Listings', level: 1 }).waitFor();
    const row = page.getByTestId('staff-listing').first();
    await row.waitFor();
    expect(await page.getByLabel('Status').inputValue()).toBe('active');
    const link = row.getByRole('link').first();
    const title = (await link.textContent())!;
    const href = (await link.getAttribute('href'))!;

    await row.getByRole('button', { name: 'Remove…' }).click();
    await row.getByLabel('Reason (the seller is told)').fill('Photos show a different edition');
    await row.getByRole('button', { name: 'Remove listing' }).click();
    await openToast(page, 'Listing removed').waitFor();
    // It leaves the active filter; find it among the removed ones.
    await page.goto('/admin/listings?seller=seller%40reshelf.test&status=removed');
    const removed = page.getByTestId('staff-listing').filter({ hasText: title });
    await removed.getByText('Removed: Photos show a different edition').waitFor();
    await snapshot(page, 'admin-listings-removed-desktop');

    const mail = await context.request.get(
      `/trpc/platform.dev.mailbox?input=${encodeURIComponent(JSON.stringify({ to: 'seller@reshelf.test' }))}`,
    );
    expect(mail.ok()).toBe(true);
    const [latest] = ((await mail.json()) as { result: { data: { template: string; text: string }[] } })
      .result.data;
    // The seller is told why and how to appeal (decision 0077).
    expect(latest?.template).toBe('safety.content_removed');
    expect(latest?.text).toContain('The reason: Photos show a different edition');

    await page.goto(href);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await page.getByText('This listing has been removed').waitFor();
    expect(await page.getByRole('link', { name: 'Buy now' }).count()).toBe(0);

    await page.goto('/admin/listings?seller=seller%40reshelf.test&status=removed');
    await removed.getByRole('button', { name: 'Restore…' }).click();
    await removed.getByLabel('Reason (the seller is told)').fill('Seller sent the right photos');
    await removed.getByRole('button', { name: 'Restore listing' }).click();
    await openToast(page, 'Listing restored').waitFor();

    await page.goto('/admin/audit?action=listing');
    await page.getByTestId('audit-row').first().waitFor();
    // Newest first: this test's two (the demo seed's removal under appeal comes after them).
    expect(
      (await page.getByTestId('audit-row').evaluateAll((rows) => rows.map((r) => r.dataset.action))).slice(
        0,
        2,
      ),
    ).toEqual(['listing.restore', 'listing.remove']);
    await context.close();
  });
});
