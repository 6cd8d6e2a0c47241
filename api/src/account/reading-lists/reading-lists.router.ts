/** Reading lists in and out (decision 0090): preview and import a Goodreads or StoryGraph export, past imports, export. */
import {
  readingListExportInputSchema,
  readingListExportSchema,
  readingListImportInputSchema,
  readingListImportListSchema,
  readingListImportSchema,
  readingListPreviewInputSchema,
  readingListPreviewSchema,
} from '@reshelf/contracts';
import { z } from 'zod';
import { authedProcedure, router } from '../../trpc.ts';
import {
  exportReadingList,
  getReadingListImport,
  importReadingList,
  listReadingListImports,
  previewReadingList,
} from './reading-lists.service.ts';

export const readingListsRouter = router({
  /** What importing this file would do: its format, shelves and every row's match. Writes nothing (a POST for the file's size). */
  preview: authedProcedure
    .input(readingListPreviewInputSchema)
    .output(readingListPreviewSchema)
    .mutation(({ ctx, input }) => previewReadingList(ctx.db, input)),
  /** Imports the file whole, in one transaction: the record and report, wants and books the member has. */
  import: authedProcedure
    .input(readingListImportInputSchema)
    .output(readingListImportSchema)
    .mutation(({ ctx, input }) => importReadingList(ctx.db, ctx.user.userId, input)),
  list: authedProcedure
    .input(z.void())
    .output(readingListImportListSchema)
    .query(({ ctx }) => listReadingListImports(ctx.db, ctx.user.userId)),
  get: authedProcedure
    .input(z.object({ id: z.uuid('Choose one of your imports') }))
    .output(readingListImportSchema)
    .query(({ ctx, input }) => getReadingListImport(ctx.db, ctx.user.userId, input.id)),
  /** The member's wants (to-read) and purchases (read) as a Goodreads or StoryGraph CSV. */
  export: authedProcedure
    .input(readingListExportInputSchema)
    .output(readingListExportSchema)
    .query(({ ctx, input }) => exportReadingList(ctx.db, ctx.user.userId, input.format)),
});
