/**
 * Browsing, search and the listing page. Browsing reads active listings through the columns
 * the catalogue migration's triggers keep (category_id, genre_ids) and covering indexes;
 * search finds books first (their search columns are generated), then their listings. The
 * listing page, search and the filter lookup run as prepared statements (PREPARED_TAG), which
 * PostgreSQL runs on their generic plans after five runs; browse is planned for its values every
 * time. Plans, and the measurements behind each choice: docs/catalogue-queries.md.
 *
 * Pagination is by page number over a snapshot: every page is "as of" a moment (returned with
 * the first page and passed back for the next), so listings published later never shift the
 * pages a person is walking through, and a link reproduces the page it was copied from.
 */
import {
  type BrowseParams,
  CATALOGUE_LIMITS,
  itemPriceRangeForShown,
  type ListingCard,
  type ListingDetail,
  type ListingPage,
  normaliseIsbn,
  PROTECTION_RULES,
  parseConditionList,
  priceBreakdown,
  type SearchParams,
  type SearchResult,
  shownPrice,
} from '@reshelf/contracts';
import { type RawBuilder, sql } from 'kysely';
import { type Database, PREPARED_TAG } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import {
  COMMERCIAL_SETTINGS_SQL,
  commercialSettingsFromText,
  getCommercialSettings,
} from '../../platform/settings/settings.service.ts';
import { TRADER_COLUMNS, TRADER_JOINS, type TraderRow, traderFromRow } from '../sellers/traders.ts';

/**
 * The columns of a listing card, from listings l, books b and an approved charity ch, and the
 * live commercial settings (one InitPlan per statement) its shown price follows, so every card
 * of every statement carries the price a buyer must pay under the rule of its own snapshot.
 */
export const CARD_COLUMNS = sql`
  l.id, l.slug, b.title, b.authors, b.isbn13, b.cover_url, l.photos ->> 0 as photo_url,
  l.condition, l.ex_library, l.price_minor, l.parcel_size, l.format, b.page_count, l.status,
  ch.slug as charity_slug, ch.name as charity_name, l.published_at,
  ${sql.raw(COMMERCIAL_SETTINGS_SQL)} as card_settings`;

export const CARD_JOINS = sql`
  join public.books b on b.id = l.book_id
  left join public.charities ch on ch.id = l.charity_id and ch.status = 'approved'`;

export interface CardRow {
  id: string;
  slug: string;
  title: string;
  authors: string[];
  isbn13: string | null;
  cover_url: string | null;
  photo_url: string | null;
  condition: ListingCard['condition'];
  ex_library: boolean;
  price_minor: number;
  parcel_size: ListingCard['parcelSize'];
  /** The listing's format and the edition's pages: what its parcel is estimated from. */
  format: string | null;
  page_count: number | null;
  status: ListingCard['status'];
  charity_slug: string | null;
  charity_name: string | null;
  published_at: Date | null;
  /** COMMERCIAL_SETTINGS_SQL's text: the rules the shown price follows. */
  card_settings: string | null;
}

/**
 * A card as buyers see it: its price is shownPrice under the statement's live settings
 * (decision 0071), the same function checkout's quote agrees with.
 */
export function toCard(row: CardRow): ListingCard {
  const shown = shownPrice(
    {
      priceMinor: row.price_minor,
      parcelSize: row.parcel_size,
      format: row.format,
      pageCount: row.page_count,
    },
    commercialSettingsFromText(row.card_settings),
  );
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    authors: row.authors,
    isbn13: row.isbn13,
    coverUrl: row.cover_url,
    photoUrl: row.photo_url,
    condition: row.condition,
    exLibrary: row.ex_library,
    priceMinor: row.price_minor,
    allInMinor: shown.allInMinor,
    postageFromMinor: shown.postageFromMinor,
    parcelSize: row.parcel_size,
    status: row.status,
    charity: row.charity_slug && row.charity_name ? { slug: row.charity_slug, name: row.charity_name } : null,
    publishedAt: (row.published_at ?? new Date(0)).toISOString(),
  };
}

type Filters = Omit<BrowseParams, 'page' | 'pageSize' | 'sort'>;

interface ResolvedRefs {
  categoryIds: string[] | null;
  genreId: string | null;
  charityId: string | null;
  /**
   * Advanced search's books, when a text field (title, author, publisher, ISBN) names few enough
   * of them (at most BOOK_MATCH_LIMIT): their ids, so the listings are read by book. Null: no
   * such field, or too many books (the listings are then walked in order and each one's book
   * checked, which finds a page quickly when many books match).
   */
  bookIds: string[] | null;
  /**
   * The price filter as item prices: minPrice and maxPrice are all-in prices (decision 0071),
   * turned into the item prices inside them under the live protection rule.
   */
  itemPrices: { minMinor?: number; maxMinor?: number };
}

/**
 * How many books a text field of advanced search may match and still be read book first. The
 * planner cannot tell how selective `search_authors like '%dunmore%'` is beside the listing
 * filters, and walked 100,000 listings newest first checking each one's book (20 ms and more
 * at 100k, docs/performance.md); given the ids it reads their listings through listings_book_idx.
 */
export const BOOK_MATCH_LIMIT = 1000;

/** Turns the slugs in a filter into ids, or a clear NOT_FOUND for one that does not exist. */
export async function resolveRefs(db: Database, filters: Filters): Promise<ResolvedRefs> {
  const bookIds = await matchingBooks(db, filters);
  const itemPrices =
    filters.minPrice === undefined && filters.maxPrice === undefined
      ? {}
      : itemPriceRangeForShown(
          { minMinor: filters.minPrice, maxMinor: filters.maxPrice },
          (await getCommercialSettings(db)).buyerProtection,
        );
  const refs: ResolvedRefs = { categoryIds: null, genreId: null, charityId: null, bookIds, itemPrices };
  if (!filters.category && !filters.genre && !filters.charity) return refs;
  const { rows } = await sql<{
    category_ids: string[] | null;
    genre_id: string | null;
    charity_id: string | null;
  }>`${sql.raw(PREPARED_TAG)}
    select
      (select array_agg(c.id) from public.categories c
        where c.slug = ${filters.category ?? null}
           or c.parent_id = (select p.id from public.categories p where p.slug = ${filters.category ?? null})
      ) as category_ids,
      (select g.id from public.genres g where g.slug = ${filters.genre ?? null}) as genre_id,
      (select ch.id from public.charities ch
        where ch.slug = ${filters.charity ?? null} and ch.status = 'approved') as charity_id`.execute(db);
  const row = rows[0]!;
  if (filters.category && !row.category_ids?.length) {
    throw new AppError('NOT_FOUND', `There is no category called “${filters.category}”.`);
  }
  if (filters.genre && !row.genre_id) {
    throw new AppError('NOT_FOUND', `There is no genre called “${filters.genre}”.`);
  }
  if (filters.charity && !row.charity_id) {
    throw new AppError('NOT_FOUND', `There is no charity called “${filters.charity}” on Reshelf.`);
  }
  return {
    categoryIds: row.category_ids,
    genreId: row.genre_id,
    charityId: row.charity_id,
    bookIds,
    itemPrices,
  };
}

/**
 * The books advanced search's text fields match, through their trigram indexes (the title's
 * and the authors'), when there are at most BOOK_MATCH_LIMIT of them; null otherwise.
 */
async function matchingBooks(db: Database, filters: Filters): Promise<string[] | null> {
  if (!filters.title && !filters.author && !filters.publisher && !filters.isbn) return null;
  const { rows } = await sql<{ id: string }>`${sql.raw(PREPARED_TAG)}
    select ab.id from public.books ab
     where ${sql.join(bookConditions(filters), sql` and `)}
     limit ${BOOK_MATCH_LIMIT + 1}`.execute(db);
  return rows.length > BOOK_MATCH_LIMIT ? null : rows.map((row) => row.id);
}

/** A LIKE pattern that finds `text` anywhere, its own % and _ taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/**
 * Advanced search's conditions on the book and the seller: text fields match
 * anywhere in the book's normalised title, authors or publisher (lower case, no accents; the
 * title and authors through their trigram indexes), the town is the seller's or the charity's.
 */
function advancedSql(filters: Filters, bookIds: string[] | null): RawBuilder<unknown>[] {
  const conditions: RawBuilder<unknown>[] = [];
  const book = bookConditions(filters);
  if (bookIds) {
    // Found already (matchingBooks), the years with them.
    conditions.push(sql`l.book_id = any(${bookIds}::uuid[])`);
  } else if (book.length) {
    conditions.push(
      sql`exists (select 1 from public.books ab where ab.id = l.book_id and ${sql.join(book, sql` and `)})`,
    );
  }
  if (filters.format) conditions.push(sql`l.format = ${filters.format}`);
  if (filters.firstEdition) conditions.push(sql`l.first_edition`);
  if (filters.signed) conditions.push(sql`l.signed`);
  if (filters.town) {
    conditions.push(sql`(
      exists (select 1 from public.charities tc where tc.id = l.charity_id and tc.status = 'approved'
                and lower(tc.town) = lower(${filters.town}))
      or (l.charity_id is null and exists (select 1 from public.profiles tp where tp.id = l.seller_id
                and lower(tp.town) = lower(${filters.town}))))`);
  }
  return conditions;
}

/** Advanced search's conditions on the book `ab` (text fields and years). */
function bookConditions(filters: Filters): RawBuilder<unknown>[] {
  const book: RawBuilder<unknown>[] = [];
  if (filters.title) {
    book.push(sql`ab.search_title like public.search_normalise(${containsPattern(filters.title)}::text)`);
  }
  if (filters.author) {
    book.push(sql`ab.search_authors like public.search_normalise(${containsPattern(filters.author)}::text)`);
  }
  if (filters.isbn) book.push(sql`ab.isbn13 = ${filters.isbn}`);
  if (filters.publisher) {
    book.push(
      sql`public.search_normalise(ab.publisher) like public.search_normalise(${containsPattern(filters.publisher)}::text)`,
    );
  }
  if (filters.yearFrom !== undefined) book.push(sql`ab.published_year >= ${filters.yearFrom}`);
  if (filters.yearTo !== undefined) book.push(sql`ab.published_year <= ${filters.yearTo}`);
  return book;
}

/** The WHERE conditions on active listings `l` for a set of filters, as of a moment. */
export function filterSql(filters: Filters, refs: ResolvedRefs, asOf: Date): RawBuilder<unknown> {
  const conditions: RawBuilder<unknown>[] = [sql`l.status = 'active'`, sql`l.published_at <= ${asOf}`];
  if (refs.categoryIds) {
    conditions.push(
      refs.categoryIds.length === 1
        ? sql`l.category_id = ${refs.categoryIds[0]}`
        : sql`l.category_id = any(${refs.categoryIds}::uuid[])`,
    );
  }
  if (refs.genreId) conditions.push(sql`l.genre_ids @> array[${refs.genreId}]::uuid[]`);
  if (refs.charityId) conditions.push(sql`l.charity_id = ${refs.charityId}`);
  const conditionList = parseConditionList(filters.condition);
  if (conditionList.length) conditions.push(sql`l.condition = any(${conditionList}::text[])`);
  const { minMinor, maxMinor } = refs.itemPrices;
  if (minMinor !== undefined) conditions.push(sql`l.price_minor >= ${minMinor}`);
  if (maxMinor !== undefined) conditions.push(sql`l.price_minor <= ${maxMinor}`);
  if (filters.charityOnly) conditions.push(sql`l.charity_id is not null`);
  if (filters.seller) conditions.push(sql`l.seller_id = ${filters.seller}`);
  conditions.push(...advancedSql(filters, refs.bookIds));
  return sql.join(conditions, sql` and `);
}

function orderSql(sort: BrowseParams['sort']): RawBuilder<unknown> {
  switch (sort) {
    case 'price_asc':
      return sql`l.price_minor asc, l.id asc`;
    case 'price_desc':
      return sql`l.price_minor desc, l.id desc`;
    default:
      // Without search text there is nothing to be relevant to: newest first.
      return sql`l.published_at desc, l.id desc`;
  }
}

function snapshotTime(asOf: string | undefined): Date {
  const now = new Date();
  if (!asOf) return now;
  const given = new Date(asOf);
  return given > now ? now : given;
}

function pageOf(
  rows: CardRow[],
  params: { page: number; pageSize: number },
  total: number,
  asOf: Date,
): ListingPage {
  const hasNextPage = rows.length > params.pageSize;
  return {
    items: rows.slice(0, params.pageSize).map(toCard),
    page: params.page,
    pageSize: params.pageSize,
    total: Math.min(total, CATALOGUE_LIMITS.countCap),
    totalCapped: total > CATALOGUE_LIMITS.countCap,
    hasNextPage,
    asOf: asOf.toISOString(),
  };
}

export async function browseListings(db: Database, params: BrowseParams): Promise<ListingPage> {
  const asOf = snapshotTime(params.asOf);
  const refs = await resolveRefs(db, params);
  const where = filterSql(params, refs, asOf);
  const offset = (params.page - 1) * params.pageSize;
  // One statement, one connection: the capped count runs once as an InitPlan beside the page.
  const countSql = sql`(select count(*)::int from (
      select 1 from public.listings l where ${where} limit ${CATALOGUE_LIMITS.countCap + 1}
    ) capped)`;
  // Planned for its values every time, never prepared: a generic plan of this statement is many
  // times slower for some filters (docs/catalogue-queries.md, "Plans and planning").
  const { rows } = refs.bookIds
    ? // Advanced search whose books are known and few (matchingBooks): their listings are read
      // once, by book, then ranked and counted; walking every listing newest first and checking
      // each one's book read thousands of rows for a page (docs/performance.md).
      await sql<CardRow & { total: number }>`
        with hits as materialized (
          select l.id, l.published_at, l.price_minor from public.listings l where ${where}
        ),
        page as (
          select l.id from hits l
          order by ${orderSql(params.sort)}
          limit ${params.pageSize + 1} offset ${offset}
        )
        select ${CARD_COLUMNS}, (select count(*)::int from hits) as total
        from page p join public.listings l on l.id = p.id ${CARD_JOINS}
        order by ${orderSql(params.sort)}`.execute(db)
    : await sql<CardRow & { total: number }>`
        select ${CARD_COLUMNS}, ${countSql} as total
        from public.listings l ${CARD_JOINS}
        where ${where}
        order by ${orderSql(params.sort)}
        limit ${params.pageSize + 1} offset ${offset}`.execute(db);
  let total = rows[0]?.total;
  if (total === undefined) {
    // Past the last page (or nothing at all): no row carried the count.
    const counted = await sql<{
      total: number;
    }>`select ${countSql} as total`.execute(db);
    total = counted.rows[0]?.total ?? 0;
  }
  return pageOf(rows, params, total, asOf);
}

/**
 * How much search considers: the best strong (title, author, ISBN) and weak (description)
 * matching books, and how few strong matches make it look for misspellings too.
 */
export const SEARCH_LIMITS = {
  strong: 200,
  weak: 60,
  weakSample: 400,
  fuzzyBelow: 10,
  fuzzy: 60,
  fuzzySample: 300,
} as const;

/** Little words that every title shares: left out of misspelling matches ("the hobit"). */
export const FUZZY_STOPWORDS: ReadonlySet<string> = new Set([
  'the',
  'a',
  'an',
  'and',
  'of',
  'in',
  'on',
  'at',
  'to',
  'for',
  'by',
  'with',
  'from',
  'or',
  'is',
  'as',
]);

/**
 * The text to match misspellings with: the words without the little ones. Empty (no fuzzy
 * matching) for "quoted phrases" and -exclusions, which ask for precision, and for text of
 * little words only.
 */
export function fuzzySearchText(q: string): string {
  if (/"|(^|\s)-\S/.test(q)) return '';
  return q
    .split(/\s+/)
    .filter((word) => word && !FUZZY_STOPWORDS.has(word.toLowerCase()))
    .join(' ');
}

/** At most this many words of a text are compared one by one ("did you mean"). */
export const SUGGESTION_WORDS = 8;

/**
 * The words of a text worth comparing one by one: without quotes, -exclusions (words asked to
 * be absent), little words and words under three letters (too few trigrams to resemble
 * anything by more than chance). The first SUGGESTION_WORDS, each once.
 */
export function suggestionWords(q: string): string[] {
  const words = q
    .split(/\s+/)
    .filter((word) => !word.startsWith('-'))
    .map((word) => word.replace(/["“”]/g, '').toLowerCase())
    .filter((word) => [...word].length >= 3 && !FUZZY_STOPWORDS.has(word));
  return [...new Set(words)].slice(0, SUGGESTION_WORDS);
}

/**
 * Full-text search with typo tolerance, over books, then their active listings.
 *   Strong matches: the title and authors (websearch_to_tsquery, which understands "quoted
 *   phrases", OR and -minus and never fails on unbalanced quotes), an exact title, and the
 *   book with that ISBN when the text is an ISBN-10 or ISBN-13 (hyphens allowed).
 *   Misspellings: when the words match fewer than 10 books, titles and authors that are
 *   trigram-similar to the text ("Pride and Prejudise", "Hary Poter", "Tolkein") join them.
 *   Weak matches: the words appear in the book's description.
 * Text with "quoted phrases" or -exclusions is taken literally: no fuzzy matching for it.
 *
 * Ranking is by a fixed order of keys, never one sum of scores on different scales:
 *   1. the tier: books with every word in the title or authors, then misspelling matches,
 *      then description matches (a look-alike never outranks the real word);
 *   2. within the first tier: an ISBN hit, then an exact title, then a title holding any of the
 *      words (a title match outranks an author-only match), then the full-text rank (title
 *      words weigh more than authors', shorter titles first); within misspellings: a title
 *      look-alike before an author look-alike, then the similarity;
 *   3. the shorter title (so "Tolkein" ranks Tolkien's books as "Tolkien" does), then the
 *      newest listing.
 * The best 200 strong and 60 weak books (ranked from the first 400 description matches) are
 * considered, which bounds the work for very broad text.
 */
export async function searchListings(db: Database, params: SearchParams): Promise<SearchResult> {
  const asOf = snapshotTime(params.asOf);
  const refs = await resolveRefs(db, params);
  const where = filterSql(params, refs, asOf);
  const isbn = normaliseIsbn(params.q);
  const fuzzyText = fuzzySearchText(params.q);
  const offset = (params.page - 1) * params.pageSize;
  const q = params.q;
  const order =
    params.sort === 'price_asc' || params.sort === 'price_desc' || params.sort === 'newest'
      ? orderSql(params.sort)
      : sql`b.tier, b.strength desc, b.title_match desc, b.score desc, char_length(b.title),
            l.published_at desc, l.id desc`;
  const { rows } = await sql<CardRow & { total: number }>`${sql.raw(PREPARED_TAG)}
    with input as materialized (
      select websearch_to_tsquery('english', public.search_normalise(${q})) as tsq,
             public.search_normalise(${q}) as qn,
             tsvector_to_array(to_tsvector('english', public.search_normalise(${q}))) as words
    ),
    exact as materialized (
      select e.* from (
        select b.id,
          case when b.isbn13 = ${isbn} then 2 when b.search_title = input.qn then 1 else 0 end as strength,
          (tsvector_to_array(ts_filter(b.title_document, '{a}')) && input.words)::int as title_match,
          ts_rank_cd(b.title_document, input.tsq, 1) as score
        from public.books b, input
        where b.isbn13 = ${isbn} or b.search_title = input.qn or b.title_document @@ input.tsq
      ) e
      order by e.strength desc, e.title_match desc, e.score desc
      limit ${SEARCH_LIMITS.strong}
    ),
    fuzzy as materialized (
      select f.id, f.title_like::int as title_match,
        greatest(word_similarity(public.search_normalise(${fuzzyText}), f.search_title),
                 word_similarity(public.search_normalise(${fuzzyText}), f.search_authors)) as score
      from (
        -- Short or common fragments can resemble thousands of titles: rank a bounded sample.
        select b.id, b.search_title, b.search_authors,
          public.search_normalise(${fuzzyText}) <% b.search_title as title_like
        from public.books b
        where ${fuzzyText !== ''} and (select count(*) from exact) < ${SEARCH_LIMITS.fuzzyBelow}
          and (public.search_normalise(${fuzzyText}) <% b.search_title
               or public.search_normalise(${fuzzyText}) <% b.search_authors)
          and not exists (select 1 from exact e where e.id = b.id)
        limit ${SEARCH_LIMITS.fuzzySample}
      ) f
      order by title_match desc, score desc
      limit ${SEARCH_LIMITS.fuzzy}
    ),
    weak as materialized (
      select w.id, ts_rank_cd(w.description_document, input.tsq) as score
      from (
        -- Common words can match thousands of descriptions: rank a bounded sample of them.
        select b.id, b.description_document
        from public.books b, input
        where b.description_document @@ input.tsq
          and not exists (select 1 from exact e where e.id = b.id)
          and not exists (select 1 from fuzzy f where f.id = b.id)
        limit ${SEARCH_LIMITS.weakSample}
      ) w, input
      order by score desc
      limit ${SEARCH_LIMITS.weak}
    ),
    hits as (
      select id, 0 as tier, strength, title_match, score from exact
      union all select id, 1 as tier, 0 as strength, title_match, score from fuzzy
      union all select id, 2 as tier, 0 as strength, 0 as title_match, score from weak
    )
    select ${CARD_COLUMNS}, count(*) over ()::int as total
    from (
      select hits.tier, hits.strength, hits.title_match, hits.score,
        bk.id, bk.title, bk.authors, bk.isbn13, bk.cover_url, bk.page_count
      from hits join public.books bk on bk.id = hits.id
    ) b
    join public.listings l on l.book_id = b.id
    left join public.charities ch on ch.id = l.charity_id and ch.status = 'approved'
    where ${where}
    order by ${order}
    limit ${params.pageSize + 1} offset ${offset}`.execute(db);
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && params.page > 1) {
    // Past the last page: the window count has no row to ride on, so count separately.
    total = (await searchListings(db, { ...params, page: 1, pageSize: 1, asOf: asOf.toISOString() })).total;
  }
  return { ...pageOf(rows, params, total, asOf), query: q, isbn };
}

interface DetailRow {
  id: string;
  slug: string;
  status: ListingDetail['status'];
  condition: ListingDetail['condition'];
  ex_library: boolean;
  format: 'paperback' | 'hardback' | null;
  first_edition: boolean;
  signed: boolean;
  first_printing: boolean;
  inscribed: boolean;
  book_club: boolean;
  print_on_demand: boolean;
  dust_jacket: ListingDetail['dustJacket'];
  bookman_grade: ListingDetail['bookmanGrade'];
  condition_notes: string | null;
  description: string | null;
  photos: unknown;
  price_minor: number;
  parcel_size: ListingDetail['price']['parcelSize'];
  published_at: Date | null;
  title: string;
  subtitle: string | null;
  authors: string[];
  isbn13: string | null;
  isbn10: string | null;
  publisher: string | null;
  published_year: number | null;
  page_count: number | null;
  language: string;
  cover_url: string | null;
  book_description: string | null;
  category_slug: string | null;
  category_name: string | null;
  genres: { slug: string; name: string }[] | null;
  seller_id: string;
  seller_name: string | null;
  seller_town: string | null;
  seller_bio: string | null;
  seller_avatar: string | null;
  seller_since: Date;
  seller_active: number;
  seller_accepts_returns: boolean | null;
  charity_slug: string | null;
  charity_name: string | null;
  charity_town: string | null;
  charity_number: string | null;
  /** The commercial settings, read in the same statement (settings.service.ts). */
  settings: string | null;
}

type DetailWithTraderRow = DetailRow & TraderRow;

const UNAVAILABLE: Partial<Record<ListingDetail['status'], ListingDetail['unavailableReason']>> = {
  sold: 'sold',
  reserved: 'reserved',
  withdrawn: 'withdrawn',
  removed: 'removed',
};

/** The listing page. Drafts are not found; sold, reserved, withdrawn and removed ones say so. */
export async function getListingBySlug(db: Database, slug: string): Promise<ListingDetail> {
  // One statement, the commercial settings included: no second round trip for them.
  const { rows } = await sql<DetailWithTraderRow>`${sql.raw(PREPARED_TAG)}
      select l.id, l.slug, l.status, l.condition, l.ex_library, l.format, l.first_edition, l.signed,
        l.first_printing, l.inscribed, l.book_club, l.print_on_demand, l.dust_jacket, l.bookman_grade,
        l.condition_notes, l.description,
        l.photos, l.price_minor, l.parcel_size, l.published_at,
        b.title, b.subtitle, b.authors, b.isbn13, b.isbn10, b.publisher, b.published_year,
        b.page_count, b.language, b.cover_url, b.description as book_description,
        cat.slug as category_slug, cat.name as category_name,
        (select json_agg(json_build_object('slug', g.slug, 'name', g.name) order by g.position, g.name)
           from public.genres g where g.id = any(l.genre_ids)) as genres,
        l.seller_id, p.display_name as seller_name, p.town as seller_town, p.bio as seller_bio,
        p.avatar_url as seller_avatar, coalesce(p.created_at, u.created_at) as seller_since,
        (select count(*)::int from public.listings sl
          where sl.seller_id = l.seller_id and sl.status = 'active') as seller_active,
        p.accepts_returns as seller_accepts_returns,
        ch.slug as charity_slug, ch.name as charity_name, ch.town as charity_town,
        ch.registered_number as charity_number,
        ${sql.raw(COMMERCIAL_SETTINGS_SQL)} as settings,
        ${sql.raw(TRADER_COLUMNS)}
      from public.listings l
      join public.books b on b.id = l.book_id
      join auth.users u on u.id = l.seller_id
      left join public.profiles p on p.id = l.seller_id
      left join public.categories cat on cat.id = l.category_id
      left join public.charities ch on ch.id = l.charity_id and ch.status = 'approved'
      ${sql.raw(TRADER_JOINS)}
      where l.slug = ${slug} and l.status <> 'draft'`.execute(db);
  const row = rows[0];
  if (!row) {
    throw new AppError(
      'NOT_FOUND',
      'We couldn’t find that listing. It may never have existed, or the link is wrong.',
    );
  }
  const removed = row.status === 'removed';
  const settings = commercialSettingsFromText(row.settings);
  const shown = shownPrice(
    {
      priceMinor: row.price_minor,
      parcelSize: row.parcel_size,
      format: row.format,
      pageCount: row.page_count,
    },
    settings,
  );
  // The breakdown's postage is the book on its own by the cheapest method ("+ postage from").
  const breakdown = priceBreakdown({
    itemMinor: row.price_minor,
    postageMinor: shown.postageFromMinor,
    protection: settings.buyerProtection,
  });
  const trader = traderFromRow(row);
  const charity =
    row.charity_slug && row.charity_name && row.charity_number
      ? {
          slug: row.charity_slug,
          name: row.charity_name,
          town: row.charity_town,
          registeredNumber: row.charity_number,
        }
      : null;
  return {
    id: row.id,
    slug: row.slug,
    status: row.status,
    available: row.status === 'active',
    unavailableReason: UNAVAILABLE[row.status] ?? null,
    title: row.title,
    subtitle: row.subtitle,
    authors: row.authors,
    isbn13: row.isbn13,
    isbn10: row.isbn10,
    publisher: row.publisher,
    publishedYear: row.published_year,
    pageCount: row.page_count,
    language: row.language,
    coverUrl: row.cover_url,
    bookDescription: row.book_description,
    condition: row.condition,
    exLibrary: row.ex_library,
    format: row.format,
    firstEdition: row.first_edition,
    signed: row.signed,
    firstPrinting: row.first_printing,
    inscribed: row.inscribed,
    bookClub: row.book_club,
    printOnDemand: row.print_on_demand,
    dustJacket: row.dust_jacket,
    bookmanGrade: row.bookman_grade,
    // A listing staff removed keeps its book details but not the seller's words or photos.
    conditionNotes: removed ? null : row.condition_notes,
    description: removed ? null : row.description,
    photos: removed || !Array.isArray(row.photos) ? [] : row.photos.filter((p) => typeof p === 'string'),
    publishedAt: row.published_at?.toISOString() ?? null,
    category:
      row.category_slug && row.category_name ? { slug: row.category_slug, name: row.category_name } : null,
    genres: row.genres ?? [],
    seller: {
      id: row.seller_id,
      displayName: charity?.name ?? row.seller_name ?? 'A Reshelf seller',
      town: charity?.town ?? row.seller_town,
      bio: row.seller_bio,
      avatarUrl: row.seller_avatar,
      memberSince: row.seller_since.toISOString(),
      activeListings: row.seller_active,
      charity: charity ? { slug: charity.slug, name: charity.name } : null,
    },
    charity,
    trader,
    // Returns for any reason: a trader always (a charity, a business seller), a private seller who opted in.
    returns: trader
      ? { days: PROTECTION_RULES.charityReturnDays, postageBy: PROTECTION_RULES.changeOfMindReturnPostageBy }
      : row.seller_accepts_returns
        ? {
            days: PROTECTION_RULES.privateReturnDays,
            postageBy: PROTECTION_RULES.changeOfMindReturnPostageBy,
          }
        : null,
    price: {
      ...breakdown,
      allInMinor: shown.allInMinor,
      parcelSize: row.parcel_size,
      protectionFixedMinor: settings.buyerProtection.fixedMinor,
      protectionPercent: settings.buyerProtection.percent,
    },
  };
}

/** Other copies of the same book first, then books sharing its genres, then its category. */
export async function similarListings(db: Database, slug: string, limit = 8): Promise<ListingCard[]> {
  const { rows } = await sql<CardRow>`
    with target as (
      select id, book_id, category_id, genre_ids from public.listings where slug = ${slug}
    )
    select ${CARD_COLUMNS}
    from target t
    join public.listings l
      on l.status = 'active' and l.id <> t.id
     and (l.book_id = t.book_id or l.category_id = t.category_id or l.genre_ids && t.genre_ids)
    ${CARD_JOINS}
    order by (l.book_id = t.book_id) desc,
             cardinality(array(select unnest(l.genre_ids) intersect select unnest(t.genre_ids))) desc,
             (l.category_id = t.category_id) desc,
             l.published_at desc, l.id desc
    limit ${limit}`.execute(db);
  return rows.map(toCard);
}
