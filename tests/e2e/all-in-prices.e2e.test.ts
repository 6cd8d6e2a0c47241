/**
 * All-in prices (issue 35, decision 0071) in Chromium, on a marketplace of its own (the test
 * changes the buyer-protection rule every other test relies on): every price a buyer sees for a
 * listing is what checkout charges for that one book, less its postage, with no discount.
 *
 * What checkout charges is asked of checkout itself (`commerce.checkout.quote`): total − postage,
 * with no discount (the demo buyer's first-order WELCOME20 is added back, and must be the only one). Each surface's cards are
 * read as the buyer sees them (the card's price and its "+ postage from"), every card on the page
 * checked, and each surface must show at least one card (a count per surface, so a surface whose
 * cards were not found fails instead of passing on nothing). Search, browse and a category show
 * results by book (decision 0079): each result's "from" price is what checkout charges for the
 * cheapest of its copies on sale (read from the database), its postage that copy's, and its
 * count the number of those copies. The chosen listings (the cheapest
 * paperback, a dearer medium or large book, a charity's book) are checked on the listing page
 * (headline, JSON-LD Offer and its shippingDetails, the breakdown) and in the basket.
 *
 * Then the protection rule changes as staff change it (the settings row) and every surface is
 * walked again: every figure follows, and the chosen books' shown prices did change.
 */
import {
  CLIENT_HEADER,
  type ListingCard,
  type ListingDetail,
  parsePounds,
  poundsString,
  type Quote,
} from '@reshelf/contracts';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedIn } from '../support/auth.ts';
import { bookResultsOn, copiesOnSale } from '../support/book-results.ts';
import { snapshot, VIEWPORTS } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

const WEB = { [CLIENT_HEADER]: 'web' };
/** The demo buyer; they have no order yet, so checkout offers WELCOME20, which is added back. */
const BUYER = 'buyer@reshelf.test';

async function query<T>(context: BrowserContext, procedure: string, input?: unknown): Promise<T> {
  const search = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const response = await context.request.get(`/trpc/${procedure}${search}`, { headers: WEB });
  if (!response.ok()) throw new Error(`${procedure}: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

const pence = (text: string | null): number => {
  const match = /£[\d,]+\.\d\d/.exec(text ?? '');
  const value = match ? parsePounds(match[0]) : null;
  if (value === null) throw new Error(`no amount in: ${text}`);
  return value;
};

interface Charged {
  /** What checkout charges for the book on its own, less postage: the figure every surface shows. */
  allInMinor: number;
  /** Its cheapest delivery method's postage (decision 0083): "+ postage from". */
  postageMinor: number;
  /** Checkout's postage before the buyer chose: home delivery, which the basket prices too. */
  homePostageMinor: number;
}

/** Checkout's figures for one book, asked of checkout (cached per walk: the rule changes between walks). */
function checkoutOf(context: BrowserContext) {
  const known = new Map<string, Promise<Charged>>();
  return (listingId: string): Promise<Charged> => {
    let charged = known.get(listingId);
    if (!charged) {
      charged = query<Quote>(context, 'commerce.checkout.quote', { listingId }).then((quote) => {
        expect(quote.discountCode === null || quote.discountCode === 'WELCOME20').toBe(true);
        return {
          // money-ok: checkout's own lines: the total, its discount added back, less postage.
          allInMinor: quote.totalMinor + quote.discountMinor - quote.postageMinor,
          // "+ postage from": the cheapest delivery checkout offers for the book alone.
          postageMinor: Math.min(...quote.delivery.options.map((option) => option.postageMinor)),
          homePostageMinor: quote.postageMinor,
        };
      });
      known.set(listingId, charged);
    }
    return charged;
  };
}

interface ShownCard {
  slug: string;
  price: number;
  postageFrom: number;
}

/** Every listing card on the page as the buyer sees it: its link, its price, its "+ postage from". */
async function cardsOn(page: Page): Promise<ShownCard[]> {
  await page.locator('[data-testid="listing-card"]').first().waitFor();
  const raw = await page.locator('[data-testid="listing-card"]').evaluateAll((cards) =>
    cards.map((card) => ({
      href: card.querySelector('h3 a')?.getAttribute('href') ?? '',
      price: card.querySelector('[data-testid="card-price"]')?.textContent ?? '',
      postage: card.querySelector('[data-testid="postage-from"]')?.textContent ?? '',
    })),
  );
  return raw.map((card) => ({
    slug: card.href.replace(/^\/listing\//, ''),
    price: pence(card.price),
    postageFrom: pence(card.postage),
  }));
}

interface Chosen {
  label: string;
  card: ListingCard;
  detail: ListingDetail;
}

/** The cheapest paperback, a dearer medium or large book (private sellers), and a charity's book. */
async function choose(context: BrowserContext): Promise<Chosen[]> {
  const browse = (input: Record<string, unknown>) =>
    query<{ items: ListingCard[] }>(context, 'catalogue.listings.browse', {
      page: 1,
      pageSize: 48,
      ...input,
    });
  const cheap = (await browse({ sort: 'price_asc' })).items.find(
    (c) => !c.charity && c.parcelSize === 'small',
  );
  const dear = (await browse({ sort: 'price_desc' })).items.find(
    (c) => !c.charity && c.parcelSize !== 'small',
  );
  const charity = (await browse({ sort: 'newest', charityOnly: true })).items[0];
  const picked = { 'cheap paperback': cheap, 'dearer hardback': dear, 'charity book': charity };
  const chosen: Chosen[] = [];
  for (const [label, card] of Object.entries(picked)) {
    if (!card) throw new Error(`the demo data has no ${label}`);
    const detail = await query<ListingDetail>(context, 'catalogue.listings.bySlug', { slug: card.slug });
    chosen.push({ label, card, detail });
  }
  return chosen;
}

/** Walks every card surface; answers the number of cards checked on each. */
async function walkCardSurfaces(
  page: Page,
  db: pg.Client,
  chosen: Chosen[],
  charged: (id: string) => Promise<Charged>,
) {
  const idBySlug = new Map<string, string>();
  const idOf = async (slug: string) => {
    let id = idBySlug.get(slug);
    if (!id) {
      id = (await query<ListingDetail>(page.context(), 'catalogue.listings.bySlug', { slug })).id;
      idBySlug.set(slug, id);
    }
    return id;
  };
  const [paperback, , charityBook] = chosen as [Chosen, Chosen, Chosen];
  const counts: Record<string, number> = {};
  const bookSurfaces: Record<string, string> = {
    search: `/search?q=${encodeURIComponent(paperback.card.title)}`,
    'browse (all listings)': '/listings',
    category: `/c/${paperback.detail.category?.slug ?? ''}`,
  };
  for (const [surface, path] of Object.entries(bookSurfaces)) {
    await page.goto(path);
    const results = await bookResultsOn(page);
    for (const result of results) {
      const copies = result.listingSlug
        ? [{ id: await idOf(result.listingSlug), slug: result.listingSlug }]
        : await copiesOnSale(db, result.editionId ?? '');
      expect(copies.length, `${surface}: ${result.href} copies`).toBe(result.copies);
      const figures = await Promise.all(copies.map((copy) => charged(copy.id)));
      const lowest = Math.min(...figures.map((figure) => figure.allInMinor));
      expect(result.price, `${surface}: ${result.href}`).toBe(lowest);
      // "+ postage from": the cheapest copy's own (the first, price then id, at the lowest price).
      const cheapest = figures.find((figure) => figure.allInMinor === lowest)!;
      expect(result.postageFrom, `${surface}: ${result.href} postage`).toBe(cheapest.postageMinor);
    }
    counts[surface] = results.length;
  }
  const surfaces: Record<string, string> = {
    home: '/',
    'recently added': '/recently-added',
    trending: '/trending',
    'staff picks': '/staff-picks',
    'seller page': `/seller/${paperback.detail.seller.id}`,
    'charity page': `/charity/${charityBook.detail.charity?.slug ?? ''}`,
    'listing page (more cards)': `/listing/${paperback.card.slug}`,
  };
  for (const [surface, path] of Object.entries(surfaces)) {
    await page.goto(path);
    const cards = await cardsOn(page);
    for (const card of cards) {
      const expected = await charged(await idOf(card.slug));
      expect(card.price, `${surface}: ${card.slug}`).toBe(expected.allInMinor);
      expect(card.postageFrom, `${surface}: ${card.slug} postage`).toBe(expected.postageMinor);
    }
    counts[surface] = cards.length;
  }
  // The chosen books are on the surfaces meant to hold them: a search for the title finds the
  // copy, or its edition among the results.
  for (const { card } of chosen) {
    await page.goto(`/search?q=${encodeURIComponent(card.title)}`);
    const { rows } = await db.query<{ book_id: string }>(
      'select book_id from public.listings where id = $1',
      [card.id],
    );
    const found = (await bookResultsOn(page)).some(
      (shown) => shown.listingSlug === card.slug || shown.editionId === rows[0]?.book_id,
    );
    expect(found, card.title).toBe(true);
  }
  return counts;
}

/** The listing page: headline, JSON-LD Offer (price all-in, postage as shippingDetails), breakdown. */
async function checkListingPage(page: Page, chosen: Chosen, charged: Charged): Promise<void> {
  await page.goto(`/listing/${chosen.card.slug}`);
  const headline = page.getByTestId('listing-price');
  await headline.waitFor();
  expect(pence(await headline.textContent()), `${chosen.label}: headline`).toBe(charged.allInMinor);
  expect(pence(await page.getByTestId('postage-from').first().textContent())).toBe(charged.postageMinor);
  const ld = JSON.parse(
    (await page.locator('script[type="application/ld+json"]').first().textContent()) ?? 'null',
  ) as { offers: { price: string; shippingDetails: { shippingRate: { value: string } } } };
  expect(ld.offers.price, `${chosen.label}: JSON-LD`).toBe(poundsString(charged.allInMinor));
  expect(ld.offers.shippingDetails.shippingRate.value).toBe(poundsString(charged.postageMinor));
  // The breakdown stays: item + protection is the headline, + postage the total.
  const item = pence(await page.getByTestId('price-item').textContent());
  const protection = pence(await page.getByTestId('price-protection').textContent());
  const total = pence(await page.getByTestId('price-total').textContent());
  // money-ok: the test adds the page's own lines to check them against checkout.
  expect(item + protection).toBe(charged.allInMinor);
  // money-ok: as above.
  expect(total).toBe(charged.allInMinor + charged.postageMinor);
}

/** The basket with one book: its lines are the book's shown price and postage. */
async function checkBasket(page: Page, chosen: Chosen, charged: Charged): Promise<void> {
  await page.goto('/basket');
  const lines = page.getByTestId('group-price-lines');
  await lines.first().waitFor();
  expect(await lines.count()).toBe(1);
  const items = pence(await page.getByTestId('group-items').textContent());
  const protection = pence(await page.getByTestId('group-protection').textContent());
  // money-ok: the basket's own lines, checked against checkout.
  expect(items + protection, `${chosen.label}: basket`).toBe(charged.allInMinor);
  // The basket prices home delivery until the buyer chooses at checkout, as checkout's own quote.
  expect(pence(await page.getByTestId('group-postage').textContent())).toBe(charged.homePostageMinor);
}

describe('every price a buyer sees is what checkout charges (decision 0071)', { timeout: 240_000 }, () => {
  it('on every card surface, the listing page, its JSON-LD and the basket, before and after staff change the protection rule', async () => {
    const { context, page } = await signedIn(browser, BUYER, { baseURL: marketplace.baseURL });
    const chosen = await choose(context);
    const [paperback] = chosen as [Chosen];
    await page.goto(`/listing/${paperback.card.slug}`);
    await page.getByRole('button', { name: 'Add to basket' }).click();
    await page.getByRole('link', { name: 'In your basket' }).waitFor();

    const shownBefore = new Map<string, number>();
    for (const walk of ['starting rule', 'changed rule'] as const) {
      if (walk === 'changed rule') {
        const client = new pg.Client({ connectionString: marketplace.databaseUrl });
        await client.connect();
        try {
          const changed = await client.query(
            `update public.settings set value = '{"fixedMinor": 95, "percent": 8}'::jsonb where key = 'buyer_protection'`,
          );
          expect(changed.rowCount).toBe(1);
        } finally {
          await client.end();
        }
      }
      const charged = checkoutOf(context);
      const client = new pg.Client({ connectionString: marketplace.databaseUrl });
      await client.connect();
      const counts = await walkCardSurfaces(page, client, chosen, charged).finally(() => client.end());
      for (const [surface, count] of Object.entries(counts)) {
        expect(count, `${walk}: cards found on ${surface}`).toBeGreaterThan(0);
      }
      console.info(`all-in prices, ${walk}: cards checked per surface`, counts);
      for (const book of chosen) {
        const figures = await charged(book.card.id);
        await checkListingPage(page, book, figures);
        if (walk === 'starting rule') shownBefore.set(book.card.id, figures.allInMinor);
        else
          expect(figures.allInMinor, `${book.label} follows the new rule`).not.toBe(
            shownBefore.get(book.card.id),
          );
      }
      await checkBasket(page, paperback, await charged(paperback.card.id));
    }

    // What the buyer sees, at both widths.
    await page.goto('/recently-added');
    await page.locator('[data-testid="listing-card"]').first().scrollIntoViewIfNeeded();
    await snapshot(page, 'all-in-prices-cards-desktop', { fullPage: false });
    await page.goto(`/listing/${paperback.card.slug}`);
    await page.getByTestId('listing-price').waitFor();
    await snapshot(page, 'all-in-prices-listing-desktop', { fullPage: false });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/recently-added');
    await page.locator('[data-testid="listing-card"]').first().scrollIntoViewIfNeeded();
    await snapshot(page, 'all-in-prices-cards-phone', { fullPage: false });
    await page.goto(`/listing/${paperback.card.slug}`);
    await page.getByTestId('listing-price').waitFor();
    await snapshot(page, 'all-in-prices-listing-phone', { fullPage: false });
    await page.setViewportSize(VIEWPORTS.desktop);
    await context.close();
  });
});
