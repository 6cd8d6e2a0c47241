/**
 * Platform reporting's filing and the sellers' copies in Chromium (decision 0078), on a
 * marketplace of its own: an admin sees each year's deadlines on /admin/payouts and files last
 * year (recorded: who and when); a seller reported for an earlier filed year finds "Your copy"
 * under Details for HMRC and reads it (the figures and details as frozen, the NI number masked).
 * Screenshots at 1280 and 390 px.
 */
import { REPORTING_DATES } from '@reshelf/contracts';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedIn } from '../support/auth.ts';
import { snapshotsAt } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

const shots = snapshotsAt('platform-reporting');
const thisYear = new Date().getUTCFullYear();
const lastYear = thisYear - 1;
const earlier = thisYear - 2;

async function onDatabase<T>(work: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: marketplace.databaseUrl });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

describe('platform reporting', { timeout: 180_000 }, () => {
  it('an admin files last year beside its deadlines; a seller reads their copy of an earlier year', async () => {
    // An earlier year filed, with the demo seller's row as it was reported.
    await onDatabase(async (db) => {
      const seller = await db.query<{ id: string }>(
        `select id from auth.users where email = 'seller@reshelf.test'`,
      );
      const quarter = (sales: number, considerationMinor: number) => ({
        sales,
        considerationMinor,
        feesMinor: 0,
      });
      await db.query(`insert into public.reporting_filings (year, sellers) values ($1, 1)`, [earlier]);
      await db.query(
        `insert into public.reporting_snapshots (year, seller_id, cells, quarters, totals) values ($1, $2, $3, $4, $5)`,
        [
          earlier,
          seller.rows[0]!.id,
          JSON.stringify({
            seller_type: 'individual',
            first_name: 'Sam',
            last_name: 'Seller',
            date_of_birth: '1985-02-14',
            address_line1: '3 Mill Lane',
            town: 'Frome',
            postcode: 'BA11 1AA',
            tin: 'AB123456C',
            tin_type: 'NINO',
          }),
          JSON.stringify([quarter(8, 6400), quarter(10, 8000), quarter(7, 5600), quarter(9, 7200)]),
          JSON.stringify(quarter(34, 27200)),
        ],
      );
    });

    const admin = await signedIn(browser, 'admin@reshelf.test', { baseURL: marketplace.baseURL });
    await admin.page.goto('/admin/payouts');
    const filings = admin.page.getByTestId('reporting-filings');
    await filings.waitFor();
    await expect(filings.textContent()).resolves.toContain(`by ${REPORTING_DATES.reportBy.label} after`);
    const last = admin.page.getByTestId(`filing-${lastYear}`);
    await expect(last.textContent()).resolves.toContain(`${thisYear}-01-31`);
    await expect(admin.page.getByTestId(`filing-${thisYear}`).textContent()).resolves.toContain(
      'Not ended yet',
    );
    admin.page.once('dialog', (dialog) => void dialog.accept());
    await last.getByRole('button', { name: `File ${lastYear}` }).click();
    await admin.page.getByText('by admin@reshelf.test').first().waitFor();
    await expect(last.getByRole('button').count()).resolves.toBe(0);
    await shots(admin.page, 'admin', () => filings.waitFor());
    await admin.context.close();

    const seller = await signedIn(browser, 'seller@reshelf.test', { baseURL: marketplace.baseURL });
    await seller.page.goto('/account/payouts');
    await seller.page.getByRole('link', { name: `Your copy for ${earlier}` }).click();
    const copy = seller.page.getByTestId('reporting-copy');
    await copy.getByText('Sam Seller').waitFor();
    const text = (await copy.textContent()) ?? '';
    expect(text).toContain('NI number •••56C');
    expect(text).not.toContain('AB123456C');
    await expect(seller.page.getByTestId('reporting-copy-total').textContent()).resolves.toContain(
      '34 sales',
    );
    await expect(seller.page.getByTestId('reporting-copy-total').textContent()).resolves.toContain('£272.00');
    await shots(seller.page, 'copy', () => copy.getByText('Sam Seller').waitFor());
    await seller.context.close();
  });
});
