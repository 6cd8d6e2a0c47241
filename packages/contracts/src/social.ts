/**
 * The reader's side (decision 0044): follows, the /social feed and saved searches.
 * Shared by the BFF and the web client.
 */
import { z } from 'zod';
import {
  advancedFilterFields,
  BOOK_FORMATS,
  cleanSearchText,
  conditionListSchema,
  listingCardSchema,
  namedRefSchema,
  sellerCardSchema,
} from './catalogue.ts';
import { CATALOGUE_LIMITS } from './catalogue-limits.ts';
import { CONDITIONS } from './constants.ts';
import { parsePounds } from './money.ts';
import { slugSchema } from './schemas.ts';

export const FOLLOW_KINDS = ['seller', 'charity', 'author', 'genre'] as const;
export type FollowKind = (typeof FOLLOW_KINDS)[number];

export const SOCIAL_LIMITS = {
  /** Things one member may follow. */
  maxFollows: 500,
  /** Searches one member may save. */
  maxSavedSearches: 25,
  /** Feed items per page: the default and the most. */
  feedPage: 20,
  maxFeedPage: 50,
} as const;

/** What to follow: a seller by id, a charity or genre by slug, an author by name. */
export const followTargetSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('seller'), sellerId: z.uuid('That is not a seller id') }),
    z.object({ kind: z.literal('charity'), charitySlug: slugSchema }),
    z.object({ kind: z.literal('genre'), genreSlug: slugSchema }),
    z.object({
      kind: z.literal('author'),
      author: z
        .string('Name the author')
        .max(200, 'An author’s name can be at most 200 characters')
        .transform(cleanSearchText)
        .pipe(z.string().min(1, 'Name the author')),
    }),
  ],
  'Follow a seller, a charity, an author or a genre',
);
export type FollowTarget = z.output<typeof followTargetSchema>;
export type FollowTargetInput = z.input<typeof followTargetSchema>;

/** Follow or stop following: says what it should be (a retried tap cannot undo itself). */
export const setFollowInputSchema = z.object({ target: followTargetSchema, following: z.boolean() });

export const followSchema = z.object({
  id: z.uuid(),
  kind: z.enum(FOLLOW_KINDS),
  /** The seller's or charity's name, the author, the genre. */
  label: z.string(),
  /** Its page on the site. */
  href: z.string(),
  createdAt: z.string(),
});
export type Follow = z.infer<typeof followSchema>;

export const myFollowsSchema = z.object({
  follows: z.array(followSchema),
  /** Members following the caller as a seller. */
  followers: z.number().int(),
});
export type MyFollows = z.infer<typeof myFollowsSchema>;

export const followStatusSchema = z.object({ following: z.boolean(), followers: z.number().int() });
export type FollowStatus = z.infer<typeof followStatusSchema>;

export const FEED_ITEM_KINDS = ['new_listing', 'price_drop', 'staff_pick', 'book_signing'] as const;
export type FeedItemKind = (typeof FEED_ITEM_KINDS)[number];

export const feedItemSchema = z.object({
  /** Unique within the feed (a React key). */
  key: z.string(),
  kind: z.enum(FEED_ITEM_KINDS),
  at: z.string(),
  listing: listingCardSchema.nullable(),
  /** Why it is in the feed: what the member follows ("Jane Austen", an author). */
  because: z.object({ kind: z.enum(FOLLOW_KINDS), label: z.string(), href: z.string() }).nullable(),
  seller: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  /** A seller's price drop, as shown prices (decision 0071): both all-in under today's rule. */
  priceDrop: z.object({ wasAllInMinor: z.number().int(), nowAllInMinor: z.number().int() }).nullable(),
  /** A staff pick's note. */
  note: z.string().nullable(),
  signing: z
    .object({
      id: z.uuid(),
      title: z.string(),
      author: z.string(),
      venue: z.string(),
      startsAt: z.string(),
      description: z.string().nullable(),
    })
    .nullable(),
});
export type FeedItem = z.infer<typeof feedItemSchema>;

/** A feed cursor: the time and key of the last item seen ("<iso>|<key>"). */
const feedCursorSchema = z
  .string()
  .max(200)
  .regex(/^\d{4}-\d\d-\d\dT[\d:.]+Z\|[a-z_]+:[0-9a-f-]{36}$/, 'Not a page of your feed');

export const feedInputSchema = z
  .object({
    limit: z
      .number()
      .int()
      .min(1, 'Ask for 1 item or more')
      .max(SOCIAL_LIMITS.maxFeedPage, `Ask for at most ${SOCIAL_LIMITS.maxFeedPage} items`)
      .default(SOCIAL_LIMITS.feedPage),
    cursor: feedCursorSchema.nullish(),
  })
  .default({ limit: SOCIAL_LIMITS.feedPage });

export const feedPageSchema = z.object({
  items: z.array(feedItemSchema),
  /** Pass as `cursor` for the next (older) page; null at the end. */
  nextCursor: z.string().nullable(),
  /** Whether the member follows anything at all. */
  followsAnything: z.boolean(),
});
export type FeedPage = z.infer<typeof feedPageSchema>;

export const followSuggestionsSchema = z.object({
  genres: z.array(namedRefSchema.extend({ reason: z.string() })),
  authors: z.array(z.object({ name: z.string(), reason: z.string() })),
  sellers: z.array(
    z.object({ id: z.uuid(), name: z.string(), town: z.string().nullable(), reason: z.string() }),
  ),
});
export type FollowSuggestions = z.infer<typeof followSuggestionsSchema>;

/** /discover-sellers: a seller card with what ranks it. */
export const discoverSellerSchema = sellerCardSchema.extend({
  followers: z.number().int(),
  /** When they last listed a book (null: not in the last year). */
  lastListedAt: z.string().nullable(),
});
export type DiscoverSeller = z.infer<typeof discoverSellerSchema>;

// Saved searches -----------------------------------------------------------------------

export const SAVED_SEARCH_ALERTS = ['instant', 'daily', 'off'] as const;
export type SavedSearchAlerts = (typeof SAVED_SEARCH_ALERTS)[number];
export const SAVED_SEARCH_ALERT_LABELS: Record<SavedSearchAlerts, string> = {
  instant: 'At once',
  daily: 'Daily digest',
  off: 'No alerts',
};

/**
 * What a saved search looks for: the /search address's fields, in the API's terms (pence).
 * Sort, page and snapshot are how a page is read, not what is searched for, so they are not kept.
 */
export const savedSearchParamsSchema = z
  .object({
    q: z
      .string()
      .max(
        CATALOGUE_LIMITS.maxQueryLength,
        `Search text can be at most ${CATALOGUE_LIMITS.maxQueryLength} characters`,
      )
      .transform(cleanSearchText)
      .optional(),
    ...advancedFilterFields,
    category: slugSchema.optional(),
    genre: slugSchema.optional(),
    condition: conditionListSchema.optional(),
    minPrice: z.number().int().min(0).max(CATALOGUE_LIMITS.maxPriceMinor).optional(),
    maxPrice: z.number().int().min(0).max(CATALOGUE_LIMITS.maxPriceMinor).optional(),
    charityOnly: z.boolean().optional(),
    charity: slugSchema.optional(),
    seller: z.uuid().optional(),
  })
  .refine((p) => Object.values(p).some((value) => value !== undefined && value !== ''), {
    message: 'Search for something before saving the search: type some words or choose a filter',
  });
export type SavedSearchParams = z.output<typeof savedSearchParamsSchema>;

const TRUE = new Set(['1', 'true', 'yes', 'on']);

/**
 * A /search (or /listings) query string read as a saved search's fields: the same keys as the
 * pages' addresses (prices in pounds, `charity=1` for charity sellers only, `charityName` for
 * one charity). Unknown keys, sort, page and asOf are dropped; bad values are reported by
 * savedSearchParamsSchema.
 */
export function searchFieldsFromQuery(query: string): Record<string, unknown> {
  const search = new URLSearchParams(query.startsWith('?') ? query.slice(1) : query);
  const fields: Record<string, unknown> = {};
  const text = (key: string, target = key) => {
    const value = search.get(key)?.trim();
    if (value) fields[target] = value;
  };
  const number = (key: string) => {
    const value = search.get(key)?.trim();
    if (value) fields[key] = /^\d+$/.test(value) ? Number(value) : value;
  };
  const pounds = (key: string) => {
    const value = search.get(key)?.trim();
    if (value) fields[key] = parsePounds(value) ?? value;
  };
  for (const key of ['q', 'title', 'author', 'isbn', 'publisher', 'town', 'category', 'genre', 'seller']) {
    text(key);
  }
  const condition = (search.get('condition') ?? '')
    .split(',')
    .filter((value) => (CONDITIONS as readonly string[]).includes(value));
  if (condition.length) fields.condition = [...new Set(condition)].join(',');
  pounds('minPrice');
  pounds('maxPrice');
  number('yearFrom');
  number('yearTo');
  const format = search.get('format');
  if (format && (BOOK_FORMATS as readonly string[]).includes(format)) fields.format = format;
  for (const key of ['firstEdition', 'signed']) {
    if (TRUE.has(search.get(key) ?? '')) fields[key] = true;
  }
  if (TRUE.has(search.get('charity') ?? '')) fields.charityOnly = true;
  else text('charity');
  return fields;
}

/** The canonical /search query string of a saved search's fields (sorted keys, pounds). */
export function savedSearchQuery(params: SavedSearchParams): string {
  const out = new URLSearchParams();
  const entries = Object.entries(params)
    .filter(([, value]) => value !== undefined && value !== '' && value !== false)
    .sort(([a], [b]) => a.localeCompare(b));
  for (const [key, value] of entries) {
    if (key === 'minPrice' || key === 'maxPrice') out.set(key, ((value as number) / 100).toFixed(2));
    else if (key === 'charityOnly') out.set('charity', '1');
    else if (value === true) out.set(key, '1');
    else out.set(key, String(value));
  }
  return out.toString();
}

/** A short name for a saved search from its fields ("tolkien · hardback · under £10.00"). */
export function describeSavedSearch(params: SavedSearchParams): string {
  const parts: string[] = [];
  if (params.q) parts.push(`“${params.q}”`);
  if (params.title) parts.push(`title “${params.title}”`);
  if (params.author) parts.push(`by ${params.author}`);
  if (params.isbn) parts.push(`ISBN ${params.isbn}`);
  if (params.publisher) parts.push(`published by ${params.publisher}`);
  if (params.yearFrom && params.yearTo) parts.push(`${params.yearFrom}–${params.yearTo}`);
  else if (params.yearFrom) parts.push(`from ${params.yearFrom}`);
  else if (params.yearTo) parts.push(`up to ${params.yearTo}`);
  if (params.format) parts.push(params.format);
  if (params.firstEdition) parts.push('first edition');
  if (params.signed) parts.push('signed');
  if (params.genre) parts.push(params.genre.replace(/-/g, ' '));
  if (params.category) parts.push(params.category.replace(/-/g, ' '));
  if (params.condition) parts.push(params.condition.replace(/_/g, ' ').replace(/,/g, ' or '));
  if (params.maxPrice !== undefined) parts.push(`under £${(params.maxPrice / 100).toFixed(2)}`);
  if (params.minPrice !== undefined) parts.push(`over £${(params.minPrice / 100).toFixed(2)}`);
  if (params.charityOnly) parts.push('charity sellers');
  if (params.charity) parts.push(params.charity.replace(/-/g, ' '));
  if (params.town) parts.push(`in ${params.town}`);
  if (params.seller) parts.push('one seller');
  const text = parts.join(' · ') || 'Everything';
  return text.length <= 80 ? text : `${text.slice(0, 79)}…`;
}

export const saveSearchInputSchema = z.object({
  /** The /search address's query string ("q=tolkien&format=hardback"). */
  query: z.string('Give the search’s address').max(2000, 'That search address is too long to save'),
  name: z.string().max(80, 'A name can be at most 80 characters').transform(cleanSearchText).optional(),
  alerts: z.enum(SAVED_SEARCH_ALERTS).default('instant'),
});

export const updateSavedSearchInputSchema = z.object({
  id: z.uuid('That is not one of your saved searches'),
  name: z
    .string()
    .max(80, 'A name can be at most 80 characters')
    .transform(cleanSearchText)
    .pipe(z.string().min(1, 'Give the search a name'))
    .optional(),
  alerts: z.enum(SAVED_SEARCH_ALERTS).optional(),
});

export const savedSearchSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The query string: the search is at /search?<query>. */
  query: z.string(),
  alerts: z.enum(SAVED_SEARCH_ALERTS),
  createdAt: z.string(),
  /** New listings it matched in the last 7 days. */
  recentMatches: z.number().int(),
});
export type SavedSearch = z.infer<typeof savedSearchSchema>;
