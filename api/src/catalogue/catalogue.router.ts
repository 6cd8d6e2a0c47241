/** The catalogue domain's procedures: listings, categories and genres, books, discovery shelves, sellers, a member's wishlist. */
import { router } from '../trpc.ts';
import { coversBackfillRouter } from './books/covers-backfill.router.ts';
import { staffBooksRouter } from './books/staff-books.router.ts';
import { bookSigningsRouter } from './discovery/book-signings.router.ts';
import { discoveryRouter } from './discovery/discovery.router.ts';
import { staffPicksRouter } from './discovery/staff-picks.router.ts';
import { staffTrendingRouter } from './discovery/staff-trending.router.ts';
import { editionsRouter } from './editions/editions.router.ts';
import { listingsRouter } from './listings/listings.router.ts';
import { sellersRouter } from './sellers/sellers.router.ts';
import { seriesRouter } from './series/series.router.ts';
import { catalogueRouter } from './taxonomy/catalogue.router.ts';
import { taxonomyRouter } from './taxonomy/taxonomy.router.ts';
import { wishlistRouter } from './wishlist/wishlist.router.ts';

export const catalogueDomainRouter = router({
  listings: listingsRouter,
  taxonomy: router({ public: catalogueRouter, staff: taxonomyRouter }),
  books: router({ public: editionsRouter, staff: staffBooksRouter, covers: coversBackfillRouter }),
  discovery: router({
    public: discoveryRouter,
    picks: staffPicksRouter,
    trending: staffTrendingRouter,
    bookSignings: bookSigningsRouter,
  }),
  sellers: sellersRouter,
  series: seriesRouter,
  wishlist: wishlistRouter,
});
