/**
 * Seller analytics (/account/analytics, and the charity dashboard for a charity's books; issue
 * 26). Per period (the last 7 days, 30 days, or 12 months, London time, today included): listing
 * views, wishlist saves, offers received and accepted, sales, revenue net of fees (what the
 * seller is owed: the money definitions' sold_books view), conversion and average days to
 * sell; day by day or month by month for the charts; and a table per listing with a suggestion.
 */
import type { AnalyticsPeriod, SellerAnalytics } from '@reshelf/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/index.ts';

export type AnalyticsScope = { kind: 'seller'; userId: string } | { kind: 'charity'; charityId: string };

/** Listings in the table: the busiest first, at most this many. */
export const ANALYTICS_LISTINGS = 100;

const PERIODS: Record<AnalyticsPeriod, { start: RawBuilder<unknown>; step: string; format: string }> = {
  '7d': { start: sql`t.today - 6`, step: '1 day', format: 'YYYY-MM-DD' },
  '30d': { start: sql`t.today - 29`, step: '1 day', format: 'YYYY-MM-DD' },
  '12m': {
    start: sql`(date_trunc('month', t.today) - interval '11 months')::date`,
    step: '1 month',
    format: 'YYYY-MM',
  },
};

function scopeOf(scope: AnalyticsScope) {
  return scope.kind === 'seller'
    ? sql`l.seller_id = ${scope.userId} and l.charity_id is null`
    : sql`l.charity_id = ${scope.charityId}`;
}

type Totals = Omit<SellerAnalytics['points'][number], 'bucket'>;
const ZERO: Totals = {
  views: 0,
  wishlists: 0,
  offersReceived: 0,
  offersAccepted: 0,
  sales: 0,
  revenueNetMinor: 0,
};

export interface ListingFigures {
  status: string;
  photos: number;
  views: number;
  viewsLast14Days: number;
  wishlists: number;
  offers: number;
  daysListed: number | null;
}

/** What a seller might do about one listing, or null when it is doing fine (or is sold). */
export function suggestionFor(listing: ListingFigures): string | null {
  if (listing.status !== 'active') return null;
  if (listing.photos === 0) return 'No photo yet: listings with a photo sell faster. Add one.';
  if ((listing.daysListed ?? 0) >= 14 && listing.viewsLast14Days === 0) {
    return 'No views in 14 days: consider a lower price or a better photo.';
  }
  if (listing.wishlists >= 2) {
    return `Saved by ${listing.wishlists} readers: a small price drop tells each of them.`;
  }
  if (listing.views >= 20 && listing.wishlists === 0 && listing.offers === 0) {
    return 'Plenty of views but no saves or offers: compare your price with other copies.';
  }
  if ((listing.daysListed ?? 0) >= 60) return 'Listed for over 60 days: a lower price may find it a reader.';
  return null;
}

export async function sellerAnalytics(
  db: Database,
  scope: AnalyticsScope,
  period: AnalyticsPeriod,
  now: Date = new Date(),
): Promise<SellerAnalytics> {
  const { start, step, format } = PERIODS[period];
  const mine = scopeOf(scope);
  const window = sql`
    t as (select (${now}::timestamptz at time zone 'Europe/London')::date as today),
    w as (
      select ${start} as starts,
             (${start})::timestamp at time zone 'Europe/London' as starts_at,
             ${now}::timestamptz as ends_at
        from t
    )`;
  const [buckets, events, timing, listings] = await Promise.all([
    sql<{ bucket: string }>`
      with ${window}
      select to_char(d, ${format}) as bucket
        from t, w, generate_series(w.starts, t.today, ${step}::interval) d
       order by d`.execute(db),
    sql<{
      bucket: string;
      views: number;
      wishlists: number;
      offers_received: number;
      offers_accepted: number;
      sales: number;
      revenue: number;
    }>`
      with ${window},
      mine as (select l.id from public.listings l where ${mine}),
      events as (
        select to_char(v.viewed_on, ${format}) as bucket, 'view' as kind, 0 as money
          from public.listing_views v join mine m on m.id = v.listing_id, w
         where v.viewed_on >= w.starts
        union all
        select to_char(x.created_at at time zone 'Europe/London', ${format}), 'wishlist', 0
          from public.wishlist_items x join mine m on m.id = x.listing_id, w
         where x.created_at >= w.starts_at and x.created_at <= w.ends_at
        union all
        select to_char(o.created_at at time zone 'Europe/London', ${format}), 'offer', 0
          from public.offers o join mine m on m.id = o.listing_id, w
         where o.made_by = 'buyer' and o.created_at >= w.starts_at and o.created_at <= w.ends_at
        union all
        select to_char(o.responded_at at time zone 'Europe/London', ${format}), 'accepted', 0
          from public.offers o join mine m on m.id = o.listing_id, w
         where o.status in ('accepted', 'purchased', 'lapsed')
           and o.responded_at >= w.starts_at and o.responded_at <= w.ends_at
        union all
        select to_char(s.paid_at at time zone 'Europe/London', ${format}), 'sale', s.earnings_minor
          from public.sold_books s join mine m on m.id = s.listing_id, w
         where s.paid_at >= w.starts_at and s.paid_at <= w.ends_at
      )
      select bucket,
             count(*) filter (where kind = 'view')::int as views,
             count(*) filter (where kind = 'wishlist')::int as wishlists,
             count(*) filter (where kind = 'offer')::int as offers_received,
             count(*) filter (where kind = 'accepted')::int as offers_accepted,
             count(*) filter (where kind = 'sale')::int as sales,
             coalesce(sum(money) filter (where kind = 'sale'), 0)::int as revenue
        from events
       group by bucket`.execute(db),
    sql<{ average_days: number | null }>`
      with ${window},
      mine as (select l.id, l.published_at from public.listings l where ${mine})
      select round((avg(extract(epoch from (s.paid_at - m.published_at)) / 86400))::numeric, 1)::float8
               as average_days
        from public.sold_books s join mine m on m.id = s.listing_id, w
       where s.paid_at >= w.starts_at and s.paid_at <= w.ends_at and m.published_at is not null`.execute(db),
    sql<{
      id: string;
      slug: string | null;
      title: string | null;
      status: string;
      price_minor: number | null;
      photos: number;
      views: number;
      views_14: number;
      wishlists: number;
      offers: number;
      days_listed: number | null;
    }>`
      with ${window},
      mine as (
        select l.id, l.slug, l.status, l.price_minor, l.book_id, l.photos, l.published_at,
               (select max(s.paid_at) from public.sold_books s where s.listing_id = l.id) as sold_at
          from public.listings l
         where ${mine} and l.status <> 'draft'
      )
      select m.id, m.slug, b.title, m.status, m.price_minor, jsonb_array_length(m.photos) as photos,
             (select count(*)::int from public.listing_views v
               where v.listing_id = m.id and v.viewed_on >= w.starts) as views,
             (select count(*)::int from public.listing_views v
               where v.listing_id = m.id and v.viewed_on > (${now}::timestamptz)::date - 14) as views_14,
             (select count(*)::int from public.wishlist_items x
               where x.listing_id = m.id and x.created_at >= w.starts_at) as wishlists,
             (select count(*)::int from public.offers o
               where o.listing_id = m.id and o.made_by = 'buyer' and o.created_at >= w.starts_at) as offers,
             floor(extract(epoch from (coalesce(m.sold_at, ${now}::timestamptz) - m.published_at)) / 86400)::int
               as days_listed
        from mine m
        join w on true
        left join public.books b on b.id = m.book_id
       where m.status in ('active', 'reserved') or m.sold_at >= w.starts_at
       order by (m.status = 'active') desc, views desc, m.published_at desc nulls last, m.id
       limit ${ANALYTICS_LISTINGS}`.execute(db),
  ]);

  const byBucket = new Map(events.rows.map((row) => [row.bucket, row]));
  const points = buckets.rows.map(({ bucket }) => {
    const row = byBucket.get(bucket);
    return row
      ? {
          bucket,
          views: row.views,
          wishlists: row.wishlists,
          offersReceived: row.offers_received,
          offersAccepted: row.offers_accepted,
          sales: row.sales,
          revenueNetMinor: row.revenue,
        }
      : { bucket, ...ZERO };
  });
  const totals = points.reduce<Totals>(
    (sum, point) => ({
      views: sum.views + point.views,
      wishlists: sum.wishlists + point.wishlists,
      offersReceived: sum.offersReceived + point.offersReceived,
      offersAccepted: sum.offersAccepted + point.offersAccepted,
      sales: sum.sales + point.sales,
      revenueNetMinor: sum.revenueNetMinor + point.revenueNetMinor, // money-ok: the periods' sold_books earnings
    }),
    ZERO,
  );
  return {
    period,
    scope: scope.kind,
    totals: {
      ...totals,
      conversionPercent: totals.views > 0 ? Math.round((totals.sales / totals.views) * 1000) / 10 : null,
      averageDaysToSell: timing.rows[0]?.average_days ?? null,
    },
    points,
    listings: listings.rows.map((row) => ({
      id: row.id,
      slug: row.slug,
      title: row.title ?? 'Untitled',
      status: row.status,
      priceMinor: row.price_minor,
      views: row.views,
      wishlists: row.wishlists,
      offers: row.offers,
      daysListed: row.days_listed,
      suggestion: suggestionFor({
        status: row.status,
        photos: row.photos,
        views: row.views,
        viewsLast14Days: row.views_14,
        wishlists: row.wishlists,
        offers: row.offers,
        daysListed: row.days_listed,
      }),
    })),
  };
}
