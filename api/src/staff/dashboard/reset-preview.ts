/**
 * What "Reset and Seed" would remove, counted by the server before anything goes:
 * the rows earlier seeds made and recorded in seed_items that are still there (the reset,
 * public.seed_openlibrary_reset, removes exactly those, and keeps any a real order still needs).
 * The digest names that set, so a reset confirmed against an older look refuses to run.
 */
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';

export interface ResetPreview {
  listings: number;
  soldListings: number;
  orders: number;
  disputes: number;
  digest: string;
}

export async function resetPreview(db: Database): Promise<ResetPreview> {
  const { rows } = await sql<Omit<ResetPreview, 'digest'> & { digest: string | null }>`
    with present as (
      select s.kind, s.row_id from public.seed_items s
      where (s.kind in ('listing', 'sold_listing')
               and exists (select 1 from public.listings l where l.id = s.row_id))
         or (s.kind = 'order' and exists (select 1 from public.orders o where o.id = s.row_id))
         or (s.kind = 'dispute' and exists (select 1 from public.disputes d where d.id = s.row_id))
         or s.kind in ('book', 'charity')
    )
    select
      count(*) filter (where kind = 'listing')::int as listings,
      count(*) filter (where kind = 'sold_listing')::int as "soldListings",
      count(*) filter (where kind = 'order')::int as orders,
      count(*) filter (where kind = 'dispute')::int as disputes,
      md5(coalesce(string_agg(kind || ':' || row_id, ',' order by kind, row_id), '')) as digest
    from present`.execute(db);
  const row = rows[0]!;
  return { ...row, digest: row.digest ?? '' };
}
