/**
 * /admin/users in a real browser: the shared basic dashboard on top; the demo admin
 * finds a person, suspends them (their open session stops on its next request), restores them
 * and grants then revokes moderator; each action is in the audit log. A moderator is refused.
 * Suspending changes who may sign in, so this file runs against a marketplace of its own.
 */
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openToast, signedIn } from '../support/auth.ts';
import { snapshot } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

describe('admin users', () => {
  it('finds a person, suspends them so their session stops, restores them, and grants moderator', async () => {
    const buyer = await signedIn(browser, 'buyer@reshelf.test', { baseURL: marketplace.baseURL });
    expect((await buyer.context.request.get('/trpc/account.member.profile')).status()).toBe(200);

    const { context, page } = await signedIn(browser, 'admin@reshelf.test', {
      baseURL: marketplace.baseURL,
      viewport: 'phone',
    });
    await page.goto('/admin/users?q=buyer%40reshelf');
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.getByTestId('basic-dashboard').getByTestId('metric-listings-value').waitFor();
    const row = page.getByTestId('user-row').filter({ hasText: 'buyer@reshelf.test' });
    await row.click();
    const detail = page.getByTestId('user-detail');
    await detail.getByRole('heading', { name: 'buyer@reshelf.test' }).waitFor();

    // A reason is required.
    await detail.getByRole('button', { name: 'Suspend' }).click();
    await openToast(page, 'Account not changed').waitFor();
    await detail.getByLabel('Why suspend this account?').fill('Chargeback fraud');
    await detail.getByRole('button', { name: 'Suspend' }).click();
    await openToast(page, 'Account suspended').waitFor();
    await detail.getByTestId('user-status').getByText('suspended').waitFor();
    await snapshot(page, 'admin-users-suspended-phone');

    // The buyer's open session ends on its next request, saying why.
    const after = await buyer.context.request.get('/trpc/account.member.profile');
    expect(after.status()).toBe(401);
    expect(((await after.json()) as { error: { message: string } }).error.message).toBe(
      'This account is suspended. Contact us if you think this is a mistake.',
    );

    await detail.getByLabel('Why restore this account?').fill('Bank confirmed the payment');
    await detail.getByRole('button', { name: 'Unsuspend' }).click();
    await openToast(page, 'Account restored').waitFor();
    await detail.getByTestId('user-status').getByText('active').waitFor();

    await detail.getByRole('button', { name: 'Grant moderator' }).click();
    await openToast(page, 'Moderator role granted').waitFor();
    await detail.getByRole('button', { name: 'Revoke moderator' }).click();
    await openToast(page, 'Moderator role revoked').waitFor();
    await detail.getByRole('button', { name: 'Grant moderator' }).waitFor();

    // Each action is in the audit log.
    await page.goto('/admin/audit?action=user');
    await page.getByTestId('audit-row').first().waitFor();
    expect(
      await page.getByTestId('audit-row').evaluateAll((rows) => rows.map((row) => row.dataset.action)),
    ).toEqual(['user.revoke_moderator', 'user.grant_moderator', 'user.unsuspend', 'user.suspend']);
    await context.close();
    await buyer.context.close();
  });

  it('refuses a moderator', async () => {
    const { context, page } = await signedIn(browser, 'moderator@reshelf.test', {
      baseURL: marketplace.baseURL,
    });
    await page.goto('/admin/users');
    await page.getByTestId('users-page').getByText('Access denied: admin role required').first().waitFor();
    await context.close();
  });
});
