/**
 * A rating in words, apart from the review schemas (reviews.ts): every listing card shows it,
 * and a module that builds zod schemas at load would bring zod into the first load
 * (docs/decisions/0066-the-first-load-holds-what-the-first-screen-runs.md).
 */
import { countOf } from './plural.ts';
import type { Rating } from './reviews.ts';

/** "4.7 ★ (12)" style words, the same on every page. */
export function ratingWords(rating: Pick<Rating, 'average' | 'count'>): string {
  if (rating.count === 0 || rating.average === null) return 'No reviews yet';
  return `${rating.average.toFixed(1)} out of 5 from ${countOf(rating.count, 'review', 'reviews')}`;
}
