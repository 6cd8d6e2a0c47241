/**
 * Helpers for browser tests about accounts: unique addresses, signing in through the page or
 * straight through the API (the browser context keeps the cookies), reading the dev mailbox.
 */
import { randomUUID } from 'node:crypto';
import { CLIENT_HEADER } from '@reshelf/contracts';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../api/src/seed/demo-accounts.ts';
import { baseURL as sharedBaseURL, VIEWPORTS } from './browser.ts';

export { DEMO_PASSWORD };

const WEB = { [CLIENT_HEADER]: 'web' };

/** An address no other test uses, so tests sharing one database never collide. */
export function uniqueEmail(label: string): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.com`;
}

/** Signs in with the form on /login (the page must already show it). */
export async function fillSignIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email address').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs a browser context in through the API, as the web client does: cookies, no tokens. */
export async function signInViaApi(context: BrowserContext, email: string, password = DEMO_PASSWORD) {
  const response = await context.request.post('/trpc/account.auth.signIn', {
    headers: WEB,
    data: { email, password },
  });
  if (!response.ok())
    throw new Error(`sign-in failed for ${email}: ${response.status()} ${await response.text()}`);
}

async function mailbox(context: BrowserContext, to: string): Promise<{ subject: string; text: string }[]> {
  const input = encodeURIComponent(JSON.stringify({ to }));
  const response = await context.request.get(`/trpc/platform.dev.mailbox?input=${input}`);
  if (!response.ok()) throw new Error(`mailbox: ${response.status()} ${await response.text()}`);
  const body = (await response.json()) as { result: { data: { subject: string; text: string }[] } };
  return body.result.data;
}

/** The token in the newest emailed link to `path` for an address. */
export async function emailedToken(context: BrowserContext, to: string, path: string): Promise<string> {
  const messages = await mailbox(context, to);
  for (const message of messages) {
    const match = new RegExp(`${path.replace(/\//g, '\\/')}\\?token=([A-Za-z0-9_-]+)`).exec(message.text);
    if (match?.[1]) return match[1];
  }
  throw new Error(`no ${path} link emailed to ${to}`);
}

/**
 * A confirmed account, made through the API with a request context of its own (so the
 * browser stays signed out).
 */
export async function createConfirmedAccount(
  context: BrowserContext,
  email: string,
  password: string,
  displayName = 'Test Reader',
): Promise<void> {
  const signUp = await context.request.post('/trpc/account.auth.signUp', {
    headers: WEB,
    data: { email, password, displayName },
  });
  if (!signUp.ok()) throw new Error(`sign-up failed: ${signUp.status()} ${await signUp.text()}`);
  const token = await emailedToken(context, email, '/auth/confirm');
  const confirm = await context.request.post('/trpc/account.auth.confirmEmail', {
    headers: WEB,
    data: { token },
  });
  if (!confirm.ok()) throw new Error(`confirmation failed: ${confirm.status()} ${await confirm.text()}`);
  await context.clearCookies();
}

export interface SignedInOptions {
  /** The marketplace to open; the shared one unless a test started its own. */
  baseURL?: string;
  viewport?: keyof typeof VIEWPORTS;
  password?: string;
  /**
   * Mark the visitor as returning, so the welcome gift never opens over the page (true unless
   * a test is about the first visit).
   */
  returning?: boolean;
}

/**
 * A new browser context signed in through the API as `email`, with cookies declined (the banner
 * stays off the buttons), and a page in it.
 */
export async function signedIn(
  browser: Browser,
  email: string,
  { baseURL = sharedBaseURL(), viewport = 'desktop', password, returning = true }: SignedInOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport: VIEWPORTS[viewport] });
  await context.addInitScript((returningVisitor) => {
    localStorage.setItem('cookie-consent', 'declined');
    if (returningVisitor) localStorage.setItem('has-visited', 'true');
  }, returning);
  await signInViaApi(context, email, password);
  return { context, page: await context.newPage() };
}

/** The staff area's open toast with this title. */
export function openToast(page: Page, title: string): Locator {
  return page.locator('[data-testid="primary-toast"][data-state="open"]').filter({ hasText: title });
}

/** A Sonner toast with this text. */
export function toast(page: Page, text: string): Locator {
  return page.locator('[data-sonner-toast]', { hasText: text });
}

/** The header's account corner once it has settled ("Sign in" or the account menu). */
export async function headerState(page: Page): Promise<'signed-in' | 'signed-out'> {
  const header = page.getByRole('banner');
  await header.locator('[data-testid="header-sign-in"], [data-testid="account-menu"]').first().waitFor();
  return (await header.getByTestId('account-menu').count()) ? 'signed-in' : 'signed-out';
}

/** Waits until the header shows this state (e.g. after signing out, while the call is under way). */
export async function headerShows(page: Page, state: 'signed-in' | 'signed-out'): Promise<void> {
  const testId = state === 'signed-in' ? 'account-menu' : 'header-sign-in';
  await page.getByRole('banner').getByTestId(testId).waitFor();
}

export async function historyLength(page: Page): Promise<number> {
  return page.evaluate(() => window.history.length);
}

export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}
