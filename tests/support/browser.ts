/** Debian's Chromium driven by playwright-core: no browser download, no network. */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';

export const ARTIFACTS = fileURLToPath(new URL('../.artifacts/', import.meta.url));

export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;

let visitors = 0;

/**
 * What React reports when a server-rendered page (decision 0041) does not hydrate as sent: the
 * production build's error #418 (the HTML did not match), #423 and #425 (older wordings of the
 * same), and the development build's words. The browser renders the page again from scratch, so
 * nothing looks wrong, but the server's page was thrown away.
 */
const HYDRATION_ERROR = /Minified React error #(418|423|425)\b|hydrat(ion|ed|ing)\b.*(fail|match|error)/i;

/** Hydration errors seen since the last test ended, in any page of any context. */
const hydrationErrors: string[] = [];

/** Watches a page for hydration errors (uncaught, or logged to the console). */
function watchHydration(page: Page): void {
  const seen = (text: string) => {
    if (HYDRATION_ERROR.test(text)) hydrationErrors.push(`${page.url()}: ${text.slice(0, 300)}`);
  };
  page.on('pageerror', (error) => seen(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') seen(message.text());
  });
}

/**
 * Takes the hydration errors seen so far (the list is then empty): for a test that provokes one
 * on purpose. Every other test fails when one was seen (below).
 */
export function takeHydrationErrors(): string[] {
  return hydrationErrors.splice(0);
}

// Every browser test file imports this module: each of its tests fails on a hydration error.
afterEach(() => {
  const errors = takeHydrationErrors();
  if (errors.length > 0) {
    throw new Error(`A server-rendered page did not hydrate as sent:\n${errors.join('\n')}`);
  }
});

/**
 * Each browser context a visitor of its own, with an address of its own, as separate people
 * would be: the test servers believe the X-Forwarded-For of a loopback proxy
 * (TRUST_PROXY=loopback), so the per-IP limits on sign-in and sign-up count each context apart
 * instead of the whole suite as one address. The addresses are loopback ones (127.0.0.0/8 is all
 * this machine, where the browser is): the development mailbox answers loopback clients only
 *, and the tests read it as the developer at this machine would. A context that sets
 * the header itself, or has no baseURL (the native app's), is left alone.
 */
function asSeparateVisitors(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  const watched = async (options: Parameters<Browser['newContext']>[0]) => {
    const context = await newContext(options);
    context.on('page', watchHydration);
    return context;
  };
  browser.newContext = (options = {}) => {
    if (!options.baseURL || options.extraHTTPHeaders?.['x-forwarded-for']) return watched(options);
    visitors += 1;
    const address = `127.${18 + ((visitors >> 16) & 1)}.${(visitors >> 8) & 255}.${visitors & 255}`;
    return watched({
      ...options,
      extraHTTPHeaders: { ...options.extraHTTPHeaders, 'x-forwarded-for': address },
    }).then(waitingForHydration);
  };
  return browser;
}

/**
 * A page the site rendered on the server (decision 0041) is on screen before React has taken it
 * over, and a click before then does nothing: each page of the context waits, after `goto` and
 * `reload`, until the app marks the document hydrated (`<html data-hydrated>`, web/src/main.tsx).
 * Pages rendered in the browser, and pages that are not the app, are not held.
 */
async function untilHydrated(page: Page): Promise<void> {
  const serverRendered = await page
    .evaluate(() => document.getElementById('reshelf-ssr-state') !== null)
    .catch(() => false);
  if (serverRendered) await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
}

/**
 * The router changes the address before React has rendered the page for it (the new page comes
 * in a transition), so a test that waited for the address could read the page it left: after
 * `waitForURL` each page also waits until the app marks the address it rendered
 * (`<html data-shown-path>`, web/src/app/shell/ShownLocation.tsx), and until no list on
 * it still shows the previous address's results while the new ones load (`[data-stale]`,
 * `StaleMark` in web/src/kit/QueryView.tsx): a filter kept in the address changes it at once,
 * and the rows for it come a moment later. A page that is not the app (no #root) is not held.
 */
async function untilShown(page: Page, timeout?: number): Promise<void> {
  await page.waitForFunction(
    () =>
      document.getElementById('root') === null ||
      (document.documentElement.dataset.shownPath === window.location.pathname + window.location.search &&
        document.querySelector('[data-stale]') === null),
    undefined,
    timeout === undefined ? {} : { timeout },
  );
}

function waitingForHydration(context: BrowserContext): BrowserContext {
  const newPage = context.newPage.bind(context);
  context.newPage = async () => {
    const page = await newPage();
    const goto = page.goto.bind(page);
    const reload = page.reload.bind(page);
    page.goto = async (url, options) => {
      const answer = await goto(url, options);
      await untilHydrated(page);
      return answer;
    };
    page.reload = async (options) => {
      const answer = await reload(options);
      await untilHydrated(page);
      return answer;
    };
    const waitForURL = page.waitForURL.bind(page);
    page.waitForURL = async (url, options) => {
      await waitForURL(url, options);
      await untilShown(page, options?.timeout);
    };
    return page;
  };
  return context;
}

export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return asSeparateVisitors(browser);
}

/** A browser for the test file, launched before its tests and closed after them. */
export function withBrowser(use: (browser: Browser) => void): void {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
    use(browser);
  });
  afterAll(async () => {
    await browser?.close();
  });
}

export function baseURL(): string {
  return inject('baseURL');
}

export async function newPage(
  browser: Browser,
  viewport: keyof typeof VIEWPORTS = 'desktop',
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseURL(), viewport: VIEWPORTS[viewport] });
  const page = await context.newPage();
  return { context, page };
}

/**
 * Collects what the page's Content-Security-Policy blocked, in every page and frame of a
 * context: the browser's own console report and the securitypolicyviolation event. The site
 * sends its production policy in every mode (api/src/http/security-headers.ts), so a test
 * that ends with an empty list has run under it without anything blocked.
 */
export async function watchContentSecurityPolicy(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `CSP violation: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
  context.on('console', (message) => {
    const text = message.text();
    if (/Content Security Policy|CSP violation/i.test(text)) {
      violations.push(`${message.page()?.url() ?? '?'}: ${text}`);
    }
  });
  return violations;
}

/**
 * Saves a screenshot under tests/.artifacts for a person to look at: the whole page, or with
 * `fullPage: false` just the screen (for overlays fixed to the viewport).
 */
export async function snapshot(page: Page, name: string, { fullPage = true } = {}): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  return file;
}

/**
 * A page at desktop and phone size, as `<prefix>-<name>-desktop|phone` under tests/.artifacts:
 * `ready` is awaited at each size, and the phone page must not scroll sideways.
 */
export function snapshotsAt(prefix: string) {
  return async (page: Page, name: string, ready: () => Promise<unknown>): Promise<void> => {
    await ready();
    await snapshot(page, `${prefix}-${name}-desktop`);
    await page.setViewportSize(VIEWPORTS.phone);
    await ready();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (overflow > 1) throw new Error(`${prefix}-${name}: the phone page scrolls sideways by ${overflow}px`);
    await snapshot(page, `${prefix}-${name}-phone`);
    await page.setViewportSize(VIEWPORTS.desktop);
  };
}
