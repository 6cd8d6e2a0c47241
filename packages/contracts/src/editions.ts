/**
 * Results by book (decision 0079): search and browse answer one result per edition, or per work
 * as the searcher chooses, each with its copies on sale counted and the lowest all-in price.
 * Browsing a seller's or a charity's books stays copy by copy (catalogue.ts).
 */
import { z } from 'zod';
import { BOOK_FORMATS, conditionListSchema, LISTING_SORTS, searchQuerySchema } from './catalogue.ts';
import { CATALOGUE_LIMITS } from './catalogue-limits.ts';
import { CONDITIONS } from './constants.ts';
import { RESULT_GROUPS } from './edition-words.ts';
import { slugSchema } from './schemas.ts';

const priceSchema = (label: string) =>
  z
    .number(`${label} must be a number of pence`)
    .int(`${label} must be a whole number of pence`)
    .min(0, `${label} cannot be negative`)
    .max(CATALOGUE_LIMITS.maxPriceMinor, `${label} can be at most £10,000`);

/**
 * A search (with words) or a browse (without) by book. The filters are over copies: an edition
 * is a result when at least one of its copies on sale meets every filter, and its count and
 * lowest price are those copies'. minPrice and maxPrice are all-in prices (decision 0071).
 */
export const bookSearchInputSchema = z
  .object({
    q: searchQuerySchema.optional(),
    group: z.enum(RESULT_GROUPS, 'Group must be edition or work').default('edition'),
    /** Take the words as typed: no "did you mean" correction ("search instead for …"). */
    exact: z.boolean().optional(),
    category: slugSchema.optional(),
    genre: slugSchema.optional(),
    condition: conditionListSchema.optional(),
    minPrice: priceSchema('The minimum price').optional(),
    maxPrice: priceSchema('The maximum price').optional(),
    format: z.enum(BOOK_FORMATS, 'Format must be paperback or hardback').optional(),
    firstEdition: z.boolean().optional(),
    signed: z.boolean().optional(),
    charityOnly: z.boolean().optional(),
    sort: z.enum(LISTING_SORTS).optional(),
    page: z
      .number()
      .int('Page must be a whole number')
      .min(1, 'Page must be 1 or more')
      .max(CATALOGUE_LIMITS.maxPage, `Page can be at most ${CATALOGUE_LIMITS.maxPage}`)
      .default(1),
    pageSize: z
      .number()
      .int()
      .min(1, 'Page size must be 1 or more')
      .max(CATALOGUE_LIMITS.maxPageSize, `Page size can be at most ${CATALOGUE_LIMITS.maxPageSize}`)
      .default(CATALOGUE_LIMITS.pageSize),
  })
  .refine((v) => v.minPrice === undefined || v.maxPrice === undefined || v.minPrice <= v.maxPrice, {
    message: 'The minimum price must not be more than the maximum price',
    path: ['maxPrice'],
  });
export type BookSearchInput = z.input<typeof bookSearchInputSchema>;
export type BookSearchParams = z.output<typeof bookSearchInputSchema>;

/** One result: an edition (group "edition") or a work and its editions (group "work"). */
export const bookResultSchema = z.object({
  /** The work's address: /book/{workSlug}; an edition's is /book/{workSlug}?edition={editionId}. */
  workSlug: z.string(),
  /** The edition (group "edition"); null for a work. */
  editionId: z.uuid().nullable(),
  title: z.string(),
  authors: z.array(z.string()),
  isbn13: z.string().nullable(),
  publisher: z.string().nullable(),
  publishedYear: z.number().int().nullable(),
  coverUrl: z.string().nullable(),
  /** Editions with a copy on sale that meets the filters (1 for an edition). */
  editions: z.number().int(),
  /** Copies on sale that meet the filters. */
  copies: z.number().int(),
  /** The copy's slug (/listing/{slug}) when exactly one copy meets the filters; else null. */
  listingSlug: z.string().nullable(),
  /** The lowest all-in price among those copies (item + buyer protection, decision 0071). */
  lowestAllInMinor: z.number().int(),
  /** Postage for that copy on its own, under the live rates: "+ postage from". */
  postageFromMinor: z.number().int(),
  conditions: z.array(z.enum(CONDITIONS)),
  formats: z.array(z.enum(BOOK_FORMATS)),
  firstEdition: z.boolean(),
  signed: z.boolean(),
  charity: z.boolean(),
});
export type BookResult = z.infer<typeof bookResultSchema>;

export const correctionSchema = z.object({ from: z.string(), to: z.string() });
export type Correction = z.infer<typeof correctionSchema>;

export const bookSearchResultSchema = z.object({
  items: z.array(bookResultSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Matching results, counted up to CATALOGUE_LIMITS.countCap. */
  total: z.number().int(),
  totalCapped: z.boolean(),
  hasNextPage: z.boolean(),
  group: z.enum(RESULT_GROUPS),
  /** The words as asked (null for a browse). */
  query: z.string().nullable(),
  /**
   * The words the results are for when "did you mean" corrected some ("tolkien" for "tolkein"),
   * with each corrected word; null when the words ran as typed.
   */
  correctedQuery: z.string().nullable(),
  corrections: z.array(correctionSchema),
  /** The ISBN-13 the query was read as, when it was an ISBN. */
  isbn: z.string().nullable(),
});
export type BookSearchResult = z.infer<typeof bookSearchResultSchema>;
