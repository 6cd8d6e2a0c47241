/**
 * Results by book (decision 0079): search and browse over the editions' search documents
 * (`edition_search`, kept by triggers in the listing's own transaction), one result per edition
 * or per work, each with the copies on sale that meet the filters and the lowest all-in price.
 * "Did you mean": words the catalogue's dictionary (`search_words`) does not hold are corrected
 * by trigram similarity on that small table when the words as typed find few books.
 */
import {
  type BookResult,
  type BookSearchParams,
  type BookSearchResult,
  CATALOGUE_LIMITS,
  type Correction,
  normaliseIsbn,
  parseConditionList,
  shownPrice,
} from '@reshelf/contracts';
import { type RawBuilder, sql } from 'kysely';
import { type Database, PREPARED_TAG } from '../../db/index.ts';
import {
  COMMERCIAL_SETTINGS_SQL,
  commercialSettingsFromText,
} from '../../platform/settings/settings.service.ts';
import { resolveRefs, SEARCH_LIMITS } from '../listings/listings.service.ts';
import {
  chooseCorrection,
  correctableWords,
  correctedText,
  type LookAlike,
  oneSlipFrom,
} from './book-search.words.ts';

interface ResultRow {
  work_slug: string;
  edition_id: string | null;
  title: string;
  authors: string[];
  isbn13: string | null;
  publisher: string | null;
  published_year: number | null;
  cover_url: string | null;
  editions: number;
  copies: number;
  /** The copy's slug when exactly one copy meets the filters. */
  only_slug: string | null;
  low_price_minor: number;
  low_parcel_size: 'small' | 'medium' | 'large';
  low_format: string | null;
  low_page_count: number | null;
  conditions: BookResult['conditions'];
  formats: BookResult['formats'];
  first_edition: boolean;
  signed: boolean;
  charity: boolean;
  total: number;
  settings: string | null;
}

/** How many trigram neighbours of a word the dictionary offers to chooseCorrection. */
const LOOK_ALIKES = 8;

/**
 * The corrections for the words of q the catalogue does not know (decision 0080). A word is
 * known when the dictionary holds it, or when it matches an edition's document as search reads
 * it (a plural, a word of a description): known words are never corrected, however rare. An
 * unknown word's look-alikes are its trigram neighbours in `search_words` (`%`, through its
 * trigram index), and for a short word the spellings one slip away that the dictionary holds
 * (its primary key); chooseCorrection picks among them. One statement; `books` is not read.
 */
export async function correctionsFor(db: Database, q: string): Promise<Correction[]> {
  const words = correctableWords(q);
  if (!words.length) return [];
  const slipsOf = words.map((word) => oneSlipFrom(word));
  const { rows } = await sql<{
    word: string;
    normal: string;
    known: boolean;
    look_alikes: LookAlike[];
  }>`${sql.raw(PREPARED_TAG)}
    select q.word, q.normal, q.known,
      -- Look-alikes only for a word the catalogue does not know (a CASE runs its branch alone).
      case when q.known then '[]'::jsonb else coalesce((
        select jsonb_agg(jsonb_build_object('word', x.word, 'editions', x.editions, 'similarity', x.similarity))
        from (
          (select sw.word, sw.editions, similarity(sw.word, q.normal) as similarity
           from public.search_words sw
           where sw.word % q.normal and sw.editions > 0
           order by similarity(sw.word, q.normal) desc, sw.editions desc, sw.word
           limit ${LOOK_ALIKES})
          union
          select sw.word, sw.editions, similarity(sw.word, q.normal)
          from unnest(${slipsOf.flatMap((list, n) => list.map(() => n + 1))}::int[],
                      ${slipsOf.flat()}::text[]) s(n, word)
          join public.search_words sw on sw.word = s.word and sw.editions > 0
          where s.n = q.n
        ) x
      ), '[]'::jsonb) end as look_alikes
    from (
      select w.word, w.n, w.normal,
        exists (select 1 from public.search_words k where k.word = w.normal and k.editions > 0)
          or exists (select 1 from public.edition_search es
                      where es.copies > 0 and es.document @@ plainto_tsquery('english', w.normal)) as known
      from (
        select u.word, u.n, public.search_normalise(u.word) as normal
        from unnest(${words}::text[]) with ordinality u(word, n)
      ) w
    ) q
    order by q.n`.execute(db);
  const corrections: Correction[] = [];
  for (const row of rows) {
    if (row.known) continue;
    const to = chooseCorrection(row.normal, row.look_alikes);
    if (to) corrections.push({ from: row.word, to });
  }
  return corrections;
}

export async function searchBooks(db: Database, params: BookSearchParams): Promise<BookSearchResult> {
  const q = params.q ?? null;
  const isbn = q ? normaliseIsbn(q) : null;
  let corrections: Correction[] = [];
  let result = await runSearch(db, params, q, isbn);
  if (q && !isbn && !params.exact && result.total < SEARCH_LIMITS.fuzzyBelow) {
    corrections = await correctionsFor(db, q);
    if (corrections.length) {
      const corrected = await runSearch(db, params, correctedText(q, corrections), null);
      if (corrected.total > result.total) result = corrected;
      else corrections = [];
    }
  }
  return {
    ...result,
    group: params.group,
    query: q,
    correctedQuery: corrections.length && q ? correctedText(q, corrections) : null,
    corrections,
    isbn,
  };
}

type Page = Pick<BookSearchResult, 'items' | 'page' | 'pageSize' | 'total' | 'totalCapped' | 'hasNextPage'>;

/** The columns of an edition's copies' summary (`edition_copy`), unnested as `c`. */
const COPY_COLUMNS = sql`c(price_minor, parcel_size, condition, format, first_edition, signed, charity_id,
  published_at, n)`;

/**
 * One search or browse, reading `edition_search` alone (decision 0080).
 *
 * The filters over an edition (category, genre) are its columns. The filters over copies
 * (condition, price, format, first edition, signed, charity) prune first on the edition's own
 * figures (its conditions, formats, flags, lowest price: necessary, never sufficient), then ask
 * its copies' summary (`copy_list`, cheapest first) whether one copy meets them all, stopping at
 * the first that does; for a price sort, the first copy that meets them is the lowest price. Only
 * the page's editions then summarise their copies that meet the filters (count, lowest price and
 * its parcel, conditions, formats, flags). Grouped by work, every matching edition is summarised
 * and the work's figures are theirs together.
 *
 * Words: the strong tier is the title, authors and series name (`head`, small, ranked in full: an
 * ISBN, the exact title, a title word over an author-only match, then when the words name a
 * series (all of them satisfied by its name) its volumes together in volume order, the full-text
 * rank, the shorter title; decision 0092);
 * the weak tier, the description only, a bounded sample (SEARCH_LIMITS), as searchListings.
 * Without words the page is read in an index's order (newest, price) and counted apart.
 */
async function runSearch(
  db: Database,
  params: BookSearchParams,
  q: string | null,
  isbn: string | null,
): Promise<Page> {
  const refs = await resolveRefs(db, {
    category: params.category,
    genre: params.genre,
    minPrice: params.minPrice,
    maxPrice: params.maxPrice,
  });
  const editionWhere: RawBuilder<unknown>[] = [sql`es.copies > 0`];
  if (refs.categoryIds) editionWhere.push(sql`es.category_id = any(${refs.categoryIds}::uuid[])`);
  if (refs.genreId) editionWhere.push(sql`es.genre_ids @> array[${refs.genreId}]::uuid[]`);
  const copyWhere: RawBuilder<unknown>[] = [];
  const conditions = parseConditionList(params.condition);
  if (conditions.length) {
    editionWhere.push(sql`es.conditions && ${conditions}::text[]`);
    copyWhere.push(sql`c.condition = any(${conditions}::text[])`);
  }
  const { minMinor, maxMinor } = refs.itemPrices;
  if (minMinor !== undefined) copyWhere.push(sql`c.price_minor >= ${minMinor}`);
  if (maxMinor !== undefined) {
    editionWhere.push(sql`es.lowest_price_minor <= ${maxMinor}`);
    copyWhere.push(sql`c.price_minor <= ${maxMinor}`);
  }
  if (params.format) {
    editionWhere.push(sql`es.formats @> array[${params.format}]::text[]`);
    copyWhere.push(sql`c.format = ${params.format}`);
  }
  if (params.firstEdition) {
    editionWhere.push(sql`es.first_edition`);
    copyWhere.push(sql`c.first_edition`);
  }
  if (params.signed) {
    editionWhere.push(sql`es.signed`);
    copyWhere.push(sql`c.signed`);
  }
  if (params.charityOnly) {
    editionWhere.push(sql`es.charity`);
    copyWhere.push(sql`c.charity_id in (select ch.id from public.charities ch where ch.status = 'approved')`);
  }
  const filtered = copyWhere.length > 0;
  const meets = filtered ? sql.join(copyWhere, sql` and `) : sql`true`;
  if (filtered) {
    editionWhere.push(
      sql`exists (select 1 from unnest(es.copy_list) with ordinality ${COPY_COLUMNS} where ${meets})`,
    );
  }
  const byWork = params.group === 'work';
  const sort = params.sort ?? (q ? 'relevance' : 'newest');
  const byPrice = sort === 'price_asc' || sort === 'price_desc';
  // The copies of `es` that meet the filters, summarised (the edition's own figures unfiltered).
  const summary = filtered
    ? sql`cross join lateral (
        select count(*)::int as copies, min(c.price_minor) as low_price_minor,
          (array_agg(c.parcel_size order by c.n))[1] as low_parcel_size,
          (array_agg(c.format order by c.n))[1] as low_format,
          array(select distinct x from unnest(array_agg(c.condition)) x order by x) as conditions,
          array(select distinct x from unnest(array_agg(c.format)) x where x is not null order by x) as formats,
          bool_or(c.first_edition) as first_edition, bool_or(c.signed) as signed,
          bool_or(c.charity_id is not null) as charity
        from unnest(es.copy_list) with ordinality ${COPY_COLUMNS} where ${meets}) s`
    : sql`cross join lateral (
        select es.copies, es.lowest_price_minor as low_price_minor, es.lowest_parcel_size as low_parcel_size,
          (select c.format from unnest(es.copy_list) with ordinality ${COPY_COLUMNS} order by c.n limit 1)
            as low_format,
          array(select x from unnest(es.conditions) x order by x) as conditions,
          array(select x from unnest(es.formats) x order by x) as formats,
          es.first_edition, es.signed, es.charity) s`;
  const lowPrice = filtered
    ? sql`(select c.price_minor from unnest(es.copy_list) with ordinality ${COPY_COLUMNS}
          where ${meets} order by c.n limit 1)`
    : sql`es.lowest_price_minor`;
  const order =
    sort === 'price_asc'
      ? sql`g.low_price_minor asc, g.key asc`
      : sort === 'price_desc'
        ? sql`g.low_price_minor desc, g.key desc`
        : sort === 'newest' || !q
          ? sql`g.newest desc, g.key desc`
          : sql`g.tier asc, g.strength desc, g.title_match desc, g.series_key asc nulls last,
                g.volume asc nulls last, g.score desc, g.title_length asc, g.newest desc, g.key desc`;
  // By edition, what ranks and sorts (the page's editions are summarised last); by work, each
  // matching edition's copies summarised, the work's figures made from them.
  const keys = byWork
    ? sql`es.book_id, es.work_id, es.title_length, es.newest_published_at as newest, es.series_id,
        es.series_position, s.*`
    : sql`es.book_id, es.work_id, es.title_length, es.newest_published_at as newest, es.series_id,
        es.series_position, ${byPrice ? lowPrice : sql`null::int`} as low_price_minor`;
  const from = byWork ? sql`public.edition_search es ${summary}` : sql`public.edition_search es`;
  const offset = (params.page - 1) * params.pageSize;
  // A price-sorted filtered browse: the lowest price of the copies that meet the filters lies
  // between the edition's cheapest and dearest copy. Walking the editions by their cheapest
  // (dearest) copy, the first page's worth that meet the filters sets a bound, T; every edition
  // that can come before it on the page has its cheapest copy at or under T (its dearest at or
  // over T), a range of an index. The page is then exact, and nothing is read sequentially.
  const bounded = !q && !byWork && byPrice && filtered;
  const bound = bounded
    ? sort === 'price_asc'
      ? sql` and es.lowest_price_minor <= (
          select max(f.low) from (
            select ${lowPrice} as low from public.edition_search es where ${sql.join(editionWhere, sql` and `)}
            order by es.lowest_price_minor, es.book_id limit ${offset + params.pageSize + 1}) f)`
      : sql` and es.highest_price_minor >= (
          select min(f.low) from (
            select ${lowPrice} as low from public.edition_search es where ${sql.join(editionWhere, sql` and `)}
            order by es.highest_price_minor desc, es.book_id desc limit ${offset + params.pageSize + 1}) f)`
    : sql``;
  const filters = sql.join(editionWhere, sql` and `);
  const browsed = (page: boolean) =>
    sql`select ${keys}, 0 as tier, 0 as strength, 0 as title_match, false as series_named, 0::real as score
          from ${from} where ${filters}${page ? bound : sql``}`;
  const matched = !q
    ? browsed(true)
    : isbn
      ? sql`select ${keys}, 0 as tier, 2 as strength, 1 as title_match, false as series_named, 0::real as score
            from ${from} where es.isbn13 = ${isbn} and ${filters}`
      : sql`select ${keys}, 0 as tier, (es.search_title = input.qn)::int as strength,
              (tsvector_to_array(ts_filter(es.head, '{a}')) && input.words)::int as title_match,
              -- The words name the edition's series: the head's C part is the series' name.
              es.series_id is not null and ts_filter(es.head, '{c}') @@ input.tsq as series_named,
              ts_rank_cd(es.head, input.tsq, 1) as score
            from ${from}, input
            where (es.head @@ input.tsq or es.search_title = input.qn) and ${filters}
            union all
            (select w.* from (
              select ${keys}, 1 as tier, 0 as strength, 0 as title_match, false as series_named,
                ts_rank_cd(es.document, input.tsq, 1) as score
              from ${from}, input
              where es.document @@ input.tsq and not (es.head @@ input.tsq)
                and es.search_title <> input.qn and ${filters}
              limit ${SEARCH_LIMITS.weakSample}
            ) w
            order by w.score desc
            limit ${SEARCH_LIMITS.weak})`;
  const grouped = byWork
    ? sql`select m.work_id as key, null::uuid as edition_id, m.work_id,
          (array_agg(m.book_id order by m.tier, m.strength desc, m.title_match desc, m.score desc,
                     m.copies desc, m.book_id))[1] as shown_book,
          count(*)::int as editions, sum(m.copies)::int as copies,
          min(m.low_price_minor) as low_price_minor,
          (array_agg(m.low_parcel_size order by m.low_price_minor, m.book_id))[1] as low_parcel_size,
          (array_agg(m.low_format order by m.low_price_minor, m.book_id))[1] as low_format,
          (array_agg(m.book_id order by m.low_price_minor, m.book_id))[1] as low_book,
          array(select distinct x from unnest(string_to_array(string_agg(array_to_string(m.conditions, ' '), ' '), ' ')) x
                where x <> '' order by x) as conditions,
          array(select distinct x from unnest(string_to_array(string_agg(array_to_string(m.formats, ' '), ' '), ' ')) x
                where x <> '' order by x) as formats,
          bool_or(m.first_edition) as first_edition, bool_or(m.signed) as signed, bool_or(m.charity) as charity,
          min(m.tier) as tier, max(m.strength) as strength, max(m.title_match) as title_match,
          max(m.score) as score, min(m.title_length) as title_length, max(m.newest) as newest,
          (array_agg(m.series_id) filter (where m.series_named))[1] as series_key,
          min(m.series_position) filter (where m.series_named) as volume
        from m group by m.work_id`
    : sql`select m.book_id as key, m.book_id as edition_id, m.work_id, m.book_id as shown_book,
          1 as editions, m.book_id as low_book, m.low_price_minor, m.tier, m.strength, m.title_match, m.score,
          m.title_length, m.newest, case when m.series_named then m.series_id end as series_key,
          case when m.series_named then m.series_position end as volume
        from m`;
  const input = sql`input as materialized (
      select websearch_to_tsquery('english', public.search_normalise(${q ?? ''})) as tsq,
        public.search_normalise(${q ?? ''}) as qn,
        tsvector_to_array(to_tsvector('english', public.search_normalise(${q ?? ''}))) as words
    )`;
  const windowCount = Boolean(q);
  const { rows } = await sql<ResultRow>`
    with ${input},
    m as (${matched}),
    g as (${grouped}),
    p as (
      select g.*, ${windowCount ? sql`count(*) over ()::int` : sql`0`} as total
      from g
      order by ${order}
      limit ${params.pageSize + 1} offset ${offset}
    )
    select w.slug as work_slug, g.edition_id, ${byWork ? sql`w.title, w.authors` : sql`b.title, b.authors`},
      b.isbn13, b.publisher, b.published_year, b.cover_url, g.editions, g.total,
      x.copies, x.low_price_minor, x.low_parcel_size, x.low_format, x.conditions, x.formats,
      -- The cheapest copy's edition's pages: what its "+ postage from" is estimated from.
      (select lb.page_count from public.books lb where lb.id = g.low_book limit 1) as low_page_count,
      x.first_edition, x.signed, x.charity,
      -- A result with one copy that meets the filters links to it: read for the page's rows only.
      case when x.copies = 1 then (
        select c.slug from public.listings c
        where c.status = 'active' and ${meets} and ${
          byWork
            ? sql`c.book_id in (select eb.id from public.books eb where eb.work_id = g.work_id)`
            : sql`c.book_id = g.key`
        }
        limit 1) end as only_slug,
      ${sql.raw(COMMERCIAL_SETTINGS_SQL)} as settings
    from p g
    -- The page's rows only, each by its key (limit 1: a lookup, never joined by hash).
    cross join lateral (select w.slug, w.title, w.authors from public.works w where w.id = g.work_id limit 1) w
    cross join lateral (
      select b.title, b.authors, b.isbn13, b.publisher, b.published_year, b.cover_url
      from public.books b where b.id = g.shown_book limit 1
    ) b
    ${
      byWork
        ? sql`cross join lateral (select g.copies, g.low_price_minor, g.low_parcel_size, g.low_format, g.conditions,
            g.formats, g.first_edition, g.signed, g.charity) x`
        : sql`cross join lateral (select s.* from public.edition_search es ${summary}
            where es.book_id = g.key limit 1) x`
    }
    order by ${order}`.execute(db);
  let total = rows[0]?.total ?? 0;
  if (!windowCount || (rows.length === 0 && params.page > 1)) {
    // Counted apart, up to the cap: without words, or past the last page.
    const counted = await sql<{ total: number }>`
      with ${input}, m as (${q ? matched : browsed(false)}), g as (${grouped})
      select count(*)::int as total from (
        -- In the newest index's order, so the capped count walks an index, not the table.
        select 1 from g ${byWork ? sql`` : sql`order by g.newest desc, g.key desc`}
        limit ${CATALOGUE_LIMITS.countCap + 1}) x`.execute(db);
    total = counted.rows[0]?.total ?? 0;
  }
  return {
    items: rows.slice(0, params.pageSize).map(toResult),
    page: params.page,
    pageSize: params.pageSize,
    total: Math.min(total, CATALOGUE_LIMITS.countCap),
    totalCapped: total > CATALOGUE_LIMITS.countCap,
    hasNextPage: rows.length > params.pageSize,
  };
}

function toResult(row: ResultRow): BookResult {
  const shown = shownPrice(
    {
      priceMinor: row.low_price_minor,
      parcelSize: row.low_parcel_size,
      format: row.low_format,
      pageCount: row.low_page_count,
    },
    commercialSettingsFromText(row.settings),
  );
  return {
    workSlug: row.work_slug,
    editionId: row.edition_id,
    title: row.title,
    authors: row.authors,
    isbn13: row.isbn13,
    publisher: row.publisher,
    publishedYear: row.published_year,
    coverUrl: row.cover_url,
    editions: row.editions,
    copies: row.copies,
    listingSlug: row.only_slug,
    lowestAllInMinor: shown.allInMinor,
    postageFromMinor: shown.postageFromMinor,
    conditions: row.conditions,
    formats: row.formats,
    firstEdition: row.first_edition,
    signed: row.signed,
    charity: row.charity,
  };
}
