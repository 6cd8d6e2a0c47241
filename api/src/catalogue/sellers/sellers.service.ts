/** Sellers as buyers see them: the discover page and a seller's profile. */
import type { DiscoverSeller, SellerCard } from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';

interface SellerRow {
  id: string;
  display_name: string;
  town: string | null;
  bio: string | null;
  avatar_url: string | null;
  created_at: Date;
  active: number;
  charity_slug: string | null;
  charity_name: string | null;
  charity_town: string | null;
}

function toSeller(row: SellerRow): SellerCard {
  return {
    id: row.id,
    displayName: row.charity_name ?? row.display_name,
    town: row.charity_town ?? row.town,
    bio: row.bio,
    avatarUrl: row.avatar_url,
    memberSince: row.created_at.toISOString(),
    activeListings: row.active,
    charity: row.charity_slug && row.charity_name ? { slug: row.charity_slug, name: row.charity_name } : null,
  };
}

const SELLER_COLUMNS = sql`
  p.id, p.display_name, p.town, p.bio, p.avatar_url, p.created_at,
  ch.slug as charity_slug, ch.name as charity_name, ch.town as charity_town`;

/**
 * Sellers with books on sale for /discover-sellers (decision 0044), ranked by
 * followers and recent activity: three times ln(1 + followers) plus ln(1 + books listed in the
 * last 30 days), then the most books on sale. Logarithms, so a seller with thousands of
 * followers does not bury everyone newer, and one busy afternoon of listing does not either.
 * There are no seller ratings yet; when the trust issue adds them they belong first here.
 */
export async function discoverSellers(db: Database, limit = 48): Promise<DiscoverSeller[]> {
  const { rows } = await sql<SellerRow & { followers: number; last_listed_at: Date | null }>`
    with counts as (
      select seller_id, count(*)::int as active from public.listings
      where status = 'active' group by seller_id
    ),
    ranked as (
      select counts.seller_id, counts.active,
        (select count(*)::int from public.follows f
          where f.kind = 'seller' and f.seller_id = counts.seller_id) as followers,
        (select count(*)::int from public.listings r
          where r.seller_id = counts.seller_id and r.status <> 'draft'
            and r.published_at > now() - interval '30 days') as recent,
        (select max(r.published_at) from public.listings r
          where r.seller_id = counts.seller_id and r.status <> 'draft'
            and r.published_at > now() - interval '1 year') as last_listed_at
      from counts
    )
    select ${SELLER_COLUMNS}, ranked.active, ranked.followers, ranked.last_listed_at
    from ranked
    join public.profiles p on p.id = ranked.seller_id
    left join lateral (
      select c.slug, c.name, c.town from public.charities c
      where c.owner_id = p.id and c.status = 'approved' order by c.created_at limit 1
    ) ch on true
    order by 3 * ln(1 + ranked.followers) + ln(1 + ranked.recent) desc, ranked.active desc,
      p.display_name, p.id
    limit ${limit}`.execute(db);
  return rows.map((row) => ({
    ...toSeller(row),
    followers: row.followers,
    lastListedAt: row.last_listed_at?.toISOString() ?? null,
  }));
}

export async function sellerById(db: Database, sellerId: string): Promise<SellerCard> {
  const { rows } = await sql<SellerRow>`
    select ${SELLER_COLUMNS},
      (select count(*)::int from public.listings l where l.seller_id = p.id and l.status = 'active') as active
    from public.profiles p
    left join lateral (
      select c.slug, c.name, c.town from public.charities c
      where c.owner_id = p.id and c.status = 'approved' order by c.created_at limit 1
    ) ch on true
    where p.id = ${sellerId}`.execute(db);
  const row = rows[0];
  if (!row)
    throw new AppError(
      'NOT_FOUND',
      'We couldn’t find that seller. The link may be wrong, or they have left Reshelf.',
    );
  return toSeller(row);
}
