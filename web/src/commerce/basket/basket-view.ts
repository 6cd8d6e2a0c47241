/**
 * What the basket pages say, worked out apart from React (unit-tested in basket-view.test.ts):
 * a seller's tiers in words, the "add 1 more book to save 10%" hint, where a group's seller
 * lives, and a visitor's basket grouped by seller and priced with the shared rules.
 */
import { type BundleTier, countOf, type GroupPrice, priceGroup } from '@reshelf/contracts';
import type { VisitorBasketEntry } from './visitor-basket.ts';

export function booksWord(count: number): string {
  return countOf(count, 'book', 'books');
}

/** "2 books: 5% off · 3 books: 10% off" (tiers in increasing order), or '' when off. */
export function tiersText(tiers: readonly BundleTier[]): string {
  return [...tiers]
    .sort((a, b) => a.minBooks - b.minBooks)
    .map((tier) => `${booksWord(tier.minBooks)}: ${tier.percent}% off`)
    .join(' · ');
}

/** The tier reached with this many books, if any ("3 books: 10% off"). */
export function tierReached(tiers: readonly BundleTier[], bookCount: number): BundleTier | null {
  let best: BundleTier | null = null;
  for (const tier of tiers)
    if (bookCount >= tier.minBooks && (!best || tier.percent > best.percent)) best = tier;
  return best;
}

/**
 * The next tier's nudge for a group of `bookCount` books: "Add 1 more book from Sam's Shelf to
 * save 10%", or null when no higher tier is left.
 */
export function nextTierHint(
  tiers: readonly BundleTier[],
  bookCount: number,
  sellerName: string,
): string | null {
  const next = [...tiers].sort((a, b) => a.minBooks - b.minBooks).find((tier) => tier.minBooks > bookCount);
  if (!next) return null;
  const missing = next.minBooks - bookCount;
  return `Add ${countOf(missing, 'more book', 'more books')} from ${sellerName} to save ${next.percent}%`;
}

/** The seller's page: a charity's shop for its books, else the seller's own page. */
export function sellerPagePath(group: { sellerId: string; charity: { slug: string } | null }): string {
  return group.charity ? `/charity/${group.charity.slug}` : `/seller/${group.sellerId}`;
}

export interface VisitorGroup {
  key: string;
  sellerId: string;
  sellerName: string;
  /** The charity's shop, for a charity's books. */
  charitySlug: string | null;
  charity: boolean;
  entries: VisitorBasketEntry[];
  tiers: readonly BundleTier[];
  /** Priced with the seller's tiers (when given) but no code: WELCOME20 or a promo comes once signed in. */
  estimate: GroupPrice;
}

/**
 * A visitor's books grouped by seller (one parcel each), in the order the sellers were first
 * added, each priced with its seller's bundle tiers when `tiersOf` knows them.
 */
export function groupVisitorBasket(
  entries: readonly VisitorBasketEntry[],
  tiersOf: (owner: { sellerId: string; charitySlug: string | null }) => readonly BundleTier[] = () => [],
): VisitorGroup[] {
  const groups = new Map<string, VisitorBasketEntry[]>();
  for (const entry of entries) {
    const key = `${entry.sellerId}:${entry.charityName ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  return [...groups.entries()].map(([key, books]) => {
    const first = books[0] as VisitorBasketEntry;
    const owner = { sellerId: first.sellerId, charitySlug: first.charitySlug };
    const tiers = tiersOf(owner);
    return {
      key,
      ...owner,
      tiers,
      sellerName: first.sellerName,
      charity: first.charityName !== null,
      entries: books,
      estimate: priceGroup({
        items: books.map((book) => ({
          priceMinor: Math.max(1, book.priceMinor),
          parcelSize: book.parcelSize,
          // A visitor's basket keeps the card's facts: the estimate takes the size's typical book.
          format: null,
          pageCount: null,
        })),
        tiers,
      }),
    };
  });
}
