/**
 * The staff area and global admin guards in a real browser: the 403 page, the four
 * global admin toasts and where each sends the person.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pathOf, signInViaApi, toast } from '../support/auth.ts';
import { newPage, snapshot, withBrowser } from '../support/browser.ts';

const FORBIDDEN_TEXT = "You don't have permission to access the admin portal with your current account.";

let browser: Browser;
withBrowser((launched) => (browser = launched));

async function noHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}

describe('staff area', () => {
  it('shows the 403 page to a signed-in buyer', async () => {
    for (const viewport of ['desktop', 'phone'] as const) {
      const { context, page } = await newPage(browser, viewport);
      await signInViaApi(context, 'buyer@reshelf.test');
      await page.goto('/admin');
      const forbidden = page.getByTestId('forbidden');
      await forbidden.waitFor();
      await forbidden.getByRole('heading', { name: '403 Forbidden' }).waitFor();
      expect(await page.getByTestId('forbidden-message').textContent()).toBe(FORBIDDEN_TEXT);
      expect(pathOf(page)).toBe('/admin');
      await noHorizontalScroll(page);
      await snapshot(page, `auth-403-${viewport}`);
      // Every page below /admin is behind the same guard.
      await page.goto('/admin/users');
      await forbidden.getByRole('heading', { name: '403 Forbidden' }).waitFor();
      await context.close();
    }
  });

  it('shows the skeleton while access is checked, then the staff dashboard to a moderator', async () => {
    const { context, page } = await newPage(browser, 'desktop');
    await signInViaApi(context, 'moderator@reshelf.test');
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(
      (url) => url.pathname.includes('staff.dashboard.access'),
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await page.goto('/admin');
    await page.getByRole('status', { name: 'Checking your access' }).waitFor();
    release();
    await page.getByTestId('staff-dashboard').getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(await page.getByTestId('staff-signed-in-as').textContent()).toContain(
      'moderator@reshelf.test · moderator',
    );
    await context.close();
  });

  it('lets an admin in, and sends a signed-out visitor to /login and back', async () => {
    const { context, page } = await newPage(browser, 'desktop');
    await page.goto('/admin');
    await page.waitForURL('**/login?next=%2Fadmin');
    await signInViaApi(context, 'admin@reshelf.test');
    await page.goto('/admin');
    const signedInAs = page.getByTestId('staff-signed-in-as');
    await signedInAs.getByText('Alex Admin').waitFor();
    expect(await signedInAs.textContent()).toContain('admin@reshelf.test · admin');
    await page.getByTestId('staff-dashboard').waitFor();
    await snapshot(page, 'auth-staff-home-desktop');
    // Unknown staff pages are not found, inside the guard and the staff frame.
    await page.goto('/admin/no-such-page');
    await page.getByTestId('not-found').waitFor();
    await page.getByTestId('staff-sidebar').waitFor();
    await context.close();
  });
});

describe('global admin', () => {
  it('signed out → /login with "Please log in to access the admin panel"', async () => {
    const { context, page } = await newPage(browser, 'desktop');
    await page.goto('/global-admin');
    await toast(page, 'Please log in to access the admin panel').waitFor();
    await page.waitForURL('**/login?next=%2Fglobal-admin');
    await context.close();
  });

  it('no admin record → / with "Access denied: Admin privileges required"', async () => {
    const { context, page } = await newPage(browser, 'desktop');
    await signInViaApi(context, 'buyer@reshelf.test');
    await page.goto('/global-admin');
    await toast(page, 'Access denied: Admin privileges required').waitFor();
    await page.waitForURL((url) => url.pathname === '/');
    // A staff role is not an admin record.
    await signInViaApi(context, 'moderator@reshelf.test');
    await page.goto('/global-admin/email-templates');
    await toast(page, 'Access denied: Admin privileges required').waitFor();
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });

  it('too low a tier → /admin with "Access denied: support_agent role required"', async () => {
    const { context, page } = await newPage(browser, 'desktop');
    await signInViaApi(context, 'readonly@reshelf.test');
    await page.goto('/global-admin');
    await page.getByTestId('your-tier').getByText('read_only').waitFor();
    await page.goto('/global-admin/email-templates');
    await toast(page, 'Access denied: support_agent role required').waitFor();
    await page.waitForURL((url) => url.pathname === '/admin');
    // read_only has no staff role, so /admin itself answers 403.
    await page.getByTestId('forbidden').waitFor();
    await snapshot(page, 'auth-global-admin-denied-desktop');
    await context.close();
  });

  it('ops_admin reaches both pages', async () => {
    for (const viewport of ['desktop', 'phone'] as const) {
      const { context, page } = await newPage(browser, viewport);
      await signInViaApi(context, 'ops@reshelf.test');
      await page.goto('/global-admin');
      await page.getByTestId('your-tier').getByText('ops_admin').waitFor();
      await page.getByText('Level 3 of 4').waitFor();
      const admins = page.getByRole('region', { name: 'Admin users' });
      await admins.getByText('super@reshelf.test').filter({ visible: true }).waitFor();
      for (const email of ['ops@reshelf.test', 'support@reshelf.test', 'readonly@reshelf.test']) {
        expect(await admins.getByText(email).filter({ visible: true }).count()).toBe(1);
      }
      await noHorizontalScroll(page);
      await snapshot(page, `auth-global-admin-${viewport}`);

      await page
        .getByRole('navigation', { name: 'Global admin' })
        .getByRole('link', { name: 'Email templates' })
        .click();
      await page.waitForURL('**/global-admin/email-templates');
      const templates = page.getByTestId('email-template');
      await templates.first().waitFor();
      await templates.filter({ hasText: 'confirm-signup' }).getByRole('button').click();
      const editor = page.getByTestId('global-template-editor');
      await editor
        .getByText('Sent when: Someone signs up, or asks for the confirmation link again.')
        .waitFor();
      expect(await editor.getByLabel('Subject').inputValue()).toBe('Confirm your email address');
      expect(await templates.count()).toBeGreaterThanOrEqual(3);
      await noHorizontalScroll(page);
      if (viewport === 'desktop') await snapshot(page, 'auth-global-admin-templates-desktop');
      await context.close();
    }
  });

  it('a failed check → "Failed to verify admin access", and trying again recovers', async () => {
    const { context, page } = await newPage(browser, 'desktop');
    await signInViaApi(context, 'super@reshelf.test');
    let failing = true;
    await page.route(
      (url) => url.pathname.includes('staff.globalAdmin.overview'),
      (route) => (failing ? route.abort('failed') : route.continue()),
    );
    await page.goto('/global-admin');
    await toast(page, 'Failed to verify admin access').waitFor();
    const problem = page.getByRole('alert').filter({ hasText: 'Failed to verify admin access' });
    await problem.waitFor();
    expect(pathOf(page)).toBe('/global-admin');
    failing = false;
    await problem.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('your-tier').getByText('super_admin').waitFor();
    await context.close();
  });

  it('the server is the authority: its FORBIDDEN answers lead to the same toasts', async () => {
    const { context, page } = await newPage(browser, 'desktop');
    await signInViaApi(context, 'support@reshelf.test');
    // auth.me says support_agent may open email templates; pretend the server has since said no.
    // The procedure may share a batch with others the shell asks for (unread counts): those get
    // their real answers, and only its own place in the batch is the refusal.
    const refusal = {
      error: {
        message: 'Access denied: support_agent role required',
        code: -32003,
        data: { code: 'FORBIDDEN', httpStatus: 403, path: 'staff.globalAdmin.emailTemplates' },
      },
    };
    await page.route(
      (url) => url.pathname.includes('staff.globalAdmin.emailTemplates'),
      async (route) => {
        const names = decodeURIComponent(new URL(route.request().url()).pathname)
          .replace(/^.*\/trpc\//, '')
          .split(',');
        if (names.length === 1) {
          await route.fulfill({
            status: 403,
            contentType: 'application/json',
            body: JSON.stringify([refusal]),
          });
          return;
        }
        const real = (await (await route.fetch()).json()) as unknown[];
        const answers = names.map((name, index) =>
          name === 'staff.globalAdmin.emailTemplates' ? refusal : real[index],
        );
        await route.fulfill({ status: 207, contentType: 'application/json', body: JSON.stringify(answers) });
      },
    );
    await page.goto('/global-admin/email-templates');
    await toast(page, 'Access denied: support_agent role required').waitFor();
    await page.waitForURL((url) => url.pathname === '/admin');
    await context.close();
  });
});
