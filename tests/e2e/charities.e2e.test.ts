/**
 * Charities in Chromium: a new charity signs up and sees the confirmation; staff
 * approve it at /admin/charities and it appears in /charity/directory; charity@reshelf.test
 * bulk-lists a 50-row CSV with three bad rows, gets the report row by row, downloads the rows
 * to correct, fixes and uploads them again, and sees the dashboard with its charts.
 * Screenshots at 390 and 1280 px land in tests/.artifacts/.
 */
import { readFile } from 'node:fs/promises';
import { BULK_COLUMNS } from '@reshelf/contracts';
import { parse } from 'csv-parse/sync';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createConfirmedAccount, signedIn, uniqueEmail } from '../support/auth.ts';
import { launchBrowser, newPage, snapshot } from '../support/browser.ts';

let browser: Browser;
let db: pg.Client;

// Snapshot books the demo catalogue has.
const ISBNS = ['9780141439518', '9780141439662', '9780141439587', '9780141439570', '9780141182636'];
const NAME = `Kidlington Community Books ${Date.now().toString(36)}`;

beforeAll(async () => {
  browser = await launchBrowser();
  db = new pg.Client({ connectionString: inject('e2eDatabaseUrl') });
  await db.connect();
});

afterAll(async () => {
  // Other browser tests share this marketplace: take the bulk-listed books off it again.
  await db?.query(
    `delete from public.listings where id in (
       select r.listing_id from public.charity_import_rows r
       join public.charity_imports i on i.id = r.import_id
       where i.file_name like 'e2e-%' and r.listing_id is not null)`,
  );
  await browser?.close();
  await db?.end();
});

async function noHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}

function csv50(): string {
  const lines = ['isbn,condition,price,notes,donor_reference'];
  for (let i = 0; i < 50; i++) {
    lines.push(
      `${ISBNS[i % ISBNS.length]},${['Like new', 'Very good', 'Good', 'Well read'][i % 4]},${(2.5 + (i % 10) / 2).toFixed(2)},Box 7 copy ${i + 1},${i % 2 ? `D-${200 + (i % 9)}` : ''}`,
    );
  }
  lines[8] = '978014143951X,Good,3.00,Box 7 copy 8,'; // not an ISBN
  lines[20] = `${ISBNS[1]},Good,,Box 7 copy 20,`; // no price
  lines[33] = `${ISBNS[2]},Fair,4.00,Box 7 copy 33,`; // a condition we do not use
  return `${lines.join('\r\n')}\r\n`;
}

describe('charities', () => {
  it('a new charity signs up, staff approve it, and it appears in the directory', async () => {
    const email = uniqueEmail('charity-applicant');
    const password = 'a-charity-shop-passphrase';
    const setup = await newPage(browser);
    await createConfirmedAccount(setup.context, email, password, 'Pat Kidlington');
    await setup.context.close();

    // Staff see how many applications wait, on the dashboard.
    const staff = await signedIn(browser, 'admin@reshelf.test', { returning: false });
    const waiting = async () => {
      await staff.page.goto('/admin');
      // The count, once loaded; the link's name is what it shows (WCAG 2.5.3).
      const link = staff.page.locator('[data-testid="charity-applications-waiting"][data-waiting]');
      await link.waitFor();
      await staff.page.getByRole('link', { name: /^Charity applications waiting\b.*Review them/ }).waitFor();
      return Number(await link.getAttribute('data-waiting'));
    };
    const before = await waiting();

    for (const viewport of ['phone', 'desktop'] as const) {
      // The phone only looks at the form; the desktop fills it in.
      const { context, page } = await signedIn(browser, email, { viewport, password, returning: false });
      await page.goto('/charity/signup');
      const form = page.getByRole('form', { name: 'Charity application' });
      await form.waitFor();
      await noHorizontalScroll(page);
      if (viewport === 'phone') {
        await snapshot(page, `charity-signup-${viewport}`);
        await context.close();
        continue;
      }
      await form.getByLabel('Charity name').fill(NAME);
      await form.getByLabel('Registered charity number').fill('12345');
      await form.getByRole('button', { name: 'Apply to sell on Reshelf' }).click();
      await form.getByText('A charity number in England and Wales has 6 to 8 digits, like 1148392').waitFor();
      await form.getByLabel('Registered charity number').fill('SC 054 321');
      await form.getByTestId('charity-register').getByText('Scottish Charity Regulator (OSCR)').waitFor();
      await form.getByLabel('Contact name').fill('Pat Kidlington');
      await form.getByLabel('Address line 1').fill('3 High Street');
      await form.getByLabel('Town or city').fill('Kidlington');
      await form.getByLabel('Postcode').fill('ox5 2dn');
      await form
        .getByLabel('About your charity')
        .fill('Books donated in Kidlington fund the village youth club.');
      await snapshot(page, `charity-signup-filled-${viewport}`);
      await form.getByRole('button', { name: 'Apply to sell on Reshelf' }).click();
      await page.waitForURL(/\/charity-signup-confirmation$/);
      await page.getByTestId('signup-confirmation').getByText(NAME).waitFor();
      await snapshot(page, `charity-signup-confirmation-${viewport}`);
      await context.close();
    }

    // Every admin is emailed about it, and the dashboard counts it and leads to the queue.
    const mail = await staff.context.request.get(
      `/trpc/platform.dev.mailbox?input=${encodeURIComponent(JSON.stringify({ to: 'admin@reshelf.test' }))}`,
    );
    const subjects = ((await mail.json()) as { result: { data: { subject: string }[] } }).result.data.map(
      (message) => message.subject,
    );
    expect(subjects).toContain(`New charity application: ${NAME}`);
    expect(await waiting()).toBe(before + 1);
    await snapshot(staff.page, 'charity-admin-dashboard-waiting-desktop');
    await staff.page.getByRole('link', { name: /^Charity applications waiting/ }).click();
    await staff.page.waitForURL('**/admin/charities');
    const card = staff.page.getByTestId('charity-application').filter({ hasText: NAME });
    await card.waitFor();
    expect(await card.innerText()).toContain('Scottish Charity Regulator (OSCR)');
    await snapshot(staff.page, 'charity-admin-queue-desktop');
    await card.getByRole('button', { name: 'Approve' }).click();
    await card.waitFor({ state: 'detached' });
    expect(await waiting()).toBe(before);
    await staff.context.close();

    const visitor = await newPage(browser, 'phone');
    await visitor.page.goto(`/charity/directory?q=${encodeURIComponent('Kidlington Community')}`);
    const listed = visitor.page.getByTestId('charity-card').filter({ hasText: NAME });
    await listed.waitFor();
    await noHorizontalScroll(visitor.page);
    await snapshot(visitor.page, 'charity-directory-phone');
    await listed.click();
    await visitor.page.getByRole('heading', { level: 1, name: NAME }).waitFor();
    await visitor.context.close();
  });

  it('charity@reshelf.test bulk-lists 50 rows with three bad ones, corrects them and uploads again', async () => {
    const { context, page } = await signedIn(browser, 'charity@reshelf.test', { returning: false });
    await page.goto('/charity/bulk-listing');
    await page.getByRole('button', { name: 'Download the template' }).waitFor();
    const [template] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download the template' }).click(),
    ]);
    const templateText = await readFile((await template.path())!, 'utf8');
    // The template's header is the documented columns, in their order (the collectors' last).
    expect(templateText.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(
      BULK_COLUMNS.map((column) => column.key).join(','),
    );
    expect(templateText).toContain(',first_edition,first_printing,signed,');

    await page
      .getByTestId('csv-input')
      .setInputFiles({ name: 'e2e-box-7.csv', mimeType: 'text/csv', buffer: Buffer.from(csv50()) });
    await page.waitForURL(/\?import=/);
    const report = page.getByTestId('import-report');
    await report.getByText('3 rows need correcting').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('import-progress').innerText()).toBe('50 of 50 rows done');
    const summary = await page.getByTestId('import-summary').innerText();
    expect(summary).toMatch(/Listed\s+47/);
    await report.getByRole('tab', { name: 'To correct' }).click();
    const rows = page.getByTestId('report-rows').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(3);
    const texts = await rows.allInnerTexts();
    expect(texts[0]).toContain('9');
    expect(texts[0]).toContain('An ISBN has only digits');
    expect(texts[1]).toContain('Price is missing: write it in pounds, like 4.50');
    expect(texts[2]).toContain('Condition “Fair” isn’t one we use');
    await snapshot(page, 'charity-bulk-report-desktop');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      report.getByRole('button', { name: 'Download the rows to correct' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('e2e-box-7-to-correct.csv');
    const records = parse((await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, ''), {
      columns: true,
    }) as Record<string, string>[];
    expect(records).toHaveLength(3);
    records[0]!.isbn = ISBNS[0]!;
    records[1]!.price = '3.25';
    records[2]!.condition = 'Good';
    const header = Object.keys(records[0]!);
    const fixed = [
      header.join(','),
      ...records.map((r) => header.map((h) => JSON.stringify(r[h] ?? '')).join(',')),
    ];
    await page.getByTestId('csv-input').setInputFiles({
      name: 'e2e-box-7-fixed.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(fixed.join('\r\n')),
    });
    await report.getByText('e2e-box-7-fixed.csv').waitFor();
    await report.getByText('Every row is done').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('import-summary').innerText()).toMatch(/Listed\s+3/);
    await snapshot(page, 'charity-bulk-fixed-desktop');
    await context.close();

    const phone = await signedIn(browser, 'charity@reshelf.test', { viewport: 'phone', returning: false });
    await phone.page.goto('/charity/bulk-listing');
    await phone.page.getByRole('button', { name: 'Download the template' }).waitFor();
    await noHorizontalScroll(phone.page);
    await snapshot(phone.page, 'charity-bulk-phone');
    await phone.context.close();
  });

  it('sells a donated book for the charity through the sell wizard, with its donor reference', async () => {
    const { context, page } = await signedIn(browser, 'charity@reshelf.test', {
      viewport: 'phone',
      returning: false,
    });
    await page.goto('/charity/sell');
    await page.getByTestId('selling-for').getByText('Selling for Cherwell Valley Hospice Books').waitFor();
    await page.getByTestId('donor-reference').fill('D-00777');
    await page.getByTestId('isbn-input').fill(ISBNS[3]!);
    await noHorizontalScroll(page);
    await snapshot(page, 'charity-sell-phone');
    await page.getByTestId('isbn-input').press('Enter');
    await page.waitForURL(/\/sell\/wizard\?draft=.+&step=details/);
    const draftId = new URL(page.url()).searchParams.get('draft');
    const { rows } = await db.query(
      `select l.status, l.donor_reference, c.name from public.listings l
       join public.charities c on c.id = l.charity_id where l.id = $1`,
      [draftId],
    );
    expect(rows).toEqual([
      { status: 'draft', donor_reference: 'D-00777', name: 'Cherwell Valley Hospice Books' },
    ]);
    await db.query('delete from public.listings where id = $1', [draftId]);
    await context.close();
  });

  it('does not offer the charity’s team to message the charity about its own book', async () => {
    const { rows } = await db.query<{ slug: string }>(
      `select l.slug from public.listings l join public.charities c on c.id = l.charity_id
        where c.name = 'Cherwell Valley Hospice Books' and l.status = 'active' order by l.slug limit 1`,
    );
    const slug = rows[0]!.slug;
    const team = await signedIn(browser, 'charity@reshelf.test', { returning: false });
    await team.page.goto(`/listing/${slug}`);
    await team.page.getByTestId('listing-price').waitFor();
    await team.page.getByTestId('notification-bell').waitFor();
    await team.page.getByTestId('wishlist-button').waitFor();
    expect(await team.page.getByTestId('message-seller').count()).toBe(0);
    await team.context.close();
    // A buyer is offered it, in the charity's name.
    const buyer = await signedIn(browser, 'buyer@reshelf.test', { returning: false });
    await buyer.page.goto(`/listing/${slug}`);
    expect(await buyer.page.getByTestId('message-seller').innerText()).toBe('Message the charity');
    await buyer.context.close();
  });

  it('shows the charity dashboard with its figures and charts', async () => {
    for (const viewport of ['desktop', 'phone'] as const) {
      const { context, page } = await signedIn(browser, 'charity@reshelf.test', {
        viewport,
        returning: false,
      });
      if (viewport === 'desktop') {
        // The account menu leads the charity's team to its dashboard.
        await page.goto('/account');
        await page.getByRole('banner').getByTestId('account-menu').getByRole('button').click();
        await page.getByTestId('menu-charity').click();
        await page.waitForURL('**/charity/dashboard');
      } else await page.goto('/charity/dashboard');
      await page.getByTestId('charity-stats').waitFor();
      await page.getByTestId('sales-chart').locator('svg').first().waitFor();
      await page.getByTestId('listings-chart').locator('svg').first().waitFor();
      expect(await page.getByTestId('charity-status').innerText()).toBe('Approved');
      expect(await page.getByTestId('listings-by-status').innerText()).toMatch(/On sale: \d+/);
      if (viewport === 'desktop') {
        // One set of figures (issue 32): "Books sold" is the breakdown's "Sold", and the card's last
        // 30 days are the sales analytics' (30 days, its first period): the same money, the same books.
        const stats = await page.getByTestId('charity-stats').innerText();
        const booksSold = Number(/Books sold\s+(\d+)/.exec(stats)?.[1]);
        expect(booksSold).toBeGreaterThan(0);
        const breakdown = await page.getByTestId('listings-by-status').innerText();
        expect(Number(/(?:^|\s)Sold: (\d+)/.exec(breakdown)?.[1])).toBe(booksSold);
        const last30 = /Last 30 days\s+(£[\d,.]+)\s+(\d+) books? in/.exec(stats);
        expect(last30).not.toBeNull();
        const analytics = page.getByTestId('seller-analytics');
        await analytics.getByTestId('stat-revenue').waitFor();
        expect(await analytics.getByTestId('stat-revenue').locator('p').nth(1).innerText()).toBe(last30?.[1]);
        expect(await analytics.getByTestId('stat-sales').locator('p').nth(1).innerText()).toBe(last30?.[2]);
      }
      await page.getByRole('heading', { name: 'Retail Gift Aid' }).waitFor();
      await page.getByRole('heading', { name: 'Recent CSV uploads' }).waitFor();
      await noHorizontalScroll(page);
      await snapshot(page, `charity-dashboard-${viewport}`);
      await context.close();
    }
  });
});
