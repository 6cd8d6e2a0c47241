/**
 * The staff dashboard in a real browser: the period selector and cards against the
 * API's numbers, Demo Data Management with its toasts, the sidebar (Ctrl/Cmd+B, the cookie,
 * the phone sheet), the command palette, not-found pages inside the staff frame, and the
 * metrics' session-expired path. Signed in as the demo accounts.
 *
 * Seeding, resetting and cleaning up change the whole catalogue, so this file runs against a
 * marketplace of its own (tests/support/server.ts), not the one the other files share.
 *
 * Cleanup: the button opens a dialog with a dry run of the clean-up; on a first
 * start it has nothing to take (the demo listings have generated covers); with a duplicate and
 * a listing without an image added it shows both, an admin confirms, and Active Listings goes
 * down by two, not to 0. A moderator sees the preview without the button that runs it.
 *
 * Reset and Seed asks first too, with what it deletes as the server counts it; only
 * admins confirm it. The result toasts cover none of the three buttons.
 */
import { randomBytes } from 'node:crypto';
import { ADMIN_PERIOD_LABELS, ADMIN_PERIODS, type AdminPeriod, formatPence } from '@reshelf/contracts';
import pg from 'pg';
import type { Browser, BrowserContext, Page, Request, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pathOf, signInViaApi } from '../support/auth.ts';
import { snapshot, VIEWPORTS } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

async function staffPage(
  email = 'admin@reshelf.test',
  viewport: keyof typeof VIEWPORTS = 'desktop',
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: marketplace.baseURL, viewport: VIEWPORTS[viewport] });
  // No cookie banner or welcome gift over the dashboard.
  await context.addInitScript(() => {
    localStorage.setItem('cookie-consent', 'declined');
    localStorage.setItem('has-visited', 'true');
  });
  await signInViaApi(context, email);
  const page = await context.newPage();
  return { context, page };
}

interface Metrics {
  disputes_open: number;
  active_listings: number;
  buyer_protection_minor: number;
}

async function apiMetrics(context: BrowserContext, period: AdminPeriod): Promise<Metrics> {
  const input = encodeURIComponent(JSON.stringify({ period }));
  const response = await context.request.get(`/trpc/staff.dashboard.metrics?input=${input}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { result: { data: Metrics } }).result.data;
}

const asCards = (metrics: Metrics) => ({
  disputes: metrics.disputes_open.toLocaleString('en-GB'),
  listings: metrics.active_listings.toLocaleString('en-GB'),
  revenue: formatPence(metrics.buyer_protection_minor),
});

/** The three cards once they show the figures for `period`. */
async function cards(page: Page, period: AdminPeriod) {
  await page.locator(`[data-testid="metrics"][data-period="${period}"][aria-busy="false"]`).waitFor();
  const value = (id: string) => page.getByTestId(`${id}-value`).textContent();
  return {
    disputes: await value('metric-disputes'),
    listings: await value('metric-listings'),
    revenue: await value('metric-revenue'),
  };
}

const openToast = (page: Page) => page.locator('[data-testid="primary-toast"][data-state="open"]');

async function toastShows(page: Page, title: string) {
  const toast = openToast(page).filter({ hasText: title });
  await toast.waitFor();
  const [, description] = await toast.locator('.grid > *').allTextContents();
  return { variant: await toast.getAttribute('data-variant'), description };
}

/** Holds every call to a procedure until released, so the page can be seen mid-call. */
async function hold(page: Page, procedure: string) {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const matcher = (url: URL) => url.pathname.includes(procedure);
  const passed: Promise<void>[] = [];
  await page.route(matcher, (route) => {
    const pass = held.then(() => route.continue());
    passed.push(pass);
    return pass;
  });
  return {
    release: async () => {
      release();
      await Promise.all(passed);
      await page.unroute(matcher);
    },
  };
}

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

/** Runs SQL on the marketplace's own database (fixtures the clean-up should or should not take). */
async function onDatabase<T>(work: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: marketplace.databaseUrl });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

/** A listing of the demo seller's with no photo, of a book with no cover. */
async function imagelessListing(db: pg.Client, title: string, sellerEmail = 'seller@reshelf.test') {
  const book = await db.query<{ id: string }>(
    `insert into public.books (title, authors) values ($1, array['A. N. Author']) returning id`,
    [title],
  );
  const listing = await db.query<{ id: string }>(
    `insert into public.listings (seller_id, book_id, slug, status, condition, price_minor, parcel_size, published_at)
     select u.id, $1, $2, 'active', 'good', 650, 'small', now() from auth.users u where u.email = $3
     returning id`,
    [book.rows[0]!.id, `cleanup-${randomBytes(5).toString('hex')}`, sellerEmail],
  );
  return listing.rows[0]!.id;
}

/**
 * What the clean-up should take: a second copy of one of Sam's Shelf's listings, alike in
 * every way, and a listing without any image. What it must leave: a listing a charity's bulk
 * upload made just now, still without photos.
 */
async function cleanupFixtures(suffix: string) {
  return onDatabase(async (db) => {
    const duplicate = await db.query<{ title: string }>(
      `insert into public.listings (seller_id, charity_id, book_id, slug, status, condition, ex_library,
                                    condition_notes, description, price_minor, parcel_size, photos, published_at)
       select l.seller_id, l.charity_id, l.book_id, l.slug || '-again', 'active', l.condition, l.ex_library,
              l.condition_notes, l.description, l.price_minor, l.parcel_size, l.photos, now()
       from public.listings l join auth.users u on u.id = l.seller_id
       where u.email = 'seller@reshelf.test' and l.status = 'active'
       order by l.created_at limit 1
       returning (select title from public.books b where b.id = book_id)`,
    );
    const imageless = `A Jacketless Notebook ${suffix}`;
    await imagelessListing(db, imageless);
    const bulk = `Fresh From The Donations Van ${suffix}`;
    const listingId = await imagelessListing(db, bulk, 'charity@reshelf.test');
    const upload = await db.query<{ id: string }>(
      `insert into public.charity_imports (charity_id, created_by, file_name, file_sha256, status, total_rows, invalid_rows)
       select c.id, c.owner_id, 'donations.csv', $1, 'done', 1, 0
       from public.charities c join auth.users u on u.id = c.owner_id where u.email = 'charity@reshelf.test'
       returning id`,
      [randomBytes(32).toString('hex')],
    );
    await db.query(
      `update public.listings set charity_id = i.charity_id from public.charity_imports i where i.id = $1 and listings.id = $2`,
      [upload.rows[0]!.id, listingId],
    );
    await db.query(
      `insert into public.charity_import_rows (import_id, row_number, cells, item, status, listing_id)
       values ($1, 2, '{}', '{}', 'listed', $2)`,
      [upload.rows[0]!.id, listingId],
    );
    return { duplicate: duplicate.rows[0]!.title, imageless, bulk };
  });
}

const cleanupDialog = (page: Page) => page.getByRole('dialog', { name: 'Clean up listings?' });

describe('staff dashboard', () => {
  it('opens on MTD and shows the API’s figures for each period as it changes', async () => {
    const { context, page } = await staffPage();
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(await page.getByRole('radio', { name: 'MTD' }).isChecked()).toBe(true);
    expect(await cards(page, 'mtd')).toEqual(asCards(await apiMetrics(context, 'mtd')));
    await snapshot(page, 'admin-dashboard-desktop');

    const revenues = new Set<string | null>();
    for (const period of ADMIN_PERIODS) {
      await page.getByRole('radio', { name: ADMIN_PERIOD_LABELS[period] }).check();
      await page.waitForURL(`**/admin?period=${period}`);
      const shown = await cards(page, period);
      expect(shown, period).toEqual(asCards(await apiMetrics(context, period)));
      revenues.add(shown.revenue);
    }
    // The first-start seed spread orders over the periods, so the revenue card changes.
    expect(revenues.size).toBeGreaterThan(1);

    // The period is in the address: a reload keeps it.
    await page.goto('/admin?period=ytd');
    expect(await page.getByRole('radio', { name: 'YTD' }).isChecked()).toBe(true);
    await cards(page, 'ytd');
    await context.close();
  });

  it('cleans up, seeds, and resets and seeds: each button disabled while it runs, then its toast', async () => {
    const { context, page } = await staffPage();
    await page.goto('/admin');
    await cards(page, 'mtd');

    // Cleanup duplicates. On a first start there is nothing to take: every demo listing has
    // its generated cover (before, one click took Active Listings from 124 to 0).
    const firstStart = await cards(page, 'mtd');
    await button(page, 'Cleanup duplicates').click();
    let dialog = cleanupDialog(page);
    await dialog
      .getByText('Nothing to clean up: no duplicate listings, and every listing has a photo or a cover.')
      .waitFor();
    expect(await dialog.getByRole('button', { name: /^Withdraw/ }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
    await dialog.waitFor({ state: 'detached' });

    const suffix = randomBytes(3).toString('hex');
    const fixtures = await cleanupFixtures(suffix);
    const before = Number((await apiMetrics(context, 'mtd')).active_listings);
    expect(before).toBe(Number(firstStart.listings!.replace(/,/g, '')) + 3);
    await page.reload();
    await cards(page, 'mtd');

    await button(page, 'Cleanup duplicates').click();
    dialog = cleanupDialog(page);
    await dialog.getByTestId('cleanup-sample').waitFor();
    expect(await dialog.getByTestId('cleanup-summary').textContent()).toBe(
      '2 listings would be taken off sale: 1 duplicate and 1 listing without an image.',
    );
    const sample = dialog.getByTestId('cleanup-sample-item');
    expect(await sample.count()).toBe(2);
    await sample.filter({ hasText: fixtures.duplicate }).getByText('Duplicate', { exact: true }).waitFor();
    await sample.filter({ hasText: fixtures.imageless }).getByText('No image', { exact: true }).waitFor();
    // The charity's bulk upload of a minute ago is not in it.
    expect(await dialog.getByText(fixtures.bulk).count()).toBe(0);
    await dialog.getByText('Nothing is deleted.', { exact: false }).waitFor();
    await snapshot(page, 'admin-cleanup-dialog-desktop', { fullPage: false });

    const call = await hold(page, 'staff.dashboard.cleanupListings');
    const cleaned = page.waitForResponse((response) =>
      response.url().includes('staff.dashboard.cleanupListings'),
    );
    const withdraw = dialog.getByRole('button', { name: 'Withdraw 2 listings' });
    await withdraw.click();
    // While it runs: the confirmation and the page's button (behind the dialog, hidden from
    // the accessibility tree while the dialog is open) are disabled, the others are not.
    const behind = (name: string) => page.getByRole('button', { name, exact: true, includeHidden: true });
    await expect.poll(() => withdraw.getAttribute('aria-busy')).toBe('true');
    expect(await withdraw.isDisabled()).toBe(true);
    expect(await behind('Cleanup duplicates').isDisabled()).toBe(true);
    expect(await behind('Seed 40 books + orders').isEnabled()).toBe(true);
    expect(await behind('Reset and Seed').isEnabled()).toBe(true);
    await snapshot(page, 'admin-dashboard-cleanup-running', { fullPage: false });
    await call.release();
    const removed = ((await (await cleaned).json()) as [{ result: { data: Record<string, number> } }])[0]
      .result.data;
    expect(removed).toEqual({ duplicates_removed: 1, no_image_removed: 1, total_deleted: 2 });
    await dialog.waitFor({ state: 'detached' });
    const cleanup = await toastShows(page, 'Cleanup complete');
    expect(cleanup).toEqual({
      variant: 'default',
      description:
        'Removed 1 duplicate and 1 listing without an image: 2 in total. Staff can restore them from Listings for 30 days.',
    });
    expect(await button(page, 'Cleanup duplicates').isEnabled()).toBe(true);
    // Active Listings goes down by the two, not to 0.
    await expect
      .poll(() => page.getByTestId('metric-listings-value').textContent())
      .toBe((before - 2).toLocaleString('en-GB'));

    // They are withdrawn, not deleted: staff find them under Listings, restorable.
    await page.goto(`/admin/listings?q=${encodeURIComponent(fixtures.imageless)}`);
    const row = page.getByTestId('staff-listing').filter({ hasText: fixtures.imageless });
    await row
      .getByTestId('restore-window')
      .getByText('staff can restore it until', { exact: false })
      .waitFor();
    expect(await row.getAttribute('data-status')).toBe('removed');
    expect(await row.getByRole('button', { name: 'Restore…' }).isVisible()).toBe(true);
    await page.goto('/admin');
    await cards(page, 'mtd');

    // Seed: the seed's listings are all still there, so seeding again adds nothing.
    const seedCall = await hold(page, 'staff.dashboard.seed');
    // The buttons at the foot of the window, where the primary toast shows on a desktop.
    await page.getByTestId('demo-data').evaluate((panel) => panel.scrollIntoView({ block: 'end' }));
    await button(page, 'Seed 40 books + orders').click();
    await expect.poll(() => button(page, 'Seed 40 books + orders').isDisabled()).toBe(true);
    expect(await button(page, 'Reset and Seed').isEnabled()).toBe(true);
    await seedCall.release();
    expect(await toastShows(page, 'Seeded demo data')).toEqual({
      variant: 'default',
      description: 'The demo data was already in place: 0 listings and 0 orders added.',
    });
    // The toast covers none of the buttons (it covered Cleanup for its 5 s).
    const toastBox = (await openToast(page).boundingBox())!;
    for (const name of ['Seed 40 books + orders', 'Reset and Seed', 'Cleanup duplicates']) {
      const box = (await button(page, name).boundingBox())!;
      const apart =
        box.x + box.width <= toastBox.x ||
        toastBox.x + toastBox.width <= box.x ||
        box.y + box.height <= toastBox.y ||
        toastBox.y + toastBox.height <= box.y;
      expect([name, apart]).toEqual([name, true]);
    }
    await snapshot(page, 'admin-dashboard-seeded-toast', { fullPage: false });
    await expect
      .poll(() => page.getByTestId('metric-listings-value').textContent())
      .toBe(asCards(await apiMetrics(context, 'mtd')).listings);

    // Reset and Seed asks first, saying what it deletes as the server counts it;
    // then everything the seed made goes and comes back, orders too.
    const removing = (await (await context.request.get('/trpc/staff.dashboard.resetPreview')).json()) as {
      result: { data: { listings: number; soldListings: number; orders: number; disputes: number } };
    };
    await button(page, 'Reset and Seed').click();
    const resetDialog = page.getByTestId('reset-dialog');
    const { listings, soldListings, orders, disputes } = removing.result.data;
    await resetDialog
      .getByText(
        `${listings} listings on sale, ${soldListings} sold listings, ${orders} orders and ${disputes} disputes`,
      )
      .waitFor();
    await snapshot(page, 'admin-reset-dialog-desktop', { fullPage: false });
    const resetCall = await hold(page, 'staff.dashboard.resetAndSeed');
    const confirm = resetDialog.getByRole('button', { name: 'Delete and seed again' });
    await confirm.click();
    await expect.poll(() => confirm.getAttribute('aria-busy')).toBe('true');
    const resetBehind = page.getByRole('button', {
      name: 'Reset and Seed',
      exact: true,
      includeHidden: true,
    });
    expect(await resetBehind.isDisabled()).toBe(true);
    await resetCall.release();
    await resetDialog.waitFor({ state: 'detached' });
    expect(await toastShows(page, 'Reset and seeded')).toEqual({
      variant: 'default',
      description: '40 listings and 24 orders added.',
    });
    await expect.poll(async () => cards(page, 'mtd')).toEqual(asCards(await apiMetrics(context, 'mtd')));
    const today = await apiMetrics(context, 'today');
    expect(today.disputes_open).toBe(4);
    expect(today.buyer_protection_minor).toBeGreaterThan(0);

    // The reset seed's listings have their covers too: the clean-up still finds nothing.
    await button(page, 'Cleanup duplicates').click();
    await cleanupDialog(page).getByText('Nothing to clean up', { exact: false }).waitFor();
    await context.close();
  });

  it('says "Seeding failed" and "Cleanup failed" with the API’s message', async () => {
    const { context, page } = await staffPage();
    await page.goto('/admin');
    await cards(page, 'mtd');
    // The calls reach the API with input it refuses, so the messages are the API's own.
    const spoil = (body: string) => async (route: Route, request: Request) => {
      if (request.method() === 'POST') await route.continue({ postData: body });
      else await route.continue();
    };
    const messageOf = async (procedure: string) => {
      const response = await page.waitForResponse((r) => r.url().includes(procedure));
      return ((await response.json()) as [{ error: { message: string } }])[0].error.message;
    };

    await page.route((url) => url.pathname.includes('staff.dashboard.seed'), spoil('{"0":{"reset":"yes"}}'));
    let message = messageOf('staff.dashboard.seed');
    await button(page, 'Seed 40 books + orders').click();
    expect(await toastShows(page, 'Seeding failed')).toEqual({
      variant: 'destructive',
      description: await message,
    });
    expect(await message).toBe('reset: reset must be true or false');
    await snapshot(page, 'admin-dashboard-seeding-failed', { fullPage: false });
    // The next failure has the same title: let this toast go first, so the next one read is its own.
    await openToast(page).filter({ hasText: 'Seeding failed' }).waitFor({ state: 'detached' });
    await page.route(
      (url) => url.pathname.includes('staff.dashboard.resetAndSeed'),
      spoil('{"0":{"expected":"not-a-digest"}}'),
    );
    message = messageOf('staff.dashboard.resetAndSeed');
    await button(page, 'Reset and Seed').click();
    await page.getByTestId('reset-dialog').getByRole('button', { name: 'Delete and seed again' }).click();
    expect(await toastShows(page, 'Seeding failed')).toEqual({
      variant: 'destructive',
      description: await message,
    });
    expect(await message).toBe('expected: Send the digest the preview answered (32 hex characters)');
    await expect.poll(() => button(page, 'Reset and Seed').isEnabled()).toBe(true);

    await onDatabase((db) => imagelessListing(db, `A Listing To Fail On ${randomBytes(3).toString('hex')}`));
    await page.route(
      (url) => url.pathname.includes('staff.dashboard.cleanupListings'),
      spoil('{"0":{"dryRun":true}}'),
    );
    message = messageOf('staff.dashboard.cleanupListings');
    await button(page, 'Cleanup duplicates').click();
    await cleanupDialog(page).getByRole('button', { name: 'Withdraw 1 listing' }).click();
    expect(await toastShows(page, 'Cleanup failed')).toEqual({
      variant: 'destructive',
      description: await message,
    });
    await context.close();
  });

  it('shows 0 on the cards when the figures cannot be loaded, and recovers', async () => {
    const { context, page } = await staffPage();
    await page.goto('/admin');
    await cards(page, 'mtd');
    const offline = (url: URL) => url.pathname.includes('staff.dashboard.metrics');
    await page.route(offline, (route) => route.abort('failed'));
    await page.getByRole('radio', { name: 'Today' }).check();
    expect(await cards(page, 'today')).toEqual({ disputes: '0', listings: '0', revenue: '£0.00' });
    await page.getByTestId('metrics-failed').waitFor();
    await page.unroute(offline);
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => cards(page, 'today')).toEqual(asCards(await apiMetrics(context, 'today')));
    await context.close();
  });

  it('on a 401 alerts "Session expired—please sign in" and goes to /login', async () => {
    const { context, page } = await staffPage();
    await page.goto('/admin');
    await cards(page, 'mtd');
    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      alerts.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.accept();
    });
    // The session ends (signed out elsewhere): the next figures are answered 401.
    await context.clearCookies();
    await page.getByRole('radio', { name: 'YTD' }).check();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(alerts).toEqual(['alert: Session expired—please sign in']);
    expect(pathOf(page)).toBe(`/login?next=${encodeURIComponent('/admin?period=ytd')}`);
    await context.close();
  });

  it('shows a moderator the same dashboard', async () => {
    const { context, page } = await staffPage('moderator@reshelf.test');
    await page.goto('/admin');
    expect(await cards(page, 'mtd')).toEqual(asCards(await apiMetrics(context, 'mtd')));
    for (const name of ['Seed 40 books + orders', 'Reset and Seed', 'Cleanup duplicates']) {
      expect(await button(page, name).isEnabled()).toBe(true);
    }
    expect(await page.getByTestId('staff-signed-in-as').textContent()).toContain('moderator');
    // A moderator sees what the clean-up would take, but only admins run it.
    const title = `A Moderator Sees This ${randomBytes(3).toString('hex')}`;
    await onDatabase((db) => imagelessListing(db, title));
    await button(page, 'Cleanup duplicates').click();
    const dialog = cleanupDialog(page);
    await dialog.getByTestId('cleanup-sample-item').filter({ hasText: title }).waitFor();
    await dialog.getByTestId('cleanup-admins-only').waitFor();
    expect(await dialog.getByRole('button', { name: /^Withdraw/ }).count()).toBe(0);
    await snapshot(page, 'admin-cleanup-dialog-moderator-desktop', { fullPage: false });
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
    await dialog.waitFor({ state: 'detached' });
    // Nor Reset and Seed: a moderator sees what it would delete, without the button.
    await button(page, 'Reset and Seed').click();
    const reset = page.getByTestId('reset-dialog');
    await reset.getByTestId('reset-admins-only').waitFor();
    expect(await reset.getByRole('button', { name: 'Delete and seed again' }).count()).toBe(0);
    await reset.getByRole('button', { name: 'Close', exact: true }).first().click();
    await reset.waitFor({ state: 'detached' });
    await page.getByRole('radio', { name: 'Last 30d' }).check();
    expect(await cards(page, 'last30')).toEqual(asCards(await apiMetrics(context, 'last30')));
    await snapshot(page, 'admin-dashboard-moderator-desktop');
    await context.close();
  });

  it('fits a phone: one column, the sidebar an 18rem sheet', async () => {
    const { context, page } = await staffPage('admin@reshelf.test', 'phone');
    await page.goto('/admin');
    await cards(page, 'mtd');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await snapshot(page, 'admin-dashboard-phone');
    // The clean-up's preview fits a phone.
    const title = `A Phone-Sized Preview ${randomBytes(3).toString('hex')}`;
    await onDatabase((db) => imagelessListing(db, title));
    await button(page, 'Cleanup duplicates').click();
    const dialog = cleanupDialog(page);
    await dialog.getByTestId('cleanup-sample-item').filter({ hasText: title }).waitFor();
    await dialog.getByRole('button', { name: /^Withdraw \d+ listings?$/ }).waitFor();
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await snapshot(page, 'admin-cleanup-dialog-phone', { fullPage: false });
    await dialog.getByRole('button', { name: 'Not now' }).click();
    await dialog.waitFor({ state: 'detached' });
    // No sidebar on the page below 768 px until it is asked for.
    expect(await page.getByTestId('staff-sidebar').count()).toBe(0);
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    const sheet = page.getByRole('dialog', { name: 'Staff area' });
    await sheet.waitFor();
    await expect.poll(async () => (await sheet.boundingBox())?.width).toBe(288);
    await snapshot(page, 'admin-sidebar-sheet-phone', { fullPage: false });
    await sheet.getByRole('link', { name: 'Disputes', exact: true }).click();
    await page.waitForURL('**/admin/disputes');
    await sheet.waitFor({ state: 'detached' });
    await page.getByTestId('dispute-queue').waitFor();
    // Ctrl+B opens the sheet too.
    await page.keyboard.press('Control+b');
    await sheet.waitFor();
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
    await context.close();
  });
});

describe('staff frame', () => {
  it('Ctrl/Cmd+B collapses the 16rem sidebar to a 3rem rail, remembered in sidebar_state for 7 days', async () => {
    const { context, page } = await staffPage();
    await page.goto('/admin');
    const sidebar = page.getByTestId('staff-sidebar');
    await sidebar.waitFor();
    const width = async () => (await sidebar.boundingBox())?.width;
    expect(await sidebar.getAttribute('data-state')).toBe('expanded');
    await expect.poll(width).toBe(256);

    await page.keyboard.press('Control+b');
    await expect.poll(() => sidebar.getAttribute('data-state')).toBe('collapsed');
    await expect.poll(width).toBe(48);
    const cookie = (await context.cookies()).find((c) => c.name === 'sidebar_state');
    expect(cookie?.value).toBe('false');
    const sevenDays = Date.now() / 1000 + 7 * 24 * 60 * 60;
    expect(Math.abs((cookie?.expires ?? 0) - sevenDays)).toBeLessThan(120);

    // Collapsed, each link is its icon, named by its label and shown in a tooltip.
    const disputes = sidebar.getByRole('link', { name: 'Disputes', exact: true });
    await disputes.hover();
    await page.locator('[data-radix-popper-content-wrapper]').getByText('Disputes').waitFor();
    await snapshot(page, 'admin-sidebar-collapsed-desktop', { fullPage: false });

    // Remembered across visits.
    await page.reload();
    await expect.poll(() => sidebar.getAttribute('data-state')).toBe('collapsed');
    await page.keyboard.press('Meta+b');
    await expect.poll(() => sidebar.getAttribute('data-state')).toBe('expanded');
    await expect.poll(width).toBe(256);
    expect((await context.cookies()).find((c) => c.name === 'sidebar_state')?.value).toBe('true');
    // The trigger does the same.
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await expect.poll(() => sidebar.getAttribute('data-state')).toBe('collapsed');
    await context.close();
  });

  it('lists the spec’s links in order; an unknown staff page shows not-found inside the frame', async () => {
    const { context, page } = await staffPage();
    await page.goto('/admin');
    await page.getByTestId('staff-dashboard').waitFor();
    const nav = page.getByRole('navigation', { name: 'Staff', exact: true });
    const hrefs = await nav
      .getByRole('link')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    // The spec's links in its order, with Charities, Orders, Payments, Payouts and Logs among them.
    expect(hrefs).toEqual(
      [
        '',
        '/users',
        '/charities',
        '/listings',
        '/orders',
        '/payments',
        // Issue 24: payouts and transfers to sellers, holds and retries.
        '/payouts',
        '/staff-picks',
        '/trending-books',
        '/offers',
        '/reports',
        '/disputes',
        '/shipping-disputes',
        '/refunds',
        '/promotions',
        '/flags',
        '/categories',
        '/seo',
        '/email-templates',
        '/exports',
        '/audit',
        '/logs',
        '/accessibility',
        '/covers-backfill',
      ].map((path) => `/admin${path}`),
    );
    for (const [name, testId] of [
      ['Charities', 'admin-charities'],
      ['Orders', 'orders-page'],
      ['Payments', 'payments-page'],
      ['Logs', 'logs-page'],
    ] as const) {
      await nav.getByRole('link', { name, exact: true }).click();
      await page.getByTestId(testId).waitFor();
      expect(await nav.getByRole('link', { name, exact: true }).getAttribute('aria-current')).toBe('page');
    }
    expect(await page.getByRole('banner').count()).toBe(0);

    await nav.getByRole('link', { name: 'Offers' }).click();
    await page.waitForURL('**/admin/offers');
    await page.getByTestId('offers-page').waitFor();
    expect(await nav.getByRole('link', { name: 'Offers' }).getAttribute('aria-current')).toBe('page');
    // Every sidebar link has its page now; an unknown staff address is not-found in the frame.
    await page.goto('/admin/no-such-page');
    await page.getByTestId('not-found').waitFor();
    expect(await page.getByTestId('staff-header').isVisible()).toBe(true);
    await snapshot(page, 'admin-not-found-desktop', { fullPage: false });

    // Spec: users shows the same basic dashboard.
    await nav.getByRole('link', { name: 'Users' }).click();
    await page.getByTestId('users-page').getByTestId('basic-dashboard').getByTestId('metrics').waitFor();

    // The header's links, and the quick links.
    const header = page.getByTestId('staff-header');
    await header.getByRole('link', { name: 'Analytics' }).click();
    await page.waitForURL('**/admin/analytics');
    await page.getByTestId('analytics-page').waitFor();
    await header.getByRole('link', { name: 'Revenue' }).click();
    await page.waitForURL('**/admin/revenue');
    await page.goto('/admin');
    const quick = page.getByRole('region', { name: 'Quick links' });
    await quick.getByRole('link').first().waitFor();
    expect(
      await quick
        .getByRole('link')
        .evaluateAll((links) => links.map((a) => `${a.textContent?.trim()} ${a.getAttribute('href')}`)),
    ).toEqual([
      'Go to Disputes /admin/disputes',
      'View Listings /admin/listings',
      'Revenue /admin/revenue',
      'Analytics /admin/analytics',
    ]);
    await header.getByRole('link', { name: 'Back to site' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('banner').waitFor();
    expect(await page.getByTestId('staff-shell').count()).toBe(0);
    await context.close();
  });

  it('Ctrl/Cmd+K and the "Search (⌘K)" box open a palette that jumps to pages and finds listings, people and orders', async () => {
    const { context, page } = await staffPage();
    await page.goto('/admin');
    const palette = page.getByRole('dialog', { name: 'Search the staff area' });
    const input = palette.getByRole('combobox');

    // Any staff page, from the keyboard.
    await page.getByTestId('staff-dashboard').waitFor();
    await page.keyboard.press('Control+k');
    await input.fill('export');
    await palette.getByRole('option', { name: /Exports/ }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL('**/admin/exports');
    await palette.waitFor({ state: 'detached' });
    await page.getByTestId('exports-page').waitFor();

    // A listing, from the search box.
    await page.getByRole('button', { name: 'Search (⌘K)' }).click();
    await input.fill('pride and');
    const listing = palette.getByRole('option', { name: /Pride and Prejudice/ }).first();
    await listing.waitFor();
    await snapshot(page, 'admin-command-palette-desktop', { fullPage: false });
    await listing.click();
    await page.waitForURL('**/listing/pride-and-prejudice-*');
    await page.getByRole('heading', { name: 'Pride and Prejudice', level: 1 }).waitFor();

    // A person and an order.
    await page.goto('/admin');
    await page.getByTestId('staff-dashboard').waitFor();
    await page.keyboard.press('Meta+k');
    await input.fill('whitfield');
    await palette.getByRole('option', { name: /Jo Whitfield/ }).click();
    await page.waitForURL(`**/admin/users?q=${encodeURIComponent('bookworm@reshelf.test')}`);

    const found = await context.request.get(
      `/trpc/staff.dashboard.search?input=${encodeURIComponent(JSON.stringify({ q: 'RS-' }))}`,
    );
    const reference = ((await found.json()) as { result: { data: { orders: { reference: string }[] } } })
      .result.data.orders[0]!.reference;
    await page.keyboard.press('Control+k');
    await input.fill(reference.toLowerCase());
    await palette.getByRole('option', { name: new RegExp(reference) }).click();
    await page.waitForURL(`**/admin/orders?q=${reference}`);

    // Every staff page is in the palette, the sidebar's new links too.
    for (const [typed, path] of [
      ['charit', '/admin/charities'],
      ['orders', '/admin/orders'],
      ['payments', '/admin/payments'],
      ['logs', '/admin/logs'],
    ] as const) {
      await page.keyboard.press('Control+k');
      await input.fill(typed);
      await palette.locator(`[cmdk-item][data-value="page ${path}"]`).click();
      await page.waitForURL(`**${path}`);
      await palette.waitFor({ state: 'detached' });
    }

    // Nothing found says so.
    await page.keyboard.press('Control+k');
    await input.fill('zzqxw');
    await palette.getByText('Nothing matches “zzqxw”').waitFor();
    await page.keyboard.press('Escape');
    await palette.waitFor({ state: 'detached' });
    await context.close();
  });
});
