import { parcelFor, postageFor } from '@reshelf/contracts';
import { describe, expect, it } from 'vitest';
import { groupVisitorBasket, nextTierHint, sellerPagePath, tierReached, tiersText } from './basket-view.ts';
import type { VisitorBasketEntry } from './visitor-basket.ts';

const TIERS = [
  { minBooks: 3, percent: 10 },
  { minBooks: 2, percent: 5 },
  { minBooks: 5, percent: 15 },
];

describe('the basket in words', () => {
  it('lists a seller’s tiers from the fewest books up', () => {
    expect(tiersText(TIERS)).toBe('2 books: 5% off · 3 books: 10% off · 5 books: 15% off');
    expect(tiersText([])).toBe('');
  });

  it('names the tier reached, and nudges towards the next one', () => {
    expect(tierReached(TIERS, 1)).toBeNull();
    expect(tierReached(TIERS, 4)).toEqual({ minBooks: 3, percent: 10 });
    expect(nextTierHint(TIERS, 1, 'Sam’s Shelf')).toBe('Add 1 more book from Sam’s Shelf to save 5%');
    expect(nextTierHint(TIERS, 3, 'Sam’s Shelf')).toBe('Add 2 more books from Sam’s Shelf to save 15%');
    expect(nextTierHint(TIERS, 5, 'Sam’s Shelf')).toBeNull();
    expect(nextTierHint([], 1, 'Sam’s Shelf')).toBeNull();
  });

  it('links a charity’s books to its shop and anyone else’s to their page', () => {
    const sellerId = '00000000-0000-4000-8000-000000000001';
    expect(sellerPagePath({ sellerId, charity: null })).toBe(`/seller/${sellerId}`);
    expect(sellerPagePath({ sellerId, charity: { slug: 'hospice-books' } })).toBe('/charity/hospice-books');
  });
});

describe('a visitor’s basket', () => {
  const book = (n: number, sellerId: string, charityName: string | null = null): VisitorBasketEntry => ({
    listingId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    slug: `book-${n}`,
    title: `Book ${n}`,
    authors: [],
    priceMinor: 500,
    parcelSize: 'small',
    coverUrl: null,
    isbn13: null,
    sellerId,
    sellerName: charityName ?? 'Sam’s Shelf',
    charityName,
    charitySlug: charityName ? 'hospice-books' : null,
    addedAt: '2026-11-24T10:00:00.000Z',
  });
  const sam = '00000000-0000-4000-8000-00000000000a';
  const hospice = '00000000-0000-4000-8000-00000000000b';

  it('groups books by seller, one parcel each, priced with one postage per parcel', () => {
    const groups = groupVisitorBasket([book(1, sam), book(2, hospice, 'Hospice Books'), book(3, sam)]);
    expect(groups.map((group) => [group.sellerName, group.entries.length, group.charity])).toEqual([
      ['Sam’s Shelf', 2, false],
      ['Hospice Books', 1, true],
    ]);
    const [two, one] = groups;
    // Two paperbacks: one parcel (a Small Parcel), not two Large Letters; home delivery until chosen.
    const paperback = { parcelSize: 'small' as const, format: null, pageCount: null };
    expect(two?.estimate.parcel.band).toBe('small_parcel');
    expect(two?.estimate.postageMinor).toBe(postageFor(parcelFor([paperback, paperback]).band, 'home'));
    expect(one?.estimate.postageMinor).toBe(postageFor(parcelFor([paperback]).band, 'home'));
    expect(two?.estimate.bundleDiscountMinor).toBe(0);
  });

  it('takes off the seller’s bundle discount when their tiers are known', () => {
    const groups = groupVisitorBasket(
      [book(1, sam), book(2, sam), book(3, hospice, 'Hospice Books')],
      (owner) =>
        owner.charitySlug === null ? [{ minBooks: 2, percent: 10 }] : [{ minBooks: 3, percent: 20 }],
    );
    expect(groups.map((group) => [group.sellerName, group.estimate.bundleDiscountMinor])).toEqual([
      ['Sam’s Shelf', 100],
      ['Hospice Books', 0],
    ]);
  });
});
