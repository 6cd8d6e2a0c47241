/**
 * Closing an account in a real browser: a new member (signed up and confirmed through the API)
 * opens /account/settings, reads the "Close your account" section at its end, is refused with a
 * wrong password (the server's message in the dialog), then closes the account with the right
 * one and the word CLOSE: they land on / signed out, told "Your account is closed", and signing
 * in again fails. It changes accounts, so this file runs against a marketplace of its own.
 */
import { CLIENT_HEADER } from '@reshelf/contracts';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SIGN_IN_TO_CONTINUE } from '../../web/src/account/auth/sign-in-words.ts';
import {
  createConfirmedAccount,
  headerShows,
  pathOf,
  signedIn,
  toast,
  uniqueEmail,
} from '../support/auth.ts';
import { snapshot, VIEWPORTS } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

const PASSWORD = 'a-long-enough-password-42';

describe('closing an account', { timeout: 120_000 }, () => {
  it('closes from /account/settings, lands on / signed out, and cannot sign in again', async () => {
    const email = uniqueEmail('closing');
    const setup = await browser.newContext({ baseURL: marketplace.baseURL });
    await createConfirmedAccount(setup, email, PASSWORD, 'Closing Reader');

    const { context, page } = await signedIn(browser, email, {
      baseURL: marketplace.baseURL,
      password: PASSWORD,
    });
    await page.goto('/account/settings');
    const section = page.getByTestId('close-account');
    await section.getByRole('heading', { name: 'Close your account' }).waitFor();
    expect(await section.textContent()).toContain('six years');
    await section.scrollIntoViewIfNeeded();
    await snapshot(page, 'close-account-section-desktop');
    await page.setViewportSize(VIEWPORTS.phone);
    await section.scrollIntoViewIfNeeded();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await snapshot(page, 'close-account-section-phone', { fullPage: false });

    // A wrong password: the server's message, in the dialog, and nothing closed.
    await section.getByRole('button', { name: 'Close my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Close your account for ever?' });
    await dialog.getByLabel('Your current password').fill('not-the-password');
    await dialog.getByLabel('Type CLOSE to confirm').fill('CLOSE');
    await dialog.getByRole('button', { name: 'Close my account' }).click();
    await dialog
      .getByText('That password is not right. Enter your current password to close your account.')
      .waitFor();
    await snapshot(page, 'close-account-dialog-refused-phone', { fullPage: false });
    await page.setViewportSize(VIEWPORTS.desktop);

    // The right password: closed, signed out, home.
    await dialog.getByLabel('Your current password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Close my account' }).click();
    await toast(page, 'Your account is closed').waitFor();
    await expect.poll(() => pathOf(page), { timeout: 15_000 }).toBe('/');
    await headerShows(page, 'signed-out');
    // And stays there: no guard sends the person on to /login afterwards.
    await page.waitForLoadState('networkidle');
    expect(pathOf(page)).toBe('/');
    expect(await page.getByText(SIGN_IN_TO_CONTINUE).count()).toBe(0);
    await snapshot(page, 'close-account-closed-home-desktop', { fullPage: false });

    // The session is gone on the server too, and the old password no longer signs in.
    const me = await context.request.get('/trpc/account.auth.me');
    expect(((await me.json()) as { result: { data: { user: unknown } } }).result.data.user).toBeNull();
    const again = await context.request.post('/trpc/account.auth.signIn', {
      headers: { [CLIENT_HEADER]: 'web' },
      data: { email, password: PASSWORD },
    });
    expect(again.status()).toBe(400);
    expect(await again.text()).toContain('Incorrect email or password.');

    await context.close();
    await setup.close();
  });
});
