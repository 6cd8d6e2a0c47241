/**
 * Book records and who vouches for them (decision 0061). A book's details are the
 * catalogue's (seeded or imported), a lookup's (Open Library) or staff's: verified. Details a
 * seller typed make an unverified book, which is nobody's word but theirs:
 *   - another seller starting a listing of the same ISBN is not handed them as fact: a lookup
 *     is tried again (and, when it finds the book, replaces them and verifies it); otherwise the
 *     listing starts without a book and the seller types what their copy says;
 *   - any seller whose listing uses an unverified book may correct it (saveTypedBook), and the
 *     correction is what every listing of the book shows (it was never more than a seller's);
 *   - staff confirm or correct it on /admin/books (staff-books.service.ts), which verifies it;
 *     from then on sellers get it pre-filled and cannot change it.
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';

type Db = Database | Transaction<DB>;

import type { BookLookupPort, ExternalBook } from '../../platform/book-lookup/book-lookup.ts';
import { placeWorkInSeries } from '../series/series.service.ts';

/** A book found by ISBN outside our catalogue, as the columns of its row in `books`. */
export function bookColumns(found: ExternalBook) {
  return {
    title: found.title,
    subtitle: found.subtitle,
    authors: found.authors,
    publisher: found.publisher,
    published_year: found.publishedYear,
    page_count: found.pageCount,
    cover_url: found.coverUrl,
  };
}

/** What a verified-by-lookup row carries besides the book's columns. */
const byLookup = () => ({ verification: 'lookup' as const, verified_at: new Date() });
/** What a row of typed details carries: nobody has vouched for it. */
export const UNVERIFIED = { verification: null, verified_at: null } as const;

/**
 * The book a new listing of `isbn13` starts from, pre-filled: a verified record
 * (`catalogue`), or one a lookup finds now (`openlibrary`: stored verified, in place of any
 * unverified details typed before). Null when there is neither: the seller types the details.
 */
export async function verifiedBookFor(
  db: Db,
  lookup: Pick<BookLookupPort, 'lookup'>,
  isbn13: string,
): Promise<{ id: string; source: 'catalogue' | 'openlibrary' } | null> {
  const known = await db
    .selectFrom('books')
    .select(['id', 'verification'])
    .where('isbn13', '=', isbn13)
    .executeTakeFirst();
  if (known?.verification) return { id: known.id, source: 'catalogue' };
  const found = await lookup.lookup(isbn13);
  if (!found || found.authors.length === 0) return null;
  const work = await openLibraryWork(db, found);
  if (known) {
    // What a seller typed gives way to what the lookup found; a record verified meanwhile stays.
    await db
      .updateTable('books')
      .set({ ...bookColumns(found), ...byLookup(), ...work })
      .where('id', '=', known.id)
      .where('verification', 'is', null)
      .execute();
    await placeInSeries(db, known.id, found);
    return { id: known.id, source: 'openlibrary' };
  }
  const inserted = await db
    .insertInto('books')
    .values({ isbn13, isbn10: null, ...bookColumns(found), ...byLookup(), ...work })
    .onConflict((oc) => oc.column('isbn13').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) {
    await placeInSeries(db, inserted.id, found);
    return { id: inserted.id, source: 'openlibrary' };
  }
  // Another listing stored it a moment ago: take it as it is now.
  return verifiedBookFor(db, { lookup: async () => null }, isbn13);
}

/**
 * The work a looked-up edition joins when Open Library names its work: the one with that key,
 * else the work its title and author give, which takes the key (decision 0082; the SQL
 * function `work_for_open_library`, which asks `work_for` for the grouping rule). Without a
 * key, nothing: the insert trigger groups the edition by title and author.
 */
async function openLibraryWork(db: Db, found: ExternalBook): Promise<{ work_id?: string }> {
  if (!found.workKey) return {};
  const { rows } = await sql<{ id: string }>`
    select public.work_for_open_library(${found.workKey}, ${found.title}, ${found.authors}::text[]) as id`.execute(
    db,
  );
  return { work_id: rows[0]!.id };
}

/**
 * A looked-up edition's series (Open Library's `series` field, decision 0089): its work joins
 * the series of that name (made when new) at that volume, unless the work has a series already.
 */
async function placeInSeries(db: Db, bookId: string, found: ExternalBook): Promise<void> {
  if (!found.series) return;
  const book = await db.selectFrom('books').select('work_id').where('id', '=', bookId).executeTakeFirst();
  if (!book?.work_id) return;
  await placeWorkInSeries(db, book.work_id, { ...found.series, openLibraryName: found.series.name });
}

export interface TypedBook {
  title: string;
  subtitle: string | null;
  authors: string[];
  publisher: string | null;
  published_year: number | null;
  category_id?: string | null;
}

/**
 * Stores the details a seller typed for their listing's book, and answers the book and whether
 * it is verified (then its details were left as they are: not the seller's to change):
 *   - `bookId`: the listing's book, corrected if unverified;
 *   - otherwise `isbn13`'s book if there is one (corrected if unverified), or a new unverified
 *     book (with the ISBN, or none).
 */
export async function saveTypedBook(
  db: Db,
  sellerId: string,
  target: { bookId: string } | { isbn13: string | null },
  details: TypedBook,
): Promise<{ id: string; verified: boolean }> {
  const existing =
    'bookId' in target
      ? await db
          .selectFrom('books')
          .select(['id', 'verification'])
          .where('id', '=', target.bookId)
          .executeTakeFirst()
      : target.isbn13
        ? await db
            .selectFrom('books')
            .select(['id', 'verification'])
            .where('isbn13', '=', target.isbn13)
            .executeTakeFirst()
        : undefined;
  if (existing) {
    if (existing.verification) return { id: existing.id, verified: true };
    await db.updateTable('books').set(details).where('id', '=', existing.id).execute();
    return { id: existing.id, verified: false };
  }
  const inserted = await db
    .insertInto('books')
    .values({
      ...details,
      isbn13: 'isbn13' in target ? target.isbn13 : null,
      created_by: sellerId,
      ...UNVERIFIED,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: inserted.id, verified: false };
}
