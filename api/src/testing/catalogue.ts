/** Small builders for catalogue tests: people, books and listings with sensible defaults. */
import { randomBytes } from 'node:crypto';
import type { Condition, ParcelSize } from '@reshelf/contracts';
import type { FastifyInstance } from 'fastify';
import request from 'supertest';
import type { Database } from '../db/index.ts';

export async function createPerson(
  db: Database,
  email: string,
  displayName = email.split('@')[0]!,
): Promise<string> {
  const user = await db
    .insertInto('auth.users')
    .values({ email, raw_user_meta_data: JSON.stringify({ display_name: displayName }) })
    .returning('id')
    .executeTakeFirstOrThrow();
  // The sign-up trigger has made the profile from the display name.
  return user.id;
}

export async function createBook(
  db: Database,
  book: {
    title: string;
    authors?: string[];
    isbn13?: string | null;
    category?: string;
    genres?: string[];
    description?: string;
    /** The edition's pages (what a parcel is estimated from). */
    pageCount?: number | null;
  },
): Promise<string> {
  const category = book.category
    ? await db
        .selectFrom('categories')
        .select('id')
        .where('slug', '=', book.category)
        .executeTakeFirstOrThrow()
    : undefined;
  const row = await db
    .insertInto('books')
    .values({
      title: book.title,
      authors: book.authors ?? ['A. N. Author'],
      isbn13: book.isbn13 ?? null,
      description: book.description ?? null,
      category_id: category?.id ?? null,
      page_count: book.pageCount ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const slug of book.genres ?? []) {
    const genre = await db
      .selectFrom('genres')
      .select('id')
      .where('slug', '=', slug)
      .executeTakeFirstOrThrow();
    await db.insertInto('book_genres').values({ book_id: row.id, genre_id: genre.id }).execute();
  }
  return row.id;
}

export async function createListing(
  db: Database,
  listing: {
    sellerId: string;
    bookId: string;
    price?: number;
    condition?: Condition;
    parcelSize?: ParcelSize;
    format?: 'paperback' | 'hardback' | null;
    status?: 'active' | 'draft' | 'sold' | 'removed' | 'withdrawn' | 'reserved';
    charityId?: string | null;
    publishedAt?: Date;
    slug?: string;
    description?: string;
  },
): Promise<{ id: string; slug: string }> {
  const slug = listing.slug ?? `listing-${randomBytes(5).toString('hex')}`;
  return db
    .insertInto('listings')
    .values({
      seller_id: listing.sellerId,
      book_id: listing.bookId,
      slug,
      status: listing.status ?? 'active',
      condition: listing.condition ?? 'good',
      price_minor: listing.price ?? 500,
      parcel_size: listing.parcelSize ?? 'small',
      format: listing.format ?? null,
      charity_id: listing.charityId ?? null,
      description: listing.description ?? null,
      published_at: listing.publishedAt ?? new Date(Date.now() - 60_000),
    })
    .returning(['id', 'slug'])
    .executeTakeFirstOrThrow()
    .then((row) => ({ id: row.id, slug: row.slug! }));
}

export async function createCharity(
  db: Database,
  charity: {
    slug: string;
    name: string;
    town?: string;
    status?: 'approved' | 'pending' | 'rejected';
    ownerId?: string;
    registeredNumber?: string;
  },
): Promise<string> {
  const row = await db
    .insertInto('charities')
    .values({
      slug: charity.slug,
      name: charity.name,
      town: charity.town ?? null,
      status: charity.status ?? 'approved',
      owner_id: charity.ownerId ?? null,
      registered_number:
        charity.registeredNumber ?? `1${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * A tRPC query sent as raw HTTP, as a browser sends it, with input of any shape. Only for
 * hostile-input tables that must send what the typed client (./client.ts) would not let through.
 */
export function rawTrpcQuery(app: FastifyInstance, path: string, input?: unknown) {
  const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  return request(app.server).get(`/trpc/${path}${query}`);
}
