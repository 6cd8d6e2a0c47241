/**
 * The staff command palette's search: people by email or display name, listings by title or
 * slug, orders by reference. A few of each, best first; the text is matched literally (a `%`
 * or `_` typed by the person is not a wildcard).
 */
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { escapeLike } from '../../db/search.ts';

export const ADMIN_SEARCH_LIMIT = 5;

export interface AdminSearchResults {
  users: { id: string; email: string; displayName: string }[];
  listings: {
    id: string;
    slug: string;
    title: string;
    status: string;
    sellerName: string;
    priceMinor: number | null;
  }[];
  orders: { id: string; reference: string; status: string; totalMinor: number }[];
}

export async function searchAdmin(db: Database, query: string): Promise<AdminSearchResults> {
  const q = query.trim();
  const escaped = escapeLike(q);
  const pattern = `%${escaped}%`;
  const normalised = `%${escaped.toLowerCase()}%`;

  const [users, listings, orders] = await Promise.all([
    db
      .selectFrom('auth.users as u')
      .leftJoin('profiles as p', 'p.id', 'u.id')
      .select(['u.id', 'u.email', 'p.display_name'])
      .where((eb) => eb.or([eb('u.email', 'ilike', pattern), eb('p.display_name', 'ilike', pattern)]))
      // Exact and leading matches first, then the newest accounts.
      .orderBy(sql`lower(u.email) = ${q.toLowerCase()}`, 'desc')
      .orderBy(sql`u.email ilike ${`${escaped}%`}`, 'desc')
      .orderBy('u.created_at', 'desc')
      .limit(ADMIN_SEARCH_LIMIT)
      .execute(),
    db
      .selectFrom('listings as l')
      .innerJoin('books as b', 'b.id', 'l.book_id')
      .leftJoin('profiles as p', 'p.id', 'l.seller_id')
      .leftJoin('charities as c', 'c.id', 'l.charity_id')
      .select([
        'l.id',
        'l.slug',
        'b.title',
        'l.status',
        'l.price_minor',
        'p.display_name',
        'c.name as charity_name',
      ])
      .where('l.slug', 'is not', null)
      .where((eb) =>
        eb.or([
          eb(sql`b.search_title`, 'like', sql`public.search_normalise(${normalised}::text)`),
          eb('l.slug', 'like', normalised),
        ]),
      )
      .orderBy(sql`l.status = 'active'`, 'desc')
      .orderBy('l.created_at', 'desc')
      .limit(ADMIN_SEARCH_LIMIT)
      .execute(),
    db
      .selectFrom('orders as o')
      .select(['o.id', 'o.reference', 'o.status', 'o.total_minor'])
      .where('o.reference', 'ilike', pattern)
      .orderBy('o.created_at', 'desc')
      .limit(ADMIN_SEARCH_LIMIT)
      .execute(),
  ]);

  return {
    users: users.map((row) => ({
      id: row.id,
      email: row.email ?? '',
      displayName: row.display_name ?? '',
    })),
    listings: listings.map((row) => ({
      id: row.id,
      slug: row.slug!,
      title: row.title,
      status: row.status,
      sellerName: row.charity_name ?? row.display_name ?? '',
      priceMinor: row.price_minor,
    })),
    orders: orders.map((row) => ({
      id: row.id,
      reference: row.reference,
      status: row.status,
      totalMinor: row.total_minor,
    })),
  };
}
