/**
 * The native app signs in and buys (decision 0029). The web client, built as the app
 * is built (VITE_API_ORIGIN), runs at https://localhost, the Android web view's origin, and
 * believes it is inside the native shell; the BFF runs at its own http://127.0.0.1 origin. The
 * buyer signs in, browses, buys with the test provider (its page at the BFF, then back to the
 * app), finds the order, and signs out; the tokens live in the device's Preferences, never in a
 * cookie, and are gone after signing out.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ORDER_BUTTON_WORDS } from '@reshelf/contracts';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillSignIn, headerShows } from '../support/auth.ts';
import { launchBrowser, snapshot } from '../support/browser.ts';
import {
  APP_ORIGIN,
  type AppOrigin,
  appContext,
  buildAppBundle,
  type NativePreferences,
  serveAppOrigin,
} from '../support/native-app.ts';
import { type OwnMarketplace, startOwnMarketplace } from '../support/server.ts';

const ARTIFACTS = fileURLToPath(new URL('../.artifacts/', import.meta.url));
const SESSION_KEY = 'reshelf.session';

let browser: Browser;
let marketplace: OwnMarketplace;
let origin: AppOrigin;
let dist: string;

beforeAll(async () => {
  [browser, marketplace] = await Promise.all([launchBrowser(), startOwnMarketplace()]);
  dist = mkdtempSync(path.join(ARTIFACTS, 'native-app-web-'));
  buildAppBundle(marketplace.baseURL, dist);
  origin = await serveAppOrigin(dist);
});

afterAll(async () => {
  await origin?.stop();
  await browser?.close();
  await marketplace?.stop();
  if (dist) rmSync(dist, { recursive: true, force: true });
});

interface Held {
  accessToken: string;
  refreshToken: string;
  expiresAt: number;
  renewAt: number;
}

function held(preferences: NativePreferences): Held | undefined {
  const raw = preferences.get(SESSION_KEY);
  return raw ? (JSON.parse(raw) as Held) : undefined;
}

/** Every request the page makes to the BFF's tRPC, with the headers that matter here. */
function watchApi(page: Page) {
  const seen: { method: string; path: string; authorization?: string; cookie?: string; origin?: string }[] =
    [];
  const pending: Promise<unknown>[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (url.origin !== marketplace.baseURL || !url.pathname.startsWith('/trpc/')) return;
    const call: (typeof seen)[number] = { method: request.method(), path: url.pathname };
    seen.push(call);
    // All the headers sent, Origin and Cookie among them (headers() has only the page's own).
    pending.push(
      request.allHeaders().then((headers) => {
        call.authorization = headers.authorization;
        call.cookie = headers.cookie;
        call.origin = headers.origin;
      }),
    );
  });
  return { seen, settled: () => Promise.all(pending) };
}

describe('the native app', () => {
  let context: BrowserContext;
  const preferences: NativePreferences = new Map();

  afterAll(async () => {
    await context?.close();
  });

  it('signs in with tokens, browses, pays on the BFF’s page, comes back, finds the order and signs out', async () => {
    context = await appContext(browser, origin, preferences, 'phone');
    const page = await context.newPage();
    const { seen: api, settled } = watchApi(page);

    await page.goto(`${APP_ORIGIN}/login`);
    await page.getByRole('heading', { name: 'Sign in', exact: true, level: 1 }).waitFor();
    // The app believes it is on Android: the status bar's room is kept.
    expect(await page.evaluate(() => document.documentElement.dataset.platform)).toBe('android');
    await fillSignIn(page, 'buyer@reshelf.test');
    await page.waitForURL(`${APP_ORIGIN}/`);
    await headerShows(page, 'signed-in');
    const signedIn = held(preferences);
    expect(signedIn?.accessToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(signedIn?.refreshToken.length).toBeGreaterThan(20);
    await settled();
    const signInCall = api.find((call) => call.path === '/trpc/account.auth.signIn');
    expect(signInCall).toMatchObject({ method: 'POST', origin: APP_ORIGIN });
    expect(signInCall?.cookie).toBeUndefined();
    expect(api.find((call) => call.path.startsWith('/trpc/account.auth.me'))).toBeDefined();
    await snapshot(page, 'native-app-signed-in-phone', { fullPage: false });

    // Browse: a fresh start of the app keeps the session (from Preferences, not cookies).
    // Copy by copy, cheapest first (/listings answers by book, decision 0079).
    await page.goto(`${APP_ORIGIN}/recently-added?sort=price_asc`);
    await headerShows(page, 'signed-in');
    await page.getByTestId('listing-card').first().click();
    const buyNow = page.getByRole('link', { name: 'Buy now' });
    await buyNow.waitFor();
    const title = (await page.getByRole('heading', { level: 1 }).textContent())!.trim();
    await buyNow.click();
    await page.waitForURL(/\/checkout\?listing=/);
    await page.getByTestId('price-lines').waitFor();
    await page.getByLabel('Full name').fill('Ava Reader');
    await page.getByLabel('Address line 1').fill('12 Turl Street');
    await page.getByLabel('Town or city').fill('Oxford');
    await page.getByLabel('Postcode').fill('OX1 3DP');
    await page.getByRole('button', { name: 'Continue to confirm' }).click();
    await page.waitForURL(/\/checkout\/confirm/);
    const total = (await page.getByTestId('total').textContent())!.trim();
    await page.getByRole('button', { name: `${ORDER_BUTTON_WORDS} ${total}` }).click();

    // The test provider's page is the BFF's; it knows to send the buyer back to the app.
    await page.waitForURL(
      (url) => url.origin === marketplace.baseURL && url.pathname.startsWith('/payments/test/'),
    );
    expect(new URL(page.url()).searchParams.get('return')).toBe(APP_ORIGIN);
    await expect(page.getByTestId('amount').textContent()).resolves.toBe(total);
    await snapshot(page, 'native-app-test-provider-phone', { fullPage: false });
    await page.getByRole('button', { name: 'Pay now' }).click();

    await page.waitForURL((url) => url.origin === APP_ORIGIN && url.pathname === '/checkout/success');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Thank you: your order is paid',
    );
    await expect(page.getByTestId('order-status').textContent()).resolves.toMatch(/^Paid\./);
    await snapshot(page, 'native-app-paid-phone');

    await page.goto(`${APP_ORIGIN}/account/orders`);
    await page.getByTestId('order-row').filter({ hasText: title }).waitFor();
    await snapshot(page, 'native-app-orders-phone');

    // Every call to the BFF carried the bearer token once signed in, and never a cookie.
    await settled();
    expect(api.every((call) => call.cookie === undefined)).toBe(true);
    const afterSignIn = api.slice(api.indexOf(signInCall!) + 1);
    expect(afterSignIn.length).toBeGreaterThan(3);
    expect(afterSignIn.every((call) => call.authorization?.startsWith('Bearer '))).toBe(true);
    expect(await context.cookies(marketplace.baseURL)).toEqual([]);

    // Sign out: the tokens go from the device, and a signed-in page sends to sign-in.
    const menu = page.getByRole('banner').getByTestId('account-menu');
    await menu.getByRole('button', { name: /^Account menu for/ }).click();
    await menu.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${APP_ORIGIN}/`);
    await headerShows(page, 'signed-out');
    expect(preferences.has(SESSION_KEY)).toBe(false);
    expect(preferences.size).toBe(0);
    await page.goto(`${APP_ORIGIN}/account/orders`);
    await page.waitForURL(`${APP_ORIGIN}/login?next=%2Faccount%2Forders`);
    await page.getByRole('heading', { name: 'Sign in', exact: true, level: 1 }).waitFor();

    // The BFF ended the session too: the old access token no longer works.
    const old = await fetch(`${marketplace.baseURL}/trpc/account.auth.me`, {
      headers: { authorization: `Bearer ${signedIn!.accessToken}` },
    });
    expect(((await old.json()) as { result: { data: { user: unknown } } }).result.data.user).toBeNull();
    expect(old.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });

  it('renews the tokens shortly before the access token expires, once, and stays signed in', async () => {
    const device: NativePreferences = new Map();
    const renewing = await appContext(browser, origin, device, 'desktop');
    try {
      const page = await renewing.newPage();
      const { seen: api, settled } = watchApi(page);
      await page.goto(`${APP_ORIGIN}/login`);
      await fillSignIn(page, 'buyer@reshelf.test');
      await headerShows(page, 'signed-in');
      const first = held(device)!;

      // Time passes on the device: the access token is about to expire.
      device.set(SESSION_KEY, JSON.stringify({ ...first, renewAt: Date.now() - 1 }));
      await page.goto(`${APP_ORIGIN}/account/orders`);
      await page.getByRole('heading', { level: 1, name: 'Your orders' }).waitFor();
      await headerShows(page, 'signed-in');
      await settled();
      const renewed = held(device)!;
      expect(renewed.refreshToken).not.toBe(first.refreshToken);
      expect(renewed.accessToken).not.toBe(first.accessToken);
      expect(renewed.renewAt).toBeGreaterThan(Date.now() + 10 * 60_000);
      // One renewal however many calls the page made at once, and none of them went out with
      // the old token after it.
      expect(api.filter((call) => call.path === '/trpc/account.auth.refresh')).toHaveLength(1);
      const refreshAt = api.findIndex((call) => call.path === '/trpc/account.auth.refresh');
      const after = api.slice(refreshAt + 1);
      expect(after.length).toBeGreaterThan(0);
      expect(after.every((call) => call.authorization === `Bearer ${renewed.accessToken}`)).toBe(true);
      await snapshot(page, 'native-app-orders-desktop', { fullPage: false });

      // A refresh token the BFF does not take: signed out, and the tokens forgotten.
      device.set(
        SESSION_KEY,
        JSON.stringify({ ...renewed, refreshToken: 'r'.repeat(43), renewAt: Date.now() - 1 }),
      );
      await page.goto(`${APP_ORIGIN}/account/orders`);
      await page.waitForURL(`${APP_ORIGIN}/login?next=%2Faccount%2Forders`);
      expect(device.has(SESSION_KEY)).toBe(false);
    } finally {
      await renewing.close();
    }
  });
});
