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
import type { Database } from '../../db/index.ts';
import {
  COMMERCIAL_SETTINGS_SQL,
  commercialSettingsFromText,
} from '../../platform/settings/settings.service.ts';
import { resolveRefs, SEARCH_LIMITS, suggestionWords } from '../listings/listings.service.ts';

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
  low_slug: string;
  low_price_minor: number;
  low_parcel_size: 'small' | 'medium' | 'large';
  conditions: BookResult['conditions'];
  formats: BookResult['formats'];
  first_edition: boolean;
  signed: boolean;
  charity: boolean;
  total: number;
  settings: string | null;
}

/** The words of q the dictionary does not know, each with its nearest known word. */
export async function correctionsFor(db: Database, q: string): Promise<Correction[]> {
  const words = suggestionWords(q);
  if (!words.length) return [];
  const { rows } = await sql<{ from: string; to: string | null }>`
    select q.word as "from",
      (select sw.word from public.search_words sw
        where sw.word % public.search_normalise(q.word) and sw.editions > 0
        order by similarity(sw.word, public.search_normalise(q.word)) desc, sw.editions desc, sw.word
        limit 1) as "to"
    from unnest(${words}::text[]) with ordinality q(word, n)
    where not exists (select 1 from public.search_words k
                       where k.word = public.search_normalise(q.word) and k.editions > 0)
    order by q.n`.execute(db);
  return rows.filter((row): row is Correction => row.to !== null && row.to !== row.from);
}

/** q with each corrected word replaced, the rest as typed. */
export function correctedText(q: string, corrections: readonly Correction[]): string {
  const byWord = new Map(corrections.map((c) => [c.from, c.to]));
  return q
    .split(/(\s+)/)
    .map((part) => byWord.get(part.replace(/["“”]/g, '').toLowerCase()) ?? part)
    .join('');
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

async function runSearch(
  db: Database,
  params: BookSearchParams,
  q: string | null,
  isbn: string | null,
): Promise<Pick<BookSearchResult, 'items' | 'page' | 'pageSize' | 'total' | 'totalCapped' | 'hasNextPage'>> {
  const refs = await resolveRefs(db, {
    category: params.category,
    genre: params.genre,
    minPrice: params.minPrice,
    maxPrice: params.maxPrice,
  });
  const editionWhere: RawBuilder<unknown>[] = [sql`es.copies > 0`];
  if (q) {
    editionWhere.push(
      isbn
        ? sql`es.isbn13 = ${isbn}`
        : sql`es.document @@ websearch_to_tsquery('english', public.search_normalise(${q}))`,
    );
  }
  if (refs.categoryIds) editionWhere.push(sql`es.category_id = any(${refs.categoryIds}::uuid[])`);
  if (refs.genreId) editionWhere.push(sql`es.genre_ids @> array[${refs.genreId}]::uuid[]`);
  const copyWhere: RawBuilder<unknown>[] = [sql`l.status = 'active'`];
  const conditions = parseConditionList(params.condition);
  if (conditions.length) copyWhere.push(sql`l.condition = any(${conditions}::text[])`);
  if (refs.itemPrices.minMinor !== undefined)
    copyWhere.push(sql`l.price_minor >= ${refs.itemPrices.minMinor}`);
  if (refs.itemPrices.maxMinor !== undefined)
    copyWhere.push(sql`l.price_minor <= ${refs.itemPrices.maxMinor}`);
  if (params.format) copyWhere.push(sql`l.format = ${params.format}`);
  if (params.firstEdition) copyWhere.push(sql`l.first_edition`);
  if (params.signed) copyWhere.push(sql`l.signed`);
  if (params.charityOnly) {
    copyWhere.push(
      sql`exists (select 1 from public.charities ch where ch.id = l.charity_id and ch.status = 'approved')`,
    );
  }
  const rank = q
    ? sql`(case when es.isbn13 = ${isbn} then 2 when es.search_title = public.search_normalise(${q}) then 1 else 0 end) * 10
          + ts_rank_cd(es.document, websearch_to_tsquery('english', public.search_normalise(${q})), 1)`
    : sql`0`;
  const sort = params.sort ?? (q ? 'relevance' : 'newest');
  const order =
    sort === 'price_asc'
      ? sql`g.low_price_minor asc, g.key asc`
      : sort === 'price_desc'
        ? sql`g.low_price_minor desc, g.key asc`
        : sort === 'newest' || !q
          ? sql`g.newest desc, g.key asc`
          : sql`g.rank desc, g.title_length asc, g.newest desc, g.key asc`;
  const byWork = params.group === 'work';
  const offset = (params.page - 1) * params.pageSize;
  const { rows } = await sql<ResultRow>`
    with editions as (
      select es.book_id, es.work_id, es.title_length, ${rank} as rank
      from public.edition_search es
      where ${sql.join(editionWhere, sql` and `)}
    ),
    copies as (
      select e.book_id, e.work_id, e.rank, e.title_length,
        count(*)::int as copies,
        min(l.price_minor) as low_price_minor,
        (array_agg(l.parcel_size order by l.price_minor, l.id))[1] as low_parcel_size,
        (array_agg(l.slug order by l.price_minor, l.id))[1] as low_slug,
        array_agg(distinct l.condition) as conditions,
        coalesce(array_agg(distinct l.format) filter (where l.format is not null), '{}') as formats,
        bool_or(l.first_edition) as first_edition,
        bool_or(l.signed) as signed,
        bool_or(l.charity_id is not null) as charity,
        max(l.published_at) as newest
      from editions e
      join public.listings l on l.book_id = e.book_id
      where ${sql.join(copyWhere, sql` and `)}
      group by e.book_id, e.work_id, e.rank, e.title_length
    ),
    g as (
      select ${byWork ? sql`c.work_id` : sql`c.book_id`} as key,
        ${byWork ? sql`null::uuid` : sql`min(c.book_id::text)::uuid`} as edition_id,
        c.work_id,
        (array_agg(c.book_id order by c.rank desc, c.copies desc, c.book_id))[1] as shown_book,
        count(*)::int as editions,
        sum(c.copies)::int as copies,
        min(c.low_price_minor) as low_price_minor,
        (array_agg(c.low_parcel_size order by c.low_price_minor, c.book_id))[1] as low_parcel_size,
        (array_agg(c.low_slug order by c.low_price_minor, c.book_id))[1] as low_slug,
        array(select distinct unnest(array_agg(x)) from unnest(array_agg(c.conditions)) x) as conditions,
        max(c.rank) as rank, min(c.title_length) as title_length, max(c.newest) as newest,
        bool_or(c.first_edition) as first_edition, bool_or(c.signed) as signed, bool_or(c.charity) as charity
      from copies c
      group by ${byWork ? sql`c.work_id` : sql`c.book_id, c.work_id`}
    )
    select w.slug as work_slug, g.edition_id, ${byWork ? sql`w.title, w.authors` : sql`b.title, b.authors`},
      b.isbn13, b.publisher, b.published_year, b.cover_url,
      g.editions, g.copies, g.low_slug, g.low_price_minor, g.low_parcel_size, g.conditions,
      (select coalesce(array_agg(distinct f), '{}') from copies c2, unnest(c2.formats) f
        where ${byWork ? sql`c2.work_id = g.work_id` : sql`c2.book_id = g.edition_id`}) as formats,
      g.first_edition, g.signed, g.charity,
      count(*) over ()::int as total,
      ${sql.raw(COMMERCIAL_SETTINGS_SQL)} as settings
    from g
    join public.works w on w.id = g.work_id
    join public.books b on b.id = g.shown_book
    order by ${order}
    limit ${params.pageSize + 1} offset ${offset}`.execute(db);
  const total = rows[0]?.total ?? 0;
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
    { priceMinor: row.low_price_minor, parcelSize: row.low_parcel_size },
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
    listingSlug: row.copies === 1 ? row.low_slug : null,
    lowestAllInMinor: shown.allInMinor,
    postageFromMinor: shown.postageFromMinor,
    conditions: row.conditions,
    formats: row.formats,
    firstEdition: row.first_edition,
    signed: row.signed,
    charity: row.charity,
  };
}
