/**
 * Selling in Chromium: seller@reshelf.test lists a real book from its ISBN with a
 * photo in one pass and in under a minute, finds it by search at once and lowers its price;
 * buyer@reshelf.test, who saved it to their wishlist, sees the price-drop notification. Every
 * bad input gets its message; an edit while a buyer is paying is refused with the reason. A
 * signed first edition in its dust jacket shows its collectors' details on its page.
 * Screenshots of each step at 390 and 1280 px land in tests/.artifacts/.
 */

import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signedIn } from '../support/auth.ts';
import { launchBrowser, newPage, snapshot } from '../support/browser.ts';
import { makePng } from '../support/png.ts';
import { imagesLoaded, listBook, noHorizontalScroll, wizardStep as step } from '../support/selling.ts';

let browser: Browser;
let db: pg.Client;

beforeAll(async () => {
  browser = await launchBrowser();
  db = new pg.Client({ connectionString: inject('e2eDatabaseUrl') });
  await db.connect();
});

afterAll(async () => {
  await browser?.close();
  await db?.end();
});

/** The published listing's "Collector's details" for the signed first edition listBook made. */
async function collectorDetailsShown(page: Page, viewport: 'phone' | 'desktop') {
  const block = page.getByTestId('collector-details');
  await block.waitFor();
  const text = await block.innerText();
  for (const words of [
    'Collector’s details',
    'Very good (Bookman: Very Good)',
    'First edition, Signed',
    'Near Fine',
  ])
    expect(text).toContain(words);
  const jsonLd = JSON.parse((await page.getByTestId('listing-json-ld').textContent()) ?? '{}');
  expect(jsonLd.bookEdition).toBe('First edition');
  await block.scrollIntoViewIfNeeded();
  await imagesLoaded(page);
  await noHorizontalScroll(page);
  await snapshot(page, `selling-collector-details-${viewport}`, { fullPage: false });
}

describe('selling a book', () => {
  it('lists a real book with a photo from its ISBN in one pass, found by search at once; edits the price; a buyer who wished for it hears of the drop', async () => {
    const seller = await signedIn(browser, 'seller@reshelf.test', { returning: false });
    const errors: string[] = [];
    seller.page.on('pageerror', (error) => errors.push(String(error)));

    const started = Date.now();
    const listed = await listBook(
      seller.page,
      { isbn: '978-0-330-46846-6', title: 'The Road', price: '8.75' },
      'desktop',
    );
    const seconds = (Date.now() - started) / 1000;
    console.info(`selling: ISBN to published in ${seconds.toFixed(1)} s`);
    expect(seconds).toBeLessThan(60);
    expect(listed.url).toMatch(/\/listing\/the-road(-[a-z0-9]{6})?$/);
    const slug = listed.url.split('/listing/')[1]!;

    // Found by search at once, by its ISBN and by its title: by book (decision 0079), its
    // edition's result leads to the copy (its only one) or to the edition's page.
    const { rows: edition } = await db.query<{ book_id: string }>(
      'select book_id from public.listings where slug = $1',
      [slug],
    );
    const leadsToIt = async (path: string) => {
      await seller.page.goto(path);
      const results = seller.page.getByTestId('results');
      await results.getByTestId('book-result').first().waitFor();
      const hrefs = await results
        .locator('[data-testid="book-result"] h3 a')
        .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
      return hrefs.some(
        (href) => href === `/listing/${slug}` || href.endsWith(`?edition=${edition[0]!.book_id}`),
      );
    };
    expect(await leadsToIt('/search?q=9780330468466')).toBe(true);
    expect(await leadsToIt('/search?q=the%20road%20mccarthy')).toBe(true);

    // The buyer saves it to their wishlist from its page.
    const buyer = await signedIn(browser, 'buyer@reshelf.test', { viewport: 'phone', returning: false });
    await buyer.page.goto(`/listing/${slug}`);
    // The headline is all-in (decision 0071): £8.75 and 70p + 5% (44p) buyer protection.
    expect(await buyer.page.getByTestId('listing-price').innerText()).toBe('£9.89');
    const heart = buyer.page.getByTestId('wishlist-button');
    await buyer.page.getByTestId('notification-bell').waitFor();
    await heart.click();
    await buyer.page.locator('[data-testid="wishlist-button"][aria-pressed="true"]').waitFor();

    // The seller lowers the price from their listings.
    await seller.page.goto('/account/listings');
    const row = seller.page
      .getByTestId('my-listing')
      .filter({ hasText: '£8.75' })
      .filter({ hasText: 'The Road' });
    await row.waitFor();
    await imagesLoaded(seller.page);
    await snapshot(seller.page, 'selling-my-listings-desktop');
    await row.getByRole('link', { name: 'Edit' }).click();
    await seller.page.waitForURL(`**/sell/${listed.id}`);
    await seller.page.getByRole('link', { name: /Price and postage/ }).click();
    await seller.page.waitForURL(`**/sell/${listed.id}/price`);
    await seller.page.getByTestId('price-input').fill('6.50');
    await seller.page.getByRole('button', { name: 'Save price' }).click();
    await seller.page.waitForURL(`**/sell/${listed.id}`);
    // The address changes before the hub replaces the price form (the router renders in a transition).
    await seller.page.getByRole('button', { name: 'Save price' }).waitFor({ state: 'detached' });
    await seller.page.getByText('Price and postage').waitFor();
    expect(await seller.page.getByTestId('sell-edit').innerText()).toContain('£6.50');

    // The buyer's bell counts it; the notifications page says what happened.
    await buyer.page.goto('/account/wishlist');
    await buyer.page.getByTestId('wishlist-grid').locator(`a[href="/listing/${slug}"]`).waitFor();
    await buyer.page.getByTestId('notification-count').waitFor();
    expect(Number(await buyer.page.getByTestId('notification-count').innerText())).toBeGreaterThanOrEqual(1);
    await imagesLoaded(buyer.page);
    await snapshot(buyer.page, 'selling-wishlist-phone');
    await buyer.page.getByTestId('notification-bell').click();
    await buyer.page.waitForURL('**/account/notifications');
    const notice = buyer.page
      .getByTestId('notification')
      // All-in, as the buyer pays it: £6.50 + £1.03, was £8.75 + £1.14.
      .filter({ hasText: 'The Road is now £7.53 (was £9.89), including buyer protection, + postage from' });
    await notice.waitFor();
    expect(await notice.innerText()).toContain('Price drop on your wishlist');
    await imagesLoaded(buyer.page);
    await noHorizontalScroll(buyer.page);
    await snapshot(buyer.page, 'selling-notifications-phone');
    // Marked read: the bell's count goes.
    await buyer.page.getByTestId('mark-all-read').click();
    await buyer.page.getByTestId('notification-count').waitFor({ state: 'detached' });

    expect(errors).toEqual([]);
    await seller.context.close();
    await buyer.context.close();
  });

  it('works on a phone, and the same pages look right there', async () => {
    const seller = await signedIn(browser, 'seller@reshelf.test', { viewport: 'phone', returning: false });
    // A signed first edition in its dust jacket: the collectors' details, asked and shown.
    const listed = await listBook(
      seller.page,
      { isbn: '0-14-143984-X', title: 'Dracula', price: '5.20' },
      'phone',
      { collectable: true },
    );
    await seller.page.goto('/account/listings?status=active');
    await seller.page.getByTestId('my-listing').first().waitFor();
    await imagesLoaded(seller.page);
    await noHorizontalScroll(seller.page);
    await snapshot(seller.page, 'selling-my-listings-phone');

    // Signed out, the heart asks the visitor to sign in and brings them back.
    const path = listed.url.replace(/^https?:\/\/[^/]+/, '');
    const visitor = await newPage(browser, 'phone');
    await visitor.page.goto(path);
    await visitor.page.getByTestId('header-sign-in').waitFor();
    await collectorDetailsShown(visitor.page, 'phone');
    await visitor.page.getByTestId('wishlist-button').click();
    await visitor.page.waitForURL(`**/login?next=${encodeURIComponent(path)}`);
    await visitor.context.close();

    const buyer = await signedIn(browser, 'buyer@reshelf.test', { returning: false });
    await buyer.page.goto(path);
    await buyer.page.getByTestId('notification-bell').waitFor();
    await collectorDetailsShown(buyer.page, 'desktop');
    await buyer.page.getByTestId('wishlist-button').click();
    await buyer.page.locator('[data-testid="wishlist-button"][aria-pressed="true"]').waitFor();
    await buyer.page.goto('/account/wishlist');
    await buyer.page.getByTestId('wishlist-grid').getByTestId('listing-card').first().waitFor();
    await imagesLoaded(buyer.page);
    await snapshot(buyer.page, 'selling-wishlist-desktop');
    await buyer.page.goto('/account/notifications');
    await buyer.page.getByTestId('notification').first().waitFor();
    await snapshot(buyer.page, 'selling-notifications-desktop');
    await seller.context.close();
    await buyer.context.close();
  });
});

describe('bad inputs and refusals', () => {
  it('says what is wrong with each bad input', async () => {
    const { context, page } = await signedIn(browser, 'seller@reshelf.test', {
      viewport: 'phone',
      returning: false,
    });
    const fieldError = page.getByTestId('field-error');

    // An ISBN with a bad check digit, and one too short.
    await page.goto('/sell/new');
    await page.getByTestId('isbn-input').fill('978-0-14-143951-9');
    await page.getByRole('button', { name: 'Find my book' }).click();
    expect(await fieldError.innerText()).toBe(
      'That ISBN’s last digit doesn’t match the others: check it against the book',
    );
    await page.getByTestId('isbn-input').fill('97801414');
    expect(await fieldError.innerText()).toBe('An ISBN has 10 or 13 digits: check you have typed them all');

    // A book our catalogue lacks: typed in, with a title over 300 characters refused.
    await page.getByTestId('isbn-input').fill('9780262033848');
    await page.getByRole('button', { name: 'Find my book' }).click();
    await step(page, 'details');
    await page.getByTestId('title-input').fill('A'.repeat(301));
    await page.getByRole('textbox', { name: 'Author' }).fill('Thomas H. Cormen');
    await page.getByTestId('step-submit').click();
    expect(await fieldError.first().innerText()).toBe('The title can be at most 300 characters');
    await page.getByTestId('title-input').fill('Introduction to Algorithms');
    await page.getByTestId('step-submit').click();
    await step(page, 'condition');
    await page.getByTestId('step-submit').click();
    expect(await fieldError.innerText()).toBe('Choose the condition of your copy');
    await page.getByTestId('condition-options').getByText('Good', { exact: true }).click();
    await page.getByTestId('step-submit').click();

    // No photo; a file that is not an image; a file over 10 MB.
    await step(page, 'photos');
    await page.getByTestId('step-submit').click();
    expect(await fieldError.innerText()).toBe('Add at least one photo of your copy');
    const input = page.getByTestId('photo-input');
    await input.setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not a photo'),
    });
    await page.getByTestId('photo-errors').waitFor();
    expect(await page.getByTestId('photo-errors').innerText()).toBe(
      'notes.txt: That file isn’t a photo we can use. Choose a JPEG, PNG or WebP image.',
    );
    // Named and typed as a photo, but text inside: the server reads the bytes and says no.
    await input.setInputFiles({
      name: 'photo.png',
      mimeType: 'image/png',
      buffer: Buffer.from('not really a png'),
    });
    await page.getByTestId('photo-errors').filter({ hasText: 'photo.png' }).waitFor();
    expect(await page.getByTestId('photo-errors').innerText()).toContain(
      'photo.png: That file isn’t a photo we can use. Choose a JPEG, PNG or WebP image.',
    );
    const big = Buffer.alloc(10 * 1024 * 1024 + 1);
    big.set(makePng(2, 2));
    await input.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: big });
    await page.getByTestId('photo-errors').filter({ hasText: 'huge.png' }).waitFor();
    expect(await page.getByTestId('photo-errors').innerText()).toContain(
      'huge.png: That photo is over 10 MB. Choose a smaller one (phone photos are usually 2–5 MB).',
    );
    expect(await page.getByTestId('photo-list').count()).toBe(0);
    await input.setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: makePng(300, 400) });
    await page.getByTestId('photo-list').getByRole('img').first().waitFor();
    await page.getByTestId('step-submit').click();

    // A price of 0, and one above £10,000.
    await step(page, 'price');
    await page.getByTestId('price-input').fill('0');
    await page.getByTestId('step-submit').click();
    expect(await fieldError.innerText()).toBe(
      'Enter a price of at least 1p: books can’t be given away for £0',
    );
    await page.getByTestId('price-input').fill('10000.01');
    await page.getByTestId('price-input').blur();
    await page.getByText('The most you can ask for a book is £10,000').waitFor();
    await snapshot(page, 'selling-bad-price-phone');
    await page.getByTestId('price-input').fill('12');
    await page.getByTestId('step-submit').click();
    await step(page, 'parcel');

    // Leaving and coming back: the draft is listed and resumes where it stopped.
    await page.goto('/account/listings?status=draft');
    const draft = page.getByTestId('my-listing').filter({ hasText: 'Introduction to Algorithms' });
    await draft.getByRole('link', { name: 'Continue' }).click();
    await step(page, 'parcel');
    await context.close();
  });

  it('refuses to edit a listing a buyer is paying for, and says why', async () => {
    const { context, page } = await signedIn(browser, 'seller@reshelf.test', { returning: false });
    const { rows } = await db.query<{ id: string; status: string }>(
      `select l.id, l.status from listings l join auth.users u on u.id = l.seller_id
        where u.email = 'seller@reshelf.test' and l.status = 'active' order by l.published_at desc limit 1`,
    );
    const listing = rows[0]!;
    await db.query(`update listings set status = 'reserved' where id = $1`, [listing.id]);
    try {
      await page.goto(`/sell/${listing.id}/price`);
      const message = page.getByTestId('lock-message');
      await message.waitFor();
      expect(await message.innerText()).toContain(
        'This book is reserved by a buyer who is paying for it now, so it can’t be changed.',
      );
      expect(await page.getByTestId('price-input').count()).toBe(0);
      await snapshot(page, 'selling-reserved-desktop');
      // The API says the same to anyone who tries anyway.
      const response = await context.request.post('/trpc/selling.listings.update', {
        headers: { 'x-reshelf-client': 'web' },
        data: { listingId: listing.id, priceMinor: 100 },
      });
      expect(response.status()).toBe(409);
    } finally {
      await db.query(`update listings set status = 'active' where id = $1`, [listing.id]);
    }
    await context.close();
  });

  it('an address with no listing of theirs behind it shows the not-found page', async () => {
    const { rows } = await db.query<{ id: string }>(
      `select l.id from public.listings l join auth.users u on u.id = l.seller_id
       where u.email <> 'seller@reshelf.test' and l.status = 'active' limit 1`,
    );
    const someoneElses = rows[0]!.id;
    for (const viewport of ['phone', 'desktop'] as const) {
      const { context, page } = await signedIn(browser, 'seller@reshelf.test', { viewport });
      for (const path of [
        '/sell/abc',
        '/sell/00000000-0000-4000-8000-000000000000',
        `/sell/${someoneElses}`,
        '/sell/abc/price',
        '/sell/00000000-0000-4000-8000-000000000000/details',
        '/sell/wizard?draft=abc&step=price',
        // The same for other pages named by an id in the address.
        '/account/orders/abc',
        '/account/sales/not-an-order',
      ]) {
        await page.goto(path);
        await page.getByTestId('not-found').waitFor();
        // The same page as the catch-all route: no validation message, no "Try again".
        expect(await page.getByRole('heading', { level: 1 }).textContent(), path).toBe('Page not found');
        expect(await page.getByText(/listingId|orderId/).count(), path).toBe(0);
        expect(await page.getByRole('button', { name: 'Try again' }).count(), path).toBe(0);
      }
      await page.goto('/sell/abc');
      await page.getByTestId('not-found').waitFor();
      await noHorizontalScroll(page);
      await snapshot(page, `selling-not-found-${viewport}`);
      await context.close();
    }
  });
});
