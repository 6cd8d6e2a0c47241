/**
 * How the book page's copies sort (decision 0081): by the all-in price, the condition or the
 * seller's rating, either way. The order is read from and written to `?sort=` so that back and
 * forward keep it; the page sorts the copies the API sent (every copy on sale, cheapest first).
 */
import { type BookCopy, CONDITIONS } from '@reshelf/contracts';

export const COPY_SORT_KEYS = ['price', 'condition', 'rating'] as const;
export type CopySortKey = (typeof COPY_SORT_KEYS)[number];
export type SortDirection = 'asc' | 'desc';
export interface CopySort {
  key: CopySortKey;
  direction: SortDirection;
}

export const DEFAULT_COPY_SORT: CopySort = { key: 'price', direction: 'asc' };

export const COPY_SORT_LABELS: Record<CopySortKey, string> = {
  price: 'Price',
  condition: 'Condition',
  rating: 'Seller rating',
};

/** What each order reads as, in the sort menu (ascending is the cheapest, the best condition, the lowest rating). */
export const COPY_SORT_OPTION_LABELS: Record<`${CopySortKey}-${SortDirection}`, string> = {
  'price-asc': 'Price: lowest first',
  'price-desc': 'Price: highest first',
  'condition-asc': 'Condition: best first',
  'condition-desc': 'Condition: worst first',
  'rating-desc': 'Seller rating: highest first',
  'rating-asc': 'Seller rating: lowest first',
};

/** `?sort=` as "key-direction"; anything else is the default. */
export function parseCopySort(value: string | null): CopySort {
  const [key, direction] = (value ?? '').split('-');
  if (COPY_SORT_KEYS.includes(key as CopySortKey) && (direction === 'asc' || direction === 'desc')) {
    return { key: key as CopySortKey, direction };
  }
  return DEFAULT_COPY_SORT;
}

export const copySortParam = (sort: CopySort) => `${sort.key}-${sort.direction}` as const;

/** Which of two numbers comes first (a comparison, not arithmetic on them). */
const compare = (x: number, y: number) => (x < y ? -1 : x > y ? 1 : 0);

/** A rating to compare: the average (none counts lowest), then how many reviews make it. */
const ratingValue = (copy: BookCopy) => [copy.sellerRating.average ?? -1, copy.sellerRating.count] as const;

function compareBy(key: CopySortKey, a: BookCopy, b: BookCopy): number {
  if (key === 'price') return compare(a.allInMinor, b.allInMinor);
  if (key === 'condition') return CONDITIONS.indexOf(a.condition) - CONDITIONS.indexOf(b.condition);
  const [averageA, countA] = ratingValue(a);
  const [averageB, countB] = ratingValue(b);
  return averageA - averageB || countA - countB;
}

/** The copies in the order asked for; ties go cheapest first, then by listing. */
export function sortCopies(copies: readonly BookCopy[], sort: CopySort): BookCopy[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  return [...copies].sort(
    (a, b) =>
      sign * compareBy(sort.key, a, b) ||
      compare(a.allInMinor, b.allInMinor) ||
      a.listingSlug.localeCompare(b.listingSlug),
  );
}

/** Pressing a column's heading: that column in its first direction, or the other way round. */
export function nextSort(current: CopySort, key: CopySortKey): CopySort {
  if (current.key === key) return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { key, direction: key === 'rating' ? 'desc' : 'asc' };
}
