/**
 * Reading lists in and out (issue 38, decision 0090): a Goodreads or StoryGraph CSV export read
 * into wants and books a member has, with a report of every row; and the member's wants and
 * purchases written back out in the same two layouts.
 */
import { z } from 'zod';

export const READING_LIST_SOURCES = ['goodreads', 'storygraph'] as const;
export type ReadingListSource = (typeof READING_LIST_SOURCES)[number];

export const READING_LIST_SOURCE_LABELS: Record<ReadingListSource, string> = {
  goodreads: 'Goodreads',
  storygraph: 'StoryGraph',
};

/** Goodreads' "Export Library" header, exactly as Goodreads writes it. */
export const GOODREADS_COLUMNS = [
  'Book Id',
  'Title',
  'Author',
  'Author l-f',
  'Additional Authors',
  'ISBN',
  'ISBN13',
  'My Rating',
  'Average Rating',
  'Publisher',
  'Binding',
  'Number of Pages',
  'Year Published',
  'Original Publication Year',
  'Date Read',
  'Date Added',
  'Bookshelves',
  'Bookshelves with positions',
  'Exclusive Shelf',
  'My Review',
  'Spoiler',
  'Private Notes',
  'Read Count',
  'Owned Copies',
] as const;

/** The StoryGraph export's header, exactly as StoryGraph writes it. */
export const STORYGRAPH_COLUMNS = [
  'Title',
  'Authors',
  'Contributors',
  'ISBN/UID',
  'Format',
  'Read Status',
  'Date Added',
  'Last Date Read',
  'Dates Read',
  'Read Count',
  'Moods',
  'Pace',
  'Character- or Plot-Driven?',
  'Strong Character Development?',
  'Loveable Characters?',
  'Diverse Characters?',
  'Flawed Characters?',
  'Star Rating',
  'Review',
  'Content Warnings',
  'Content Warning Description',
  'Tags',
  'Owned?',
] as const;

export const READING_LIST_COLUMNS: Record<ReadingListSource, readonly string[]> = {
  goodreads: GOODREADS_COLUMNS,
  storygraph: STORYGRAPH_COLUMNS,
};

/** The pseudo-shelf of the books a list marks as owned (Goodreads "Owned Copies", StoryGraph "Owned?"). */
export const OWNED_SHELF = 'owned';
/** The shelf made wants unless the member chooses otherwise. */
export const DEFAULT_WANT_SHELF = 'to-read';

export const READING_LIST_LIMITS = {
  /** Characters of file text a preview or an import takes (the request's body limit is 1 MiB). */
  maxFileChars: 750_000,
  maxRows: 5000,
  maxFileName: 255,
} as const;

export const READING_LIST_MESSAGES = {
  tooBig: `That file is too big: a reading list may be up to ${READING_LIST_LIMITS.maxFileChars.toLocaleString('en-GB')} characters. Export without reviews, or split it.`,
  tooManyRows: `That file has more than ${READING_LIST_LIMITS.maxRows.toLocaleString('en-GB')} books. Split it into smaller files.`,
  empty: 'That file is empty: choose the CSV file Goodreads or StoryGraph exported.',
  notCsv: 'That file isn’t a CSV file we can read',
  unknownHeader:
    'That isn’t a Goodreads or StoryGraph export. A Goodreads export starts “Book Id,Title,Author,Author l-f,…”; a StoryGraph export starts “Title,Authors,Contributors,ISBN/UID,…”.',
  noRows: 'That file has its header but no books.',
  notText: 'That file has a NUL character in it, so it isn’t a text file: choose the CSV file itself.',
  badRowsNotConfirmed:
    'Some rows of this file can’t be read (see the report). Confirm that they may be skipped, or fix the file and try again.',
  unknownShelf: 'That shelf isn’t in this file.',
  notFound: 'That isn’t one of your imports.',
} as const;

/** How a row found its book on Reshelf, or why it did not. */
export const READING_LIST_MATCHES = ['isbn', 'title_author', 'unmatched', 'error'] as const;
export type ReadingListMatch = (typeof READING_LIST_MATCHES)[number];

export const READING_LIST_MATCH_LABELS: Record<ReadingListMatch, string> = {
  isbn: 'Matched by ISBN',
  title_author: 'Matched by title and author',
  unmatched: 'Not on Reshelf yet',
  error: 'Couldn’t be read',
};

/** What an import made of a row. */
export const READING_LIST_OUTCOMES = [
  'want',
  'already_wanted',
  'have',
  'already_had',
  'not_chosen',
  'skipped',
] as const;
export type ReadingListOutcome = (typeof READING_LIST_OUTCOMES)[number];

export const READING_LIST_OUTCOME_LABELS: Record<ReadingListOutcome, string> = {
  want: 'Added to your wants',
  already_wanted: 'Already one of your wants',
  have: 'Added to the books you have',
  already_had: 'Already in the books you have',
  not_chosen: 'Its shelves weren’t chosen',
  skipped: 'Skipped',
};

export const readingListRowSchema = z.object({
  /** The row's number in the file, counting the first book as row 1. */
  row: z.number().int().min(1),
  title: z.string(),
  author: z.string(),
  isbn13: z.string().nullable(),
  shelves: z.array(z.string()),
  match: z.enum(READING_LIST_MATCHES),
  work: z
    .object({ id: z.uuid(), slug: z.string(), title: z.string(), authors: z.array(z.string()) })
    .nullable(),
  /** Why a row did not match, or could not be read, in the member's words. */
  reason: z.string().nullable(),
  /** What the import made of it (absent in a preview). */
  outcomes: z.array(z.enum(READING_LIST_OUTCOMES)).optional(),
});
export type ReadingListRow = z.output<typeof readingListRowSchema>;

const fileText = z
  .string()
  .max(READING_LIST_LIMITS.maxFileChars, READING_LIST_MESSAGES.tooBig)
  .refine((text) => text.trim().length > 0, READING_LIST_MESSAGES.empty);
const fileName = z.string().trim().max(READING_LIST_LIMITS.maxFileName).nullable().default(null);
const shelfName = z.string().trim().min(1).max(100);

export const readingListPreviewInputSchema = z.object({ text: fileText, fileName });
export type ReadingListPreviewInput = z.input<typeof readingListPreviewInputSchema>;

export const readingListShelfSchema = z.object({ name: z.string(), rows: z.number().int() });

export const readingListCountsSchema = z.object({
  rows: z.number().int(),
  isbn: z.number().int(),
  titleAuthor: z.number().int(),
  unmatched: z.number().int(),
  errors: z.number().int(),
});

export const readingListPreviewSchema = z.object({
  source: z.enum(READING_LIST_SOURCES),
  shelves: z.array(readingListShelfSchema),
  counts: readingListCountsSchema,
  rows: z.array(readingListRowSchema),
});
export type ReadingListPreview = z.output<typeof readingListPreviewSchema>;

export const readingListImportInputSchema = readingListPreviewInputSchema.extend({
  wantShelves: z.array(shelfName).max(100).default([DEFAULT_WANT_SHELF]),
  haveShelves: z.array(shelfName).max(100).default([]),
  /** The member saw the rows that cannot be read and agreed they are skipped. */
  skipBadRows: z.boolean().default(false),
});
export type ReadingListImportInput = z.input<typeof readingListImportInputSchema>;

export const readingListImportSchema = z.object({
  id: z.uuid(),
  source: z.enum(READING_LIST_SOURCES),
  fileName: z.string().nullable(),
  createdAt: z.string(),
  wantShelves: z.array(z.string()),
  haveShelves: z.array(z.string()),
  counts: readingListCountsSchema,
  /** Wants and books-you-have this import added. */
  added: z.object({ wants: z.number().int(), haves: z.number().int() }),
  rows: z.array(readingListRowSchema),
});
export type ReadingListImport = z.output<typeof readingListImportSchema>;

export const readingListImportSummarySchema = readingListImportSchema.omit({ rows: true });
export const readingListImportListSchema = z.array(readingListImportSummarySchema);

export const readingListExportInputSchema = z.object({ format: z.enum(READING_LIST_SOURCES) });
export const readingListExportSchema = z.object({
  fileName: z.string(),
  csv: z.string(),
  rows: z.number().int(),
});
