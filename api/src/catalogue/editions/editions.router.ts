import { bookSearchInputSchema, bookSearchResultSchema } from '@reshelf/contracts';
import { cachedPublicProcedure, router, withTrustedOutput } from '../../trpc.ts';
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
});
