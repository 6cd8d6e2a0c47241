/**
 * The public pages rendered on the server (docs/decisions/0041-server-rendered-public-pages.md):
 * what a search engine reads without running any JavaScript, and the same page in Chromium,
 * hydrated without a mismatch and still working.
 */

import { get } from 'node:http';
import { CONDITION_LABELS, CORRECTION_WORDS, formatPence, type ListingDetail } from '@reshelf/contracts';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { signedIn } from '../support/auth.ts';
import {
  baseURL,
  newPage,
  snapshot,
  takeHydrationErrors,
  VIEWPORTS,
  watchContentSecurityPolicy,
  withBrowser,
} from '../support/browser.ts';

let browser: Browser;
withBrowser((launched) => (browser = launched));

/** The page's HTML as a crawler gets it: one GET, no JavaScript. */
async function html(path: string): Promise<{ status: number; type: string; body: string }> {
  const response = await fetch(new URL(path, baseURL()), { headers: { accept: 'text/html' } });
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    body: await response.text(),
  };
}

/** The Content-Encoding a page is sent with to a browser that takes brotli (node:http decodes nothing). */
function encodingOf(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get(
      new URL(path, baseURL()),
      { headers: { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(String(response.headers['content-encoding'] ?? 'none')));
      },
    ).on('error', reject);
  });
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#x27': "'",
  '#39': "'",
  nbsp: ' ',
};

/** The visible text of the rendered app (the root element), tags and scripts dropped. */
function visibleText(page: string): string {
  const root = page.slice(page.indexOf('<div id="root">'));
  return root
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&(#x27|#39|amp|lt|gt|quot|nbsp);/g, (_, name: string) => ENTITIES[name] ?? '')
    .replace(/\s+/g, ' ');
}

const decode = (text: string) =>
  text.replace(/&(#x27|#39|amp|lt|gt|quot|nbsp);/g, (_, name: string) => ENTITIES[name] ?? '');

/** A listing on sale, from the server-rendered home page's own links. */
async function aListingSlug(): Promise<string> {
  const home = await html('/');
  const slug = home.body.match(/href="\/listing\/([^"?#]+)"/)?.[1];
  if (!slug) throw new Error('the server-rendered home page links to no listing');
  return slug;
}

async function listingFromApi(slug: string): Promise<ListingDetail> {
  const input = encodeURIComponent(JSON.stringify({ slug }));
  const response = await fetch(new URL(`/trpc/catalogue.listings.bySlug?input=${input}`, baseURL()));
  expect(response.status).toBe(200);
  return ((await response.json()) as { result: { data: ListingDetail } }).result.data;
}

describe('a listing page without JavaScript', () => {
  it('has its title, price, condition and seller, a real <title> and description, the JSON-LD, canonical and Open Graph tags', async () => {
    const slug = await aListingSlug();
    const listing = await listingFromApi(slug);
    const page = await html(`/listing/${slug}`);
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/^text\/html/);

    const text = visibleText(page.body);
    expect(text).toContain(listing.title);
    // The all-in headline (decision 0071), and the item price in the breakdown.
    expect(text).toContain(formatPence(listing.price.allInMinor));
    expect(text).toContain(formatPence(listing.price.itemMinor));
    expect(text).toContain(CONDITION_LABELS[listing.condition]);
    expect(text).toContain(listing.seller.displayName);

    const title = decode(page.body.match(/<title>([^<]*)<\/title>/)?.[1] ?? '');
    expect(title).toBe(`${listing.title} by ${listing.authors.join(', ')} · Reshelf`);
    const description = decode(page.body.match(/<meta name="description" content="([^"]*)"/)?.[1] ?? '');
    expect(description).toContain(formatPence(listing.price.allInMinor));
    expect(description).toContain(listing.seller.displayName);

    const canonical = `${baseURL()}/listing/${slug}`;
    expect(page.body).toContain(`<link rel="canonical" href="${canonical}" />`);
    expect(page.body).toContain(`<meta property="og:url" content="${canonical}" />`);
    expect(page.body).toContain('<meta property="og:type" content="book" />');
    expect(decode(page.body.match(/<meta property="og:title" content="([^"]*)"/)?.[1] ?? '')).toBe(title);

    const block = page.body.match(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/)?.[1];
    expect(block).toBeDefined();
    const jsonLd = JSON.parse(block ?? '{}') as Record<string, unknown> & { offers: Record<string, unknown> };
    expect(jsonLd['@type']).toBe('Book');
    expect(jsonLd.name).toBe(listing.title);
    expect(jsonLd.author).toEqual(listing.authors.map((name) => ({ '@type': 'Person', name })));
    if (listing.isbn13) expect(jsonLd.isbn).toBe(listing.isbn13);
    expect(jsonLd.offers).toMatchObject({
      '@type': 'Offer',
      // The all-in price (decision 0071); postage is the offer's shippingDetails.
      price: (listing.price.allInMinor / 100).toFixed(2),
      priceCurrency: 'GBP',
      availability: listing.available ? 'https://schema.org/InStock' : expect.any(String),
      itemCondition: 'https://schema.org/UsedCondition',
      seller: { name: listing.seller.displayName },
    });

    // The answers it was rendered with, for the browser to hydrate from: data, never run.
    expect(page.body).toMatch(/<script type="application\/json" id="reshelf-ssr-state"[^>]*>/);
  });

  it('renders the home page and the catalogue pages with their titles; signed-in and staff pages stay the shell', async () => {
    const home = await html('/');
    expect(decode(home.body.match(/<title>([^<]*)<\/title>/)?.[1] ?? '')).toBe(
      'Pre-loved books, bought and sold · Reshelf',
    );
    expect(visibleText(home.body)).toMatch(/Staff picks/i);
    expect(home.body).toContain(`<link rel="canonical" href="${baseURL()}/" />`);

    for (const path of ['/', '/listings', '/search?q=pride', '/categories', '/trending', '/terms']) {
      const page = await html(path);
      expect(page.status, path).toBe(200);
      expect(await encodingOf(path), path).toBe('br');
      expect(page.body, path).toContain('id="reshelf-ssr-state"');
      expect(page.body, path).toMatch(/<div id="root"><[a-z]/);
    }

    // Results by book (decision 0079) are in the first HTML: the cards, their copies and prices,
    // "did you mean" for a misspelling, and the grouping the address asks for.
    const search = await html('/search?q=tolkein');
    expect(search.body).toContain('data-testid="book-result"');
    expect(visibleText(search.body)).toMatch(/\d+ cop(y at|ies from) £\d+\.\d\d/);
    expect(visibleText(search.body)).toContain(
      `${CORRECTION_WORDS.showing} tolkien — ${CORRECTION_WORDS.instead} tolkein`,
    );
    expect(visibleText((await html('/listings?group=work')).body)).toMatch(/\d+ books?\b/);

    for (const path of ['/account', '/admin', '/login', '/sell']) {
      const page = await html(path);
      expect(page.body, path).toContain('<div id="root"></div>');
      expect(page.body, path).not.toContain('reshelf-ssr-state');
    }
  });
});

/** A demo listing that has been sold (the seed sells a few). */
async function aSoldListingSlug(): Promise<string> {
  const db = new pg.Client({ connectionString: inject('e2eDatabaseUrl') });
  await db.connect();
  try {
    const { rows } = await db.query<{ slug: string }>(
      "select slug from public.listings where status = 'sold' order by slug limit 1",
    );
    if (!rows[0]) throw new Error('the demo data has no sold listing');
    return rows[0].slug;
  } finally {
    await db.end();
  }
}

const NOT_FOUND_PATHS = [
  '/this/is/nonsense',
  '/listing/no-such-book',
  '/c/no-such-cat',
  '/pages/no-such-page',
];

describe('a page that is not there', () => {
  it('answers 404 with the not-found page in the HTML; a sold listing answers 200 and says it is sold', async () => {
    for (const path of NOT_FOUND_PATHS) {
      const page = await html(path);
      expect(page.status, path).toBe(404);
      expect(page.type, path).toMatch(/^text\/html/);
      expect(visibleText(page.body), path).toContain('Page not found');
      expect(page.body, path).toContain('id="reshelf-ssr-state"');
    }
    const sold = await html(`/listing/${await aSoldListingSlug()}`);
    expect(sold.status).toBe(200);
    expect(visibleText(sold.body)).toContain('This copy has been sold');
    expect(visibleText(sold.body)).not.toContain('Page not found');
  });

  it('is hydrated as the server sent it, still saying not found (phone)', async () => {
    const { context, page } = await newPage(browser, 'phone');
    for (const path of NOT_FOUND_PATHS) {
      const answer = await page.goto(path);
      expect(answer?.status(), path).toBe(404);
      await page.getByTestId('not-found').waitFor();
      expect(await page.getByRole('heading', { level: 1 }).textContent(), path).toBe('Page not found');
    }
    await snapshot(page, 'ssr-not-found-phone');
    await context.close();
  });
});

describe('a server-rendered listing page in the browser', () => {
  for (const viewport of ['phone', 'desktop'] as const) {
    it(`hydrates without a mismatch and stays interactive (${viewport})`, async () => {
      const slug = await aListingSlug();
      const { context, page } = await newPage(browser, viewport);
      const blocked = await watchContentSecurityPolicy(context);
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`pageerror: ${String(error)}`));
      page.on('console', (message) => {
        if (message.type() === 'error' || /hydrat/i.test(message.text())) {
          problems.push(`${message.type()}: ${message.text()}`);
        }
      });
      // The server's listing element, taken before any script runs: hydration keeps it, a
      // mismatch (or a fresh render) replaces it.
      await page.addInitScript(() => {
        document.addEventListener('readystatechange', () => {
          if (document.readyState === 'interactive') {
            (window as unknown as { serverNode: Element | null }).serverNode = document.querySelector(
              '[data-testid="listing-page"]',
            );
          }
        });
      });

      // The page counts the view in an effect: it runs once the hydrated tree is committed
      // (after any recovery from a mismatch, which would have replaced the server's DOM).
      const viewed = page.waitForRequest((request) =>
        request.url().includes('catalogue.listings.recordView'),
      );
      await page.goto(`/listing/${slug}`);
      await viewed;
      const kept = await page.evaluate(() => {
        const before = (window as unknown as { serverNode: Element | null }).serverNode;
        return (
          !!before && before === document.querySelector('[data-testid="listing-page"]') && before.isConnected
        );
      });
      expect(kept).toBe(true);
      await snapshot(page, `ssr-listing-${viewport}`);

      // Interactive: the breadcrumb moves to the listings in the browser, without a reload.
      await page.evaluate(() => {
        (window as unknown as { samePage: boolean }).samePage = true;
      });
      await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Books' }).click();
      await page.waitForURL(/\/listings$/);
      await page.getByTestId('book-result').first().waitFor();
      expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true);

      expect(problems).toEqual([]);
      expect(blocked).toEqual([]);
      await context.close();
    });
  }
});

/** Words no book on the demo shelves matches (and no filter to blame). */
const NO_HITS_WORDS = 'zzqxv qwzzk';

describe('a search with no hits', () => {
  it('is redirected by the server, before any HTML, to /search/not-found, itself rendered on the server', async () => {
    const response = await fetch(new URL(`/search?q=${encodeURIComponent(NO_HITS_WORDS)}`, baseURL()), {
      headers: { accept: 'text/html' },
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`/search/not-found?q=${encodeURIComponent(NO_HITS_WORDS)}`);
    const notFound = await html(response.headers.get('location') ?? '');
    expect(notFound.status).toBe(200);
    expect(visibleText(notFound.body)).toContain(`No books found for “${NO_HITS_WORDS}”`);
    expect(notFound.body).toContain('id="reshelf-ssr-state"');
  });

  it('lands on /search/not-found in the browser, hydrated as sent (phone)', async () => {
    const { context, page } = await newPage(browser, 'phone');
    const answer = await page.goto(`/search?q=${encodeURIComponent(NO_HITS_WORDS)}`);
    expect(new URL(page.url()).pathname).toBe('/search/not-found');
    expect(answer?.status()).toBe(200);
    await page.getByTestId('search-not-found').waitFor();
    await context.close();
  });
});

describe('no hydration error on the pages people open first', () => {
  it('home, a search, a listing, a search with no hits; signed in, the orders and the basket', async () => {
    const slug = await aListingSlug();
    const { context, page } = await signedIn(browser, 'buyer@reshelf.test', { viewport: 'phone' });
    for (const path of ['/', '/search?q=pride', `/listing/${slug}`, `/search?q=${NO_HITS_WORDS}`]) {
      await page.goto(path);
      // Hydrated (the helper waits for it): any mismatch has been reported by now.
      expect(await page.locator('html[data-hydrated]').count(), path).toBe(1);
    }
    for (const path of ['/account/orders', '/basket']) {
      await page.goto(path);
      await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
      await page.getByRole('heading', { level: 1 }).first().waitFor();
    }
    // The shared guard (tests/support/browser.ts) fails this test on any hydration error seen;
    // the last test of this file proves it sees one.
    expect(takeHydrationErrors()).toEqual([]);
    await context.close();
  });
});

describe('hydration, whatever the address the site is opened at', () => {
  it('hydrates a listing page opened at another address than PUBLIC_ORIGIN, with the site’s own links', async () => {
    const slug = await aListingSlug();
    // The marketplace's PUBLIC_ORIGIN is http://127.0.0.1:<port>; the same server as localhost.
    const other = baseURL().replace('//127.0.0.1:', '//localhost:');
    expect(other).not.toBe(baseURL());
    const context = await browser.newContext({ baseURL: other, viewport: VIEWPORTS.phone });
    const page = await context.newPage();
    // The page counts the view in an effect, once the hydrated tree is committed: by then a
    // mismatch has been reported (the shared guard in tests/support/browser.ts fails the test).
    const viewed = page.waitForRequest((request) => request.url().includes('catalogue.listings.recordView'));
    await page.goto(`/listing/${slug}`);
    await viewed;
    const jsonLd = JSON.parse((await page.getByTestId('listing-json-ld').textContent()) ?? '{}') as {
      url?: string;
    };
    expect(jsonLd.url).toBe(`${baseURL()}/listing/${slug}`);
    await context.close();
  });

  it('fails any browser test on a hydration error: the shared guard sees one', async () => {
    const slug = await aListingSlug();
    const { context, page } = await newPage(browser, 'phone');
    // The server's HTML changed before React hydrates it: the title no longer matches.
    await page.addInitScript(() => {
      document.addEventListener('readystatechange', () => {
        const title = document.querySelector('[data-testid="listing-page"] h1');
        if (document.readyState === 'interactive' && title) title.textContent = 'Not what the server sent';
      });
    });
    await page.goto(`/listing/${slug}`);
    const caught: string[] = [];
    await expect
      .poll(() => {
        caught.push(...takeHydrationErrors());
        return caught.length;
      })
      .toBeGreaterThan(0);
    expect(caught.join('\n')).toMatch(/Minified React error #418/);
    await context.close();
  });
});
