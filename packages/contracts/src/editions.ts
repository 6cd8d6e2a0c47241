/**
 * Results by book (decision 0079): search and browse answer one result per edition, or per work
 * as the searcher chooses, each with its copies on sale counted and the lowest all-in price.
 * Browsing a seller's or a charity's books stays copy by copy (catalogue.ts).
 */
import { z } from 'zod';
import {
  BOOK_FORMATS,
  conditionListSchema,
  LISTING_SORTS,
  pagingFields,
  priceOrderIssue,
  priceSchema,
  pricesInOrder,
  searchQuerySchema,
} from './catalogue.ts';
import { CONDITIONS } from './constants.ts';
import { BOOKMAN_GRADES, COPY_ATTRIBUTES, DUST_JACKET_STATES, RESULT_GROUPS } from './edition-words.ts';
import { ratingSchema } from './reviews.ts';
import { slugSchema } from './schemas.ts';

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
    ...pagingFields,
  })
  .refine(pricesInOrder, priceOrderIssue);
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

/**
 * The book page (/book/{slug}): a work, its editions and every copy on sale (decision 0081).
 * `edition` narrows the copies to one edition; the editions list stays whole.
 */
export const bookPageInputSchema = z.object({
  slug: slugSchema,
  edition: z.uuid('Edition must be the id of one of the book’s editions').optional(),
});
export type BookPageInput = z.input<typeof bookPageInputSchema>;

/** The most copies a book page lists (cheapest first); `copiesOnSale` counts them all. */
export const BOOK_PAGE_MAX_COPIES = 200;

/** An edition of the work: an ISBN, or an edition without one. */
export const bookEditionSchema = z.object({
  /** The edition's id: /book/{workSlug}?edition={id}. */
  id: z.uuid(),
  title: z.string(),
  subtitle: z.string().nullable(),
  isbn13: z.string().nullable(),
  publisher: z.string().nullable(),
  publishedYear: z.number().int().nullable(),
  /** The formats its copies on sale come in. */
  formats: z.array(z.enum(BOOK_FORMATS)),
  coverUrl: z.string().nullable(),
  copiesOnSale: z.number().int(),
  /** The lowest all-in price among its copies on sale (decision 0071); null with none. */
  lowestAllInMinor: z.number().int().nullable(),
});
export type BookEdition = z.infer<typeof bookEditionSchema>;

/** A copy on sale, as a row of the book page's table. */
export const bookCopySchema = z.object({
  /** The copy's listing: /listing/{listingSlug}. */
  listingSlug: z.string(),
  editionId: z.uuid(),
  condition: z.enum(CONDITIONS),
  /** A collectable copy's grade on the Bookman scale (bookmanGradeOf); null for any other copy. */
  bookmanGrade: z.enum(BOOKMAN_GRADES).nullable(),
  dustJacket: z.enum(DUST_JACKET_STATES).nullable(),
  format: z.enum(BOOK_FORMATS).nullable(),
  /** The collectors' attributes the seller states of it, in COPY_ATTRIBUTES order. */
  attributes: z.array(z.enum(COPY_ATTRIBUTES)),
  sellerId: z.uuid(),
  /** The seller's name, or the charity's when a charity sells it. */
  sellerName: z.string(),
  charity: z.object({ slug: z.string(), name: z.string() }).nullable(),
  /** The seller's rating from buyers' reviews (the same as on their profile). */
  sellerRating: ratingSchema,
  /** Item and buyer protection (decision 0071): what the copy costs before postage. */
  allInMinor: z.number().int(),
  /** Postage for this copy on its own under the live rates: "+ postage from". */
  postageFromMinor: z.number().int(),
});
export type BookCopy = z.infer<typeof bookCopySchema>;

export const bookPageSchema = z.object({
  work: z.object({
    /** The work's id (a want names it: decision 0088). */
    id: z.uuid(),
    slug: z.string(),
    title: z.string(),
    authors: z.array(z.string()),
    /** The description and cover of its best edition (most copies on sale, then a cover). */
    description: z.string().nullable(),
    coverUrl: z.string().nullable(),
  }),
  /** Every edition of the work, those with copies on sale first. */
  editions: z.array(bookEditionSchema),
  /** The edition the copies are narrowed to (`edition`); null for all of them. */
  editionId: z.uuid().nullable(),
  /** Copies on sale (of that edition), cheapest all-in first, at most BOOK_PAGE_MAX_COPIES. */
  copies: z.array(bookCopySchema),
  /** How many copies are on sale (of that edition), however many are listed. */
  copiesOnSale: z.number().int(),
  /** The lowest and highest all-in price among them; null with none on sale. */
  lowAllInMinor: z.number().int().nullable(),
  highAllInMinor: z.number().int().nullable(),
});
export type BookPage = z.infer<typeof bookPageSchema>;

export const bookForListingInputSchema = z.object({ slug: slugSchema });

/** A listing's book: its other editions and the other copies on sale ("N more copies from £x"). */
export const bookForListingSchema = z.object({
  workSlug: z.string(),
  /** The listing's own edition. */
  editionId: z.uuid(),
  /** The work's other editions with a copy on sale, most copies first. */
  otherEditions: z.array(bookEditionSchema),
  /** Copies of the work on sale other than this one. */
  moreCopies: z.number().int(),
  /** The lowest all-in price among them; null with none. */
  moreCopiesFromMinor: z.number().int().nullable(),
});
export type BookForListing = z.infer<typeof bookForListingSchema>;
