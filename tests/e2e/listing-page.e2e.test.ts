/**
 * The listing page is photo-first: the seller's photos lead (the drawn cover only
 * when there are none), swipeable, operable by keyboard and zoomable in a lightbox that traps
 * focus and gives it back; on a phone the photo, the title, the price and Buy are all on the
 * first screen (Buy in a bar fixed to the bottom that never hides what has focus); the card and
 * the page show the same picture, and the first photo is the page's largest contentful paint.
 */
import {
  formatPence,
  type ListingDetail,
  PHOTO_WIDTHS,
  type PhotoFormat,
  photoSizeUrl,
} from '@reshelf/contracts';
import pg from 'pg';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FIRST_SCREEN_CARDS } from '../../web/src/lib/photo-layout.ts';
import { baseURL, launchBrowser, snapshot, VIEWPORTS } from '../support/browser.ts';
import { imagesLoaded } from '../support/selling.ts';

let browser: Browser;
let db: pg.Client;
/** Listings whose photos a test changed, with the photos to put back (other files share them). */
const restore = new Map<string, string>();

beforeAll(async () => {
  browser = await launchBrowser();
  db = new pg.Client({ connectionString: inject('e2eDatabaseUrl') });
  await db.connect();
});

afterAll(async () => {
  for (const [id, photos] of restore) {
    await db?.query('update public.listings set photos = $2::jsonb where id = $1', [id, photos]);
  }
  await browser?.close();
  await db?.end();
});

/** A visitor who has declined cookies and seen the welcome gift: nothing over the page. */
async function visitor(viewport: keyof typeof VIEWPORTS, touch = false) {
  const context = await browser.newContext({
    baseURL: baseURL(),
    viewport: VIEWPORTS[viewport],
    ...(touch ? { hasTouch: true, isMobile: true } : {}),
  });
  await context.addInitScript(() => {
    localStorage.setItem('cookie-consent', 'declined');
    localStorage.setItem('has-visited', 'true');
  });
  return { context, page: await context.newPage() };
}

async function listingFromApi(slug: string): Promise<ListingDetail> {
  const input = encodeURIComponent(JSON.stringify({ slug }));
  const response = await fetch(new URL(`/trpc/catalogue.listings.bySlug?input=${input}`, baseURL()));
  return ((await response.json()) as { result: { data: ListingDetail } }).result.data;
}

/**
 * An active listing of a seller no other browser test works with, with these photos for this
 * file (put back afterwards).
 */
async function listingWithPhotos(photos: string[], skip = 0): Promise<string> {
  const { rows } = await db.query<{ id: string; slug: string; photos: string[] }>(
    `select l.id, l.slug, l.photos from public.listings l
       join auth.users u on u.id = l.seller_id
      where l.status = 'active' and u.email = 'margaret@reshelf.test'
      order by l.slug offset $1 limit 1`,
    [skip],
  );
  const row = rows[0];
  if (!row) throw new Error('the demo data has no listing of margaret@reshelf.test');
  if (!restore.has(row.id)) restore.set(row.id, JSON.stringify(row.photos));
  await db.query('update public.listings set photos = $2::jsonb where id = $1', [
    row.id,
    JSON.stringify(photos),
  ]);
  return row.slug;
}

/** Three different stored photos from the demo catalogue. */
async function threePhotos(): Promise<string[]> {
  const { rows } = await db.query<{ photo: string }>(
    `select distinct l.photos ->> 0 as photo from public.listings l
      where jsonb_array_length(l.photos) > 0 order by 1 limit 3`,
  );
  expect(rows).toHaveLength(3);
  return rows.map((row) => row.photo);
}

/**
 * Whether any of the elements is wholly on the first screen (the page not scrolled) and not
 * covered there by anything else (the element at its centre is it or inside it).
 */
async function onFirstScreen(locator: Locator): Promise<boolean> {
  return locator.evaluateAll((elements) =>
    elements.some((element) => {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) return false;
      if (box.top < 0 || box.left < 0 || box.bottom > window.innerHeight || box.right > window.innerWidth)
        return false;
      const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return !!top && (top === element || element.contains(top));
    }),
  );
}

/** The element behind the page's largest contentful paint, as Chromium reports it. */
function largestPaint(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        new PerformanceObserver((list) => {
          const entries = list.getEntries() as (PerformanceEntry & { element: Element | null })[];
          const element = entries.at(-1)?.element;
          resolve(
            element
              ? `${element.tagName.toLowerCase()}${element.closest('[data-testid="listing-photos"]') ? ' in the gallery' : ''}`
              : 'none',
          );
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      }),
  );
}

const counter = (page: Page) => page.getByTestId('listing-photos').getByTestId('photo-counter');

describe('the listing page on a phone', () => {
  it('has the photo, the title, the price and Buy on the first screen; the photo is the largest paint, sized, and the card’s picture', async () => {
    const home = await fetch(new URL('/', baseURL())).then((response) => response.text());
    const slug = home.match(/href="\/listing\/([^"?#]+)"/)?.[1];
    if (!slug) throw new Error('the home page links to no listing');
    const listing = await listingFromApi(slug);
    expect(listing.photos.length).toBeGreaterThan(0);

    const { context, page } = await visitor('phone');
    await page.goto(`/listing/${slug}`);
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    const photo = page.getByTestId('listing-photos').locator('img').first();
    await photo.waitFor();
    await imagesLoaded(page);

    expect(await onFirstScreen(photo)).toBe(true);
    expect(await onFirstScreen(page.getByRole('heading', { level: 1, name: listing.title }))).toBe(true);
    // The all-in headline (decision 0071), in the buy bar.
    expect(await onFirstScreen(page.getByText(formatPence(listing.price.allInMinor), { exact: true }))).toBe(
      true,
    );
    expect(await onFirstScreen(page.getByRole('link', { name: 'Buy now' }))).toBe(true);
    await snapshot(page, 'listing-page-first-screen-phone', { fullPage: false });

    // The seller's photo, sized before it loads and fetched first: the LCP. A <picture> of every
    // size in AVIF, then WebP (decision 0063), the browser taking the one the layout needs.
    const first = listing.photos[0]!;
    const sizesOf = (format: PhotoFormat) =>
      PHOTO_WIDTHS.map((width) => `${photoSizeUrl(first, width, format)} ${width}w`).join(', ');
    const picture = page.getByTestId('listing-photos').locator('picture').first();
    expect(await photo.evaluate((img) => img.parentElement?.tagName)).toBe('PICTURE');
    const avif = picture.locator('source[type="image/avif"]');
    expect(await avif.count()).toBe(1);
    expect(await avif.getAttribute('srcset')).toBe(sizesOf('avif'));
    const sizes = await avif.getAttribute('sizes');
    expect(sizes).toMatch(/100vw/);
    expect(await photo.getAttribute('srcset')).toBe(sizesOf('webp'));
    expect(await photo.getAttribute('sizes')).toBe(sizes);
    expect(new URL((await photo.getAttribute('src')) ?? '', baseURL()).pathname).toBe(
      photoSizeUrl(first, PHOTO_WIDTHS[1], 'webp'),
    );
    // Chromium shows AVIF, at a width for the phone's 358 CSS px at its pixel ratio.
    const shown = new URL(await photo.evaluate((img: HTMLImageElement) => img.currentSrc), baseURL())
      .pathname;
    expect(PHOTO_WIDTHS.map((width) => photoSizeUrl(first, width, 'avif'))).toContain(shown);
    expect(await photo.getAttribute('alt')).toContain(listing.title);
    expect(Number(await photo.getAttribute('width'))).toBeGreaterThan(0);
    expect(Number(await photo.getAttribute('height'))).toBeGreaterThan(0);
    expect(await photo.getAttribute('fetchpriority')).toBe('high');
    expect(await photo.getAttribute('loading')).not.toBe('lazy');
    expect(await largestPaint(page)).toBe('img in the gallery');

    // The server's head preloads it: the same srcset and sizes as its AVIF source, fetched first.
    const preloads = page.locator('head link[rel="preload"][as="image"]');
    expect(await preloads.count()).toBe(1);
    expect(await preloads.getAttribute('imagesrcset')).toBe(sizesOf('avif'));
    expect(await preloads.getAttribute('imagesizes')).toBe(sizes);
    expect(await preloads.getAttribute('type')).toBe('image/avif');
    expect(await preloads.getAttribute('fetchpriority')).toBe('high');

    // The card for the same listing shows the same picture (a size for a card).
    await page.goto('/');
    const card = page.getByTestId('listing-card').filter({ has: page.locator(`a[href="/listing/${slug}"]`) });
    const cardImage = card.first().getByRole('img').first();
    expect(await cardImage.getAttribute('srcset')).toBe(sizesOf('webp'));
    expect(new URL((await cardImage.getAttribute('src')) ?? '', baseURL()).pathname).toBe(
      photoSizeUrl(first, PHOTO_WIDTHS[1], 'webp'),
    );
    // No other page preloads an image from its head.
    expect(await page.locator('head link[rel="preload"][as="image"]').count()).toBe(0);
    await context.close();
  });

  it('never hides what has keyboard focus behind the Buy bar', async () => {
    const { context, page } = await visitor('phone');
    const home = await fetch(new URL('/', baseURL())).then((response) => response.text());
    const slug = home.match(/href="\/listing\/([^"?#]+)"/)?.[1];
    await page.goto(`/listing/${slug}`);
    const bar = page.getByTestId('buy-bar');
    await bar.waitFor();
    const barTop = (await bar.boundingBox())?.y ?? 0;
    expect(barTop).toBeGreaterThan(VIEWPORTS.phone.height / 2);

    const hidden: string[] = [];
    let focusedInPage = 0;
    for (let step = 0; step < 60; step += 1) {
      await page.keyboard.press('Tab');
      const seen = await page.evaluate(() => {
        const active = document.activeElement;
        const barElement = document.querySelector('[data-testid="buy-bar"]');
        if (!active || active === document.body || !barElement) return null;
        if (barElement.contains(active)) return { inBar: true, hidden: false, name: '' };
        const box = active.getBoundingClientRect();
        const barBox = barElement.getBoundingClientRect();
        return {
          inBar: false,
          hidden: box.bottom > barBox.top + 0.5 && box.top < barBox.bottom,
          name: `${active.tagName} ${(active.textContent ?? '').trim().slice(0, 40)} (${Math.round(box.top)}–${Math.round(box.bottom)}, bar from ${Math.round(barBox.top)})`,
        };
      });
      if (!seen || seen.inBar) continue;
      focusedInPage += 1;
      if (seen.hidden) hidden.push(seen.name);
    }
    // It went far enough down the page for the bar to matter.
    expect(focusedInPage).toBeGreaterThan(20);
    expect(hidden).toEqual([]);
    await context.close();
  });
});

describe('the seller’s photos', () => {
  for (const viewport of ['phone', 'desktop'] as const) {
    it(`lead the page, swipe and step by keyboard, and zoom in a dialog that traps and returns focus (${viewport})`, async () => {
      const photos = await threePhotos();
      const slug = await listingWithPhotos(photos);
      const { context, page } = await visitor(viewport, viewport === 'phone');
      await page.goto(`/listing/${slug}`);
      const gallery = page.getByTestId('listing-photos');
      const slides = gallery.getByTestId('photo-slide');
      await expect.poll(() => slides.count()).toBe(3);
      // Each photo has its own alt text.
      const alts = await gallery
        .getByTestId('photo-slide')
        .getByRole('img')
        .evaluateAll((images) => images.map((image) => image.getAttribute('alt') ?? ''));
      expect(new Set(alts).size).toBe(3);
      expect(alts.every((alt) => alt.length > 10)).toBe(true);
      await expect.poll(() => counter(page).textContent()).toBe('1 of 3');

      // By keyboard: the next-photo button, then the arrow keys on the photos themselves.
      await gallery.getByRole('button', { name: 'Next photo' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => counter(page).textContent()).toBe('2 of 3');
      await gallery.getByRole('button', { name: /^Enlarge photo 2 of 3/ }).focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => counter(page).textContent()).toBe('3 of 3');
      // Focus moves with the photo on show (the only one of them in the tab order).
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '')).toMatch(
        /^Enlarge photo 3 of 3/,
      );
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => counter(page).textContent()).toBe('1 of 3');

      if (viewport === 'phone') {
        // The steps back have come to rest on the first photo (a finger lands on a still track).
        await expect
          .poll(() =>
            gallery.getByTestId('photo-track').evaluate((element) => Math.round(element.scrollLeft)),
          )
          .toBe(0);
        // A swipe to the left, as a finger makes it: down on the photo, along, and up.
        const track = await gallery.getByTestId('photo-track').boundingBox();
        if (!track) throw new Error('no photo track');
        const cdp = await context.newCDPSession(page);
        const y = Math.round(track.y + track.height / 2);
        let x = Math.round(track.x + track.width * 0.8);
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
        for (let step = 0; step < 10; step += 1) {
          x -= Math.round(track.width * 0.06);
          await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
        }
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
        await expect.poll(() => counter(page).textContent()).toBe('2 of 3');
        await snapshot(page, 'listing-page-gallery-phone', { fullPage: false });
      } else {
        await gallery.getByRole('button', { name: 'Show photo 2 of 3' }).click();
        await expect.poll(() => counter(page).textContent()).toBe('2 of 3');
        await snapshot(page, 'listing-page-gallery-desktop', { fullPage: false });
      }

      // The lightbox: opened by keyboard from the photo on show, focus kept inside, given back.
      const trigger = gallery.getByRole('button', { name: /^Enlarge photo 2 of 3/ });
      await trigger.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: /photo 2 of 3/i });
      await dialog.waitFor();
      const bigPhoto = dialog.locator('img');
      expect(new URL((await bigPhoto.getAttribute('src')) ?? '', baseURL()).pathname).toBe(photos[1]);
      expect(await bigPhoto.getAttribute('alt')).toBe(alts[1]);
      for (let step = 0; step < 8; step += 1) {
        await page.keyboard.press('Tab');
        expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
      }
      await page.keyboard.press('ArrowRight');
      await page.getByRole('dialog', { name: /photo 3 of 3/i }).waitFor();
      await snapshot(page, `listing-page-lightbox-${viewport}`, { fullPage: false });
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      // Focus is back in the page, on the photo last looked at (now the one on show): the dialog
      // gives it back once it has gone (Radix does so a moment after it leaves the page).
      await expect.poll(() => counter(page).textContent()).toBe('3 of 3');
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? ''))
        .toMatch(/^Enlarge photo 3 of 3/);
      await context.close();
    });
  }

  it('give way to the drawn cover only when there are none', async () => {
    const slug = await listingWithPhotos([], 1);
    const { context, page } = await visitor('phone');
    await page.goto(`/listing/${slug}`);
    await page.getByTestId('generated-cover').waitFor();
    expect(await page.getByTestId('listing-photos').count()).toBe(0);
    await context.close();
  });
});

describe('the cards on the first screen of the search and browse pages', () => {
  it('load at once, the first fetched first, the rest when scrolled near', async () => {
    const { context, page } = await visitor('phone');
    // Copy by copy, with the sellers' photos (/listings answers by book with the edition's
    // cover, decision 0079; the same browser and the same first screen).
    await page.goto('/recently-added');
    const images = page.getByTestId('results').getByTestId('listing-card').getByRole('img');
    await images.first().waitFor();
    const attributes = await images.evaluateAll((elements) =>
      elements.map((img) => [img.getAttribute('loading'), img.getAttribute('fetchpriority') ?? ''].join(' ')),
    );
    expect(attributes.length).toBeGreaterThan(FIRST_SCREEN_CARDS);
    expect(attributes.slice(0, FIRST_SCREEN_CARDS)).toEqual([
      'eager high',
      ...Array(FIRST_SCREEN_CARDS - 1).fill('eager '),
    ]);
    expect(new Set(attributes.slice(FIRST_SCREEN_CARDS))).toEqual(new Set(['lazy ']));
    // Each is a stored photo's <picture>, sized to the 3:4 frame.
    const first = images.first();
    expect(await first.evaluate((img) => img.parentElement?.tagName)).toBe('PICTURE');
    expect(Number(await first.getAttribute('width')) * 4).toBe(
      Number(await first.getAttribute('height')) * 3,
    );
    await context.close();
  });
});

describe('a photo whose sizes cannot be loaded', () => {
  it('shows its large size instead, never a broken image (hosted storage before the job reaches it)', async () => {
    const home = await fetch(new URL('/', baseURL())).then((response) => response.text());
    const slug = home.match(/href="\/listing\/([^"?#]+)"/)?.[1];
    const listing = await listingFromApi(slug ?? '');
    const { context, page } = await visitor('phone');
    // Every size is missing, as in a hosted bucket: only the large WebP and the old thumbnail exist.
    await page.route(/\/storage\/.+\/(?:720|1080)\.(?:avif|webp)$|\/storage\/.+\/400\.avif$/, (route) =>
      route.fulfill({ status: 404, body: '' }),
    );
    for (const [path, image] of [
      [`/listing/${slug}`, page.getByTestId('listing-photos').getByRole('img').first()],
      ['/recently-added', page.getByTestId('results').getByTestId('listing-card').getByRole('img').first()],
    ] as const) {
      await page.goto(path);
      await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
      await expect
        .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
        .toBe(true);
      const shown = new URL(await image.evaluate((img: HTMLImageElement) => img.currentSrc), baseURL());
      expect(shown.pathname).toMatch(/\/1600\.webp$/);
    }
    expect(listing.photos.length).toBeGreaterThan(0);
    await context.close();
  });
});
