import type { BookCopy } from '@reshelf/contracts';
import { describe, expect, it } from 'vitest';
import { nextSort, parseCopySort, sortCopies } from './copy-sort.ts';

const copy = (
  listingSlug: string,
  allInMinor: number,
  condition: BookCopy['condition'],
  average: number | null,
  count: number,
): BookCopy => ({
  listingSlug,
  editionId: '00000000-0000-4000-8000-000000000001',
  condition,
  bookmanGrade: null,
  dustJacket: null,
  format: null,
  attributes: [],
  sellerId: '00000000-0000-4000-8000-000000000002',
  sellerName: 'A seller',
  charity: null,
  sellerRating: { average, count, dispatchCounted: 0, dispatchedOnTime: 0, onTimePercent: null },
  allInMinor,
  postageFromMinor: 299,
});

const copies = [
  copy('a', 900, 'good', 4.5, 10),
  copy('b', 400, 'well_read', null, 0),
  copy('c', 1500, 'like_new', 4.9, 3),
  copy('d', 700, 'very_good', 4.5, 2),
];
const order = (sort: Parameters<typeof sortCopies>[1]) => sortCopies(copies, sort).map((c) => c.listingSlug);

describe('sortCopies', () => {
  it('sorts by the all-in price either way', () => {
    expect(order({ key: 'price', direction: 'asc' })).toEqual(['b', 'd', 'a', 'c']);
    expect(order({ key: 'price', direction: 'desc' })).toEqual(['c', 'a', 'd', 'b']);
  });

  it('sorts by condition, best first or worst first', () => {
    expect(order({ key: 'condition', direction: 'asc' })).toEqual(['c', 'd', 'a', 'b']);
    expect(order({ key: 'condition', direction: 'desc' })).toEqual(['b', 'a', 'd', 'c']);
  });

  it('sorts by the seller rating, more reviews breaking a tie, no reviews lowest', () => {
    expect(order({ key: 'rating', direction: 'desc' })).toEqual(['c', 'a', 'd', 'b']);
    expect(order({ key: 'rating', direction: 'asc' })).toEqual(['b', 'd', 'a', 'c']);
  });
});

describe('the sort in the address', () => {
  it('reads a known order and falls back to the cheapest first', () => {
    expect(parseCopySort('condition-desc')).toEqual({ key: 'condition', direction: 'desc' });
    expect(parseCopySort('colour-asc')).toEqual({ key: 'price', direction: 'asc' });
    expect(parseCopySort(null)).toEqual({ key: 'price', direction: 'asc' });
  });

  it('turns a column round when pressed again, and starts the rating at the highest', () => {
    expect(nextSort({ key: 'price', direction: 'asc' }, 'price')).toEqual({
      key: 'price',
      direction: 'desc',
    });
    expect(nextSort({ key: 'price', direction: 'asc' }, 'rating')).toEqual({
      key: 'rating',
      direction: 'desc',
    });
    expect(nextSort({ key: 'rating', direction: 'desc' }, 'condition')).toEqual({
      key: 'condition',
      direction: 'asc',
    });
  });
});
