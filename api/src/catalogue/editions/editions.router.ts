import {
  bookForListingInputSchema,
  bookForListingSchema,
  bookPageInputSchema,
  bookPageSchema,
  bookSearchInputSchema,
  bookSearchResultSchema,
} from '@reshelf/contracts';
import { cachedPublicProcedure, router, withTrustedOutput } from '../../trpc.ts';
import { bookForListing, bookPage } from './book-page.service.ts';
import { searchBooks } from './book-search.service.ts';

/** Books, not copies: search and browse by edition or work (decision 0079). */
export const editionsRouter = router({
  search: withTrustedOutput(
    cachedPublicProcedure
      .meta({
        openapi: {
          operationId: 'books-search',
          method: 'GET',
          path: '/books/search',
          tags: ['Catalogue'],
          summary: 'Search or browse books: one result per edition or per work, with its copies on sale',
        },
      })
      .input(bookSearchInputSchema)
      .output(bookSearchResultSchema)
      .query(({ ctx, input }) => searchBooks(ctx.db, input)),
  ),
  /** The book page: the work, its editions and every copy on sale (decision 0081). */
  bySlug: withTrustedOutput(
    cachedPublicProcedure
      .meta({
        openapi: {
          operationId: 'books-by-slug',
          method: 'GET',
          path: '/books/{slug}',
          tags: ['Catalogue'],
          summary:
            'A book (a work): its editions and every copy on sale, cheapest all-in first, each with its seller’s rating',
        },
      })
      .input(bookPageInputSchema)
      .output(bookPageSchema)
      .query(({ ctx, input }) => bookPage(ctx.db, input)),
  ),
  /** A listing's book: its other editions and "N more copies from £x". */
  forListing: withTrustedOutput(
    cachedPublicProcedure
      .meta({
        openapi: {
          operationId: 'books-for-listing',
          method: 'GET',
          path: '/listings/{slug}/book',
          tags: ['Catalogue'],
          summary:
            'A listing’s book: the other editions on sale and how many more copies, from what all-in price',
        },
      })
      .input(bookForListingInputSchema)
      .output(bookForListingSchema)
      .query(({ ctx, input }) => bookForListing(ctx.db, input.slug)),
  ),
});
