/**
 * Ways into the catalogue other than search: staff picks, trending, recently added, the
 * shelves (categories and genres), and suggestions when a search finds nothing.
 */
import type {
  CategorySummary,
  Home,
  ListingCard,
  NamedRef,
  SearchSuggestions,
  StaffPick,
} from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import {
  CARD_COLUMNS,
  CARD_JOINS,
  type CardRow,
  suggestionWords,
  toCard,
} from '../listings/listings.service.ts';

/** How far back trending looks, and what each signal is worth. */
export const TRENDING = {
  windowDays: 14,
  weights: { view: 1, wishlist: 3, sale: 5 },
} as const;

export async function staffPicks(db: Database, limit = 12): Promise<StaffPick[]> {
  const { rows } = await sql<CardRow & { note: string | null }>`
    select ${CARD_COLUMNS}, sp.note
    from public.staff_picks sp
    join public.listings l on l.id = sp.listing_id and l.status = 'active'
    ${CARD_JOINS}
    order by sp.position, sp.created_at
    limit ${limit}`.execute(db);
  return rows.map((row) => ({ ...toCard(row), note: row.note }));
}

/**
 * Trending books: views, wishlist saves and sales of any copy in the last 14 days, weighted
 * 1 / 3 / 5. A sold copy cannot be bought, so each trending book is shown by its cheapest
 * active copy. Staff curate it (`trending_overrides`, /admin/trending-books): pinned listings
 * on sale come first, in the order they were pinned; a hidden listing's book is left out.
 */
export async function trendingListings(db: Database, limit = 12): Promise<ListingCard[]> {
  const { view, wishlist, sale } = TRENDING.weights;
  const { rows } = await sql<CardRow>`
    with signals as (
      select l.book_id, count(*) * ${view}::numeric as score
        from public.listing_views v join public.listings l on l.id = v.listing_id
       where v.viewed_on >= current_date - ${TRENDING.windowDays}::int
       group by l.book_id
      union all
      select l.book_id, count(*) * ${wishlist}::numeric
        from public.wishlist_items w join public.listings l on l.id = w.listing_id
       where w.created_at >= now() - make_interval(days => ${TRENDING.windowDays})
       group by l.book_id
      union all
      select l.book_id, count(*) * ${sale}::numeric
        from public.orders o
        join public.order_items i on i.order_id = o.id
        join public.listings l on l.id = i.listing_id
       where o.status in ('paid', 'dispatched', 'delivered', 'completed')
         and o.paid_at >= now() - make_interval(days => ${TRENDING.windowDays})
       group by l.book_id
    ),
    scores as (select book_id, sum(score) as score from signals group by book_id),
    hidden as (
      select l.book_id from public.trending_overrides t join public.listings l on l.id = t.listing_id
       where t.mode = 'hide'
    ),
    pinned as (
      select l.id, l.book_id, row_number() over (order by t.created_at, t.listing_id) as pin_rank
        from public.trending_overrides t
        join public.listings l on l.id = t.listing_id and l.status = 'active'
       where t.mode = 'pin' and l.book_id not in (select book_id from hidden)
    ),
    best as (
      select distinct on (l.book_id) l.id, s.score
        from scores s join public.listings l on l.book_id = s.book_id and l.status = 'active'
       where s.book_id not in (select book_id from hidden)
         and s.book_id not in (select book_id from pinned)
       order by l.book_id, l.price_minor, l.published_at desc
    ),
    ranked as (
      select id, pin_rank, null::numeric as score from pinned
      union all
      select id, null, score from best
    )
    select ${CARD_COLUMNS}
    from ranked r join public.listings l on l.id = r.id
    ${CARD_JOINS}
    order by r.pin_rank nulls last, r.score desc nulls last, l.published_at desc, l.id
    limit ${limit}`.execute(db);
  return rows.map(toCard);
}

export async function recentListings(db: Database, limit = 12): Promise<ListingCard[]> {
  const { rows } = await sql<CardRow>`
    select ${CARD_COLUMNS}
    from public.listings l ${CARD_JOINS}
    where l.status = 'active' and l.published_at <= now()
    order by l.published_at desc, l.id desc
    limit ${limit}`.execute(db);
  return rows.map(toCard);
}

export async function homeSections(db: Database): Promise<Home> {
  const [picks, trending, recent] = await Promise.all([
    staffPicks(db, 8),
    trendingListings(db, 8),
    recentListings(db, 8),
  ]);
  return { staffPicks: picks, trending, recent };
}

export async function categorySummaries(db: Database): Promise<CategorySummary[]> {
  const { rows } = await sql<{ slug: string; name: string; description: string | null; active: number }>`
    select c.slug, c.name, c.description,
      (select count(*)::int from public.listings l where l.category_id = c.id and l.status = 'active') as active
    from public.categories c
    order by c.position, c.name`.execute(db);
  return rows.map((row) => ({
    slug: row.slug,
    name: row.name,
    description: row.description,
    activeListings: row.active,
  }));
}

export async function categoryBySlug(
  db: Database,
  slug: string,
): Promise<
  CategorySummary & { parent: NamedRef | null; seoTitle: string | null; seoDescription: string | null }
> {
  const row = await db
    .selectFrom('categories as c')
    .leftJoin('categories as p', 'p.id', 'c.parent_id')
    .select([
      'c.id',
      'c.slug',
      'c.name',
      'c.description',
      'c.seo_title',
      'c.seo_description',
      'p.slug as parent_slug',
      'p.name as parent_name',
    ])
    .where('c.slug', '=', slug)
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', `There is no category called “${slug}”.`);
  const { rows } = await sql<{ active: number }>`
    select count(*)::int as active from public.listings l
    where l.status = 'active'
      and l.category_id in (select id from public.categories where id = ${row.id} or parent_id = ${row.id})`.execute(
    db,
  );
  return {
    slug: row.slug,
    name: row.name,
    description: row.description,
    activeListings: rows[0]?.active ?? 0,
    parent: row.parent_slug && row.parent_name ? { slug: row.parent_slug, name: row.parent_name } : null,
    seoTitle: row.seo_title,
    seoDescription: row.seo_description,
  };
}

export async function genreBySlug(db: Database, slug: string): Promise<CategorySummary> {
  const row = await db
    .selectFrom('genres')
    .select(['id', 'slug', 'name', 'description'])
    .where('slug', '=', slug)
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', `There is no genre called “${slug}”.`);
  const { rows } = await sql<{ active: number }>`
    select count(*)::int as active from public.listings l
    where l.status = 'active' and l.genre_ids @> array[${row.id}]::uuid[]`.execute(db);
  return {
    slug: row.slug,
    name: row.name,
    description: row.description,
    activeListings: rows[0]?.active ?? 0,
  };
}

/**
 * For a search that found nothing: books on sale that share a word with the text or come close
 * to one of its words ("did you mean"), and the categories with the most books. Each word of
 * the text (suggestionWords) is compared on its own with the titles and authors by trigram
 * word similarity at the same threshold search uses for misspellings (0.5, TRIGRAM_THRESHOLDS),
 * so one misspelt word is found beside a word that matches nothing ("hobit xyzzy"), while a
 * title sharing only a syllable is not offered ("murakami" is not "The Thursday Murder Club").
 * Books sharing more of the words come first, then the closer ones.
 */
export async function searchSuggestions(db: Database, q: string): Promise<SearchSuggestions> {
  const words = suggestionWords(q);
  const titles = words.length
    ? (
        await sql<{ title: string; authors: string[]; similarity: number }>`
          with words as materialized (
            select distinct public.search_normalise(word) as word from unnest(${words}::text[]) as word
          ),
          matches as (
            select b.id, b.title, b.authors, count(*) as words_matched,
              max(greatest(word_similarity(w.word, b.search_title),
                           word_similarity(w.word, b.search_authors))) as similarity
            from words w
            join public.books b on w.word <% b.search_title or w.word <% b.search_authors
            group by b.id
          )
          select m.title, m.authors, m.similarity::float8 as similarity
          from matches m
          where exists (select 1 from public.listings l where l.book_id = m.id and l.status = 'active')
          order by m.words_matched desc, m.similarity desc, m.title
          limit 6`.execute(db)
      ).rows
    : [];
  const categories = (await categorySummaries(db))
    .filter((category) => category.activeListings > 0)
    .sort((a, b) => b.activeListings - a.activeListings)
    .slice(0, 6);
  return { query: q, titles, categories };
}
