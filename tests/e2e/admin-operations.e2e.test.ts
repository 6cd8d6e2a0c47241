/**
 * The staff area's working pages in a real browser, signed in as the demo admin and
 * moderator: resolve a shipping dispute with a refund, curate the staff picks the home page
 * then shows, edit an email template, preview it and send a test to the dev mailbox, switch a
 * feature flag, export last month's orders as CSV, and find each action in the audit log. A
 * moderator does the queue work but cannot change roles, settings or templates.
 *
 * Flags and staff picks change what every visitor sees, so this file runs against a
 * marketplace of its own (tests/support/server.ts).
 */
import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { refundDispute } from '../support/admin.ts';
import { openToast, signInViaApi } from '../support/auth.ts';
import { snapshot, VIEWPORTS } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

async function staffPage(
  email = 'admin@reshelf.test',
  viewport: keyof typeof VIEWPORTS = 'desktop',
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: marketplace.baseURL,
    viewport: VIEWPORTS[viewport],
    acceptDownloads: true,
  });
  await context.addInitScript(() => {
    localStorage.setItem('cookie-consent', 'declined');
    localStorage.setItem('has-visited', 'true');
  });
  await signInViaApi(context, email);
  return { context, page: await context.newPage() };
}

async function api<T>(context: BrowserContext, path: string, input?: unknown): Promise<T> {
  const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const response = await context.request.get(`/trpc/${path}${query}`);
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

describe('admin operations', () => {
  it('resolves a shipping dispute with a refund, and the queue moves on', async () => {
    const { context, page } = await staffPage();
    await page.goto('/admin/shipping-disputes');
    const row = page.getByTestId('dispute-row').first();
    await row.waitFor();
    const reference = (await row.getAttribute('data-reference'))!;
    await refundDispute(page, row);
    await expect
      .poll(() => page.locator(`[data-testid="dispute-row"][data-reference="${reference}"]`).count())
      .toBe(0);
    await context.close();
  });

  it('curates the staff picks that the home page then shows, in that order', async () => {
    const { context, page } = await staffPage();
    await page.goto('/admin/staff-picks');
    await page.getByRole('heading', { name: 'Staff picks', level: 1 }).waitFor();
    const picks = page.getByTestId('staff-pick');
    await picks.first().waitFor();
    const picked = await picks.locator('p.font-semibold a').allTextContents();
    await page.getByLabel('Listing on sale').fill('the');
    await page.getByLabel('Note (optional)').fill('Our favourite this month');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByTestId('pick-candidate').first().waitFor();
    // A book not already picked, so its "Move … up" button is the only one with that name.
    const titles = await page.getByTestId('pick-candidate').locator('span.font-semibold').allTextContents();
    const title = titles.find(
      (text) =>
        !picked.some((shown) => shown.startsWith(text)) && titles.filter((t) => t === text).length === 1,
    )!;
    expect(title).toBeTruthy();
    const candidate = page.getByTestId('pick-candidate').filter({ hasText: title });
    await candidate.getByRole('button', { name: 'Add' }).click();
    await openToast(page, 'Pick added').waitFor();

    // Move the new pick (last) to the top.
    await picks.filter({ hasText: title }).waitFor();
    for (;;) {
      const titles = await picks.locator('p.font-semibold a').allTextContents();
      const index = titles.findIndex((text) => text.startsWith(title));
      if (index === 0) break;
      await page.getByRole('button', { name: `Move ${title} up` }).click();
      await page.locator('[data-testid="staff-picks"][aria-busy="false"]').waitFor();
      await expect
        .poll(async () =>
          (await picks.locator('p.font-semibold a').allTextContents()).findIndex((t) => t.startsWith(title)),
        )
        .toBe(index - 1);
    }
    await snapshot(page, 'admin-staff-picks-desktop');
    const adminOrder = await picks.locator('p.font-semibold a').allTextContents();

    await page.goto('/');
    const shelf = page.getByTestId('staff-picks');
    await shelf.getByTestId('listing-card').first().waitFor();
    const shown = await shelf.getByTestId('listing-card').locator('h3').allTextContents();
    expect(shown[0]).toBe(title);
    expect(shown).toEqual(adminOrder.filter((text) => shown.includes(text)).slice(0, shown.length));
    await shelf.getByText('Our favourite this month').first().waitFor();
    await context.close();
  });

  it('edits an email template, previews it, sends a test to the dev mailbox and publishes it', async () => {
    const { context, page } = await staffPage();
    await page.goto('/admin/emails?template=reset-password');
    const editor = page.getByTestId('email-template-editor');
    await editor.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByLabel('Subject').fill('Choose a new Reshelf password');
    await page
      .getByLabel('Body')
      .fill('Hello from Reshelf.\n\nPick a new password: {{url}}\n\nIt works once.');

    // A variable the email does not have is explained, not saved.
    await page.getByLabel('Body').press('End');
    await page.getByLabel('Body').pressSequentially(' {{displayName}}');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page
      .getByTestId('template-problem')
      .getByText('{{displayName}}, which this email does not have')
      .waitFor();
    await page
      .getByLabel('Body')
      .fill('Hello from Reshelf.\n\nPick a new password: {{url}}\n\nIt works once.');
    await page.getByRole('button', { name: 'Preview' }).click();
    expect(await page.getByTestId('template-preview-subject').textContent()).toBe(
      'Choose a new Reshelf password',
    );
    await page
      .frameLocator('iframe[title="Email preview"]')
      .getByText('Pick a new password: https://reshelf.example/…')
      .waitFor();
    await snapshot(page, 'admin-emails-desktop');

    await page.getByRole('button', { name: 'Send a test to me' }).click();
    await openToast(page, 'Test email sent').waitFor();
    const mailbox = await api<{ subject: string; text: string }[]>(context, 'platform.dev.mailbox', {
      to: 'admin@reshelf.test',
    });
    expect(mailbox[0]).toMatchObject({ subject: '[Test] Choose a new Reshelf password' });
    // The test email's links lead to this site, not to the preview's sample domain.
    expect(mailbox[0]!.text).toContain(`Pick a new password: ${marketplace.baseURL}/…`);

    await page.getByRole('button', { name: 'Save and publish' }).click();
    await openToast(page, 'Template published').waitFor();
    await page
      .getByTestId('email-template-item')
      .filter({ hasText: 'Reset your password' })
      .getByText('Edited')
      .waitFor();
    await context.close();
  });

  it('switches a feature flag off, and the welcome gift follows', async () => {
    const { context, page } = await staffPage();
    await page.goto('/admin/settings');
    const gift = page.getByRole('switch', { name: 'welcome_gift: on' });
    expect(await gift.getAttribute('aria-checked')).toBe('true');
    await gift.click();
    await openToast(page, 'welcome_gift is off').waitFor();
    await page.getByRole('switch', { name: 'welcome_gift: off' }).waitFor();
    expect(await api<Record<string, boolean>>(context, 'platform.flags.public')).toMatchObject({
      welcome_gift: false,
    });
    await context.close();
  });

  it('exports last month’s orders as CSV', async () => {
    const { context, page } = await staffPage();
    await page.goto('/admin/exports');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-orders').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^reshelf-orders-\d{4}-\d{2}-01-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = await readFile((await download.path())!, 'utf8');
    const [header] = text.replace(/^\uFEFF/, '').split(/\r?\n/);
    expect(header).toBe(
      'reference,status,paid_at,title,books,buyer_email,seller_email,charity_sale,item_price_gbp,bundle_discount_gbp,postage_gbp,buyer_protection_gbp,buyer_protection_vat_gbp,discount_gbp,discount_code,total_gbp,refunded_gbp',
    );
    // The same period's books, one row each.
    const [items] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-order_items').click(),
    ]);
    expect(items.suggestedFilename()).toMatch(
      /^reshelf-order_items-\d{4}-\d{2}-01-to-\d{4}-\d{2}-\d{2}\.csv$/,
    );
    const [itemsHeader] = (await readFile((await items.path())!, 'utf8'))
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/);
    expect(itemsHeader).toBe(
      'order_reference,status,paid_at,position,title,isbn13,seller_email,charity_sale,price_gbp,bundle_discount_gbp,discount_gbp,buyer_protection_gbp,paid_gbp,refunded_gbp',
    );
    await context.close();
  });

  it('finds each of those actions in the audit log', async () => {
    const { context, page } = await staffPage();
    await page.goto('/admin/audit');
    await page.getByTestId('audit-table').waitFor();
    const actions = await page
      .getByTestId('audit-row')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-action')));
    for (const action of [
      // The one decide path's action (commerce.disputes.staff.decide: refund the buyer in full).
      'dispute.decide_full_refund',
      'staff_pick.add',
      'email_template.sendTest',
      'email_template.update',
      'feature_flag.toggle',
      'export.orders',
    ]) {
      expect(actions, action).toContain(action);
    }
    // Filtered by action and by who.
    await page.getByLabel('Action').selectOption('feature_flag.toggle');
    await page.getByLabel('Staff member').fill('admin@reshelf');
    await page.getByRole('button', { name: 'Search the log' }).click();
    await page.waitForURL(/action=feature_flag.toggle/);
    await expect
      .poll(() =>
        page
          .getByTestId('audit-row')
          .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-action'))),
      )
      .toEqual(['feature_flag.toggle']);
    await page.getByTestId('audit-row').getByText('admin@reshelf.test').waitFor();
    await snapshot(page, 'admin-audit-desktop');
    await context.close();
  });

  it('a moderator works the queues and curates picks but cannot change roles, settings or templates', async () => {
    const { context, page } = await staffPage('moderator@reshelf.test', 'phone');
    await page.goto('/admin/disputes');
    await page.getByRole('heading', { name: 'Disputes', level: 1 }).waitFor();
    await page.goto('/admin/staff-picks');
    await page.getByTestId('staff-pick').first().waitFor();
    await page.goto('/admin/users');
    await page.getByTestId('users-page').getByText('Access denied: admin role required').first().waitFor();
    await page.goto('/admin/settings');
    await page.getByRole('switch', { name: /^welcome_gift/ }).click();
    await openToast(page, 'Flag not changed').getByText('Access denied: admin role required').waitFor();
    expect(await api<Record<string, boolean>>(context, 'platform.flags.public')).toMatchObject({
      welcome_gift: false,
    });
    await page.goto('/admin/emails');
    await page.getByText('Only admins can change or test emails.').waitFor();
    expect(await page.getByRole('button', { name: 'Save and publish' }).count()).toBe(0);
    await snapshot(page, 'admin-emails-moderator-phone');
    await context.close();
  });
});
