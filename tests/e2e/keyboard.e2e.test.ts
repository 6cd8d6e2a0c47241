/**
 * The site by keyboard alone (WCAG 2.2 AA, issue 35), in Chromium: only `keyboard.press` and
 * typing into the field that has focus, never a click.
 *
 * - The skip link is the first Tab on every kind of page and takes focus to the main landmark.
 * - Every Tab lands on something with a visible focus indicator (2.4.7), and focus is never
 *   hidden under a bar stuck to the top or bottom of the screen (2.4.11).
 * - Focus returns to the control that opened a menu, dialog or sheet when it closes.
 * - Signing in lets a password manager and the clipboard do the work (3.3.8): the right
 *   `autocomplete` on every email and password field, and pasting works.
 * - A buyer finds a book, puts it in the basket, checks out and pays, by keyboard.
 * - A seller lists a book through the sell wizard to published, by keyboard. The one exception to
 *   "only keys": the photo is set on the focused file input with `setInputFiles`, since the
 *   browser's own file chooser is not part of the page.
 * - Staff decide a dispute by keyboard, and focus lands somewhere sensible when the case closes.
 * - An address saved at checkout is offered at the next one, not asked for again (3.3.7).
 *
 * The marketplace is the file's own: the journey buys a demo book.
 */
import { COOKIE_BANNER, WELCOME_GIFT } from '@reshelf/contracts';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, openToast, signedIn } from '../support/auth.ts';
import { snapshot, VIEWPORTS } from '../support/browser.ts';
import { makePng } from '../support/png.ts';
import { wizardStep } from '../support/selling.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

let db: pg.Client;
beforeAll(async () => {
  db = new pg.Client({ connectionString: marketplace.databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
});

interface Focused {
  tag: string;
  id: string;
  name: string;
  /** A focus indicator is drawn: an outline (the site's one ring, styles.css), not a shadow that may be there anyway. */
  indicator: boolean;
  rect: { top: number; bottom: number; left: number; right: number };
  /** Bars stuck to the top or bottom of the screen that cover part of the focused element. */
  coveredBy: string[];
}

/** What has focus now, whether it shows it, and whether a sticky bar hides it. */
function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) {
      return {
        tag: 'body',
        id: '',
        name: '',
        indicator: false,
        rect: { top: 0, bottom: 0, left: 0, right: 0 },
        coveredBy: [],
      };
    }
    // On the element or on a pseudo-element it draws (a card's link covers the card with ::after).
    const drawn = [getComputedStyle(el), getComputedStyle(el, '::after'), getComputedStyle(el, '::before')];
    const outline = drawn.some((s) => s.outlineStyle !== 'none' && Number.parseFloat(s.outlineWidth) >= 1);
    const labelled =
      el.getAttribute('aria-label') ??
      (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement
        ? [...(el.labels ?? [])].map((l) => l.textContent).join(' ')
        : '') ??
      '';
    const name = (labelled || el.textContent || (el as HTMLInputElement).placeholder || '')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 80);
    const r = el.getBoundingClientRect();
    const coveredBy: string[] = [];
    for (const bar of document.querySelectorAll<HTMLElement>('body *')) {
      const position = getComputedStyle(bar).position;
      if (position !== 'fixed' && position !== 'sticky') continue;
      if (bar.contains(el) || el.contains(bar)) continue;
      const b = bar.getBoundingClientRect();
      if (b.width === 0 || b.height === 0 || b.height > window.innerHeight / 2) continue;
      if (getComputedStyle(bar).visibility === 'hidden' || getComputedStyle(bar).opacity === '0') continue;
      const stuckTop = b.top <= 1 && b.bottom > 0;
      const stuckBottom = b.bottom >= window.innerHeight - 1 && b.top < window.innerHeight;
      if (!stuckTop && !stuckBottom) continue;
      const top = Math.max(r.top, b.top);
      const bottom = Math.min(r.bottom, b.bottom);
      const left = Math.max(r.left, b.left);
      const right = Math.min(r.right, b.right);
      if (bottom - top <= 1 || right - left <= 1) continue;
      // Covered only where the bar is drawn above it (the skip link sits above the header).
      const above = document.elementFromPoint((left + right) / 2, (top + bottom) / 2);
      if (above && bar.contains(above))
        coveredBy.push(`${bar.tagName.toLowerCase()}.${[...bar.classList].slice(0, 3).join('.')}`);
    }
    return {
      tag: el.tagName.toLowerCase(),
      id: el.id,
      name,
      indicator: outline,
      rect: { top: r.top, bottom: r.bottom, left: r.left, right: r.right },
      coveredBy,
    };
  });
}

/** One Tab (or Shift+Tab): focus moves to something that shows it and is not hidden. */
async function tab(page: Page, back = false): Promise<Focused> {
  await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  const now = await focused(page);
  if (now.tag !== 'body') {
    expect(now.indicator, `no visible focus indicator on ${now.tag} "${now.name}"`).toBe(true);
    expect(now.coveredBy, `${now.tag} "${now.name}" is hidden under a sticky bar: ${now.coveredBy}`).toEqual(
      [],
    );
  }
  return now;
}

/** Tabs until focus is on a control whose name matches; fails if it never comes (a trap or a gap). */
async function tabTo(page: Page, name: RegExp, { max = 120, back = false } = {}): Promise<Focused> {
  const seen: string[] = [];
  for (let i = 0; i < max; i += 1) {
    const now = await tab(page, back).catch((error: Error) => {
      throw new Error(`${error.message}\nlooking for ${name} on ${page.url()}, after:\n${seen.join('\n')}`);
    });
    if (name.test(now.name)) return now;
    seen.push(`${now.tag} "${now.name}"`);
  }
  throw new Error(`${max} Tabs never reached ${name}; focus went through:\n${seen.join('\n')}`);
}

async function visitor(
  viewport: keyof typeof VIEWPORTS = 'desktop',
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: marketplace.baseURL, viewport: VIEWPORTS[viewport] });
  await context.addInitScript(() => {
    localStorage.setItem('cookie-consent', 'declined');
    localStorage.setItem('has-visited', 'true');
  });
  return { context, page: await context.newPage() };
}

async function member(email: string, viewport: keyof typeof VIEWPORTS = 'desktop') {
  return signedIn(browser, email, { baseURL: marketplace.baseURL, viewport });
}

async function activeId(page: Page): Promise<string> {
  return page.evaluate(() => document.activeElement?.id ?? '');
}

/** Marks the element with focus, to find it again after a dialog closes. */
async function markOpener(page: Page): Promise<void> {
  await page.evaluate(() => document.activeElement?.setAttribute('data-opener', ''));
}

async function focusIsOnOpener(page: Page): Promise<boolean> {
  return page.evaluate(() => document.activeElement?.hasAttribute('data-opener') ?? false);
}

async function activeSlug(): Promise<{ slug: string; title: string }> {
  const { rows } = await db.query<{ slug: string; title: string }>(
    `select l.slug, b.title from public.listings l join public.books b on b.id = l.book_id
     join auth.users u on u.id = l.seller_id
     where l.status = 'active' and l.charity_id is null and u.email <> 'buyer@reshelf.test'
     order by l.slug limit 1`,
  );
  if (!rows[0]) throw new Error('the demo data has no active listing');
  return rows[0];
}

/**
 * A private seller's copy that is the only one on sale under its title: its search result (by
 * book, decision 0079) links straight to it, so the journey goes search → copy.
 */
async function soleCopy(): Promise<{ slug: string; title: string }> {
  const { rows } = await db.query<{ slug: string; title: string }>(
    `select l.slug, b.title from public.listings l join public.books b on b.id = l.book_id
     join auth.users u on u.id = l.seller_id
     where l.status = 'active' and l.charity_id is null and u.email <> 'buyer@reshelf.test'
       and (select count(*) from public.listings l2 join public.books b2 on b2.id = l2.book_id
             where l2.status = 'active' and b2.title = b.title) = 1
     order by l.slug limit 1`,
  );
  if (!rows[0]) throw new Error('the demo data has no title with a single copy on sale');
  return rows[0];
}

describe('keyboard only', () => {
  it('the first Tab on any page is the skip link, and it takes focus to the main content', async () => {
    const { slug } = await activeSlug();
    for (const [who, path] of [
      [null, '/'],
      [null, `/listing/${slug}`],
      ['seller@reshelf.test', '/account'],
      ['admin@reshelf.test', '/admin'],
    ] as const) {
      const { context, page } = who ? await member(who) : await visitor();
      await page.goto(path);
      await page.locator('main').waitFor();
      const first = await tab(page);
      expect(first.name, `first Tab on ${path}`).toBe('Skip to main content');
      expect(first.rect.bottom - first.rect.top, 'the skip link shows when focused').toBeGreaterThanOrEqual(
        24,
      );
      if (path === '/') await snapshot(page, 'keyboard-skip-link-desktop', { fullPage: false });
      await page.keyboard.press('Enter');
      await expect.poll(() => activeId(page), { timeout: 5_000 }).toBe('main');
      await context.close();
    }
  });

  it('focus never hides under a sticky bar: the listing page at 390 px, a long list at 1,280 px both ways', async () => {
    const { slug } = await activeSlug();
    const phone = await visitor('phone');
    await phone.page.goto(`/listing/${slug}`);
    await phone.page.locator('[data-buy-bar]').waitFor();
    // Every Tab through the page checks the focused element against the buy bar (tab()).
    for (let i = 0; i < 60; i += 1) {
      const now = await tab(phone.page);
      if (i === 30) await snapshot(phone.page, `keyboard-focus-phone-${now.tag}`, { fullPage: false });
    }
    await phone.context.close();

    const desktop = await visitor('desktop');
    await desktop.page.goto('/listings');
    await desktop.page.getByRole('heading', { level: 1 }).waitFor();
    for (let i = 0; i < 50; i += 1) await tab(desktop.page);
    // Back up the page: the sticky header is above what gets focus.
    for (let i = 0; i < 45; i += 1) await tab(desktop.page, true);
    await desktop.context.close();
  });

  it('focus returns to the opener when a menu, dialog or sheet closes', async () => {
    // The header's account menu.
    const buyer = await member('buyer@reshelf.test');
    const { slug } = await activeSlug();
    await buyer.page.goto(`/listing/${slug}`);
    await tabTo(buyer.page, /Account menu for /);
    await markOpener(buyer.page);
    await buyer.page.keyboard.press('Enter');
    await buyer.page.locator('[data-testid="account-menu"] [aria-expanded="true"]').waitFor();
    await buyer.page.keyboard.press('Escape');
    await expect.poll(() => focusIsOnOpener(buyer.page), { timeout: 5_000 }).toBe(true);

    // A dialog on the listing page: making an offer.
    await tabTo(buyer.page, /^Make an offer$/);
    await markOpener(buyer.page);
    await buyer.page.keyboard.press('Enter');
    await buyer.page.getByRole('dialog').waitFor();
    await buyer.page.keyboard.press('Escape');
    await buyer.page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await focusIsOnOpener(buyer.page)).toBe(true);
    await buyer.context.close();

    // The staff area: the command palette, and the sidebar as a sheet on a phone.
    const staff = await member('admin@reshelf.test', 'phone');
    await staff.page.goto('/admin');
    await staff.page.getByRole('heading', { level: 1 }).waitFor();
    await tabTo(staff.page, /^Search/);
    await markOpener(staff.page);
    await staff.page.keyboard.press('Enter');
    await staff.page.getByRole('dialog').waitFor();
    await staff.page.keyboard.press('Escape');
    await staff.page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await focusIsOnOpener(staff.page)).toBe(true);
    await staff.page.evaluate(() => document.activeElement?.removeAttribute('data-opener'));

    await tabTo(staff.page, /sidebar|menu/i, { back: true });
    await markOpener(staff.page);
    await staff.page.keyboard.press('Enter');
    await staff.page.getByRole('dialog').waitFor();
    await staff.page.keyboard.press('Escape');
    await staff.page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await focusIsOnOpener(staff.page)).toBe(true);
    await staff.context.close();
  });

  it('signing in lets the browser and the clipboard fill it in: autocomplete set, paste allowed (WCAG 3.3.8)', async () => {
    const context = await browser.newContext({ baseURL: marketplace.baseURL, viewport: VIEWPORTS.desktop });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: marketplace.baseURL });
    await context.addInitScript(() => {
      localStorage.setItem('cookie-consent', 'declined');
      localStorage.setItem('has-visited', 'true');
    });
    const page = await context.newPage();
    const expected: [string, string[]][] = [
      ['/login', ['email', 'current-password']],
      ['/forgot-password', ['email']],
      ['/reset-password?token=abc', ['new-password', 'new-password']],
    ];
    for (const [path, kinds] of expected) {
      await page.goto(path);
      await page.locator('main form').first().waitFor();
      const fields = await page
        .locator('main input[type="email"], main input[type="password"], main input[autocomplete="email"]')
        .evaluateAll((inputs) => inputs.map((input) => input.getAttribute('autocomplete')));
      expect(fields, path).toEqual(kinds);
    }
    // No puzzle, and the clipboard works: a password manager's copy pastes in.
    await page.goto('/login');
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.waitFor();
    expect(await page.locator('iframe, [class*="captcha" i], [id*="captcha" i]').count()).toBe(0);
    for (const [label, value] of [
      ['Email address', 'buyer@reshelf.test'],
      ['Password', DEMO_PASSWORD],
    ] as const) {
      await page.evaluate((text) => navigator.clipboard.writeText(text), value);
      await tabTo(page, new RegExp(`^${label}`));
      await page.keyboard.press('ControlOrMeta+V');
      expect(await form.getByLabel(label, { exact: true }).inputValue()).toBe(value);
    }
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname !== '/login');
    await context.close();
  });

  it('a buyer messages a seller by keyboard alone, at 390 px, and focus in the thread stays clear of the composer', async () => {
    const { rows } = await db.query<{ slug: string }>(
      `select l.slug from public.listings l join auth.users u on u.id = l.seller_id
       where l.status = 'active' and l.charity_id is null and u.email = 'seller@reshelf.test'
       order by l.slug desc limit 1`,
    );
    const { context, page } = await member('buyer@reshelf.test', 'phone');
    await page.goto(`/listing/${rows[0]!.slug}`);
    await page.locator('main').waitFor();
    await tabTo(page, /^Message the seller$/);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/messages\/[0-9a-f-]{36}$/);
    const text = 'Hello, does this copy have any pencil marks inside?';
    await tabTo(page, /^Your message/);
    await page.keyboard.type(text);
    await tabTo(page, /^Send$/);
    await page.keyboard.press('Enter');
    await page.getByTestId('thread-entries').getByText(text).waitFor();
    // Back up through the page: nothing that takes focus hides under the sticky composer (tab()).
    for (let i = 0; i < 15; i += 1) await tab(page, true);
    await context.close();
  });

  it('a buyer finds a book, adds it to the basket, checks out and pays by keyboard alone', async () => {
    const { title } = await soleCopy();
    const { context, page } = await member('buyer@reshelf.test');
    await page.goto('/');
    await page.locator('main').waitFor();
    const search = await tabTo(page, /search/i);
    expect(search.tag).toBe('input');
    await page.keyboard.type(title);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/search\?/);
    await tabTo(page, new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/listing\//);
    await tabTo(page, /^Add to basket/);
    await page.keyboard.press('Enter');
    await tabTo(page, /basket/i, { back: true });
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/basket/);
    await tabTo(page, /^Check ?out/i);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/checkout/);
    // The address form comes with the quote; Tab only once it is there, or focus runs to the footer.
    await page
      .getByRole('form', { name: 'Delivery address' })
      .getByLabel(/^Full name/)
      .waitFor();
    for (const [label, value] of [
      ['Full name', 'Ava Reader'],
      ['Address line 1', '12 Turl Street'],
      ['Town or city', 'Oxford'],
      ['Postcode', 'OX1 3DP'],
    ] as const) {
      await tabTo(page, new RegExp(`^${label}`));
      await page.keyboard.type(value);
    }
    await tabTo(page, /^(Continue|Review|Go to payment|Pay|Place order)/);
    await page.keyboard.press('Enter');
    // A basket's checkout goes straight to the provider; a single book's shows the confirm page.
    await page.waitForURL(/\/checkout\/confirm\?|\/payments\/test\/tp_/, { waitUntil: 'commit' });
    if (new URL(page.url()).pathname === '/checkout/confirm') {
      await tabTo(page, /^(Pay|Place order and pay) /);
      await page.keyboard.press('Enter');
    }
    // The test provider's page is not the app: wait for its button, not for the app to show it.
    await page.getByRole('button', { name: 'Pay now' }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/payments\/test\/tp_/);
    await tabTo(page, /^Pay now$/);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/checkout\/success\?order=/);
    await page.getByRole('heading', { name: 'Thank you: your order is paid', level: 1 }).waitFor();
    await context.close();
  });

  it('a seller lists a book through the sell wizard to published by keyboard alone', async () => {
    const { context, page } = await member('seller@reshelf.test');
    await page.goto('/sell/new');
    await page.locator('main').waitFor();
    await page.getByTestId('isbn-input').waitFor();
    // The wizard puts focus in the ISBN field: typing starts at once.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('isbn-input');
    await page.keyboard.type('9780141439518');
    await page.keyboard.press('Enter');

    await wizardStep(page, 'details');
    await tabTo(page, /^Save and continue$/);
    await page.keyboard.press('Enter');

    await wizardStep(page, 'condition');
    // A radio group is one Tab stop: the arrows choose within it.
    const first = await tabTo(page, /^(As new|Like new|New)/);
    expect(first.tag).toBe('input');
    for (let i = 0; i < 4 && !/^Very good/.test((await focused(page)).name); i += 1)
      await page.keyboard.press('ArrowDown');
    expect((await focused(page)).name).toMatch(/^Very good/);
    // Tab onto a group with nothing chosen focuses its first option without choosing it: Space does.
    await page.keyboard.press('Space');
    await tabTo(page, /^Notes on any defects/);
    await page.keyboard.type('Light shelf wear to the spine; pages clean.');
    await tabTo(page, /^Save and continue$/);
    await page.keyboard.press('Enter');

    await wizardStep(page, 'photos');
    const input = await tabTo(page, /^Add photos of your copy/);
    expect(input.tag).toBe('input');
    // The one exception: the browser's file chooser is not the page's, so the file is set on the
    // input that has focus.
    await page
      .locator('input[type="file"]:focus')
      .setInputFiles({ name: 'front-cover.png', mimeType: 'image/png', buffer: makePng(600, 800) });
    await page.getByTestId('photo-list').getByRole('img', { name: 'Your copy, main view' }).waitFor();
    await tabTo(page, /^Continue$/);
    await page.keyboard.press('Enter');

    await wizardStep(page, 'price');
    await page.getByTestId('price-suggestion').waitFor();
    await tabTo(page, /^Your price/);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('9.50');
    await tabTo(page, /^Save and continue$/);
    await page.keyboard.press('Enter');

    await wizardStep(page, 'parcel');
    await tabTo(page, /parcel/i);
    for (let i = 0; i < 4 && !/^Small parcel/.test((await focused(page)).name); i += 1)
      await page.keyboard.press('ArrowDown');
    expect((await focused(page)).name).toMatch(/^Small parcel/);
    await page.keyboard.press('Space');
    await tabTo(page, /^Save and continue$/);
    await page.keyboard.press('Enter');

    await wizardStep(page, 'review');
    await tabTo(page, /^Publish listing$/);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/sell\/confirm\?listing=/);
    await snapshot(page, 'keyboard-sell-published-desktop', { fullPage: false });
    const id = new URL(page.url()).searchParams.get('listing')!;
    const { rows } = await db.query<{ status: string; price_minor: number }>(
      'select status, price_minor from public.listings where id = $1',
      [id],
    );
    expect(rows[0]).toMatchObject({ status: 'active', price_minor: 950 });
    await context.close();
  });

  it('staff decide a dispute by keyboard alone, and focus lands in the queue when the case closes', async () => {
    const { context, page } = await member('admin@reshelf.test');
    await page.goto('/admin/disputes');
    const row = page.getByTestId('dispute-row').first();
    await row.waitFor();
    const reference = (await row.getAttribute('data-reference'))!;
    await tabTo(page, new RegExp(`^Review ${reference}$`));
    await page.keyboard.press('Enter');
    const review = page.getByTestId('dispute-review');
    await review.getByTestId('resolve-panel').waitFor();
    await tabTo(page, /^Refund buyer$/);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: /^Refund / });
    await dialog.waitFor();
    await tabTo(page, /^Note to both parties/);
    await page.keyboard.type('The book was not as described: refunded in full.');
    await tabTo(page, /^Refund buyer$/);
    await page.keyboard.press('Enter');
    await openToast(page, 'Buyer refunded').waitFor();
    await review.waitFor({ state: 'detached' });
    // The decided row leaves the open queue, so its Review button is gone: focus goes to the queue,
    // not to the top of the document.
    await expect
      .poll(() =>
        page.evaluate(() => document.querySelector('main')?.contains(document.activeElement) ?? false),
      )
      .toBe(true);
    const now = await focused(page);
    expect(now.tag).not.toBe('body');
    await snapshot(page, 'keyboard-dispute-decided-desktop', { fullPage: false });
    // The next Tab goes on from there, and the dispute shows decided under Resolved.
    await tabTo(page, /^Resolved$/);
    await page.keyboard.press('Enter');
    await page.waitForURL(/status=resolved/);
    const decided = page.locator(`[data-testid="dispute-row"][data-reference="${reference}"]`);
    await decided.getByText(/^Refunded /).waitFor();
    await context.close();
  });

  it('focus returns to where it was when the cookie banner and the welcome gift close', async () => {
    const context = await browser.newContext({ baseURL: marketplace.baseURL, viewport: VIEWPORTS.desktop });
    const page = await context.newPage();
    // The page's clock moves only when the test says (the banner's and the gift's timers).
    const start = Date.now();
    await page.clock.install({ time: start });
    await page.clock.pauseAt(start + 10_000);
    await page.goto('/');
    await page.locator('main').waitFor();
    await page.clock.runFor(COOKIE_BANNER.delayMs);
    await page.locator('[data-testid="cookie-banner"][data-state="entering"]').waitFor();
    await page.clock.runFor(COOKIE_BANNER.slideInMs);
    const banner = page.getByTestId('cookie-banner');
    await page.locator('[data-testid="cookie-banner"][data-state="open"]').waitFor();
    // Tab through the page into the banner (it is last), marking the control focus leaves it from.
    for (let i = 0; ; i += 1) {
      expect(i, 'Tab never reached the cookie banner').toBeLessThan(300);
      await page.evaluate(() => {
        for (const marked of document.querySelectorAll('[data-opener]'))
          marked.removeAttribute('data-opener');
      });
      await markOpener(page);
      await tab(page);
      if (await banner.evaluate((section) => section.contains(document.activeElement))) break;
    }
    expect(await page.locator('[data-opener]').count()).toBe(1);
    await tabTo(page, /^Decline$/);
    await page.keyboard.press('Enter');
    await page.clock.runFor(COOKIE_BANNER.removalMs);
    await banner.waitFor({ state: 'detached' });
    expect(await focusIsOnOpener(page)).toBe(true);

    // The welcome gift opens by itself after 90 s and gives focus back to where it was.
    await page.clock.runFor(WELCOME_GIFT.delayMs);
    const gift = page.getByTestId('welcome-gift');
    await gift.waitFor();
    await page.keyboard.press('Escape');
    await gift.waitFor({ state: 'detached' });
    // Radix gives focus back on a zero-delay timer once the dialog has gone, and this page's clock
    // is paused: it moves on by the least step.
    await page.clock.runFor(1);
    await expect.poll(() => focusIsOnOpener(page), { timeout: 5_000 }).toBe(true);
    await context.close();
  });

  it('an address saved at checkout is offered at the next checkout, not asked for again (WCAG 3.3.7)', async () => {
    const { slug } = await activeSlug();
    const { rows } = await db.query<{ id: string }>(
      `select id from auth.users where email = 'buyer@reshelf.test'`,
    );
    const buyerId = rows[0]!.id;
    try {
      const first = await member('buyer@reshelf.test');
      await first.page.goto(`/checkout?listing=${slug}`);
      await first.page.getByRole('form', { name: 'Delivery address' }).waitFor();
      for (const [label, value] of [
        ['Full name', 'Ava Reader'],
        ['Address line 1', '12 Turl Street'],
        ['Town or city', 'Oxford'],
        ['Postcode', 'OX1 3DP'],
      ] as const) {
        await tabTo(first.page, new RegExp(`^${label}`));
        await first.page.keyboard.type(value);
      }
      await tabTo(first.page, /^Save this address for next time/);
      await first.page.keyboard.press('Space');
      await tabTo(first.page, /^Continue to confirm$/);
      await first.page.keyboard.press('Enter');
      await first.page.waitForURL(/\/checkout\/confirm\?/);
      await first.context.close();

      // Another visit: the address is chosen already, and no field asks for it again.
      const again = await member('buyer@reshelf.test');
      await again.page.goto(`/checkout?listing=${slug}`);
      const form = again.page.getByRole('form', { name: 'Delivery address' });
      await form.getByTestId('saved-address').waitFor();
      expect(await form.getByRole('radio', { name: /Ava Reader/ }).isChecked()).toBe(true);
      expect(await form.getByRole('textbox').count()).toBe(0);
      await tabTo(again.page, /^Continue to confirm$/);
      await again.page.keyboard.press('Enter');
      await again.page.waitForURL(/\/checkout\/confirm\?/);
      await again.page.getByText('12 Turl Street').first().waitFor();
      await again.context.close();
    } finally {
      await db.query('delete from public.addresses where user_id = $1', [buyerId]);
    }
  });
});
