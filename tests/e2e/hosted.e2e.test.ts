/**
 * Hosted mode (BACKEND=supabase, decision 0032) in a real browser: the BFF against a local
 * Supabase stand-in (api/src/testing/fake-supabase.ts: Auth with ES256 tokens from a JWKS, the
 * Functions relay running the real function logic, Storage) on an embedded PostgreSQL. An admin
 * signs in through Supabase Auth, reads the metrics cards, seeds, previews and runs the
 * clean-up, sees the failure toasts when the functions fail, and on an expired token is told
 * "Session expired—please sign in" and sent to /login.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/src/app.ts';
import { prepare } from '../../api/src/bootstrap.ts';
import { loadConfig } from '../../api/src/config.ts';
import { freePort } from '../../api/src/db/embedded.ts';
import { type RunningDatabase, startDatabase } from '../../api/src/runtime.ts';
import { SNAPSHOT_BOOKS } from '../../api/src/seed/books.ts';
import { seedReferenceData } from '../../api/src/seed/demo.ts';
import { type FakeSupabase, hostedEnv, startFakeSupabase } from '../../api/src/testing/fake-supabase.ts';
import { E2E_WEB_DIST } from '../setup/e2e.global.ts';
import { fillSignIn } from '../support/auth.ts';
import { launchBrowser, snapshot, VIEWPORTS } from '../support/browser.ts';

const ADMIN_EMAIL = 'hosted-admin@example.com';
const ADMIN_PASSWORD = 'a-hosted-admin-password-0123';

let browser: Browser;
let fake: FakeSupabase;
let embedded: RunningDatabase;
let baseURL: string;
let stopSite: () => Promise<void>;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'reshelf-e2e-hosted-'));
  await chmod(dataDir, 0o755);
  const quiet = { info: () => {}, debug: () => {} };
  // The project's PostgreSQL: the embedded one, migrated, standing in for Supabase's.
  embedded = await startDatabase(
    loadConfig({ NODE_ENV: 'test', DATA_DIR: path.join(dataDir, 'postgres'), SEED_DEMO: 'false' }),
    quiet,
  );
  await seedReferenceData(embedded.handle.db);
  fake = await startFakeSupabase({ databaseUrl: embedded.ownerUrl, snapshot: SNAPSHOT_BOOKS });
  const env = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATA_DIR: path.join(dataDir, 'site'),
    HOST: '127.0.0.1',
    WEB_DIST: E2E_WEB_DIST,
    TRUST_PROXY: 'loopback',
    DATABASE_URL: embedded.url,
    ...hostedEnv(fake),
  };
  const { database, secrets, services } = await prepare(loadConfig(env), quiet);
  expect(services.identity.kind).toBe('supabase');
  expect(services.functions.kind).toBe('edge');
  expect(services.storage.kind).toBe('supabase');
  // The first admin, as `pnpm ops bootstrap` makes one: through Auth's admin API.
  const { id } = await services.identity.ensureUser({
    email: ADMIN_EMAIL,
    password: ADMIN_PASSWORD,
    displayName: 'Hosted Admin',
  });
  await embedded.handle.pool.query(`insert into public.user_roles (user_id, role) values ($1, 'admin')`, [
    id,
  ]);
  const port = await freePort();
  baseURL = `http://127.0.0.1:${port}`;
  const config = loadConfig({ ...env, PORT: String(port), PUBLIC_ORIGIN: baseURL });
  const app = await buildApp({ config, database: database.handle, secrets, services });
  await app.listen({ port, host: '127.0.0.1' });
  stopSite = async () => {
    await app.close();
    await database.stop();
  };
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await stopSite?.();
  await fake?.close();
  await embedded?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

async function newContext(viewport: keyof typeof VIEWPORTS = 'desktop'): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport: VIEWPORTS[viewport] });
  await context.addInitScript(() => {
    localStorage.setItem('cookie-consent', 'declined');
    localStorage.setItem('has-visited', 'true');
  });
  return context;
}

/** Signs in through the form, as a person does: Supabase Auth answers behind the BFF. */
async function signInAsAdmin(
  viewport: keyof typeof VIEWPORTS = 'desktop',
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(viewport);
  const page = await context.newPage();
  await page.goto('/login?next=%2Fadmin');
  await fillSignIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.waitForURL((url) => url.pathname === '/admin');
  return { context, page };
}

async function cards(page: Page, period: string) {
  await page.locator(`[data-testid="metrics"][data-period="${period}"][aria-busy="false"]`).waitFor();
  const value = (id: string) => page.getByTestId(`${id}-value`).textContent();
  return {
    disputes: await value('metric-disputes'),
    listings: await value('metric-listings'),
    revenue: await value('metric-revenue'),
  };
}

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const cleanupDialog = (page: Page) => page.getByRole('dialog', { name: 'Clean up listings?' });

async function toastShows(page: Page, title: string) {
  const toast = page.locator('[data-testid="primary-toast"][data-state="open"]').filter({ hasText: title });
  await toast.waitFor();
  const [, description] = await toast.locator('.grid > *').allTextContents();
  return { variant: await toast.getAttribute('data-variant'), description };
}

/** A listing with no photo, of a book with no cover, for the clean-up to take. */
async function imagelessListing(title: string): Promise<void> {
  const db = new pg.Client({ connectionString: embedded.ownerUrl });
  await db.connect();
  try {
    const book = await db.query<{ id: string }>(
      `insert into public.books (title, authors) values ($1, array['A. N. Author']) returning id`,
      [title],
    );
    await db.query(
      `insert into public.listings (seller_id, book_id, slug, status, condition, price_minor, parcel_size, published_at)
       select u.id, $1, $2, 'active', 'good', 650, 'small', now() from auth.users u where u.email = 'seller@reshelf.test'`,
      [book.rows[0]!.id, `hosted-cleanup-${randomBytes(5).toString('hex')}`],
    );
  } finally {
    await db.end();
  }
}

describe('the staff dashboard in hosted mode', () => {
  it('signs in through Supabase Auth, shows the cards, seeds, and previews and runs the clean-up', async () => {
    const { context, page } = await signInAsAdmin();
    expect(fake.requests.some((entry) => entry.url === '/auth/v1/token?grant_type=password')).toBe(true);
    // A new project: nothing yet.
    expect(await cards(page, 'mtd')).toEqual({ disputes: '0', listings: '0', revenue: '£0.00' });

    await button(page, 'Seed 40 books + orders').click();
    expect(await toastShows(page, 'Seeded demo data')).toEqual({
      variant: 'default',
      description: '40 listings and 24 orders added.',
    });
    await expect.poll(async () => (await cards(page, 'mtd')).listings).toBe('40');
    // The demo people came through Auth's admin API; the covers went to Storage.
    expect(
      fake.requests.filter(
        (entry) =>
          entry.method === 'POST' &&
          entry.url === '/auth/v1/admin/users' &&
          entry.body.includes('@reshelf.test'),
      ).length,
    ).toBe(10);
    expect([...fake.objects.keys()].some((key) => key.startsWith('listing-photos/'))).toBe(true);
    await snapshot(page, 'hosted-admin-seeded-desktop', { fullPage: false });

    await button(page, 'Reset and Seed').click();
    await page.getByTestId('reset-dialog').getByRole('button', { name: 'Delete and seed again' }).click();
    expect(await toastShows(page, 'Reset and seeded')).toEqual({
      variant: 'default',
      description: '40 listings and 24 orders added.',
    });

    const title = `A Hosted Listing Without Images ${randomBytes(3).toString('hex')}`;
    await imagelessListing(title);
    await page.reload();
    expect((await cards(page, 'mtd')).listings).toBe('41');
    await button(page, 'Cleanup duplicates').click();
    const dialog = cleanupDialog(page);
    await dialog.getByTestId('cleanup-sample').waitFor();
    expect(await dialog.getByTestId('cleanup-summary').textContent()).toBe(
      '1 listing would be taken off sale: 0 duplicates and 1 listing without an image.',
    );
    await dialog.getByTestId('cleanup-sample-item').filter({ hasText: title }).waitFor();
    await dialog.getByRole('button', { name: 'Withdraw 1 listing' }).click();
    expect(await toastShows(page, 'Cleanup complete')).toEqual({
      variant: 'default',
      description:
        'Removed 0 duplicates and 1 listing without an image: 1 in total. Staff can restore them from Listings for 30 days.',
    });
    await expect.poll(() => page.getByTestId('metric-listings-value').textContent()).toBe('40');
    await context.close();
  });

  it('says "Seeding failed" and "Cleanup failed" when the functions cannot be reached', async () => {
    const { context, page } = await signInAsAdmin();
    await cards(page, 'mtd');
    fake.fail('functions', 'relay');
    try {
      await button(page, 'Seed 40 books + orders').click();
      expect(await toastShows(page, 'Seeding failed')).toEqual({
        variant: 'destructive',
        description:
          'The seed-openlibrary-recent function could not be reached (relay error). Please try again.',
      });
      fake.heal();
      // The preview works; by the time the admin confirms, the functions cannot be reached.
      await imagelessListing(`Another Listing Without Images ${randomBytes(3).toString('hex')}`);
      await button(page, 'Cleanup duplicates').click();
      const dialog = cleanupDialog(page);
      await dialog.getByTestId('cleanup-sample').waitFor();
      fake.fail('functions', 'down');
      await dialog.getByRole('button', { name: 'Withdraw 1 listing' }).click();
      expect(await toastShows(page, 'Cleanup failed')).toEqual({
        variant: 'destructive',
        description: 'Could not reach the admin-cleanup-listings function. Please try again in a moment.',
      });
      await snapshot(page, 'hosted-admin-cleanup-failed-desktop', { fullPage: false });
    } finally {
      fake.heal();
    }
    await context.close();
  });

  it('on an expired token alerts "Session expired—please sign in" and goes to /login (phone)', async () => {
    const { context, page } = await signInAsAdmin('phone');
    await cards(page, 'mtd');
    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      alerts.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.accept();
    });
    // The BFF checked the token a moment ago; by the time the function sees it, it has expired.
    fake.advanceClock(2 * 3600);
    try {
      await page.getByRole('radio', { name: 'YTD' }).check();
      await page.waitForURL((url) => url.pathname === '/login');
    } finally {
      fake.advanceClock(-2 * 3600);
    }
    expect(alerts).toEqual(['alert: Session expired—please sign in']);
    expect(new URL(page.url()).pathname).toBe('/login');
    await snapshot(page, 'hosted-session-expired-login-phone');
    await context.close();
  });
});
