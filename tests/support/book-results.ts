/**
 * Results by book (decision 0079) as a buyer sees them: each result card's link, its copy count,
 * its "from" price and its "+ postage from", and the copies on sale behind an edition, read from
 * the database, so a test can check a card against the copies it stands for.
 */
import { parsePounds } from '@reshelf/contracts';
import type pg from 'pg';
import type { Page } from 'playwright-core';

export interface ShownResult {
  href: string;
  /** The one copy's slug, when the card links straight to it. */
  listingSlug: string | null;
  /** The edition, when the card links to the book page at an edition. */
  editionId: string | null;
  copies: number;
  price: number;
  postageFrom: number;
}

export const amountIn = (text: string | null): number => {
  const match = /£[\d,]+\.\d\d/.exec(text ?? '');
  const value = match ? parsePounds(match[0]) : null;
  if (value === null) throw new Error(`no amount in: ${text}`);
  return value;
};

/** Every book result card on the page (waits for the first). */
export async function bookResultsOn(page: Page): Promise<ShownResult[]> {
  await page.locator('[data-testid="book-result"]').first().waitFor();
  const raw = await page.locator('[data-testid="book-result"]').evaluateAll((cards) =>
    cards.map((card) => ({
      href: card.querySelector('h3 a')?.getAttribute('href') ?? '',
      copies: card.querySelector('[data-testid="result-copies"]')?.textContent ?? '',
      price: card.querySelector('[data-testid="card-price"]')?.textContent ?? '',
      postage: card.querySelector('[data-testid="postage-from"]')?.textContent ?? '',
    })),
  );
  return raw.map((card) => {
    const url = new URL(card.href, 'http://x');
    const copies = /^(\d+) cop(y|ies)\b/.exec(card.copies);
    if (!copies) throw new Error(`no copy count in: ${card.copies}`);
    return {
      href: card.href,
      listingSlug: url.pathname.startsWith('/listing/') ? decodeURIComponent(url.pathname.slice(9)) : null,
      editionId: url.searchParams.get('edition'),
      copies: Number(copies[1]),
      price: amountIn(card.price),
      postageFrom: amountIn(card.postage),
    };
  });
}

/**
 * The copies on sale of an edition (only the signed ones, with `signed`), cheapest first (as the
 * search orders them: price, then id).
 */
export async function copiesOnSale(
  db: pg.Client,
  editionId: string,
  { signed = false }: { signed?: boolean } = {},
): Promise<{ id: string; slug: string; priceMinor: number }[]> {
  const { rows } = await db.query<{ id: string; slug: string; price_minor: number }>(
    `select id, slug, price_minor from public.listings
      where book_id = $1 and status = 'active' and (signed or not $2) order by price_minor, id`,
    [editionId, signed],
  );
  return rows.map((row) => ({ id: row.id, slug: row.slug, priceMinor: row.price_minor }));
}
