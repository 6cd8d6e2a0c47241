/**
 * A seller's rating as buyers see it: the average stars of the published reviews buyers wrote
 * about them, and how often they dispatched by the deadline. The one place it is read: the
 * community domain's reviews (profiles, cards) and the catalogue's book page both ask here, as
 * the catalogue sits below community in the layering (api/scripts/check-imports.ts).
 */
import type { Rating } from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';

/** A rating from its counts: the average to one decimal place, the on-time share to a whole percent. */
export function ratingOf(row: {
  average: string | number | null;
  n: number;
  counted: number;
  on_time: number;
}): Rating {
  const average = row.average === null ? null : Math.round(Number(row.average) * 10) / 10;
  return {
    average: row.n > 0 ? average : null,
    count: row.n,
    dispatchCounted: row.counted,
    dispatchedOnTime: row.on_time,
    onTimePercent: row.counted > 0 ? Math.round((row.on_time * 100) / row.counted) : null,
  };
}

/** Ratings of several sellers at once, by seller id (a seller with no reviews has count 0). */
export async function sellerRatings(db: Database, sellerIds: string[]): Promise<Record<string, Rating>> {
  if (sellerIds.length === 0) return {};
  const { rows } = await sql<{
    seller_id: string;
    average: string | null;
    n: number;
    counted: number;
    on_time: number;
  }>`
    with ids as (select unnest(${sellerIds}::uuid[]) as seller_id),
    stars as (
      select r.subject_id as seller_id, avg(r.stars) as average, count(*)::int as n
      from public.reviews r
      where r.subject_id = any(${sellerIds}::uuid[]) and r.author_role = 'buyer'
        and r.published_at is not null and r.removed_at is null
      group by r.subject_id
    ),
    dispatch as (
      select o.seller_id, count(*)::int as counted,
        count(*) filter (where o.dispatched_at <= o.dispatch_by)::int as on_time
      from public.orders o
      where o.seller_id = any(${sellerIds}::uuid[]) and o.dispatch_by is not null
        and (o.dispatched_at is not null or o.dispatch_by <= now())
      group by o.seller_id
    )
    select ids.seller_id, stars.average, coalesce(stars.n, 0) as n,
      coalesce(dispatch.counted, 0) as counted, coalesce(dispatch.on_time, 0) as on_time
    from ids
    left join stars on stars.seller_id = ids.seller_id
    left join dispatch on dispatch.seller_id = ids.seller_id`.execute(db);
  return Object.fromEntries(rows.map((row) => [row.seller_id, ratingOf(row)]));
}
