/**
 * Sign-up, sign-in, sessions and password reset in a real browser against the real BFF.
 * Tests share one server and database, so each uses addresses of its own.
 */
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SIGN_IN_TO_CONTINUE } from '../../web/src/account/auth/sign-in-words.ts';
import {
  createConfirmedAccount,
  DEMO_PASSWORD,
  fillSignIn,
  headerShows,
  headerState,
  historyLength,
  pathOf,
  signInViaApi,
  uniqueEmail,
} from '../support/auth.ts';
import { baseURL, newPage, snapshot, withBrowser } from '../support/browser.ts';

let browser: Browser;
withBrowser((launched) => (browser = launched));

describe('signing up', () => {
  it('sign up → read the email in the dev mailbox → confirm → profile → genres → all set', async () => {
    const { context, page } = await newPage(browser, 'desktop');
    const email = uniqueEmail('newcomer');

    await page.goto('/');
    expect(await headerState(page)).toBe('signed-out');
    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Create an account' }).first().click();
    await page.waitForURL((url) => url.searchParams.get('mode') === 'signup');
    const form = page.getByRole('form', { name: 'Create an account' });

    // The length rule is checked before anything is sent; the rest of the policy by the server.
    await form.getByLabel('Display name').fill('Jo March');
    await form.getByLabel('Email address').fill(email);
    await form.getByLabel('Password', { exact: true }).fill('short');
    await form.getByRole('button', { name: 'Create account' }).click();
    await form.getByText('Use at least 10 characters').waitFor();
    await form.getByLabel('Password', { exact: true }).fill('password123');
    await form.getByRole('button', { name: 'Create account' }).click();
    await form.getByText(/one of the most common passwords/).waitFor();
    await snapshot(page, 'auth-sign-up-desktop');

    await form.getByLabel('Password', { exact: true }).fill('a-long-and-unusual-passphrase');
    await form.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/email-confirmation');
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
    expect(await page.getByTestId('confirmation-email').textContent()).toContain(email);
    await page.getByTestId('dev-mailbox-hint').waitFor();
    await snapshot(page, 'auth-email-confirmation-desktop');

    // The signed-out person cannot sign in before confirming.
    await page.goto('/login');
    await fillSignIn(page, email, 'a-long-and-unusual-passphrase');
    await page
      .getByTestId('form-error')
      .getByText(/confirm your email address first/)
      .waitFor();
    await page.getByRole('link', { name: 'Send me a new confirmation link' }).click();
    await page.waitForURL('**/email-confirmation');

    // Newcomers read the email in the dev mailbox, in the browser.
    await page.getByTestId('dev-mailbox-hint').getByRole('link', { name: 'dev mailbox' }).click();
    await page.waitForURL((url) => url.pathname === '/dev/mailbox' && url.searchParams.get('to') === email);
    await page.getByRole('heading', { name: 'Dev mailbox' }).waitFor();
    const items = page.getByTestId('mailbox-item');
    await items.first().waitFor();
    expect(await items.count()).toBe(1);
    await items.filter({ hasText: 'Confirm your email address' }).click();
    const message = page.getByTestId('mailbox-message');
    await message.getByRole('heading', { name: 'Confirm your email address' }).waitFor();
    expect(await message.textContent()).toContain('Hello Jo March');
    await snapshot(page, 'auth-dev-mailbox-desktop');
    await message.getByRole('link', { name: /\/auth\/confirm\?token=/ }).click();

    // The link confirms the address, signs in and leads to /complete-signup.
    await page.waitForURL('**/complete-signup');
    await page.getByTestId('confirmed-notice').waitFor();
    expect(await headerState(page)).toBe('signed-in');
    const profile = page.getByRole('form', { name: 'Your profile' });
    expect(await profile.getByLabel('Display name').inputValue()).toBe('Jo March');
    await profile.getByLabel('Town').fill('Concord');
    await profile.getByLabel('About you').fill('Mostly Dickens, and anything with a map at the front.');
    await snapshot(page, 'auth-complete-signup-desktop');
    await profile.getByRole('button', { name: 'Save and continue' }).click();

    await page.waitForURL('**/onboarding');
    await page.getByRole('heading', { name: 'What do you like to read?' }).waitFor();
    const genres = page.getByTestId('genre-options');
    await genres.getByText('Classics', { exact: true }).click();
    await genres.getByText('Cosy crime', { exact: true }).click();
    await page.getByText('2 picked.').waitFor();
    await snapshot(page, 'auth-onboarding-desktop');
    await page.getByRole('button', { name: 'Save and continue' }).click();

    await page.waitForURL('**/onboarding/complete');
    await page.getByRole('heading', { name: "You're all set, Jo March" }).waitFor();
    const favourites = page.getByTestId('favourite-genres');
    await favourites.getByText('Classics').waitFor();
    expect(await favourites.getByRole('listitem').allTextContents()).toEqual(['Classics', 'Cosy crime']);
    await snapshot(page, 'auth-onboarding-complete-desktop');

    // The account page summarises it all.
    await page.getByRole('link', { name: 'Go to your account' }).click();
    await page.waitForURL('**/account');
    const summary = page.getByTestId('account-profile');
    await summary.getByText('Concord').waitFor();
    await summary.getByText('Cosy crime').waitFor();
    await page.getByTestId('account-email').getByText('Confirmed').waitFor();
    await snapshot(page, 'auth-account-desktop');
    await page.getByRole('link', { name: 'Email verification' }).click();
    await page.getByTestId('email-status').getByText('Your email address is confirmed').waitFor();
    await context.close();
  });

  it('shows the address and resends the link until the server says to wait', async () => {
    const { context, page } = await newPage(browser, 'phone');
    const email = uniqueEmail('resender');
    await page.goto('/login?mode=signup');
    await snapshot(page, 'auth-sign-up-phone');
    const form = page.getByRole('form', { name: 'Create an account' });
    await form.getByLabel('Display name').fill('Meg March');
    await form.getByLabel('Email address').fill(email);
    await form.getByLabel('Password', { exact: true }).fill('another-long-passphrase');
    await form.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/email-confirmation');
    expect(await page.getByTestId('confirmation-email').textContent()).toContain(email);
    await snapshot(page, 'auth-email-confirmation-phone');

    const resend = page.getByRole('button', { name: 'Resend the email' });
    const result = page.getByTestId('resend-result');
    for (let attempt = 1; attempt <= 3; attempt++) {
      await resend.click();
      await result.getByText(/A new link is on its way/).waitFor();
    }
    await resend.click();
    await result.getByText(/^Too many attempts\. Try again in \d+ minutes?\.$/).waitFor();

    // A reload keeps the address (this tab only).
    await page.reload();
    expect(await page.getByTestId('confirmation-email').textContent()).toContain(email);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await context.close();
  });

  it('onboarding can be skipped', async () => {
    const { context, page } = await newPage(browser, 'phone');
    const email = uniqueEmail('skipper');
    await createConfirmedAccount(context, email, 'a-skippers-passphrase', 'Amy March');
    await signInViaApi(context, email, 'a-skippers-passphrase');
    await page.goto('/onboarding');
    await page.getByTestId('genre-options').getByText('Horror').waitFor();
    await snapshot(page, 'auth-onboarding-phone');
    await page.getByRole('button', { name: 'Skip for now' }).click();
    await page.waitForURL('**/onboarding/complete');
    await page.getByRole('heading', { name: "You're all set, Amy March" }).waitFor();
    await page.getByText('You skipped picking genres.').waitFor();
    await context.close();
  });

  it('an unknown or used confirmation link says so and offers a way on', async () => {
    const { context, page } = await newPage(browser, 'desktop');
    await page.goto(`/auth/confirm?token=${'x'.repeat(43)}`);
    await page
      .getByTestId('confirm-error')
      .getByText('This confirmation link is not valid or has already been used.')
      .waitFor();
    await page.getByRole('link', { name: 'Get a new link' }).waitFor();
    await context.close();
  });
});

describe('signing in and out', () => {
  it('signs in with the demo buyer and signs out from the header', async () => {
    const { context, page } = await newPage(browser, 'desktop');
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Sign in', exact: true, level: 1 }).waitFor();
    await snapshot(page, 'auth-login-desktop');

    await fillSignIn(page, 'buyer@reshelf.test', 'not-the-password');
    await page.getByTestId('form-error').getByText('Incorrect email or password.').waitFor();
    await fillSignIn(page, 'buyer@reshelf.test');
    await page.waitForURL((url) => url.pathname === '/');
    expect(await headerState(page)).toBe('signed-in');
    const menu = page.getByRole('banner').getByTestId('account-menu');
    await menu.getByRole('button', { name: 'Account menu for Ava Reader' }).click();
    await menu.getByRole('link', { name: 'Your account' }).waitFor();
    await snapshot(page, 'auth-account-menu-desktop');
    expect(await menu.getByRole('link', { name: 'Staff area' }).count()).toBe(0);
    await menu.getByRole('button', { name: 'Sign out' }).click();
    await headerShows(page, 'signed-out');
    expect(pathOf(page)).toBe('/');

    // The session is gone on the server too.
    await page.goto('/account');
    await page.waitForURL('**/login?next=%2Faccount');
    await context.close();
  });

  it('the header does not flash "Sign in" for a signed-in person while auth.me loads', async () => {
    const { context, page } = await newPage(browser, 'phone');
    await signInViaApi(context, 'buyer@reshelf.test');
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(
      (url) => url.pathname.includes('account.auth.me'),
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await page.goto('/');
    await page.getByTestId('header-account-loading').waitFor();
    expect(await page.getByTestId('header-sign-in').count()).toBe(0);
    release();
    expect(await headerState(page)).toBe('signed-in');
    await context.close();
  });

  it('signs out this device, or everywhere, from /account', async () => {
    const phone = await newPage(browser, 'phone');
    const laptop = await newPage(browser, 'desktop');
    await signInViaApi(phone.context, 'seller@reshelf.test');
    await signInViaApi(laptop.context, 'seller@reshelf.test');
    await signInViaApi(laptop.context, 'seller@reshelf.test'); // a second session, same browser

    await phone.page.goto('/account');
    await phone.page.getByTestId('account-name').getByText("Sam's Shelf").waitFor();
    await phone.page.getByTestId('account-profile').getByText('Display name').waitFor();
    await snapshot(phone.page, 'auth-account-phone');
    await phone.page.getByRole('button', { name: 'Sign out on this device' }).click();
    await phone.page.waitForURL((url) => url.pathname === '/');
    await headerShows(phone.page, 'signed-out');

    // The laptop is still signed in; signing out everywhere ends it, and the phone's other session.
    await signInViaApi(phone.context, 'seller@reshelf.test');
    await laptop.page.goto('/account');
    await laptop.page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await laptop.page.waitForURL((url) => url.pathname === '/');
    await headerShows(laptop.page, 'signed-out');
    await phone.page.goto('/account');
    await phone.page.waitForURL('**/login?next=%2Faccount');
    await phone.context.close();
    await laptop.context.close();
  });
});

describe('signed-in pages', () => {
  it('send a signed-out visitor to /login, replacing history, and come back after sign-in', async () => {
    const { context, page } = await newPage(browser, 'desktop');
    await page.goto('/');
    const before = await historyLength(page);
    await page.goto('/account?tab=profile');
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/account?tab=profile');
    await page.getByText(SIGN_IN_TO_CONTINUE).waitFor();
    // The guarded page's entry was replaced, not added to.
    expect(await historyLength(page)).toBe(before + 1);
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goForward();
    await page.waitForURL((url) => url.pathname === '/login');

    await fillSignIn(page, 'buyer@reshelf.test');
    await page.waitForURL((url) => url.pathname === '/account' && url.search === '?tab=profile');
    await page.getByTestId('account-name').getByText('Ava Reader').waitFor();
    expect(await historyLength(page)).toBe(before + 1);
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });

  it('routes of later issues are guarded too: signed out → /login, signed in → not found', async () => {
    const { context, page } = await newPage(browser, 'desktop');
    await page.goto('/sell/123/photos');
    await page.waitForURL('**/login?next=%2Fsell%2F123%2Fphotos');
    await signInViaApi(context, 'buyer@reshelf.test');
    // Every route of the spec is real now: an address the site does not have is not found.
    await page.goto('/account/no-such-page');
    await page.getByTestId('not-found').waitFor();
    expect(pathOf(page)).toBe('/account/no-such-page');
    await context.close();
  });

  it('never follows a next that leaves the site', async () => {
    const { context, page } = await newPage(browser, 'desktop');
    await page.goto('/login?next=//evil.example/steal');
    await fillSignIn(page, 'buyer@reshelf.test');
    await page.waitForURL((url) => url.pathname === '/');
    expect(page.url()).toBe(`${baseURL()}/`);
    await context.close();
  });

  it('never follows a next that normalises to another host, signed in or not', async () => {
    const { context, page } = await newPage(browser, 'desktop');
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    for (const next of ['/.//evil.example', '/x/..//evil.example', '/%2e%2e//evil.example']) {
      await page.goto(`/login?next=${encodeURIComponent(next)}`);
      await page.getByRole('form', { name: 'Sign in' }).waitFor();
      expect(await page.getByText('Please sign in to continue.').count()).toBe(0);
    }
    await signInViaApi(context, 'buyer@reshelf.test');
    for (const next of ['/.//evil.example', '/x/..//evil.example', '/%2e%2e//evil.example']) {
      await page.goto(`/login?next=${encodeURIComponent(next)}`);
      await page.waitForURL((url) => url.pathname === '/');
      expect(page.url()).toBe(`${baseURL()}/`);
      expect(await page.getByText('Unexpected Application Error').count()).toBe(0);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('an expired session on a signed-in page goes to /login?next=… and back after sign-in', async () => {
    const { context, page } = await newPage(browser, 'desktop');
    await signInViaApi(context, 'charity@reshelf.test');
    await page.goto('/onboarding');
    await page.getByTestId('genre-options').getByText('Baking').click();

    // The session ends behind the page's back; the next call answers UNAUTHORIZED.
    await context.clearCookies();
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await page.waitForURL('**/login?next=%2Fonboarding');
    await headerShows(page, 'signed-out');

    await fillSignIn(page, 'charity@reshelf.test');
    await page.waitForURL((url) => url.pathname === '/onboarding');
    await page.getByRole('heading', { name: 'What do you like to read?' }).waitFor();
    await context.close();
  });
});

describe('password reset', () => {
  it('forgot → mailbox → reset → signed out everywhere → sign in with the new password', async () => {
    const { context, page } = await newPage(browser, 'desktop');
    const email = uniqueEmail('forgetful');
    await createConfirmedAccount(context, email, 'the-original-passphrase', 'Beth March');

    // A second device stays signed in until the reset.
    const other = await newPage(browser, 'phone');
    await signInViaApi(other.context, email, 'the-original-passphrase');

    // The same answer for an unknown address and a known one.
    await page.goto('/forgot-password');
    const answerFor = async (address: string) => {
      await page.getByLabel('Email address').fill(address);
      await page.getByRole('button', { name: 'Send me a reset link' }).click();
      const answer = page.getByTestId('reset-requested');
      await answer.waitFor();
      const text = (await answer.locator('p').first().textContent()) ?? '';
      return text.replace(address, '<address>');
    };
    const unknown = await answerFor(uniqueEmail('nobody'));
    await page.getByRole('button', { name: 'Use a different address' }).click();
    const known = await answerFor(email);
    expect(known).toBe(unknown);

    await page.getByTestId('dev-mailbox-hint').getByRole('link', { name: 'dev mailbox' }).click();
    await page.getByTestId('mailbox-item').filter({ hasText: 'Reset your Reshelf password' }).click();
    await page
      .getByTestId('mailbox-message')
      .getByRole('link', { name: /\/reset-password\?token=/ })
      .click();
    await page.waitForURL((url) => url.pathname === '/reset-password' && url.searchParams.has('token'));

    const form = page.getByRole('form', { name: 'Choose a new password' });
    await form.getByLabel('New password', { exact: true }).fill('qwertyuiop');
    await form.getByLabel('Confirm new password').fill('qwertyuiop');
    await form.getByRole('button', { name: 'Save new password' }).click();
    await form.getByText(/one of the most common passwords/).waitFor();
    await form.getByLabel('New password', { exact: true }).fill('a-fresh-new-passphrase');
    await form.getByLabel('Confirm new password').fill('a-fresh-new-passphras');
    await form.getByRole('button', { name: 'Save new password' }).click();
    await form.getByText("The passwords don't match").waitFor();
    await form.getByLabel('Confirm new password').fill('a-fresh-new-passphrase');
    await form.getByRole('button', { name: 'Save new password' }).click();

    const done = page.getByTestId('reset-done');
    await done.getByText(/signed you out on all your devices/).waitFor();
    await other.page.goto('/account');
    await other.page.waitForURL('**/login?next=%2Faccount');
    await other.context.close();

    await done.getByRole('link', { name: 'Sign in' }).click();
    await fillSignIn(page, email, 'the-original-passphrase');
    await page.getByTestId('form-error').getByText('Incorrect email or password.').waitFor();
    await fillSignIn(page, email, 'a-fresh-new-passphrase');
    // Made through the API, this account never finished its profile: sign-in leads there.
    await page.waitForURL((url) => url.pathname === '/complete-signup');
    expect(await headerState(page)).toBe('signed-in');
    await context.close();
  });
});

describe('screenshots', () => {
  it('login on a phone', async () => {
    const { context, page } = await newPage(browser, 'phone');
    await page.goto('/login?next=%2Faccount');
    await page.getByRole('heading', { name: 'Sign in', exact: true, level: 1 }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await snapshot(page, 'auth-login-phone');
    expect(DEMO_PASSWORD).toBe('reshelf-demo');
    await context.close();
  });
});
