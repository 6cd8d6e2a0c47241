/**
 * /global-admin in a real browser: platform health for every tier; a super admin
 * grants, changes and deactivates an admin record; a support agent drafts an email and sends
 * themselves a test, and an ops admin publishes it. Changes admin records and templates that
 * other tests rely on, so this file runs against a marketplace of its own.
 */
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedIn, toast } from '../support/auth.ts';
import { snapshot } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

const open = (email: string, viewport: 'desktop' | 'phone' = 'desktop') =>
  signedIn(browser, email, { baseURL: marketplace.baseURL, viewport });

async function noHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}

describe('global admin', () => {
  it('a super admin sees platform health and grants, changes and deactivates a tier', async () => {
    // A message the mail server refused for good, as the sender records it.
    const client = new pg.Client({ connectionString: marketplace.databaseUrl });
    await client.connect();
    try {
      await client.query(
        `insert into email_outbox (to_address, subject, text_body, html_body, template, message_id,
           status, attempts, last_attempt_at, failed_at, last_error)
         values ('nobody@example.com', 'Order confirmed', 'x', '<p>x</p>', 'order.placed',
           '<e2e-failed@reshelf.test>', 'failed', 1, now(), now(), 'SMTP (RCPT TO): 550 No such mailbox')`,
      );
    } finally {
      await client.end();
    }
    const { context, page } = await open('super@reshelf.test');
    await page.goto('/global-admin');
    const database = page.getByTestId('health-database');
    await database.locator('[data-testid="health-status"][data-status="ok"]').waitFor();
    expect(await database.getByTestId('database-migrations').textContent()).toMatch(/^\d+ applied$/);
    // This marketplace runs no job runner, and the panel says so rather than looking healthy.
    const jobs = page.getByTestId('health-job-runner');
    await jobs.getByText('offers.expire has never run').waitFor();
    expect(await jobs.getByTestId('health-status').getAttribute('data-status')).toBe('failing');
    const mail = page.getByTestId('health-mail-outbox');
    await mail.getByTestId('mail-sent').waitFor();
    await mail.getByText('1 message failed in the last 24 hours').waitFor();
    expect(await mail.getByTestId('health-status').getAttribute('data-status')).toBe('warning');
    expect(await mail.getByTestId('mail-transport').textContent()).toBe('the dev mailbox (nothing leaves)');
    expect(await mail.getByTestId('mail-failed').textContent()).toBe('1');
    expect(await mail.getByTestId('mail-errors').textContent()).toMatch(
      /order\.placed · failed after 1 attempt\s*SMTP \(RCPT TO\): 550 No such mailbox/,
    );

    await page.getByRole('button', { name: 'Grant a tier' }).click();
    const grant = page.getByRole('dialog', { name: 'Grant a global-admin tier' });
    await grant.getByLabel('Email address').fill('nobody-here@reshelf.test');
    await grant.getByRole('button', { name: 'Grant the tier' }).click();
    await grant.getByText('No account has the email nobody-here@reshelf.test').waitFor();
    await grant.getByLabel('Email address').fill('seller@reshelf.test');
    await grant.getByLabel('Tier').selectOption('support_agent');
    await grant.getByRole('button', { name: 'Grant the tier' }).click();
    await toast(page, 'seller@reshelf.test is now support_agent.').waitFor();
    const record = page.locator('[data-testid="admin-record"][data-email="seller@reshelf.test"]');
    await record.getByText('support_agent').waitFor();

    await record.getByRole('button', { name: 'Change tier' }).click();
    const change = page.getByRole('dialog', { name: 'Change seller@reshelf.test’s tier' });
    await change.getByLabel('Tier').selectOption('read_only');
    await change.getByRole('button', { name: 'Change the tier' }).click();
    await record.getByText('read_only').waitFor();

    await record.getByRole('button', { name: 'Deactivate' }).click();
    await page
      .getByRole('dialog', { name: 'Deactivate seller@reshelf.test?' })
      .getByRole('button', { name: 'Deactivate' })
      .click();
    await toast(page, 'Admin record deactivated').waitFor();
    await record.getByText('Inactive').waitFor();
    await record.getByRole('button', { name: 'Reactivate' }).waitFor();
    // Their own record has no buttons: a super admin cannot lock themselves out.
    const own = page.locator('[data-testid="admin-record"][data-email="super@reshelf.test"]');
    expect(await own.getByRole('button').count()).toBe(0);
    await snapshot(page, 'global-admin-super-desktop');
    await context.close();
  });

  it('read_only sees health and the records, with nothing to change, on a phone', async () => {
    const { context, page } = await open('readonly@reshelf.test', 'phone');
    await page.goto('/global-admin');
    await page.getByTestId('health-database').getByTestId('database-round-trip').waitFor();
    await page.getByText('Only super admins change them.').waitFor();
    expect(await page.getByRole('button', { name: 'Grant a tier' }).count()).toBe(0);
    await noHorizontalScroll(page);
    await snapshot(page, 'global-admin-read-only-phone');
    await context.close();
  });

  it('a support agent drafts an email and tests it; an ops admin publishes it', async () => {
    const support = await open('support@reshelf.test');
    await support.page.goto('/global-admin/email-templates?template=reset-password');
    const editor = support.page.getByTestId('global-template-editor');
    await editor.getByText('No draft. You are editing a copy of the wording in use.').waitFor();
    await editor.getByLabel('Subject').fill('Choose a new Reshelf password');
    await editor.getByLabel('Body').fill('Hello,\n\nChoose a new password: {{url}}\n\nIt works once.');
    await editor.getByRole('button', { name: 'Preview' }).click();
    await editor.getByTestId('template-preview-subject').getByText('Choose a new Reshelf password').waitFor();
    await editor.getByRole('button', { name: 'Send a test to me' }).click();
    await toast(
      support.page,
      '“[Test] Choose a new Reshelf password” went to support@reshelf.test.',
    ).waitFor();
    await editor.getByRole('button', { name: 'Save draft' }).click();
    await toast(support.page, 'Draft saved').waitFor();
    await editor.getByText(/^Draft by support@reshelf\.test on .+, waiting to be published\./).waitFor();
    expect(await editor.getByRole('button', { name: 'Publish draft' }).count()).toBe(0);
    await editor.getByText('An ops admin or above publishes drafts.').waitFor();
    await support.context.close();

    const ops = await open('ops@reshelf.test');
    await ops.page.goto('/global-admin/email-templates?template=reset-password');
    const opsEditor = ops.page.getByTestId('global-template-editor');
    expect(await opsEditor.getByLabel('Subject').inputValue()).toBe('Choose a new Reshelf password');
    await opsEditor.getByRole('button', { name: 'Publish draft' }).click();
    await toast(ops.page, 'Draft published').waitFor();
    await opsEditor.getByText('No draft. You are editing a copy of the wording in use.').waitFor();
    await ops.page
      .getByTestId('email-template')
      .filter({ hasText: 'reset-password' })
      .getByText('Edited')
      .waitFor();
    await snapshot(ops.page, 'global-admin-templates-desktop');
    await ops.context.close();
  });

  it('an admin record lookup that fails says "Failed to verify admin access", and works again on retry', async () => {
    const { context, page } = await open('super@reshelf.test');
    const db = new pg.Client({ connectionString: marketplace.databaseUrl });
    await db.connect();
    try {
      // The admin record cannot be read (a broken table), so the check itself fails: not a denial.
      await db.query('alter table public.admin_users rename to admin_users_unreadable');
      await page.goto('/global-admin');
      await toast(page, 'Failed to verify admin access').waitFor();
      const failed = page.getByRole('alert').filter({ hasText: 'Failed to verify admin access' });
      await failed.waitFor();
      expect(await toast(page, 'Access denied: Admin privileges required').count()).toBe(0);
      expect(new URL(page.url()).pathname).toBe('/global-admin');
      await snapshot(page, 'global-admin-verify-failed-desktop');
      await page.setViewportSize({ width: 390, height: 844 });
      await noHorizontalScroll(page);
      await snapshot(page, 'global-admin-verify-failed-phone');

      await db.query('alter table public.admin_users_unreadable rename to admin_users');
      await failed.getByRole('button', { name: 'Try again' }).click();
      await page.getByTestId('health-database').waitFor();
    } finally {
      await db.query('alter table if exists public.admin_users_unreadable rename to admin_users');
      await db.end();
      await context.close();
    }
  });
});
