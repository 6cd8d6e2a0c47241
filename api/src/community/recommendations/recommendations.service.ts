/**
 * Recommendations (/recommendations and the home page's row, decision 0045).
 *
 * Computed in SQL from what we hold, into `member_recommendations` (one row per recommended
 * listing, ranked, each with its reason), so reading them is one indexed query. The signals, and
 * what each is worth:
 *   - co_purchase (6 + 2 per reader): readers who bought a book the member bought or
 *     wishlisted also bought this book;
 *   - wishlist (4), purchase (3), view (2, the last 30 days): another book by the same author as
 *     a book the member wishlisted, bought or looked at;
 *   - author (4) and genre (2): what the member told onboarding;
 *   - staff_pick (1.5) and trending (1): the cold start, for everyone.
 * A book's score is the sum of its signals and its explanation is its strongest one. Each book is
 * shown by its cheapest copy on sale; never the member's own listings (or their charity's),
 * never a book they bought, never a listing already on their wishlist.
 *
 * The list is mixed: ranked by score, each further book with the same explanation
 * ("Because you like Classics") counts for `repeatDecay` times the one before it, so one strong
 * reason cannot fill the list and the next reasons (another genre, a staff pick, what is
 * trending) come up between its books. The stored score stays the book's own.
 *
 * The job `recommendations.refresh` recomputes members whose signals changed since (onboarding,
 * wishlist, purchases, views) or whose list is older than REFRESH_AFTER_HOURS; a member who has
 * none yet, or who has just changed their onboarding choices, gets theirs computed on reading.
 */
import type { Recommendations } from '@reshelf/contracts';
import { sql } from 'kysely';
import { CARD_COLUMNS, CARD_JOINS, type CardRow, toCard } from '../../catalogue/index.ts';
import { type Database, PREPARED_TAG } from '../../db/index.ts';

export const RECOMMENDATIONS = {
  /** How many are kept per member. */
  keep: 48,
  /** Listings per onboarding genre considered. */
  perGenre: 40,
  /** Of the cold start (trending and staff picks). */
  coldStart: 30,
  /** Views older than this are not a signal. */
  viewDays: 30,
  /** Trending looks back this far. */
  trendingDays: 14,
  /** A member's list is recomputed at least this often while they have one. */
  refreshAfterHours: 6,
  /** Members per job round. */
  batch: 200,
  /**
   * Ranking weight of each further book with the same explanation (reason and "because"): the
   * second Classics book ranks as if it scored half, the third a quarter, ….
   */
  repeatDecay: 0.5,
  weights: {
    coPurchase: 6,
    coPurchasePerReader: 2,
    wishlist: 4,
    purchase: 3,
    view: 2,
    author: 4,
    genre: 2,
    staffPick: 1.5,
    trending: 1,
  },
} as const;

/** The cold start, found once per job round: trending books and staff picks (book ids). */
export interface ColdStart {
  trending: string[];
  staffPicks: string[];
}

export async function coldStart(db: Database): Promise<ColdStart> {
  const { rows } = await sql<{ book_id: string; kind: 'trending' | 'staff_pick' }>`
    (select l.book_id, 'staff_pick' as kind
       from public.staff_picks sp join public.listings l on l.id = sp.listing_id and l.status = 'active'
      order by sp.position, sp.created_at
      limit ${RECOMMENDATIONS.coldStart})
    union all
    (select s.book_id, 'trending'
       from (
         select l.book_id, count(*) as score
           from public.listing_views v join public.listings l on l.id = v.listing_id
          where v.viewed_on >= current_date - ${RECOMMENDATIONS.trendingDays}::int
          group by l.book_id
         union all
         select l.book_id, count(*) * 3
           from public.wishlist_items w join public.listings l on l.id = w.listing_id
          where w.created_at >= now() - make_interval(days => ${RECOMMENDATIONS.trendingDays})
          group by l.book_id
       ) s
      where exists (select 1 from public.listings a where a.book_id = s.book_id and a.status = 'active')
      group by s.book_id
      order by sum(s.score) desc, s.book_id
      limit ${RECOMMENDATIONS.coldStart})`.execute(db);
  return {
    trending: rows.filter((row) => row.kind === 'trending').map((row) => row.book_id),
    staffPicks: rows.filter((row) => row.kind === 'staff_pick').map((row) => row.book_id),
  };
}

/** Recomputes one member's recommendations (replacing them); answers how many were kept. */
export async function computeRecommendations(
  db: Database,
  userId: string,
  cold?: ColdStart,
): Promise<number> {
  const start = cold ?? (await coldStart(db));
  const w = RECOMMENDATIONS.weights;
  return db.transaction().execute(async (trx) => {
    // One member at a time: a second computation waits for the first instead of clashing.
    await sql`select pg_advisory_xact_lock(hashtext('recommendations'), hashtext(${userId}))`.execute(trx);
    await trx.deleteFrom('member_recommendations').where('user_id', '=', userId).execute();
    const { rows } = await sql<{ kept: number }>`
      with
      bought as (select distinct p.book_id from public.book_purchases p where p.buyer_id = ${userId}),
      wished as (
        select l.book_id, b.title, b.authors
          from public.wishlist_items wi
          join public.listings l on l.id = wi.listing_id
          join public.books b on b.id = l.book_id
         where wi.user_id = ${userId}
         order by wi.created_at desc
         limit 20
      ),
      purchased as (
        select p.book_id, b.title, b.authors
          from public.book_purchases p join public.books b on b.id = p.book_id
         where p.buyer_id = ${userId}
         order by p.paid_at desc
         limit 20
      ),
      viewed as (
        select x.book_id, x.title, x.authors from (
          select distinct on (l.book_id) l.book_id, b.title, b.authors, v.viewed_at
            from public.listing_views v
            join public.listings l on l.id = v.listing_id and l.seller_id <> ${userId}
            join public.books b on b.id = l.book_id
           where v.viewer_id = ${userId}
             and v.viewed_at >= now() - make_interval(days => ${RECOMMENDATIONS.viewDays})
           order by l.book_id, v.viewed_at desc
        ) x
        order by x.viewed_at desc
        limit 20
      ),
      seeds as (
        select book_id, title, authors, 'wishlist' as reason, ${w.wishlist}::real as score from wished
        union all
        select book_id, title, authors, 'purchase', ${w.purchase}::real from purchased
        union all
        select book_id, title, authors, 'view', ${w.view}::real from viewed
      ),
      liked_authors as (select author from public.profile_authors where user_id = ${userId}),
      liked_genres as (
        select g.id, g.name from public.profile_genres pg join public.genres g on g.id = pg.genre_id
         where pg.user_id = ${userId}
      ),
      candidates as (
        -- Readers who bought a book the member bought or wishlisted also bought these.
        select p2.book_id, 'co_purchase' as reason, s.title as because,
               (${w.coPurchase} + ${w.coPurchasePerReader} * count(distinct p2.buyer_id))::real as score
          from (select book_id, title from wished union select book_id, title from purchased) s
          join public.book_purchases p1 on p1.book_id = s.book_id and p1.buyer_id <> ${userId}
          join public.book_purchases p2 on p2.buyer_id = p1.buyer_id and p2.book_id <> s.book_id
         group by p2.book_id, s.title
        union all
        -- More by the author of a book wishlisted, bought or looked at.
        select b.id, s.reason, s.title, s.score
          from seeds s
          join public.books b on b.authors && s.authors and b.id <> s.book_id
         where cardinality(s.authors) > 0
        union all
        select b.id, 'author', (select a from unnest(b.authors) a where a in (select author from liked_authors) limit 1),
               ${w.author}::real
          from public.books b
         where b.authors && array(select author from liked_authors)
        union all
        select x.book_id, 'genre', g.name, ${w.genre}::real
          from liked_genres g
          cross join lateral (
            select l.book_id from public.listings l
             where l.status = 'active' and l.genre_ids @> array[g.id] and l.seller_id <> ${userId}
             order by l.published_at desc
             limit ${RECOMMENDATIONS.perGenre}
          ) x
        union all
        select unnest(${start.staffPicks}::uuid[]), 'staff_pick', null, ${w.staffPick}::real
        union all
        select unnest(${start.trending}::uuid[]), 'trending', null, ${w.trending}::real
      ),
      books as (
        select c.book_id, sum(c.score) as score,
               (array_agg(c.reason order by c.score desc, c.reason))[1] as reason,
               (array_agg(c.because order by c.score desc, c.reason))[1] as because
          from candidates c
         where c.book_id not in (select book_id from bought)
         group by c.book_id
      ),
      picked as (
        select distinct on (bk.book_id) l.id as listing_id, bk.score, bk.reason, bk.because
          from books bk
          join public.listings l on l.book_id = bk.book_id and l.status = 'active'
         where l.seller_id <> ${userId}
           and not exists (select 1 from public.charity_members cm
                            where cm.user_id = ${userId} and cm.charity_id = l.charity_id)
           and not exists (select 1 from public.wishlist_items wi
                            where wi.user_id = ${userId} and wi.listing_id = l.id)
         order by bk.book_id, l.price_minor, l.published_at desc, l.id
      ),
      repeats as (
        select listing_id, score, reason, because,
               row_number() over (partition by reason, because order by score desc, listing_id) as repeat
          from picked
      ),
      ranked as (
        select listing_id, score, reason, because,
               row_number() over (
                 order by score * power(${RECOMMENDATIONS.repeatDecay}::float8, repeat - 1) desc, score desc, listing_id
               ) as rank
          from repeats
         -- A book further down its explanation than the list is long is outranked by every one
         -- above it, so it can never be kept; leaving it out also keeps power() from underflowing,
         -- which PostgreSQL raises as an error (0.5 to the 1,075th: an author of a thousand books).
         where repeat <= ${RECOMMENDATIONS.keep}
      ),
      written as (
        insert into public.member_recommendations (user_id, listing_id, rank, score, reason, because)
        select ${userId}, listing_id, rank, score, reason, left(because, 300)
          from ranked where rank <= ${RECOMMENDATIONS.keep}
        returning 1
      )
      select count(*)::int as kept from written`.execute(trx);
    const kept = rows[0]?.kept ?? 0;
    await sql`
      insert into public.member_recommendation_runs (user_id, computed_at, candidates)
      values (${userId}, now(), ${kept})
      on conflict (user_id) do update set computed_at = excluded.computed_at, candidates = excluded.candidates
    `.execute(trx);
    return kept;
  });
}

/**
 * Members whose recommendations are due: something of theirs changed since the last run
 * (onboarding choices, wishlist, a purchase, a view), or the run is older than the refresh age.
 * Members who never read theirs have none to refresh: they are computed on first reading.
 */
export async function dueMembers(db: Database, limit: number = RECOMMENDATIONS.batch): Promise<string[]> {
  const { rows } = await sql<{ user_id: string }>`
    select r.user_id
      from public.member_recommendation_runs r
     where r.computed_at < now() - make_interval(hours => ${RECOMMENDATIONS.refreshAfterHours})
        or exists (select 1 from public.profiles p where p.id = r.user_id and p.updated_at > r.computed_at)
        or exists (select 1 from public.profile_authors pa where pa.user_id = r.user_id and pa.created_at > r.computed_at)
        or exists (select 1 from public.wishlist_items wi where wi.user_id = r.user_id and wi.created_at > r.computed_at)
        or exists (select 1 from public.listing_views v where v.viewer_id = r.user_id and v.viewed_at > r.computed_at)
        or exists (select 1 from public.book_purchases p where p.buyer_id = r.user_id and p.paid_at > r.computed_at)
     order by r.computed_at
     limit ${limit}`.execute(db);
  return rows.map((row) => row.user_id);
}

/** The job: recomputes the due members' recommendations; answers how many members. */
export async function refreshRecommendations(db: Database): Promise<number> {
  const members = await dueMembers(db);
  if (members.length === 0) return 0;
  const cold = await coldStart(db);
  for (const userId of members) await computeRecommendations(db, userId, cold);
  return members.length;
}

interface RecommendationRow extends CardRow {
  reason: Recommendations['items'][number]['reason'];
  because: string | null;
}

/**
 * The member's run and, when it is current, their list: one prepared statement. `stale`: they
 * have none yet, or changed their onboarding choices since it was computed. A stale run's list
 * is not read (the caller computes it first), unless it was `justComputed`.
 */
async function readRecommendations(db: Database, userId: string, limit: number, justComputed = false) {
  // With no list to read, the run's row comes alone, its card columns null (id among them).
  const { rows } = await sql<
    RecommendationRow & { computed_at: Date | null; stale: boolean }
  >`${sql.raw(PREPARED_TAG)}
    with run as (
      select r.computed_at, coalesce(p.updated_at > r.computed_at, true) as stale
        from (select 1) one
        left join public.member_recommendation_runs r on r.user_id = ${userId}
        left join public.profiles p on p.id = ${userId}
    )
    select run.computed_at, run.stale, c.*
      from run
      left join lateral (
        select ${CARD_COLUMNS}, r.reason, r.because, r.rank
          from public.member_recommendations r
          join public.listings l on l.id = r.listing_id and l.status = 'active'
          ${CARD_JOINS}
         where r.user_id = ${userId} and (not run.stale or ${justComputed})
         order by r.rank
         limit ${limit}
      ) c on true
     order by c.rank`.execute(db);
  const first = rows[0];
  return {
    computedAt: first?.computed_at ?? null,
    stale: first?.stale ?? true,
    rows: rows.filter((row) => row.id !== null),
  };
}

/**
 * A member's recommendations, best first, still on sale: read from the table the job fills, in
 * one statement. Computed on the spot only when they have none yet or have changed their
 * onboarding choices since (the rest waits for the job), then read again.
 */
export async function memberRecommendations(
  db: Database,
  userId: string,
  limit: number,
): Promise<Recommendations> {
  let read = await readRecommendations(db, userId, limit);
  if (read.stale || !read.computedAt) {
    await computeRecommendations(db, userId);
    read = await readRecommendations(db, userId, limit, true);
  }
  const items = read.rows.map((row) => ({ ...toCard(row), reason: row.reason, because: row.because }));
  return {
    items,
    coldStart: items.every((item) => item.reason === 'staff_pick' || item.reason === 'trending'),
    computedAt: (read.computedAt ?? new Date()).toISOString(),
  };
}
