/**
 * Why a book is recommended and the words for it, apart from the schemas (recommendations.ts):
 * the home page shows them, and a module that builds zod schemas at load would bring zod into
 * the first load (docs/decisions/0066-the-first-load-holds-what-the-first-screen-runs.md).
 */

/** Why a book is recommended, strongest first. */
export const RECOMMENDATION_REASONS = [
  'co_purchase',
  'wishlist',
  'purchase',
  'view',
  'author',
  'genre',
  'staff_pick',
  'trending',
] as const;
export type RecommendationReason = (typeof RECOMMENDATION_REASONS)[number];

/** The explanation shown under a recommended book, as plain text (the web emphasises `because`). */
export function explainRecommendation(reason: RecommendationReason, because: string | null): string {
  switch (reason) {
    case 'co_purchase':
      return `Readers who bought ${because} also bought this`;
    case 'wishlist':
      return `Because you wishlisted ${because}`;
    case 'purchase':
      return `Because you bought ${because}`;
    case 'view':
      return `Because you looked at ${because}`;
    case 'author':
      return `Because you like ${because}`;
    case 'genre':
      return `Because you like ${because}`;
    case 'staff_pick':
      return 'Picked by our staff';
    case 'trending':
      return 'Trending on Reshelf';
  }
}
