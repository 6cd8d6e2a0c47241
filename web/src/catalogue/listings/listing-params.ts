/**
 * The URL is the state of a listings page: filters, sort, page and the snapshot time all live
 * in the query string, so a copied link reproduces the page. Prices are pounds in the URL
 * ("maxPrice=7.50") and pence in the API.
 */
import {
  BOOK_FORMATS,
  type BookFormat,
  type BookSearchInput,
  type BrowseInput,
  CATALOGUE_LIMITS,
  CONDITIONS,
  type Condition,
  LISTING_SORTS,
  type ListingSort,
  parsePounds,
  RESULT_GROUPS,
  type ResultGroup,
} from '@reshelf/contracts';

export interface ListingParams {
  q: string;
  category: string | undefined;
  genre: string | undefined;
  conditions: Condition[];
  minPrice: string;
  maxPrice: string;
  charityOnly: boolean;
  sort: ListingSort | undefined;
  page: number;
  asOf: string | undefined;
  /** Advanced search's fields, as the address has them. */
  advanced: AdvancedParams;
  /** /listings?following=1: only books from what the signed-in member follows. */
  following: boolean;
  /** Results by book: one per edition, or per work ("group=work"). */
  group: ResultGroup;
  /** "exact=1": the words as typed, without "did you mean". */
  exact: boolean;
}

export interface AdvancedParams {
  title?: string;
  author?: string;
  isbn?: string;
  publisher?: string;
  yearFrom?: number;
  yearTo?: number;
  format?: BookFormat;
  firstEdition?: boolean;
  signed?: boolean;
  town?: string;
}

/** The address keys of advanced search, in the order its form shows them. */
export const ADVANCED_KEYS = [
  'title',
  'author',
  'isbn',
  'publisher',
  'yearFrom',
  'yearTo',
  'format',
  'firstEdition',
  'signed',
  'town',
] as const;

function readAdvanced(search: URLSearchParams): AdvancedParams {
  const advanced: AdvancedParams = {};
  for (const key of ['title', 'author', 'isbn', 'publisher', 'town'] as const) {
    const value = search.get(key)?.trim();
    if (value) advanced[key] = value.slice(0, 200);
  }
  for (const key of ['yearFrom', 'yearTo'] as const) {
    const value = search.get(key)?.trim();
    if (value && /^\d{1,4}$/.test(value)) advanced[key] = Number(value);
  }
  const format = search.get('format');
  if (format && (BOOK_FORMATS as readonly string[]).includes(format)) advanced.format = format as BookFormat;
  if (search.get('firstEdition') === '1') advanced.firstEdition = true;
  if (search.get('signed') === '1') advanced.signed = true;
  return advanced;
}

/**
 * Advanced search's fields the search by book does not have: asking for one reads the copies
 * one by one, as before (catalogue.listings.search / browse). Format, first edition and signed
 * are filters over copies in both.
 */
export const COPY_ONLY_KEYS = ['title', 'author', 'isbn', 'publisher', 'yearFrom', 'yearTo', 'town'] as const;

/** Whether these params can be read by book (no advanced field the book search lacks). */
export function readsByBook(params: ListingParams): boolean {
  return COPY_ONLY_KEYS.every((key) => params.advanced[key] === undefined);
}

/** Keys that change what is listed: changing one starts again at page 1, as of now. */
export const FILTER_KEYS = [
  'q',
  'category',
  'genre',
  'condition',
  'minPrice',
  'maxPrice',
  'charity',
  'sort',
  ...ADVANCED_KEYS,
  'following',
  'group',
  'exact',
] as const;

export function readListingParams(search: URLSearchParams): ListingParams {
  const page = Number.parseInt(search.get('page') ?? '1', 10);
  const sort = search.get('sort');
  const group = search.get('group');
  return {
    q: (search.get('q') ?? '').slice(0, CATALOGUE_LIMITS.maxQueryLength),
    category: search.get('category') || undefined,
    genre: search.get('genre') || undefined,
    conditions: (search.get('condition') ?? '')
      .split(',')
      .filter((value): value is Condition => (CONDITIONS as readonly string[]).includes(value)),
    minPrice: search.get('minPrice') ?? '',
    maxPrice: search.get('maxPrice') ?? '',
    charityOnly: search.get('charity') === '1',
    sort: sort && (LISTING_SORTS as readonly string[]).includes(sort) ? (sort as ListingSort) : undefined,
    page: Number.isFinite(page) && page >= 1 ? Math.min(page, CATALOGUE_LIMITS.maxPage) : 1,
    asOf: search.get('asOf') || undefined,
    advanced: readAdvanced(search),
    following: search.get('following') === '1',
    group: group && (RESULT_GROUPS as readonly string[]).includes(group) ? (group as ResultGroup) : 'edition',
    exact: search.get('exact') === '1',
  };
}

/** A pounds amount from the URL as pence, or undefined when blank or not an amount. */
export function poundsToPence(value: string): number | undefined {
  if (!value.trim()) return undefined;
  const pence = parsePounds(value);
  return pence === null || pence > CATALOGUE_LIMITS.maxPriceMinor ? undefined : pence;
}

/** The API input for these params (with any fixed filters of the page, such as its category). */
export function toApiInput(params: ListingParams, fixed: Partial<BrowseInput> = {}): BrowseInput {
  let minPrice = poundsToPence(params.minPrice);
  let maxPrice = poundsToPence(params.maxPrice);
  if (minPrice !== undefined && maxPrice !== undefined && minPrice > maxPrice) {
    [minPrice, maxPrice] = [maxPrice, minPrice];
  }
  const input: BrowseInput = {
    category: params.category,
    genre: params.genre,
    condition: params.conditions.length ? params.conditions.join(',') : undefined,
    minPrice,
    maxPrice,
    charityOnly: params.charityOnly || undefined,
    sort: params.sort,
    page: params.page,
    pageSize: CATALOGUE_LIMITS.pageSize,
    asOf: params.asOf,
    ...params.advanced,
    ...fixed,
  };
  // Drop undefined keys: they would only lengthen the request URL.
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as BrowseInput;
}

/** The input of the search by book (catalogue.books.public.search) for these params. */
export function toBookInput(
  params: ListingParams,
  fixed: Partial<Pick<BookSearchInput, 'category' | 'genre'>> = {},
): BookSearchInput {
  const copies = toApiInput(params);
  const q = params.q.trim();
  const input: BookSearchInput = {
    q: q || undefined,
    exact: (q && params.exact) || undefined,
    group: params.group,
    category: copies.category,
    genre: copies.genre,
    condition: copies.condition,
    minPrice: copies.minPrice,
    maxPrice: copies.maxPrice,
    format: params.advanced.format,
    firstEdition: params.advanced.firstEdition,
    signed: params.advanced.signed,
    charityOnly: copies.charityOnly,
    sort: copies.sort,
    page: copies.page,
    pageSize: copies.pageSize,
    ...fixed,
  };
  return Object.fromEntries(
    Object.entries(input).filter(([, value]) => value !== undefined),
  ) as BookSearchInput;
}

/**
 * The query string after changing some keys. Changing a filter or the sort drops the page and
 * the snapshot; moving between pages keeps them.
 */
export function withChanges(
  search: URLSearchParams,
  changes: Record<string, string | null | undefined>,
): URLSearchParams {
  const next = new URLSearchParams(search);
  let filterChanged = false;
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined || value === '') next.delete(key);
    else next.set(key, value);
    if ((FILTER_KEYS as readonly string[]).includes(key)) filterChanged = true;
  }
  if (filterChanged) {
    next.delete('page');
    next.delete('asOf');
  }
  return next;
}

export function activeFilterCount(params: ListingParams): number {
  return (
    (params.category ? 1 : 0) +
    (params.genre ? 1 : 0) +
    (params.conditions.length ? 1 : 0) +
    (params.minPrice || params.maxPrice ? 1 : 0) +
    (params.charityOnly ? 1 : 0) +
    Object.keys(params.advanced).length +
    (params.following ? 1 : 0)
  );
}
