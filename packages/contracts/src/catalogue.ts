/**
 * The catalogue's request and response shapes, shared by the BFF (procedure .input() and
 * .output()) and the web client. GET inputs are flat primitives so they map to query strings.
 */
import { z } from 'zod';
import { CATALOGUE_LIMITS } from './catalogue-limits.ts';
import { CONDITIONS, LISTING_STATUSES, PARCEL_SIZES } from './constants.ts';
import { BOOKMAN_GRADES, DUST_JACKET_STATES } from './edition-words.ts';
import { normaliseIsbn } from './isbn.ts';
import { slugSchema } from './schemas.ts';
import { traderSchema } from './traders.ts';

export const LISTING_SORTS = ['relevance', 'newest', 'price_asc', 'price_desc'] as const;
export type ListingSort = (typeof LISTING_SORTS)[number];
export const LISTING_SORT_LABELS: Record<ListingSort, string> = {
  relevance: 'Best match',
  newest: 'Newest first',
  price_asc: 'Price: low to high',
  price_desc: 'Price: high to low',
};

const conditionPattern = CONDITIONS.join('|');
/** One or more conditions, comma-separated: "like_new,very_good". */
export const conditionListSchema = z
  .string()
  .regex(
    new RegExp(`^(${conditionPattern})(,(${conditionPattern}))*$`),
    `Condition must be one or more of ${CONDITIONS.join(', ')}, separated by commas`,
  );

export function parseConditionList(value: string | undefined): (typeof CONDITIONS)[number][] {
  if (!value) return [];
  return [...new Set(value.split(','))].filter((part): part is (typeof CONDITIONS)[number] =>
    (CONDITIONS as readonly string[]).includes(part),
  );
}

export const priceSchema = (label: string) =>
  z
    .number(`${label} must be a number of pence`)
    .int(`${label} must be a whole number of pence`)
    .min(0, `${label} cannot be negative`)
    .max(CATALOGUE_LIMITS.maxPriceMinor, `${label} can be at most £10,000`);

/** Strips control characters and collapses whitespace in what a person typed. */
export function cleanSearchText(value: string): string {
  return value
    .replace(/\p{Cc}/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export const searchQuerySchema = z
  .string('Enter something to search for')
  .max(
    CATALOGUE_LIMITS.maxQueryLength,
    `Search text can be at most ${CATALOGUE_LIMITS.maxQueryLength} characters`,
  )
  .meta({ description: 'Title, author, ISBN, category or genre', examples: ['tolkien'] })
  .transform(cleanSearchText)
  .pipe(z.string().min(1, 'Enter something to search for'));

/** A copy's binding, as advanced search and the seller's description of a copy name it. */
export const BOOK_FORMATS = ['paperback', 'hardback'] as const;
export type BookFormat = (typeof BOOK_FORMATS)[number];
export const BOOK_FORMAT_LABELS: Record<BookFormat, string> = {
  paperback: 'Paperback',
  hardback: 'Hardback',
};

/**
 * What a copy is besides its condition, in the words of the listing page's badges and the sell
 * wizard's review step: "Ex-library", "Hardback", "First edition", "Signed" (only those that hold).
 */
export function copyFeatures(copy: {
  exLibrary: boolean;
  format: BookFormat | null;
  firstEdition: boolean;
  signed: boolean;
}): string[] {
  return [
    ...(copy.exLibrary ? ['Ex-library'] : []),
    ...(copy.format ? [BOOK_FORMAT_LABELS[copy.format]] : []),
    ...(copy.firstEdition ? ['First edition'] : []),
    ...(copy.signed ? ['Signed'] : []),
  ];
}

/** Free text of an advanced-search field: cleaned, at most `max` characters, never blank. */
const fieldText = (label: string, max: number) =>
  z
    .string(`${label} must be text`)
    .max(max, `${label} can be at most ${max} characters`)
    .transform(cleanSearchText)
    .pipe(z.string().min(1, `${label} cannot be blank`));

const yearSchema = (label: string) =>
  z
    .number(`${label} must be a year`)
    .int(`${label} must be a year`)
    .min(1450, `${label} must be 1450 or later`)
    .max(2100, `${label} must be 2100 or earlier`);

/**
 * Advanced search: fields that narrow browsing and search alike, each one also a key
 * of the /search address (web: listing-params.ts, saved searches: savedSearchQuery).
 */
export const advancedFilterFields = {
  title: fieldText('The title', 200).optional(),
  author: fieldText('The author', 200).optional(),
  isbn: z
    .string('The ISBN must be text')
    .max(20, 'The ISBN can be at most 20 characters')
    .transform((value, ctx) => {
      const isbn = normaliseIsbn(value);
      if (!isbn) {
        ctx.addIssue({ code: 'custom', message: 'The ISBN must be a 10- or 13-digit ISBN' });
        return z.NEVER;
      }
      return isbn;
    })
    .optional(),
  publisher: fieldText('The publisher', 200).optional(),
  yearFrom: yearSchema('The earliest year').optional(),
  yearTo: yearSchema('The latest year').optional(),
  format: z.enum(BOOK_FORMATS, 'Format must be paperback or hardback').optional(),
  firstEdition: z.boolean().optional(),
  signed: z.boolean().optional(),
  town: fieldText('The town', 80).optional(),
};
export const ADVANCED_FILTER_KEYS = Object.keys(
  advancedFilterFields,
) as (keyof typeof advancedFilterFields)[];

/** A page of a catalogue read: its number, and how many to a page. */
export const pagingFields = {
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
};

const filterFields = {
  ...advancedFilterFields,
  category: slugSchema.optional(),
  genre: slugSchema.optional(),
  condition: conditionListSchema.optional(),
  minPrice: priceSchema('The minimum price').optional(),
  maxPrice: priceSchema('The maximum price').optional(),
  charityOnly: z.boolean().optional(),
  charity: slugSchema.optional(),
  seller: z.uuid('Seller must be a seller id').optional(),
  sort: z.enum(LISTING_SORTS).optional(),
  ...pagingFields,
  /** Results are as of this moment: listings published later do not shift the pages. */
  asOf: z.iso.datetime({ offset: true, error: 'asOf must be an ISO date-time' }).optional(),
};

export function pricesInOrder(value: { minPrice?: number | undefined; maxPrice?: number | undefined }) {
  return value.minPrice === undefined || value.maxPrice === undefined || value.minPrice <= value.maxPrice;
}
export const priceOrderIssue = {
  message: 'The minimum price must not be more than the maximum price',
  path: ['maxPrice'],
};
function yearsInOrder(value: { yearFrom?: number | undefined; yearTo?: number | undefined }) {
  return value.yearFrom === undefined || value.yearTo === undefined || value.yearFrom <= value.yearTo;
}
const yearOrderIssue = {
  message: 'The earliest year must not be after the latest year',
  path: ['yearTo'],
};

export const browseInputSchema = z
  .object(filterFields)
  .refine(pricesInOrder, priceOrderIssue)
  .refine(yearsInOrder, yearOrderIssue);
export type BrowseInput = z.input<typeof browseInputSchema>;
export type BrowseParams = z.output<typeof browseInputSchema>;

export const searchInputSchema = z
  .object({ q: searchQuerySchema, ...filterFields })
  .refine(pricesInOrder, priceOrderIssue)
  .refine(yearsInOrder, yearOrderIssue);
export type SearchInput = z.input<typeof searchInputSchema>;
export type SearchParams = z.output<typeof searchInputSchema>;

export const namedRefSchema = z.object({ slug: z.string(), name: z.string() });
export type NamedRef = z.infer<typeof namedRefSchema>;

export const listingCardSchema = z.object({
  id: z.uuid(),
  slug: z.string(),
  title: z.string(),
  authors: z.array(z.string()),
  isbn13: z.string().nullable(),
  coverUrl: z.string().nullable(),
  photoUrl: z.string().nullable(),
  condition: z.enum(CONDITIONS),
  exLibrary: z.boolean(),
  /** The seller's asking price (what sellers and staff set); buyers are shown allInMinor. */
  priceMinor: z.number().int(),
  /** What the buyer must pay for the book, buyer protection included (shownPrice, decision 0071). */
  allInMinor: z.number().int(),
  /** Postage for this book on its own, under the live rates: shown as "+ postage from". */
  postageFromMinor: z.number().int(),
  parcelSize: z.enum(PARCEL_SIZES),
  status: z.enum(LISTING_STATUSES),
  charity: namedRefSchema.nullable(),
  publishedAt: z.string(),
});
export type ListingCard = z.infer<typeof listingCardSchema>;

export const listingPageSchema = z.object({
  items: z.array(listingCardSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Matching listings, counted up to CATALOGUE_LIMITS.countCap. */
  total: z.number().int(),
  totalCapped: z.boolean(),
  hasNextPage: z.boolean(),
  /** Pass back as asOf for the next pages so new listings do not shift them. */
  asOf: z.string(),
});
export type ListingPage = z.infer<typeof listingPageSchema>;

export const searchResultSchema = listingPageSchema.extend({
  query: z.string(),
  /** The ISBN-13 the query was read as, when it was an ISBN. */
  isbn: z.string().nullable(),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

export const priceBreakdownSchema = z.object({
  itemMinor: z.number().int(),
  /** The headline: item and buyer protection (shownPrice, decision 0071); postage follows. */
  allInMinor: z.number().int(),
  postageMinor: z.number().int(),
  protectionMinor: z.number().int(),
  protectionVatMinor: z.number().int(),
  totalMinor: z.number().int(),
  parcelSize: z.enum(PARCEL_SIZES),
  protectionFixedMinor: z.number().int(),
  protectionPercent: z.number(),
});
export type ListingPriceBreakdown = z.infer<typeof priceBreakdownSchema>;

export const sellerCardSchema = z.object({
  id: z.uuid(),
  displayName: z.string(),
  town: z.string().nullable(),
  bio: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  memberSince: z.string(),
  activeListings: z.number().int(),
  charity: namedRefSchema.nullable(),
});
export type SellerCard = z.infer<typeof sellerCardSchema>;

export const UNAVAILABLE_REASONS = ['sold', 'reserved', 'withdrawn', 'removed'] as const;

export const listingDetailSchema = z.object({
  id: z.uuid(),
  slug: z.string(),
  status: z.enum(LISTING_STATUSES),
  available: z.boolean(),
  unavailableReason: z.enum(UNAVAILABLE_REASONS).nullable(),
  title: z.string(),
  subtitle: z.string().nullable(),
  authors: z.array(z.string()),
  isbn13: z.string().nullable(),
  isbn10: z.string().nullable(),
  publisher: z.string().nullable(),
  publishedYear: z.number().int().nullable(),
  pageCount: z.number().int().nullable(),
  language: z.string(),
  coverUrl: z.string().nullable(),
  bookDescription: z.string().nullable(),
  condition: z.enum(CONDITIONS),
  exLibrary: z.boolean(),
  /** The copy's binding, if the seller said; first edition and signed. */
  format: z.enum(BOOK_FORMATS).nullable(),
  firstEdition: z.boolean(),
  signed: z.boolean(),
  /** Collectors' details (decision 0082): the Collector's details block reads them. */
  firstPrinting: z.boolean(),
  inscribed: z.boolean(),
  bookClub: z.boolean(),
  printOnDemand: z.boolean(),
  dustJacket: z.enum(DUST_JACKET_STATES).nullable(),
  bookmanGrade: z.enum(BOOKMAN_GRADES).nullable(),
  conditionNotes: z.string().nullable(),
  description: z.string().nullable(),
  photos: z.array(z.string()),
  publishedAt: z.string().nullable(),
  category: namedRefSchema.nullable(),
  genres: z.array(namedRefSchema),
  seller: sellerCardSchema,
  charity: z
    .object({ slug: z.string(), name: z.string(), town: z.string().nullable(), registeredNumber: z.string() })
    .nullable(),
  price: priceBreakdownSchema,
  /** The trader selling it (a charity, a business seller), shown before the order; null: a private seller. */
  trader: traderSchema.nullable(),
  /**
   * Returns for any reason: a charity's (trader rules) or a private seller's who
   * accepts them; null when the seller takes returns only for a problem report.
   */
  returns: z.object({ days: z.number().int(), postageBy: z.enum(['seller', 'buyer']) }).nullable(),
});
export type ListingDetail = z.infer<typeof listingDetailSchema>;

export const staffPickSchema = listingCardSchema.extend({ note: z.string().nullable() });
export type StaffPick = z.infer<typeof staffPickSchema>;

export const charitySummarySchema = z.object({
  id: z.uuid(),
  slug: z.string(),
  name: z.string(),
  registeredNumber: z.string(),
  town: z.string().nullable(),
  description: z.string().nullable(),
  logoUrl: z.string().nullable(),
  website: z.string().nullable(),
  activeListings: z.number().int(),
});
export type CharitySummary = z.infer<typeof charitySummarySchema>;

export const charityDirectoryInputSchema = z.object({
  q: z.string().max(100, 'Search text can be at most 100 characters').transform(cleanSearchText).optional(),
  town: z.string().max(80, 'Town can be at most 80 characters').transform(cleanSearchText).optional(),
  page: z.number().int().min(1).max(1000, 'Page can be at most 1000').default(1),
  pageSize: z.number().int().min(1).max(48).default(24),
});
export type CharityDirectoryInput = z.input<typeof charityDirectoryInputSchema>;

export const charityDirectorySchema = z.object({
  items: z.array(charitySummarySchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  towns: z.array(z.string()),
});
export type CharityDirectory = z.infer<typeof charityDirectorySchema>;

export const categorySummarySchema = z.object({
  slug: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  activeListings: z.number().int(),
});
export type CategorySummary = z.infer<typeof categorySummarySchema>;

export const homeSchema = z.object({
  staffPicks: z.array(staffPickSchema),
  trending: z.array(listingCardSchema),
  recent: z.array(listingCardSchema),
});
export type Home = z.infer<typeof homeSchema>;

export const searchSuggestionsSchema = z.object({
  query: z.string(),
  titles: z.array(z.object({ title: z.string(), authors: z.array(z.string()), similarity: z.number() })),
  categories: z.array(categorySummarySchema),
});
export type SearchSuggestions = z.infer<typeof searchSuggestionsSchema>;

export const pageSchema = z.object({
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  bodyMarkdown: z.string(),
  updatedAt: z.string(),
  /** Search-engine title and description set at /admin/seo; null: use title and description. */
  seoTitle: z.string().nullable(),
  seoDescription: z.string().nullable(),
});
export type StaticPage = z.infer<typeof pageSchema>;

export const CONTACT_TOPICS = ['order', 'selling', 'charity', 'account', 'press', 'other'] as const;
export const CONTACT_TOPIC_LABELS: Record<(typeof CONTACT_TOPICS)[number], string> = {
  order: 'An order I placed or sold',
  selling: 'Selling on Reshelf',
  charity: 'Charities and Gift Aid',
  account: 'My account',
  press: 'Press and partnerships',
  other: 'Something else',
};

export const contactInputSchema = z.object({
  name: z.string().trim().min(1, 'Enter your name').max(100, 'Your name can be at most 100 characters'),
  email: z
    .string()
    .trim()
    .max(254, 'Your email address can be at most 254 characters')
    .pipe(z.email('Enter an email address like name@example.co.uk')),
  topic: z.enum(CONTACT_TOPICS, 'Choose what your message is about'),
  message: z
    .string()
    .trim()
    .min(10, 'Your message needs at least 10 characters')
    .max(5000, 'Your message can be at most 5,000 characters'),
  /** A field people never see: bots that fill it in are thanked and ignored. */
  website: z.string().max(200).optional(),
});
export type ContactInput = z.input<typeof contactInputSchema>;

export const EMAIL_LISTS = [
  'all',
  'newsletter',
  'recommendations',
  'wishlist_alerts',
  'messages',
  'saved_searches',
  'wants',
] as const;
export type EmailList = (typeof EMAIL_LISTS)[number];
export const EMAIL_LIST_LABELS: Record<EmailList, string> = {
  all: 'all emails from Reshelf except those about your orders and account',
  newsletter: 'the Reshelf newsletter',
  recommendations: 'book recommendations',
  wishlist_alerts: 'wishlist price-drop alerts',
  messages: 'emails about unread messages',
  saved_searches: 'saved-search alerts',
  wants: 'alerts for books you want',
};

export const unsubscribeInputSchema = z.object({
  u: z
    .string()
    .trim()
    .min(1, 'This unsubscribe link is incomplete')
    .max(254, 'This unsubscribe link is not valid'),
  l: z
    .string()
    .trim()
    .min(1, 'This unsubscribe link is incomplete')
    .max(40, 'This unsubscribe link is not valid'),
  s: z
    .string()
    .trim()
    .min(1, 'This unsubscribe link is incomplete')
    .max(100, 'This unsubscribe link is not valid'),
});
export type UnsubscribeInput = z.infer<typeof unsubscribeInputSchema>;
