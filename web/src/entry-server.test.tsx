/**
 * The server entry on its own (no database): which paths it renders, the head it writes, the
 * answers it hands to the browser, and how it treats a query it cannot answer. The real BFF and
 * the browser: tests/e2e/server-rendering.e2e.test.ts.
 */
import { type ListingDetail, type ListingPage, PHOTO_WIDTHS } from '@reshelf/contracts';
import { describe, expect, it } from 'vitest';
import {
  type CallProcedure,
  isServerRendered,
  type PipeTarget,
  type RedirectedPage,
  type RenderedPage,
  render,
  STATE_SCRIPT_ID,
} from './entry-server.tsx';
import { PHOTO_LAYOUT_SIZES } from './lib/media.ts';

const TEMPLATE = `<!doctype html><html lang="en-GB"><head><meta charset="UTF-8" />
<meta
  name="description"
  content="The site-wide description."
/>
<title>Reshelf · Pre-loved books, bought and sold</title><script type="module" src="/assets/index-abc.js"></script></head>
<body><div id="root"></div><noscript>Reshelf needs JavaScript.</noscript></body></html>`;

const LISTING: ListingDetail = {
  id: '00000000-0000-4000-8000-000000000001',
  slug: 'pride-and-prejudice-1',
  status: 'active',
  available: true,
  unavailableReason: null,
  title: 'Pride & Prejudice <Deluxe>',
  subtitle: null,
  authors: ['Jane Austen'],
  isbn13: '9780141439518',
  isbn10: null,
  publisher: null,
  publishedYear: 2003,
  pageCount: 480,
  language: 'en',
  coverUrl: '/storage/covers/pride.jpg',
  bookDescription: null,
  condition: 'good',
  exLibrary: false,
  format: null,
  firstEdition: false,
  signed: false,
  firstPrinting: false,
  inscribed: false,
  bookClub: false,
  printOnDemand: false,
  dustJacket: null,
  bookmanGrade: null,
  conditionNotes: null,
  description: null,
  photos: [],
  publishedAt: '2026-01-01T00:00:00.000Z',
  category: { slug: 'classics', name: 'Classics' },
  genres: [],
  seller: {
    id: '00000000-0000-4000-8000-000000000002',
    displayName: 'Ann Example',
    town: 'Bath',
    bio: null,
    avatarUrl: null,
    memberSince: '2025-01-01T00:00:00.000Z',
    activeListings: 3,
    charity: null,
  },
  charity: null,
  trader: null,
  returns: null,
  price: {
    itemMinor: 1250,
    allInMinor: 1383,
    postageMinor: 299,
    protectionMinor: 133,
    protectionVatMinor: 22,
    totalMinor: 1682,
    parcelSize: 'small',
    protectionFixedMinor: 70,
    protectionPercent: 5,
  },
};

const SOLD: ListingDetail = {
  ...LISTING,
  id: '00000000-0000-4000-8000-000000000003',
  slug: 'pride-and-prejudice-sold',
  status: 'sold',
  available: false,
  unavailableReason: 'sold',
};

/** A search's answer with nothing in it. */
const NO_HITS: ListingPage = {
  items: [],
  page: 1,
  pageSize: 24,
  total: 0,
  totalCapped: false,
  hasNextPage: false,
  asOf: '2026-01-01T00:00:00.000Z',
};

/** A listing with the seller's photos (stored with every size: decision 0063). */
const WITH_PHOTOS: ListingDetail = {
  ...LISTING,
  id: '00000000-0000-4000-8000-000000000004',
  slug: 'pride-and-prejudice-photos',
  photos: ['/storage/listings/l/aa11/1600.webp', '/storage/listings/l/bb22/1600.webp'],
};

/** What the router's caller throws for a missing record (a TRPCError: its code, its message). */
function notFound(message: string): Error {
  return Object.assign(new Error(message), { name: 'TRPCError', code: 'NOT_FOUND' });
}

/**
 * Answers the listings (an unknown slug: not found, as the API says it); every other query is
 * refused (as the BFF refuses auth.me and members' data).
 */
function fakeApi(): { call: CallProcedure; calls: string[] } {
  const calls: string[] = [];
  const call: CallProcedure = async (path, input) => {
    calls.push(path);
    if (path === 'catalogue.listings.bySlug') {
      const { slug } = input as { slug: string };
      const found = [LISTING, SOLD, WITH_PHOTOS].find((listing) => listing.slug === slug);
      if (found) return found;
      throw notFound('That listing does not exist.');
    }
    if (path === 'catalogue.listings.similar') return [];
    if (path === 'catalogue.listings.search') {
      // Nothing is ever found for "harbour"; anything else finds one book (its card is not read here).
      const { q } = input as { q: string };
      const found = q === 'harbour' ? [] : [null];
      return { ...NO_HITS, items: [], total: found.length };
    }
    if (path === 'catalogue.books.public.search') {
      // Search by book (what /search reads): the same, nothing for "harbour".
      const { q } = input as { q?: string };
      return {
        ...NO_HITS,
        items: [],
        total: q === 'harbour' ? 0 : 1,
        group: 'edition',
        query: q ?? null,
        correctedQuery: null,
        corrections: [],
      };
    }
    throw new Error(`not answered in this test: ${path}`);
  };
  return { call, calls };
}

/** The whole page as the BFF sends it: before, the streamed app, after. */
function collect(page: RenderedPage | RedirectedPage | null): Promise<string> {
  if (!page || page.redirect !== undefined) throw new Error(`not a rendered page: ${JSON.stringify(page)}`);
  return new Promise((resolve) => {
    const decoder = new TextDecoder();
    let body = '';
    const target: PipeTarget = {
      write(chunk) {
        body += typeof chunk === 'string' ? chunk : decoder.decode(chunk as Uint8Array, { stream: true });
        return true;
      },
      end() {
        resolve(`${page.before}${body}${decoder.decode()}${page.after}`);
      },
      on: () => target,
    };
    page.pipe(target);
  });
}

describe('which pages the server renders', () => {
  it('renders the public catalogue pages and leaves signed-in, staff and form pages to the browser', () => {
    for (const path of [
      '/',
      '/listings',
      '/search',
      '/listing/a-book',
      '/categories',
      '/c/classics',
      '/g/crime',
      '/trending',
      '/recently-added',
      '/staff-picks',
      '/discover-sellers',
      '/seller/abc',
      '/charity',
      '/charity/directory',
      '/charity/oxfam',
      '/pages/about',
      '/terms',
      '/help-centre',
      '/help-centre/faq',
    ]) {
      expect(isServerRendered(path), path).toBe(true);
    }
    for (const path of [
      '/account',
      '/account/orders',
      '/admin',
      '/admin/listings',
      '/global-admin',
      '/login',
      '/sell',
      '/checkout',
      '/messages',
      '/charity/sell',
      '/charity/dashboard',
      '/charity/signup',
      '/no-such-page',
    ]) {
      expect(isServerRendered(path), path).toBe(false);
    }
  });

  it('answers null for a page it does not render, without calling the API', async () => {
    const { call, calls } = fakeApi();
    expect(
      await render({ url: '/account', siteOrigin: 'https://reshelf.example', template: TEMPLATE, call }),
    ).toBeNull();
    expect(calls).toEqual([]);
  });
});

describe('a server-rendered listing page', () => {
  it('has the listing in the HTML, its head, canonical and Open Graph tags, and the answers for hydration', async () => {
    const { call, calls } = fakeApi();
    const page = await render({
      url: `/listing/${LISTING.slug}?ref=home`,
      siteOrigin: 'https://reshelf.example',
      template: TEMPLATE,
      call,
    });
    expect(page).not.toBeNull();
    const html = await collect(page);
    expect(calls).toContain('catalogue.listings.bySlug');

    expect(html).toContain('<title>Pride &amp; Prejudice &lt;Deluxe&gt; by Jane Austen · Reshelf</title>');
    expect(html).toContain(
      '<meta name="description" content="Good copy of Pride &amp; Prejudice &lt;Deluxe&gt; for £13.83 including buyer protection, sold by Ann Example on Reshelf." />',
    );
    expect(html).not.toContain('The site-wide description.');
    expect(html).toContain(
      '<link rel="canonical" href="https://reshelf.example/listing/pride-and-prejudice-1" />',
    );
    expect(html).toContain('<meta property="og:type" content="book" />');
    expect(html).toContain(
      '<meta property="og:image" content="https://reshelf.example/storage/covers/pride.jpg" />',
    );
    // The deploy's own script tag is kept.
    expect(html).toContain('<script type="module" src="/assets/index-abc.js"></script>');

    // The page itself: title, price, condition, seller, and the Book/Offer JSON-LD.
    const root = html.slice(html.indexOf('<div id="root">'), html.indexOf(`<script type="application/json"`));
    expect(root).toContain('Pride &amp; Prejudice &lt;Deluxe&gt;');
    // The headline is the all-in price (decision 0071): £12.50 and £1.33 buyer protection.
    expect(root).toContain('£13.83');
    expect(root).toContain('Ann Example');
    expect(root).toMatch(/data-testid="listing-condition"[^>]*>Good</);
    const jsonLd = root.match(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/)?.[1];
    expect(JSON.parse(jsonLd ?? 'null')).toMatchObject({
      '@type': 'Book',
      name: LISTING.title,
      isbn: LISTING.isbn13,
      url: 'https://reshelf.example/listing/pride-and-prejudice-1',
      offers: { price: '13.83', priceCurrency: 'GBP', availability: 'https://schema.org/InStock' },
    });

    // The answers, as a data block (not a script that runs), with "<" escaped.
    const state = html.match(
      new RegExp(`<script type="application/json" id="${STATE_SCRIPT_ID}"[^>]*>([\\s\\S]*?)</script>`),
    )?.[1];
    expect(state).toBeDefined();
    expect(state).not.toContain('<Deluxe>');
    const dehydrated = JSON.parse(state ?? '{}') as {
      queries: { queryKey: unknown; state: { data: unknown } }[];
    };
    const listingQuery = dehydrated.queries.find(
      (query) =>
        JSON.stringify(query.queryKey) ===
        JSON.stringify([
          ['catalogue', 'listings', 'bySlug'],
          { input: { slug: LISTING.slug }, type: 'query' },
        ]),
    );
    expect(listingQuery?.state.data).toEqual(LISTING);
    // A query the server could not answer is left for the browser (not sent as an error):
    // auth.me is not there, and the header shows the account area loading.
    expect(dehydrated.queries.every((query) => query.state.data !== undefined)).toBe(true);
    expect(calls).toContain('account.auth.me');
    expect(dehydrated.queries.some((query) => JSON.stringify(query.queryKey).includes('"me"'))).toBe(false);
    expect(html).toContain('data-testid="header-account-loading"');
  });

  it('preloads the first photo from its head, and shows it as a picture in AVIF and WebP at the size shown', async () => {
    const page = await render({
      url: `/listing/${WITH_PHOTOS.slug}`,
      siteOrigin: 'https://reshelf.example',
      template: TEMPLATE,
      call: fakeApi().call,
    });
    const html = await collect(page!);
    const head = html.slice(0, html.indexOf('</head>'));
    const avif = PHOTO_WIDTHS.map((width) => `/storage/listings/l/aa11/${width}.avif ${width}w`).join(', ');
    expect(head).toContain(
      `<link rel="preload" as="image" imagesrcset="${avif}" imagesizes="${PHOTO_LAYOUT_SIZES.listing}" type="image/avif" fetchpriority="high" />`,
    );
    // Only the first photo is preloaded.
    expect(head.match(/rel="preload" as="image"/g)).toHaveLength(1);
    expect(head).not.toContain('bb22');

    const root = html.slice(html.indexOf('<div id="root">'));
    const pictures = [...root.matchAll(/<picture[^>]*>([\s\S]*?)<\/picture>/g)].map((match) => match[1]!);
    expect(pictures).toHaveLength(2);
    const [first, second] = pictures;
    expect(first).toContain(
      `<source type="image/avif" srcSet="${avif}" sizes="${PHOTO_LAYOUT_SIZES.listing}"/>`,
    );
    const img = first!.match(/<img [^>]*>/)?.[0] ?? '';
    expect(img).toContain('src="/storage/listings/l/aa11/720.webp"');
    expect(img).toContain(`srcSet="${avif.replaceAll('.avif', '.webp')}"`);
    expect(img).toMatch(/ width="600" height="800"/);
    expect(img).toContain('loading="eager"');
    expect(img).toContain('fetchPriority="high"');
    expect(second).toContain('loading="lazy"');
    expect(second).not.toContain('fetchPriority');
  });

  it('preloads nothing for a listing with no photo of its own', async () => {
    const page = await render({
      url: `/listing/${LISTING.slug}`,
      siteOrigin: 'https://reshelf.example',
      template: TEMPLATE,
      call: fakeApi().call,
    });
    const html = await collect(page!);
    expect(html.slice(0, html.indexOf('</head>'))).not.toContain('rel="preload" as="image"');
  });

  it('answers 404 with the not-found page for a listing the API does not know, and hands the browser the same answer', async () => {
    const { call } = fakeApi();
    const page = await render({
      url: '/listing/gone',
      siteOrigin: 'https://reshelf.example',
      template: TEMPLATE,
      call,
    });
    expect(page?.status).toBe(404);
    const html = await collect(page);
    expect(html).toContain('<title>Listing not found · Reshelf</title>');
    expect(html).toContain('data-testid="not-found"');
    expect(html).not.toContain('application/ld+json');
    // The browser hydrates from the same not-found answer (so it renders the same page).
    const state = JSON.parse(
      html.match(
        new RegExp(`<script type="application/json" id="${STATE_SCRIPT_ID}"[^>]*>([\\s\\S]*?)</script>`),
      )?.[1] ?? '{}',
    ) as { queries: { queryKey: unknown; state: { status: string; error: unknown } }[] };
    const listing = state.queries.find((query) => JSON.stringify(query.queryKey).includes('"bySlug"'));
    expect(listing?.state).toMatchObject({
      status: 'error',
      error: {
        name: 'TRPCClientError',
        message: 'That listing does not exist.',
        data: { code: 'NOT_FOUND', httpStatus: 404 },
      },
    });
  });

  it('answers 200 for a sold listing, and says it is sold', async () => {
    const { call } = fakeApi();
    const page = await render({
      url: `/listing/${SOLD.slug}`,
      siteOrigin: 'https://reshelf.example',
      template: TEMPLATE,
      call,
    });
    expect(page?.status).toBe(200);
    const html = await collect(page);
    expect(html).toContain('This copy has been sold');
    expect(html).not.toContain('data-testid="not-found"');
  });

  it('leaves a query it was refused (not a not-found) loading, for the browser to ask', async () => {
    const page = await render({
      url: `/listing/${LISTING.slug}`,
      siteOrigin: 'https://reshelf.example',
      template: TEMPLATE,
      call: async () => {
        throw new Error('left for the browser');
      },
    });
    expect(page?.status).toBe(200);
    const html = await collect(page);
    expect(html).toContain('<title>Loading listing · Reshelf</title>');
    expect(html).not.toContain('data-testid="not-found"');
  });
});

describe('a path no page lives at', () => {
  it('is the not-found page, rendered on the server with 404 (the staff area keeps its own)', async () => {
    const { call } = fakeApi();
    for (const path of ['/this/is/nonsense', '/no-such-page']) {
      const page = await render({
        url: path,
        siteOrigin: 'https://reshelf.example',
        template: TEMPLATE,
        call,
      });
      expect(page?.status, path).toBe(404);
      const html = await collect(page);
      expect(html, path).toContain('<title>Page not found · Reshelf</title>');
      expect(html, path).toContain('data-testid="not-found"');
    }
    expect(
      await render({
        url: '/admin/no-such-page',
        siteOrigin: 'https://reshelf.example',
        template: TEMPLATE,
        call,
      }),
    ).toBeNull();
  });
});

describe('a page that sends the visitor elsewhere', () => {
  const at = (url: string) =>
    render({ url, siteOrigin: 'https://reshelf.example', template: TEMPLATE, call: fakeApi().call });

  it('answers a search with no hits with the redirect to /search/not-found, before any HTML', async () => {
    expect(await at('/search?q=harbour')).toEqual({ status: 302, redirect: '/search/not-found?q=harbour' });
  });

  it('renders a search that finds something, and one with no hits whose filters are to blame', async () => {
    expect((await at('/search?q=pride'))?.status).toBe(200);
    const filtered = await at('/search?q=harbour&condition=good');
    expect(filtered?.status).toBe(200);
    expect(await collect(filtered)).toMatch(/Results for “(<!-- -->)?harbour/);
  });

  it('renders /search/not-found on the server', async () => {
    const html = await collect(await at('/search/not-found?q=harbour'));
    expect(html).toMatch(/No books found for “(<!-- -->)?harbour/);
  });
});

describe('the site origin', () => {
  it('goes to the browser with the answers, so it renders the page’s absolute links as the server did', async () => {
    const { call } = fakeApi();
    const page = await render({
      url: `/listing/${LISTING.slug}`,
      siteOrigin: 'https://reshelf.example',
      template: TEMPLATE,
      call,
    });
    const html = await collect(page);
    expect(html).toMatch(
      new RegExp(
        `<script type="application/json" id="${STATE_SCRIPT_ID}" data-site-origin="https://reshelf.example">`,
      ),
    );
  });
});
