/**
 * The catalogue domain's public surface (api/scripts/check-imports.ts): how other domains read
 * listings as cards and filter them, the trending shelf, the raw routes the app registers, and
 * book records: which may be pre-filled, and storing what a seller typed (decision 0061).
 */
export {
  bookColumns,
  saveTypedBook,
  type TypedBook,
  UNVERIFIED,
  verifiedBookFor,
} from './books/book-records.ts';
export { catalogueDomainRouter } from './catalogue.router.ts';
export { trendingListings } from './discovery/discovery.service.ts';
export {
  BOOK_MATCH_LIMIT,
  CARD_COLUMNS,
  CARD_JOINS,
  type CardRow,
  filterSql,
  getListingBySlug,
  resolveRefs,
  toCard,
} from './listings/listings.service.ts';
export { createViewRecorder } from './listings/view-recorder.ts';
export { ratingOf, sellerRatings } from './sellers/seller-ratings.ts';
export { traderOfListing, tradersOfListings } from './sellers/traders.ts';
export { placeWorkInSeries, seriesIdFor } from './series/series.service.ts';
export { registerSitemapRoutes } from './sitemap/sitemap.route.ts';
