/**
 * Traders and private sellers before the order (Consumer Contracts Regulations 2013, decision
 * 0073), in Chromium at 390 px and 1,280 px: a charity's listing shows the charity's name,
 * geographic address and charity number with the cancellation rights; a private seller's shows
 * the private-seller notice and not the rights; a business seller's shows the same as a
 * charity's; checkout shows them too. Every text is read from contracts traders.ts.
 */
import { CANCELLATION_RIGHTS, PRIVATE_SELLER_NOTICE } from '@reshelf/contracts';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signInViaApi } from '../support/auth.ts';
import { baseURL, launchBrowser, snapshot, VIEWPORTS } from '../support/browser.ts';

let browser: Browser;
let db: pg.Client;
/** The demo seller this file makes a business seller (their declaration is taken back afterwards). */
const BUSINESS_EMAIL = 'priya@reshelf.test';
/** The demo seller who declares through their listings page (taken back afterwards too). */
const SETTINGS_EMAIL = 'seller@reshelf.test';

beforeAll(async () => {
  browser = await launchBrowser();
  db = new pg.Client({ connectionString: inject('e2eDatabaseUrl') });
  await db.connect();
});

afterAll(async () => {
  await db?.query(
    `delete from public.seller_trade_declarations
      where user_id in (select id from auth.users where email = any ($1::text[]))`,
    [[BUSINESS_EMAIL, SETTINGS_EMAIL]],
  );
  await browser?.close();
  await db?.end();
});

async function visitor(viewport: keyof typeof VIEWPORTS) {
  const context = await browser.newContext({ baseURL: baseURL(), viewport: VIEWPORTS[viewport] });
  await context.addInitScript(() => {
    localStorage.setItem('cookie-consent', 'declined');
    localStorage.setItem('has-visited', 'true');
  });
  return { context, page: await context.newPage() };
}

/** An active listing: a charity's, or a private seller's (by their email). */
async function activeListing(where: 'charity' | { sellerEmail: string }): Promise<string> {
  const { rows } = await db.query<{ slug: string }>(
    where === 'charity'
      ? `select l.slug from public.listings l join public.charities c on c.id = l.charity_id
          where l.status = 'active' and c.address_line1 is not null order by l.slug limit 1`
      : `select l.slug from public.listings l join auth.users u on u.id = l.seller_id
          where l.status = 'active' and l.charity_id is null and u.email = $1 order by l.slug desc limit 1`,
    where === 'charity' ? [] : [where.sellerEmail],
  );
  if (!rows[0]) throw new Error(`the demo data has no such listing: ${JSON.stringify(where)}`);
  return rows[0].slug;
}

async function rightsShown(page: Page): Promise<string> {
  const block = page.getByTestId('trader-details').first();
  await block.waitFor();
  const text = (await block.textContent()) ?? '';
  for (const right of CANCELLATION_RIGHTS) expect(text).toContain(right);
  await expect(page.getByTestId('private-seller-notice').count()).resolves.toBe(0);
  return text;
}

describe('traders and private sellers before the order', () => {
  it('a charity listing shows the charity, its address and number, and the cancellation rights', async () => {
    const slug = await activeListing('charity');
    const { rows } = await db.query<{ name: string; registered_number: string; address_line1: string }>(
      `select c.name, c.registered_number, c.address_line1 from public.listings l
         join public.charities c on c.id = l.charity_id where l.slug = $1`,
      [slug],
    );
    const charity = rows[0]!;
    for (const viewport of ['phone', 'desktop'] as const) {
      const { context, page } = await visitor(viewport);
      await page.goto(`/listing/${slug}`);
      const text = await rightsShown(page);
      expect(text).toContain(`Sold by a charity: ${charity.name}`);
      expect(text).toContain(charity.address_line1);
      expect(text).toContain(`Registered charity number: ${charity.registered_number}`);
      await page.getByTestId('trader-details').scrollIntoViewIfNeeded();
      await snapshot(page, `traders-charity-listing-${viewport}`);
      await context.close();
    }
  });

  it('a private seller’s listing says exactly that the rights do not apply, and does not show them', async () => {
    const slug = await activeListing({ sellerEmail: 'seller@reshelf.test' });
    const { context, page } = await visitor('desktop');
    await page.goto(`/listing/${slug}`);
    const notice = page.getByTestId('private-seller-notice');
    await notice.waitFor();
    await expect(notice.textContent()).resolves.toBe(PRIVATE_SELLER_NOTICE);
    await expect(page.getByTestId('trader-details').count()).resolves.toBe(0);
    await expect(page.getByText(CANCELLATION_RIGHTS[0]!).count()).resolves.toBe(0);
    await snapshot(page, 'traders-private-listing-desktop');
    await context.close();
  });

  it('a business seller’s listing shows the same as a charity’s, and so does its checkout', async () => {
    const slug = await activeListing({ sellerEmail: BUSINESS_EMAIL });
    // The demo seller has no password to sign in with: their declaration is written as
    // selling.trader.declareBusiness writes it (its validation is the integration tests').
    await db.query(
      `insert into public.seller_trade_declarations
         (user_id, trades, trading_name, is_company, company_number, address_line1, town, postcode, contact_email)
       select id, true, $2, true, '09876543', '22 Granby Street', 'Leicester', 'LE1 6EJ', 'hello@priyas-picks.test'
         from auth.users where email = $1
       on conflict (user_id) do nothing`,
      [BUSINESS_EMAIL, "Priya's Picks Ltd"],
    );

    for (const viewport of ['phone', 'desktop'] as const) {
      const { context, page } = await visitor(viewport);
      await page.goto(`/listing/${slug}`);
      const text = await rightsShown(page);
      expect(text).toContain("Sold by a business seller: Priya's Picks Ltd");
      expect(text).toContain('22 Granby Street, Leicester, LE1 6EJ');
      expect(text).toContain('Company number: 09876543');
      await page.getByTestId('trader-details').scrollIntoViewIfNeeded();
      await snapshot(page, `traders-business-listing-${viewport}`);
      await context.close();
    }

    // Checkout, before paying: the same block.
    const { context, page } = await visitor('phone');
    await signInViaApi(context, 'buyer@reshelf.test');
    await page.goto(`/checkout?listing=${slug}`);
    const text = await rightsShown(page);
    expect(text).toContain("Sold by a business seller: Priya's Picks Ltd");
    await page.getByTestId('trader-details').scrollIntoViewIfNeeded();
    await snapshot(page, 'traders-business-checkout-phone');
    await context.close();
  });

  it('a private seller’s checkout shows the private-seller notice', async () => {
    const slug = await activeListing({ sellerEmail: 'seller@reshelf.test' });
    const { context, page } = await visitor('desktop');
    await signInViaApi(context, 'buyer@reshelf.test');
    await page.goto(`/checkout?listing=${slug}`);
    await expect(page.getByTestId('private-seller-notice').textContent()).resolves.toBe(
      PRIVATE_SELLER_NOTICE,
    );
    await expect(page.getByTestId('trader-details').count()).resolves.toBe(0);
    await context.close();
  });

  it('a seller says they sell as a business in their listings, with clear errors, and can go back to private', async () => {
    for (const viewport of ['phone', 'desktop'] as const) {
      const { context, page } = await visitor(viewport);
      await signInViaApi(context, SETTINGS_EMAIL);
      await page.goto('/account/listings');
      const setting = page.getByTestId('trader-setting');
      await setting.waitFor();
      if (viewport === 'desktop') {
        await setting.getByRole('button', { name: 'I sell as a business' }).click();
        await setting.getByLabel('Trading name').fill("Sam's Shelf Books");
        await setting.getByLabel('Address line 1').fill('PO Box 42');
        await setting.getByLabel('Town or city').fill('Oxford');
        await setting.getByLabel('Postcode').fill('ox1 1aa');
        await setting.getByLabel('Email for buyers').fill('sam@shelf.test');
        await setting.getByRole('button', { name: 'I sell as a business' }).click();
        await setting
          .getByText('Give the address where you trade from, not a PO box or Freepost address')
          .waitFor();
        await setting.getByLabel('Address line 1').fill('9 Cornmarket Street');
        await setting.getByRole('button', { name: 'I sell as a business' }).click();
        await setting.getByText("You sell as Sam's Shelf Books").waitFor();
      }
      await snapshot(page, `traders-settings-${viewport}`);
      await context.close();
    }
    const { context, page } = await visitor('desktop');
    await signInViaApi(context, SETTINGS_EMAIL);
    await page.goto('/account/listings');
    await page.getByTestId('trader-setting').getByRole('button', { name: 'I sell privately' }).click();
    await page
      .getByTestId('trader-setting')
      .getByText(`Your listings say: “${PRIVATE_SELLER_NOTICE}”`)
      .waitFor();
    await context.close();
  });
});
