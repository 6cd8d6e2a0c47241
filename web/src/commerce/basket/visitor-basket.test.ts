import { describe, expect, it } from 'vitest';
import {
  addToVisitorBasket,
  clearVisitorBasket,
  readVisitorBasket,
  removeFromVisitorBasket,
  VISITOR_BASKET_KEY,
  VISITOR_BASKET_LIMIT,
  type VisitorBasketEntry,
} from './visitor-basket.ts';

class MemoryStorage {
  values = new Map<string, string>();
  refuse = false;
  getItem(key: string) {
    return this.values.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    if (this.refuse) throw new Error('QuotaExceededError');
    this.values.set(key, value);
  }
  removeItem(key: string) {
    this.values.delete(key);
  }
}

function entry(n: number, sellerId = '00000000-0000-4000-8000-000000000001'): VisitorBasketEntry {
  return {
    listingId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    slug: `book-${n}`,
    title: `Book ${n}`,
    authors: ['An Author'],
    priceMinor: 300 + n,
    parcelSize: 'small',
    coverUrl: null,
    isbn13: null,
    sellerId,
    sellerName: 'Sam’s Shelf',
    charityName: null,
    charitySlug: null,
    addedAt: '2026-11-24T10:00:00.000Z',
  };
}

describe('the visitor basket in localStorage', () => {
  it('adds a book once, keeps the order books were added in, and removes one', () => {
    const storage = new MemoryStorage();
    expect(addToVisitorBasket(storage, entry(1))).toBe('added');
    expect(addToVisitorBasket(storage, entry(2))).toBe('added');
    expect(addToVisitorBasket(storage, entry(1))).toBe('already');
    expect(readVisitorBasket(storage).map((book) => book.slug)).toEqual(['book-1', 'book-2']);
    removeFromVisitorBasket(storage, entry(1).listingId);
    expect(readVisitorBasket(storage).map((book) => book.slug)).toEqual(['book-2']);
    clearVisitorBasket(storage);
    expect(storage.values.has(VISITOR_BASKET_KEY)).toBe(false);
  });

  it('refuses a book past the limit', () => {
    const storage = new MemoryStorage();
    for (let n = 1; n <= VISITOR_BASKET_LIMIT; n += 1)
      expect(addToVisitorBasket(storage, entry(n))).toBe('added');
    expect(addToVisitorBasket(storage, entry(VISITOR_BASKET_LIMIT + 1))).toBe('full');
    expect(readVisitorBasket(storage)).toHaveLength(VISITOR_BASKET_LIMIT);
  });

  it('drops what it cannot read instead of throwing: bad JSON, strangers, duplicates', () => {
    const storage = new MemoryStorage();
    storage.values.set(VISITOR_BASKET_KEY, '{not json');
    expect(readVisitorBasket(storage)).toEqual([]);
    storage.values.set(
      VISITOR_BASKET_KEY,
      JSON.stringify([entry(1), { listingId: 'nope' }, entry(1), 7, entry(2)]),
    );
    expect(readVisitorBasket(storage).map((book) => book.slug)).toEqual(['book-1', 'book-2']);
    expect(readVisitorBasket(null)).toEqual([]);
  });

  it('keeps an entry from before charity shops (no charitySlug) and drops one of the wrong shape', () => {
    const storage = new MemoryStorage();
    const { charitySlug: _, ...older } = entry(1);
    storage.values.set(
      VISITOR_BASKET_KEY,
      JSON.stringify([
        older,
        { ...entry(2), parcelSize: 'huge' },
        { ...entry(3), priceMinor: 1.5 },
        { ...entry(4), priceMinor: -1 },
        { ...entry(5), authors: ['A', 7] },
        { ...entry(6), sellerId: 'not-a-uuid' },
        { ...entry(7), coverUrl: undefined },
        entry(8),
      ]),
    );
    const kept = readVisitorBasket(storage);
    expect(kept.map((book) => book.slug)).toEqual(['book-1', 'book-8']);
    expect(kept[0]).toEqual({ ...older, charitySlug: null });
  });

  it('says when the browser refused to keep it', () => {
    const storage = new MemoryStorage();
    storage.refuse = true;
    expect(addToVisitorBasket(storage, entry(1))).toBe('unstored');
    expect(addToVisitorBasket(null, entry(1))).toBe('unstored');
  });
});
