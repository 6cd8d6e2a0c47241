/** Sellers as buyers see them: the discover page and a seller's profile. */
import type { SellerCard } from '@reshelf/contracts';
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

/** Sellers with books on sale, those with the most first. */
export async function discoverSellers(db: Database, limit = 48): Promise<SellerCard[]> {
  const { rows } = await sql<SellerRow>`
    with counts as (
      select seller_id, count(*)::int as active from public.listings
      where status = 'active' group by seller_id
    )
    select ${SELLER_COLUMNS}, counts.active
    from counts
    join public.profiles p on p.id = counts.seller_id
    left join lateral (
      select c.slug, c.name, c.town from public.charities c
      where c.owner_id = p.id and c.status = 'approved' order by c.created_at limit 1
    ) ch on true
    order by counts.active desc, p.display_name, p.id
    limit ${limit}`.execute(db);
  return rows.map(toSeller);
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

/**
 * A seller's or a charity shop's bundle discount tiers, as buyers see them on the seller's page
 * ("Buy more from this seller and save"): fewest books first, [] when off. An unknown shop is
 * NOT_FOUND; a seller without tiers (or unknown) simply has none.
 */
export async function publicBundleTiers(
  db: Database,
  owner: { sellerId: string } | { charitySlug: string },
): Promise<{ tiers: { minBooks: number; percent: number }[] }> {
  let query = db.selectFrom('bundle_tiers as t').select(['t.min_books', 't.percent']).orderBy('t.min_books');
  if ('sellerId' in owner) {
    query = query.where('t.seller_id', '=', owner.sellerId);
  } else {
    const charity = await db
      .selectFrom('charities')
      .select('id')
      .where('slug', '=', owner.charitySlug)
      .where('status', '=', 'approved')
      .executeTakeFirst();
    if (!charity) throw new AppError('NOT_FOUND', 'We could not find that charity.');
    query = query.where('t.charity_id', '=', charity.id);
  }
  const rows = await query.execute();
  return { tiers: rows.map((row) => ({ minBooks: row.min_books, percent: row.percent })) };
}
