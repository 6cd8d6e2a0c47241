/**
 * The site shell: cookie banner, consent-gated analytics, welcome gift, both toast
 * systems, lazy-page failure recovery, layout rules and the native shell's padding.
 *
 * Every timing runs on Playwright's controlled clock: installed and paused before the page
 * loads, so the app starts at a known instant and time moves only by runFor(). The numbers here
 * are the spec's, written out (not imported), so a changed constant fails a test.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, snapshot, VIEWPORTS } from '../support/browser.ts';

type Viewport = keyof typeof VIEWPORTS;

interface TestHooks {
  toast: (input: {
    title?: string;
    description?: string;
    variant?: 'default' | 'destructive';
    duration?: number;
  }) => {
    id: string;
  };
  dismissToast: (id?: string) => void;
  notify: ((message: string, options?: { duration?: number }) => string | number) &
    Record<'success' | 'info' | 'warning' | 'error' | 'loading', (message: string) => string | number>;
  showButtons: () => void;
  /** Resolves once React has rendered every earlier update and run its effects. */
  rendered: () => Promise<void>;
}

declare global {
  interface Window {
    __reshelfTest?: TestHooks;
    __analyticsSeen?: { name: string; properties: Record<string, unknown> }[];
  }
}

const START = new Date('2026-11-21T09:00:00Z').getTime();

let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
});

interface OpenOptions {
  viewport?: Viewport;
  path?: string;
  /** localStorage entries present before the app starts. */
  storage?: Record<string, string>;
  reducedMotion?: boolean;
}

/** A page on a paused clock: the app starts at START and time moves only when the test says. */
async function openPaused({
  viewport = 'desktop',
  path: at = '/',
  storage,
  reducedMotion,
}: OpenOptions = {}) {
  const { context, page } = await newPage(browser, viewport);
  contexts.push(context);
  if (storage) {
    await context.addInitScript((entries) => {
      if (sessionStorage.getItem('__seeded')) return;
      sessionStorage.setItem('__seeded', '1');
      for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
    }, storage);
  }
  if (reducedMotion) await page.emulateMedia({ reducedMotion: 'reduce' });
  // The installed clock runs until paused; pausing a little ahead of START is never "in the past".
  await page.clock.install({ time: START });
  await page.clock.pauseAt(START + 10_000);
  await page.goto(at);
  await page.locator('#main').waitFor();
  return { context, page };
}

async function stored(page: Page, key: string): Promise<string | null> {
  return page.evaluate((name) => localStorage.getItem(name), key);
}

/** Lets CSS transitions and animations (which run on real time, not the page clock) settle. */
async function settled(page: Page, selector: string) {
  await page.waitForFunction(
    (target) => {
      const element = document.querySelector(target);
      if (!element) return false;
      return element
        .getAnimations({ subtree: true })
        .every(
          (animation) =>
            animation.playState !== 'running' ||
            animation.effect?.getTiming().iterations === Number.POSITIVE_INFINITY,
        );
    },
    selector,
    { polling: 50 },
  );
}

/*
 * A timer that React schedules while rendering the result of an earlier timer starts only once
 * that render has happened, so runFor() advances in steps and waits for the page in between.
 */

const banner = (page: Page) => page.getByTestId('cookie-banner');

/** 2000 ms to enter, 100 ms more to slide in. */
async function showBanner(page: Page) {
  await page.clock.runFor(2000);
  await page.locator('[data-testid="cookie-banner"][data-state="entering"]').waitFor();
  await page.clock.runFor(100);
  await page.locator('[data-testid="cookie-banner"][data-state="open"]').waitFor();
  await settled(page, '[data-testid="cookie-banner"]');
}

describe('cookie banner', () => {
  it('is absent before 2000 ms, in the page at 2000 ms and visible from 2100 ms', async () => {
    const { page } = await openPaused();
    await page.clock.runFor(1999);
    expect(await banner(page).count()).toBe(0);
    await page.clock.runFor(1);
    await page.locator('[data-testid="cookie-banner"]').waitFor({ state: 'attached' });
    expect(await banner(page).getAttribute('data-state')).toBe('entering');
    expect(await banner(page).evaluate((element) => getComputedStyle(element).opacity)).toBe('0');
    await page.clock.runFor(99);
    expect(await banner(page).getAttribute('data-state')).toBe('entering');
    await page.clock.runFor(1);
    await page.locator('[data-testid="cookie-banner"][data-state="open"]').waitFor();
    await settled(page, '[data-testid="cookie-banner"]');
    expect(await banner(page).isVisible()).toBe(true);
    expect(await banner(page).evaluate((element) => getComputedStyle(element).opacity)).toBe('1');
  });

  it('says what the spec says, with the policy link', async () => {
    const { page } = await openPaused();
    await showBanner(page);
    const region = page.getByRole('region', { name: 'Cookie Preferences' });
    await expect(region.getByRole('heading', { name: 'Cookie Preferences' }).count()).resolves.toBe(1);
    await expect(region.locator('p').first().textContent()).resolves.toBe(
      'We use cookies to enhance your browsing experience, provide personalised content and analyse our traffic. By clicking “Accept All”, you consent to our use of cookies.',
    );
    const link = region.getByRole('link', { name: 'Learn more about our cookie policy' });
    await expect(link.getAttribute('href')).resolves.toBe('/pages/cookie-policy');
    await expect(region.getByRole('button', { name: 'Accept All', exact: true }).count()).resolves.toBe(1);
    await expect(region.getByRole('button', { name: 'Decline', exact: true }).count()).resolves.toBe(1);
    await expect(region.getByRole('button', { name: 'Decline and close' }).count()).resolves.toBe(1);
  });

  for (const [choice, button, value] of [
    ['Accept All', 'Accept All', 'accepted'],
    ['Decline', 'Decline', 'declined'],
    ['the close icon', 'Decline and close', 'declined'],
  ] as const) {
    it(`${choice} stores "${value}", slides away, is removed 300 ms later and never comes back`, async () => {
      const { page } = await openPaused();
      await showBanner(page);
      await banner(page).getByRole('button', { name: button, exact: true }).click();
      expect(await stored(page, 'cookie-consent')).toBe(value);
      expect(await banner(page).getAttribute('data-state')).toBe('leaving');
      await page.clock.runFor(299);
      expect(await banner(page).count()).toBe(1);
      await page.clock.runFor(1);
      await banner(page).waitFor({ state: 'detached' });

      await page.reload();
      await page.locator('#main').waitFor();
      await page.clock.runFor(60_000);
      expect(await banner(page).count()).toBe(0);
    });
  }

  it('gives keyboard focus back to where it came from after a choice', async () => {
    const { page } = await openPaused();
    await showBanner(page);
    const search = page.getByRole('searchbox', { name: /Search/ }).first();
    await search.focus();
    await banner(page).getByRole('button', { name: 'Decline', exact: true }).focus();
    await page.keyboard.press('Enter');
    expect(await stored(page, 'cookie-consent')).toBe('declined');
    expect(await search.evaluate((element) => element === document.activeElement)).toBe(true);
  });

  it('is full width at the bottom of a phone', async () => {
    const { page } = await openPaused({ viewport: 'phone' });
    await showBanner(page);
    const box = (await banner(page).boundingBox())!;
    expect(box.x).toBe(0);
    expect(box.width).toBe(390);
    expect(box.y + box.height).toBeCloseTo(844, 0);
    await snapshot(page, 'shell-cookie-banner-phone', { fullPage: false });
  });

  it('is right-aligned and width-limited on a desktop', async () => {
    const { page } = await openPaused({ viewport: 'desktop' });
    await showBanner(page);
    const box = (await banner(page).boundingBox())!;
    expect(box.width).toBe(448);
    expect(1280 - (box.x + box.width)).toBe(24);
    expect(800 - (box.y + box.height)).toBe(24);
    await snapshot(page, 'shell-cookie-banner-desktop', { fullPage: false });
  });

  it('keeps the layout at 768 px: right-aligned from the medium breakpoint, full width below', async () => {
    const { page } = await openPaused({ viewport: 'desktop' });
    await page.setViewportSize({ width: 768, height: 900 });
    await showBanner(page);
    expect((await banner(page).boundingBox())!.width).toBe(448);
    await page.setViewportSize({ width: 767, height: 900 });
    expect((await banner(page).boundingBox())!.width).toBe(767);
  });
});

describe('welcome gift', () => {
  const gift = (page: Page) => page.getByTestId('welcome-gift');
  /** The cookie banner is answered already, so only the gift is in play. */
  const consented = { 'cookie-consent': 'declined' };

  async function showGift(page: Page) {
    await page.clock.runFor(90_000);
    await gift(page).waitFor();
    await settled(page, '[data-testid="welcome-gift"]');
    // Radix starts listening for clicks outside on a zero-delay timer once open.
    await page.clock.runFor(1);
  }

  async function unlock(page: Page) {
    await gift(page).getByRole('button', { name: 'Unlock your welcome gift' }).click();
    await page.clock.runFor(600);
    await page.locator('[data-testid="welcome-gift"][data-phase="revealed"]').waitFor();
    await settled(page, '[data-testid="welcome-gift"]');
  }

  it('opens at 90 s, not before, for a visitor with neither flag, and records that it was shown', async () => {
    const { page } = await openPaused({ storage: consented });
    await page.clock.runFor(89_999);
    expect(await gift(page).count()).toBe(0);
    expect(await stored(page, 'gift-modal-shown')).toBeNull();
    await page.clock.runFor(1);
    await gift(page).waitFor();
    const dialog = page.getByRole('dialog', { name: 'A welcome gift for you' });
    expect(await dialog.count()).toBe(1);
    expect(await gift(page).getAttribute('data-phase')).toBe('locked');
    expect(await gift(page).getByText('Tap to unlock').count()).toBe(1);
    expect(await stored(page, 'gift-modal-shown')).toBe('true');
    expect(await stored(page, 'has-visited')).toBeNull();
  });

  for (const flag of ['has-visited', 'gift-modal-shown']) {
    it(`never opens for a visitor with the ${flag} flag`, async () => {
      const { page } = await openPaused({ storage: { ...consented, [flag]: 'true' } });
      await page.clock.runFor(90_000);
      await page.clock.runFor(300_000);
      expect(await gift(page).count()).toBe(0);
    });
  }

  it('unlocks: locked → unlocking for 600 ms → revealed, 20% OFF with WELCOME20, and stores the discount', async () => {
    for (const viewport of ['phone', 'desktop'] as const) {
      const { page } = await openPaused({ viewport, storage: consented });
      await showGift(page);
      await snapshot(page, `shell-gift-locked-${viewport}`, { fullPage: false });

      await gift(page).getByRole('button', { name: 'Unlock your welcome gift' }).click();
      expect(await gift(page).getAttribute('data-phase')).toBe('unlocking');
      expect(await gift(page).getByText('Unlocking…').count()).toBe(1);
      await page.clock.runFor(300);
      await snapshot(page, `shell-gift-unlocking-${viewport}`, { fullPage: false });
      await page.clock.runFor(299);
      expect(await gift(page).getAttribute('data-phase')).toBe('unlocking');
      expect(await stored(page, 'first-time-discount')).toBeNull();
      await page.clock.runFor(1);
      await page.locator('[data-testid="welcome-gift"][data-phase="revealed"]').waitFor();

      expect(await gift(page).getByTestId('welcome-gift-headline').textContent()).toBe('20% OFF');
      expect(await gift(page).getByTestId('welcome-gift-code').textContent()).toBe('WELCOME20');
      expect(await gift(page).getByText('Automatically applied to your first purchase.').count()).toBe(1);
      expect(await stored(page, 'first-time-discount')).toBe('20');
      // Focus moves to the way on, not lost with the unlock button.
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Start browsing');
      await settled(page, '[data-testid="welcome-gift"]');
      await snapshot(page, `shell-gift-revealed-${viewport}`, { fullPage: false });
    }
  });

  it('Escape closes it, sets has-visited and gives focus back; it never opens again', async () => {
    const { page } = await openPaused({ storage: consented });
    const search = page.getByRole('searchbox', { name: /Search/ }).first();
    await search.focus();
    await showGift(page);
    await page.keyboard.press('Escape');
    await gift(page).waitFor({ state: 'detached' });
    expect(await stored(page, 'has-visited')).toBe('true');
    await page.clock.runFor(10);
    expect(await search.evaluate((element) => element === document.activeElement)).toBe(true);

    await page.reload();
    await page.locator('#main').waitFor();
    await page.clock.runFor(90_000);
    await page.clock.runFor(90_000);
    expect(await gift(page).count()).toBe(0);
  });

  for (const [how, action] of [
    [
      'the close icon',
      (page: Page) => gift(page).getByRole('button', { name: 'Close the welcome gift' }).click(),
    ],
    ['Start browsing', (page: Page) => gift(page).getByRole('button', { name: 'Start browsing' }).click()],
    ['a click outside', (page: Page) => page.mouse.click(5, 5)],
  ] as const) {
    it(`closing with ${how} sets has-visited`, async () => {
      const { page } = await openPaused({ storage: consented });
      await showGift(page);
      if (how === 'Start browsing') await unlock(page);
      await action(page);
      await gift(page).waitFor({ state: 'detached' });
      expect(await stored(page, 'has-visited')).toBe('true');
    });
  }

  it('traps focus inside while open', async () => {
    const { page } = await openPaused({ storage: consented });
    await showGift(page);
    const inside = () =>
      page.evaluate(
        () => !!document.querySelector('[data-testid="welcome-gift"]')?.contains(document.activeElement),
      );
    expect(await inside()).toBe(true);
    for (let index = 0; index < 6; index += 1) {
      await page.keyboard.press('Tab');
      expect(await inside()).toBe(true);
    }
    for (let index = 0; index < 6; index += 1) {
      await page.keyboard.press('Shift+Tab');
      expect(await inside()).toBe(true);
    }
    await unlock(page);
    for (let index = 0; index < 4; index += 1) {
      await page.keyboard.press('Tab');
      expect(await inside()).toBe(true);
    }
  });

  it('with reduced motion: the same states and timings, without animation', async () => {
    for (const reducedMotion of [false, true]) {
      const { page } = await openPaused({ storage: consented, reducedMotion });
      await showGift(page);
      await gift(page).getByRole('button', { name: 'Unlock your welcome gift' }).click();
      expect(await gift(page).getAttribute('data-phase')).toBe('unlocking');
      const animation = await page
        .getByTestId('welcome-gift-box')
        .evaluate((element) => getComputedStyle(element).animationName);
      expect(animation).toBe(reducedMotion ? 'none' : 'gift-unlock');
      await page.clock.runFor(599);
      expect(await gift(page).getAttribute('data-phase')).toBe('unlocking');
      await page.clock.runFor(1);
      await page.locator('[data-testid="welcome-gift"][data-phase="revealed"]').waitFor();
    }
  });
});

/** Waits for the browser-test hooks (only in the e2e build) to load. */
async function hooks(page: Page) {
  await page.waitForFunction(() => window.__reshelfTest !== undefined);
}

describe('primary toasts', () => {
  const consented = { 'cookie-consent': 'declined' };
  const open = (page: Page) => page.locator('[data-testid="primary-toast"][data-state="open"]');

  it('shows 1 at a time: a new toast replaces the one on screen', async () => {
    const { page } = await openPaused({ storage: consented });
    await hooks(page);
    await page.evaluate(() =>
      window.__reshelfTest!.toast({ title: 'First', description: 'The first toast' }),
    );
    await open(page).getByText('First', { exact: true }).waitFor();
    await page.evaluate(() =>
      window.__reshelfTest!.toast({
        title: 'Second',
        description: 'It replaces the first',
        variant: 'destructive',
      }),
    );
    await open(page).getByText('Second', { exact: true }).waitFor();
    expect(await page.getByTestId('primary-toast').count()).toBe(1);
    expect(await page.getByText('First', { exact: true }).count()).toBe(0);
    expect(await open(page).getAttribute('data-variant')).toBe('destructive');
  });

  it('closes by itself after 5000 ms', async () => {
    const { page } = await openPaused({ storage: consented });
    await hooks(page);
    await page.evaluate(() => window.__reshelfTest!.toast({ title: 'Saved' }));
    await open(page).waitFor();
    await page.clock.runFor(4999);
    expect(await open(page).count()).toBe(1);
    await page.clock.runFor(1);
    await open(page).waitFor({ state: 'detached' });
    await page.getByTestId('primary-toast').waitFor({ state: 'detached' });
  });

  it('F8 moves focus to the notifications region', async () => {
    const { page } = await openPaused({ storage: consented });
    await hooks(page);
    await page.evaluate(() => window.__reshelfTest!.toast({ title: 'Listing published' }));
    await open(page).waitFor();
    const region = page.getByRole('region', { name: 'Notifications (F8)' });
    expect(await region.count()).toBe(1);
    await page.keyboard.press('F8');
    expect(await region.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('OL');
  });

  it('swiping right past 50 px dismisses it; 50 px or less does not', async () => {
    const { page } = await openPaused({ storage: consented });
    await hooks(page);
    await page.evaluate(() => window.__reshelfTest!.toast({ title: 'Swipe me', duration: 60_000 }));
    await open(page).waitFor();
    await settled(page, '[data-testid="primary-toast"]');
    const drag = async (distance: number) => {
      const box = (await open(page).boundingBox())!;
      const y = box.y + box.height / 2;
      await page.mouse.move(box.x + 20, y);
      await page.mouse.down();
      await page.mouse.move(box.x + 20 + distance, y, { steps: 10 });
      await page.mouse.up();
    };
    await drag(50);
    await page.clock.runFor(10);
    await settled(page, '[data-testid="primary-toast"]');
    expect(await open(page).count()).toBe(1);
    await drag(51);
    await open(page).waitFor({ state: 'detached' });
  });

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`sits at the ${viewport === 'phone' ? 'top on a phone' : 'bottom right on a desktop'}`, async () => {
      const { page } = await openPaused({ viewport, storage: consented });
      await hooks(page);
      await page.evaluate(() =>
        window.__reshelfTest!.toast({
          title: 'Added to your wishlist',
          description: 'We will tell you when the price drops.',
        }),
      );
      await open(page).waitFor();
      await settled(page, '[data-testid="primary-toast"]');
      const box = (await open(page).boundingBox())!;
      const { width, height } = VIEWPORTS[viewport];
      if (viewport === 'phone') {
        expect(box.y).toBe(16);
        expect(box.x).toBe(16);
        expect(box.width).toBe(width - 32);
      } else {
        expect(width - (box.x + box.width)).toBe(24);
        expect(height - (box.y + box.height)).toBe(24);
      }
      await snapshot(page, `shell-toast-primary-${viewport}`, { fullPage: false });
      await page.evaluate(() =>
        window.__reshelfTest!.toast({
          title: 'Seeding failed',
          description: 'The demo data could not be created.',
          variant: 'destructive',
        }),
      );
      await open(page).getByText('Seeding failed').waitFor();
      await settled(page, '[data-testid="primary-toast"]');
      await snapshot(page, `shell-toast-primary-destructive-${viewport}`, { fullPage: false });
    });
  }
});

describe('secondary toasts (Sonner)', () => {
  const consented = { 'cookie-consent': 'declined' };
  const toasts = (page: Page) => page.locator('[data-sonner-toast]');

  it('shows at most 3 at a time', async () => {
    const { page } = await openPaused({ storage: consented });
    await hooks(page);
    await page.evaluate(() => {
      for (const n of [1, 2, 3, 4, 5]) window.__reshelfTest!.notify(`Message ${n}`);
    });
    await page.clock.runFor(1);
    await toasts(page).nth(4).waitFor({ state: 'attached' });
    expect(await page.locator('[data-sonner-toast][data-visible="true"]').count()).toBe(3);
    expect(await page.locator('[data-sonner-toast][data-visible="false"]').count()).toBe(2);
  });

  it('closes after 4000 ms and is removed 200 ms later', async () => {
    const { page } = await openPaused({ storage: consented });
    await hooks(page);
    await page.evaluate(() => window.__reshelfTest!.notify.success('Listing saved'));
    await page.clock.runFor(1);
    const toast = page.locator('[data-sonner-toast][data-type="success"]');
    await toast.waitFor();
    await page.clock.runFor(3998);
    expect(await toast.getAttribute('data-removed')).toBe('false');
    await page.clock.runFor(1);
    await page.locator('[data-sonner-toast][data-removed="true"]').waitFor();
    await page.clock.runFor(199);
    expect(await toast.count()).toBe(1);
    await page.clock.runFor(1);
    await toast.waitFor({ state: 'detached' });
  });

  it('keeps loading and infinite-duration toasts until they are dismissed', async () => {
    const { page } = await openPaused({ storage: consented });
    await hooks(page);
    await page.evaluate(() => {
      window.__reshelfTest!.notify.loading('Uploading photos…');
      window.__reshelfTest!.notify('Waiting for you', { duration: Number.POSITIVE_INFINITY });
    });
    await page.clock.runFor(1);
    await toasts(page).nth(1).waitFor();
    await page.clock.runFor(60_000);
    await page.clock.runFor(60_000);
    expect(await toasts(page).count()).toBe(2);
    expect(await page.locator('[data-sonner-toast][data-type="loading"]').count()).toBe(1);
  });

  it('has every type: default, success, info, warning, error and loading', async () => {
    for (const viewport of ['phone', 'desktop'] as const) {
      const { page } = await openPaused({ viewport, storage: consented });
      await hooks(page);
      await page.evaluate(() => {
        const { notify } = window.__reshelfTest!;
        notify('Default message');
        notify.success('Saved to your wishlist');
        notify.info('Postage is calculated at checkout');
        notify.warning('Only one copy left');
        notify.error('Could not save your changes');
        notify.loading('Uploading photos…');
      });
      await page.clock.runFor(1);
      await page.locator('[data-sonner-toast]:not([data-type])').waitFor({ state: 'attached' });
      for (const type of ['success', 'info', 'warning', 'error', 'loading']) {
        await page.locator(`[data-sonner-toast][data-type="${type}"]`).waitFor({ state: 'attached' });
      }
      // Expand the stack (hovering it) to see them all; the timers pause meanwhile.
      await page.locator('[data-sonner-toast][data-front="true"]').hover();
      await settled(page, '[data-sonner-toaster]');
      await snapshot(page, `shell-toast-sonner-${viewport}`, { fullPage: false });
    }
  });

  it('sits at the top on a phone, 16 px from the edges', async () => {
    const { page } = await openPaused({ viewport: 'phone', storage: consented });
    await hooks(page);
    await page.evaluate(() => window.__reshelfTest!.notify('Top of the phone'));
    await page.clock.runFor(1);
    await toasts(page).waitFor();
    await settled(page, '[data-sonner-toaster]');
    expect(await page.locator('[data-sonner-toaster]').getAttribute('data-y-position')).toBe('top');
    const box = (await toasts(page).boundingBox())!;
    expect(box.y).toBe(16);
    expect(box.x).toBe(16);
    expect(box.width).toBe(390 - 32);
  });

  it('sits at the bottom right on a desktop: 356 px wide, 32 px from the edges, 14 px apart', async () => {
    const { page } = await openPaused({ viewport: 'desktop', storage: consented });
    await hooks(page);
    await page.evaluate(() => {
      window.__reshelfTest!.notify('Older');
      window.__reshelfTest!.notify('Newer');
    });
    await page.clock.runFor(1);
    await toasts(page).nth(1).waitFor();
    await settled(page, '[data-sonner-toaster]');
    const toaster = page.locator('[data-sonner-toaster]');
    expect(await toaster.getAttribute('data-y-position')).toBe('bottom');
    expect(await toaster.getAttribute('data-x-position')).toBe('right');
    const front = (await toasts(page).filter({ hasText: 'Newer' }).boundingBox())!;
    expect(front.width).toBe(356);
    expect(1280 - (front.x + front.width)).toBe(32);
    expect(800 - (front.y + front.height)).toBe(32);

    await page.locator('[data-sonner-toast][data-front="true"]').hover();
    await settled(page, '[data-sonner-toaster]');
    const newer = (await toasts(page).filter({ hasText: 'Newer' }).boundingBox())!;
    const older = (await toasts(page).filter({ hasText: 'Older' }).boundingBox())!;
    expect(newer.y - (older.y + older.height)).toBe(14);
  });

  it('pauses while expanded: a hovered stack does not close', async () => {
    const { page } = await openPaused({ viewport: 'desktop', storage: consented });
    await hooks(page);
    await page.evaluate(() => window.__reshelfTest!.notify('Hover keeps me'));
    await page.clock.runFor(1);
    await toasts(page).waitFor();
    await settled(page, '[data-sonner-toaster]');
    await page.locator('[data-sonner-toast]').hover();
    await page.locator('[data-sonner-toast][data-expanded="true"]').waitFor();
    await page.clock.runFor(10_000);
    expect(await page.locator('[data-sonner-toast][data-removed="false"]').count()).toBe(1);
    await page.mouse.move(5, 5);
    await page.locator('[data-sonner-toast][data-expanded="false"]').waitFor();
    await page.clock.runFor(4000);
    await page.locator('[data-sonner-toast][data-removed="true"]').waitFor();
  });

  it('pauses while the page is hidden', async () => {
    const { page } = await openPaused({ viewport: 'desktop', storage: consented });
    await hooks(page);
    const hide = async (hidden: boolean) => {
      await page.evaluate((value) => {
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => value });
        document.dispatchEvent(new Event('visibilitychange'));
      }, hidden);
      // React applies the change in a task of its own: wait until it has, effects and all
      // (the paused page clock does not move meanwhile).
      await page.evaluate(() => window.__reshelfTest!.rendered());
    };
    const shown = () => page.locator('[data-sonner-toast][data-removed="false"]').count();
    await page.evaluate(() => window.__reshelfTest!.notify('Still here when you come back'));
    await page.clock.runFor(1);
    await toasts(page).waitFor();
    await page.clock.runFor(1000);
    await hide(true);
    await page.clock.runFor(60_000);
    expect(await shown()).toBe(1);
    // Visible again, the 3000 ms that were left run on. Time advances in steps here, as it does
    // for a visitor, so each re-render happens before the next timer is due.
    await hide(false);
    for (let step = 0; step < 11; step += 1) await page.clock.runFor(250);
    expect(await shown()).toBe(1);
    await page.clock.runFor(250);
    await page.locator('[data-sonner-toast][data-removed="true"]').waitFor();
  });

  it('swiping past 20 px dismisses a toast; 20 px or less does not', async () => {
    // Sonner also dismisses a fast flick, measured on the clock: this test lets time run so
    // that a slow drag is judged by distance alone.
    const { context, page } = await newPage(browser, 'desktop');
    contexts.push(context);
    await context.addInitScript(() => localStorage.setItem('cookie-consent', 'declined'));
    await page.goto('/');
    await hooks(page);
    await page.evaluate(() => window.__reshelfTest!.notify('Swipe me', { duration: 600_000 }));
    const toast = toasts(page);
    await toast.waitFor();
    await settled(page, '[data-sonner-toaster]');
    const drag = async (distance: number) => {
      await page.evaluate(() => window.getSelection()?.removeAllRanges());
      const box = (await toast.boundingBox())!;
      const y = box.y + box.height / 2;
      await page.mouse.move(box.x + 6, y);
      await page.mouse.down();
      for (let step = 1; step <= 10; step += 1) {
        await page.mouse.move(box.x + 6 + (distance * step) / 10, y);
        await page.waitForTimeout(60);
      }
      // The toast follows the pointer the whole way, so only the threshold decides.
      expect(await toast.evaluate((element) => element.style.getPropertyValue('--swipe-amount-x'))).toBe(
        `${distance}px`,
      );
      await page.mouse.up();
    };
    await drag(19);
    // Whatever letting go decided has been rendered by now.
    await page.evaluate(() => window.__reshelfTest!.rendered());
    expect(await page.locator('[data-sonner-toast][data-removed="false"]').count()).toBe(1);
    await drag(21);
    await page.locator('[data-sonner-toast][data-removed="true"]').waitFor();
  });
});

describe('consent-gated analytics', () => {
  /** Records what analytics publishes, from before the app starts. */
  async function watchAnalytics(context: BrowserContext) {
    await context.addInitScript(() => {
      window.__analyticsSeen = [];
      window.addEventListener('reshelf:analytics', (event) => {
        window.__analyticsSeen!.push((event as CustomEvent).detail);
      });
    });
  }
  const seen = (page: Page) =>
    page.evaluate(() => window.__analyticsSeen!.map((event) => event.properties.path));

  it('records nothing before Accept All, then the page views held so far, then each new one', async () => {
    const { page } = await openPaused();
    await watchAnalytics(page.context());
    await page.reload();
    await page.locator('#main').waitFor();
    await page.getByRole('link', { name: 'Cookie policy', exact: true }).click();
    await page.waitForURL('**/pages/cookie-policy');
    expect(await seen(page)).toEqual([]);

    await showBanner(page);
    expect(await seen(page)).toEqual([]);
    await banner(page).getByRole('button', { name: 'Accept All' }).click();
    await expect.poll(() => seen(page)).toEqual(['/', '/pages/cookie-policy']);

    await page.getByRole('link', { name: 'Reshelf, home' }).first().click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => seen(page)).toEqual(['/', '/pages/cookie-policy', '/']);

    await page.reload();
    await page.locator('#main').waitFor();
    await expect.poll(() => seen(page)).toEqual(['/']);
  });

  for (const button of ['Decline', 'Decline and close']) {
    it(`records nothing at all after ${button}`, async () => {
      const { page } = await openPaused();
      await watchAnalytics(page.context());
      await page.reload();
      await page.locator('#main').waitFor();
      await showBanner(page);
      await banner(page).getByRole('button', { name: button, exact: true }).click();
      await page.getByRole('link', { name: 'Cookie policy', exact: true }).click();
      await page.waitForURL('**/pages/cookie-policy');
      await page.reload();
      await page.locator('#main').waitFor();
      expect(await seen(page)).toEqual([]);
    });
  }
});

describe('a page whose code fails to load', () => {
  const NOT_FOUND_CHUNK = /\/assets\/NotFoundPage-[\w-]+\.js$/;
  const STATIC_PAGE_CHUNK = /\/assets\/StaticPage-[\w-]+\.js$/;

  async function countDocuments(page: Page) {
    const loads: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'document') loads.push(new URL(request.url()).pathname);
    });
    return loads;
  }

  it('reloads once, then shows the friendly error page instead of reloading again', async () => {
    const { context, page } = await newPage(browser, 'desktop');
    contexts.push(context);
    await context.addInitScript(() => localStorage.setItem('cookie-consent', 'declined'));
    const loads = await countDocuments(page);
    await page.route(NOT_FOUND_CHUNK, (route) => route.abort());
    await page.goto('/no/such/page');
    await page.getByTestId('app-error').waitFor();
    expect(loads).toEqual(['/no/such/page', '/no/such/page']);
    await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' }).count()).resolves.toBe(
      1,
    );
    await expect(page.getByTestId('app-error-message').textContent()).resolves.toMatch(
      /this page could not be loaded.*Check your connection, then reload the page\./,
    );
    await expect(page.getByRole('button', { name: 'Reload the page' }).count()).resolves.toBe(1);
    expect(await page.evaluate(() => sessionStorage.getItem('reshelf:preload-reload-at'))).toMatch(/^\d+$/);
    await page.waitForTimeout(1500);
    expect(loads).toHaveLength(2);
    await snapshot(page, 'shell-preload-error', { fullPage: false });
  });

  it('recovers when the reload brings the page', async () => {
    const { context, page } = await newPage(browser, 'desktop');
    contexts.push(context);
    await context.addInitScript(() => localStorage.setItem('cookie-consent', 'declined'));
    const loads = await countDocuments(page);
    let failures = 0;
    await page.route(NOT_FOUND_CHUNK, (route) => {
      if (failures === 0) {
        failures += 1;
        return route.abort();
      }
      return route.continue();
    });
    await page.goto('/no/such/page');
    await page.getByTestId('not-found').waitFor();
    expect(loads).toEqual(['/no/such/page', '/no/such/page']);
    expect(failures).toBe(1);
  });

  it('on a link, loads the page the visitor was going to', async () => {
    const { context, page } = await newPage(browser, 'desktop');
    contexts.push(context);
    await context.addInitScript(() => localStorage.setItem('cookie-consent', 'declined'));
    const loads = await countDocuments(page);
    let failures = 0;
    await page.route(STATIC_PAGE_CHUNK, (route) => {
      if (failures === 0) {
        failures += 1;
        return route.abort();
      }
      return route.continue();
    });
    await page.goto('/');
    await page.getByTestId('category-list').waitFor();
    await page.getByRole('link', { name: 'Cookie policy', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Cookie policy' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/pages/cookie-policy');
    expect(loads).toEqual(['/', '/pages/cookie-policy']);
    expect(failures).toBe(1);
  });
});

describe('layout rules', () => {
  const guarded = (page: Page) =>
    page.evaluate(() => [
      document.documentElement.style.overflowX,
      document.body.style.overflowX,
      document.documentElement.scrollWidth - window.innerWidth,
    ]);

  it('hides horizontal overflow only while the page is wider than the viewport by more than 1 px', async () => {
    for (const viewport of ['phone', 'desktop'] as const) {
      const { context, page } = await newPage(browser, viewport);
      contexts.push(context);
      await page.goto('/');
      await page.getByTestId('category-list').waitFor();
      expect((await guarded(page)).slice(0, 2)).toEqual(['', '']);

      const widen = (extra: number) =>
        page.evaluate((by) => {
          let wide = document.getElementById('too-wide');
          if (!wide) {
            wide = document.createElement('div');
            wide.id = 'too-wide';
            wide.style.cssText = 'position:absolute;top:0;left:0;height:1px;';
            document.body.append(wide);
          }
          wide.style.width = `${window.innerWidth + by}px`;
        }, extra);

      await widen(2);
      await page.waitForFunction(() => document.documentElement.style.overflowX === 'hidden');
      expect(await guarded(page)).toEqual(['hidden', 'hidden', 2]);

      await widen(1);
      await page.waitForFunction(() => document.documentElement.style.overflowX === '');
      expect(await guarded(page)).toEqual(['', '', 1]);

      await widen(300);
      await page.waitForFunction(() => document.body.style.overflowX === 'hidden');
      await page.evaluate(() => document.getElementById('too-wide')?.remove());
      await page.waitForFunction(() => document.documentElement.style.overflowX === '');
      expect((await guarded(page)).slice(0, 2)).toEqual(['', '']);
    }
  });

  it('renders every button variant in every size', async () => {
    const { context, page } = await newPage(browser, 'desktop');
    contexts.push(context);
    await context.addInitScript(() => localStorage.setItem('cookie-consent', 'declined'));
    await page.goto('/');
    await hooks(page);
    await page.evaluate(() => window.__reshelfTest!.showButtons());
    const gallery = page.getByTestId('button-gallery');
    await gallery.waitFor();

    const variants = [
      'default',
      'brand',
      'hero',
      'cta',
      'destructive',
      'outline',
      'secondary',
      'ghost',
      'link',
    ];
    const sizes = ['default', 'sm', 'lg', 'icon'];
    expect(await gallery.locator('button').count()).toBe(variants.length * sizes.length);
    const background: Record<string, string> = {
      default: 'rgb(34, 28, 24)',
      brand: 'rgb(140, 47, 36)',
      hero: 'rgb(140, 47, 36)',
      cta: 'rgb(232, 176, 75)',
      destructive: 'rgb(180, 35, 24)',
      outline: 'rgb(251, 247, 240)',
      secondary: 'rgb(243, 235, 222)',
      ghost: 'rgba(0, 0, 0, 0)',
      link: 'rgba(0, 0, 0, 0)',
    };
    const height: Record<string, number> = { default: 40, sm: 36, lg: 48, icon: 40 };
    for (const variant of variants) {
      for (const size of sizes) {
        const button = gallery.locator(`button[data-variant="${variant}"][data-size="${size}"]`);
        expect(await button.isVisible()).toBe(true);
        const style = await button.evaluate((element) => {
          const computed = getComputedStyle(element);
          return { background: computed.backgroundColor, radius: computed.borderTopLeftRadius };
        });
        expect(style.background, `${variant} ${size}`).toBe(background[variant]);
        const box = (await button.boundingBox())!;
        if (variant !== 'link' || size === 'icon')
          expect(box.height, `${variant} ${size}`).toBe(height[size]);
        if (size === 'icon') expect(box.width, `${variant} icon`).toBe(40);
        if (variant === 'hero' && size !== 'icon')
          expect(Number.parseFloat(style.radius)).toBeGreaterThan(1000);
      }
    }
    await snapshot(page, 'shell-buttons', { fullPage: false });
  });
});

describe('native shell', () => {
  const padding = (page: Page) =>
    page.evaluate(() => {
      const body = getComputedStyle(document.body);
      return {
        platform: document.documentElement.dataset.platform,
        top: body.paddingTop,
        bottom: body.paddingBottom,
      };
    });

  for (const [platform, bridge, top, bottom] of [
    ['web', null, '0px', '0px'],
    ['ios', 'ios', '44px', '34px'],
    ['android', 'android', '24px', '0px'],
  ] as const) {
    it(`pads the page ${top} top and ${bottom} bottom on ${platform}`, async () => {
      const { context, page } = await newPage(browser, 'phone');
      contexts.push(context);
      if (bridge) {
        // What Capacitor's native bridges put on the window; @capacitor/core reads the platform from them.
        await context.addInitScript((kind) => {
          const w = window as unknown as Record<string, unknown>;
          if (kind === 'ios') w.webkit = { messageHandlers: { bridge: { postMessage: () => {} } } };
          else w.androidBridge = { postMessage: () => {} };
        }, bridge);
      }
      await page.goto('/');
      await page.getByTestId('category-list').waitFor();
      expect(await padding(page)).toEqual({ platform, top, bottom });
      if (platform === 'ios') await snapshot(page, 'shell-native-ios', { fullPage: false });
    });
  }
});

describe('the production build', () => {
  it('carries no browser-test hooks', () => {
    const dist = fileURLToPath(new URL('../../web/dist/assets/', import.meta.url));
    const scripts = readdirSync(dist).filter((name) => name.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const name of scripts) {
      const source = readFileSync(path.join(dist, name), 'utf8');
      expect(source.includes('__reshelfTest'), name).toBe(false);
      expect(source.includes('button-gallery'), name).toBe(false);
    }
  });
});
