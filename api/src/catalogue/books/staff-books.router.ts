/**
 * Catalogue records for staff (/admin/books): staff search and correct books; merging a
 * duplicate deletes a record for good, so it is for admins.
 */
import { z } from 'zod';
import { adminProcedure, router, staffProcedure } from '../../trpc.ts';
import { confirmBook, mergeBooks, searchBooks, updateBook } from './staff-books.service.ts';

const bookId = z.uuid('Choose a book from the list');

export const staffBooksRouter = router({
  search: staffProcedure
    .input(
      z.object({
        q: z.string().trim().max(200, 'Use at most 200 characters').optional(),
        limit: z.number().int().min(1).max(100).default(50),
        /** Only books a seller typed that nobody has confirmed yet (decision 0061). */
        unverified: z.boolean().optional(),
      }),
    )
    .output(
      z.array(
        z.object({
          id: z.string(),
          title: z.string(),
          authors: z.array(z.string()),
          isbn13: z.string().nullable(),
          description: z.string().nullable(),
          category: z.string().nullable(),
          listings: z.number(),
          verified: z.boolean(),
          addedBy: z.string().nullable(),
        }),
      ),
    )
    .query(({ ctx, input }) => searchBooks(ctx.db, input)),

  update: staffProcedure
    .input(
      z.object({
        bookId,
        title: z
          .string()
          .trim()
          .min(1, 'Give the book a title')
          .max(300, 'Use at most 300 characters for the title'),
        authors: z
          .array(
            z.string().trim().min(1, 'An author needs a name').max(200, 'Use at most 200 characters a name'),
          )
          .max(20, 'List at most 20 authors'),
        description: z
          .string()
          .trim()
          .max(10000, 'Use at most 10,000 characters for the description')
          .nullable()
          .transform((text) => (text ? text : null)),
        category: z
          .string()
          .regex(/^[a-z0-9-]{1,80}$/, 'Choose a category from the list')
          .nullable(),
      }),
    )
    .output(z.void())
    .mutation(({ ctx, input }) => updateBook(ctx.db, ctx.user.userId, input)),

  /** Vouch for a book a seller typed, as it is: verified from now on. */
  confirm: staffProcedure
    .input(z.object({ bookId }))
    .output(z.void())
    .mutation(({ ctx, input }) => confirmBook(ctx.db, ctx.user.userId, input.bookId)),

  merge: adminProcedure
    .input(z.object({ duplicateId: bookId, keepId: bookId }))
    .output(z.object({ listingsMoved: z.number() }))
    .mutation(({ ctx, input }) => mergeBooks(ctx.db, ctx.user.userId, input)),
});
