import pg from 'pg';
import type { Browser } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { newPage, snapshot, withBrowser } from '../support/browser.ts';

let browser: Browser;
withBrowser((launched) => (browser = launched));

async function addCategory(slug: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: inject('e2eDatabaseUrl') });
  await client.connect();
  try {
    await client.query(
      'insert into categories (slug, name, description, position) values ($1, $2, $3, 500)',
      [slug, name, 'Added by the browser test'],
    );
  } finally {
    await client.end();
  }
}

describe('foundation', () => {
  it('serves from a connection as the runtime role, never the superuser (decision 0026)', async () => {
    const response = await fetch(`${inject('baseURL')}/trpc/catalogue.taxonomy.public.categories`);
    expect(response.status).toBe(200);
    const client = new pg.Client({ connectionString: inject('e2eDatabaseUrl') });
    await client.connect();
    try {
      const { rows } = await client.query(
        "select distinct usename from pg_stat_activity where application_name = 'reshelf-api' and datname = current_database()",
      );
      expect(rows).toEqual([{ usename: 'reshelf_app' }]);
    } finally {
      await client.end();
    }
  });

  it('home lists the categories read from the database', async () => {
    await addCategory('e2e-rare-maps', 'Rare Maps (e2e)');
    const { context, page } = await newPage(browser, 'desktop');
    await page.goto('/');
    const list = page.getByTestId('category-list');
    await list.getByText('Crime & Thriller').waitFor();
    await expect(list.getByText('Rare Maps (e2e)').count()).resolves.toBe(1);
    const cards = await list.getByTestId('category-card').count();
    expect(cards).toBeGreaterThanOrEqual(17);
    const link = list.getByRole('link', { name: /Rare Maps \(e2e\)/ });
    expect(await link.getAttribute('href')).toBe('/c/e2e-rare-maps');
    expect(await page.title()).toMatch(/Reshelf/);
    await snapshot(page, 'foundation-home-desktop');
    await context.close();
  });

  it('home works on a phone-sized screen without horizontal scrolling', async () => {
    const { context, page } = await newPage(browser, 'phone');
    await page.goto('/');
    await page.getByTestId('category-list').getByText('Fiction', { exact: true }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await snapshot(page, 'foundation-home-phone');
    await context.close();
  });

  it('a page loaded afresh opens at its top, not where the last page loaded afresh was left; a reload keeps its place', async () => {
    const { context, page } = await newPage(browser, 'phone');
    await page.goto('/listings');
    await page.getByTestId('results').waitFor();
    await page.evaluate(() => window.scrollTo(0, 1500));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    // A full navigation (as after closing an account or coming back from a payment page).
    await page.evaluate(() => window.location.assign('/categories'));
    await page.waitForURL('**/categories');
    await page.getByTestId('category-card').first().waitFor();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    // Reloading a page keeps where the reader was.
    await page.evaluate(() => window.scrollTo(0, 600));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
    await page.reload();
    await page.getByTestId('category-card').first().waitFor();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
    await context.close();
  });

  it('an unknown path shows the not-found page', async () => {
    const { context, page } = await newPage(browser, 'desktop');
    await page.goto('/no/such/page');
    await page.getByTestId('not-found').waitFor();
    await expect(page.getByRole('heading', { name: 'Page not found' }).count()).resolves.toBe(1);
    await expect(page.getByRole('link', { name: /home/i }).first().getAttribute('href')).resolves.toBe('/');
    await snapshot(page, 'foundation-not-found');
    await context.close();
  });
});
