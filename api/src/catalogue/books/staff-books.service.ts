/**
 * Catalogue records for staff (/admin/books): find books by title, author or ISBN; correct a
 * book's title, authors, description and category; merge a duplicate into the book to keep —
 * its listings and genres move over and the kept book takes the ISBN, cover and description it
 * lacked, then the duplicate is deleted, all in one transaction. Each change is audited; the
 * books and listings triggers keep listings' category and genres and the public cache right.
 *
 * Books a seller typed are unverified (book-records.ts, decision 0061): staff find them with the
 * `unverified` filter, who added them, and confirm them as they are (`confirmBook`) or correct
 * them (`updateBook`); either verifies the book, which sellers then get pre-filled and cannot change.
 */
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { escapeLike } from '../../db/search.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';

export interface StaffBookRow {
  id: string;
  title: string;
  authors: string[];
  isbn13: string | null;
  description: string | null;
  category: string | null;
  listings: number;
  verified: boolean;
  /** The member who typed an unverified book (their address), or null. */
  addedBy: string | null;
}

export async function searchBooks(
  db: Database,
  filter: { q?: string; limit: number; unverified?: boolean },
): Promise<StaffBookRow[]> {
  let query = db
    .selectFrom('books as b')
    .leftJoin('categories as c', 'c.id', 'b.category_id')
    .leftJoin('auth.users as u', 'u.id', 'b.created_by')
    .select([
      'b.id',
      'b.title',
      'b.authors',
      'b.isbn13',
      'b.description',
      'b.verification',
      'u.email as added_by',
      'c.slug as category',
      sql<number>`(select count(*)::int from public.listings l where l.book_id = b.id)`.as('listings'),
    ]);
  if (filter.q) {
    const digits = filter.q.replace(/[^0-9X]/gi, '');
    const pattern = `%${escapeLike(filter.q.toLowerCase())}%`;
    query = query.where((eb) =>
      eb.or([
        eb(sql`b.search_title`, 'like', sql`public.search_normalise(${pattern}::text)`),
        eb(sql`b.search_authors`, 'like', sql`public.search_normalise(${pattern}::text)`),
        ...(digits.length >= 10
          ? [eb('b.isbn13', '=', digits), eb('b.isbn10', '=', digits.toUpperCase())]
          : []),
      ]),
    );
  }
  if (filter.unverified) query = query.where('b.verification', 'is', null);
  const rows = await query.orderBy('b.title').orderBy('b.id').limit(filter.limit).execute();
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    authors: row.authors,
    isbn13: row.isbn13,
    description: row.description,
    category: row.category ?? null,
    listings: row.listings,
    verified: row.verification !== null,
    addedBy: row.verification === null ? (row.added_by ?? null) : null,
  }));
}

/** Staff vouch for a book as it is: verified, so sellers get it pre-filled and cannot change it. */
export async function confirmBook(db: Database, staffId: string, bookId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const book = await trx
      .updateTable('books')
      .set({ verification: 'staff', verified_at: new Date() })
      .where('id', '=', bookId)
      .returning(['title', 'authors'])
      .executeTakeFirst();
    if (!book) throw new AppError('NOT_FOUND', 'We could not find that book. Search again.');
    await recordAudit(trx, {
      actorId: staffId,
      action: 'book.confirm',
      targetType: 'book',
      targetId: bookId,
      details: { title: book.title, authors: book.authors },
    });
  });
}

export async function updateBook(
  db: Database,
  staffId: string,
  input: {
    bookId: string;
    title: string;
    authors: string[];
    description: string | null;
    category: string | null;
  },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('books as b')
      .leftJoin('categories as c', 'c.id', 'b.category_id')
      .select(['b.title', 'b.authors', 'b.description', 'c.slug as category'])
      .where('b.id', '=', input.bookId)
      .forUpdate('b')
      .executeTakeFirst();
    if (!before) throw new AppError('NOT_FOUND', 'We could not find that book. Search again.');
    let categoryId: string | null = null;
    if (input.category) {
      const category = await trx
        .selectFrom('categories')
        .select('id')
        .where('slug', '=', input.category)
        .executeTakeFirst();
      if (!category) throw new AppError('BAD_INPUT', 'Choose a category from the list.');
      categoryId = category.id;
    }
    await trx
      .updateTable('books')
      .set({
        title: input.title,
        authors: input.authors,
        description: input.description,
        category_id: categoryId,
        // Staff's correction is staff's word (decision 0061).
        verification: 'staff',
        verified_at: new Date(),
      })
      .where('id', '=', input.bookId)
      .execute();
    await recordAudit(trx, {
      actorId: staffId,
      action: 'book.edit',
      targetType: 'book',
      targetId: input.bookId,
      details: {
        before,
        after: {
          title: input.title,
          authors: input.authors,
          description: input.description,
          category: input.category,
        },
      },
    });
  });
}

export async function mergeBooks(
  db: Database,
  staffId: string,
  input: { duplicateId: string; keepId: string },
): Promise<{ listingsMoved: number }> {
  if (input.duplicateId === input.keepId) {
    throw new AppError('BAD_INPUT', 'Choose two different books: a duplicate and the book to keep.');
  }
  return db.transaction().execute(async (trx) => {
    const books = await trx
      .selectFrom('books')
      .select(['id', 'title', 'isbn13', 'isbn10', 'cover_url', 'description'])
      .where('id', 'in', [input.duplicateId, input.keepId])
      .orderBy('id')
      .forUpdate()
      .execute();
    const duplicate = books.find((book) => book.id === input.duplicateId);
    const keep = books.find((book) => book.id === input.keepId);
    if (!duplicate || !keep) {
      throw new AppError('NOT_FOUND', 'One of those books no longer exists. Search again.');
    }
    const moved = await trx
      .updateTable('listings')
      .set({ book_id: keep.id })
      .where('book_id', '=', duplicate.id)
      .returning('id')
      .execute();
    await sql`
      insert into public.book_genres (book_id, genre_id)
      select ${keep.id}::uuid, genre_id from public.book_genres where book_id = ${duplicate.id}::uuid
      on conflict do nothing`.execute(trx);
    await trx.deleteFrom('books').where('id', '=', duplicate.id).execute();
    await trx
      .updateTable('books')
      .set({
        isbn13: keep.isbn13 ?? duplicate.isbn13,
        isbn10: keep.isbn10 ?? duplicate.isbn10,
        cover_url: keep.cover_url ?? duplicate.cover_url,
        description: keep.description ?? duplicate.description,
      })
      .where('id', '=', keep.id)
      .execute();
    await recordAudit(trx, {
      actorId: staffId,
      action: 'book.merge',
      targetType: 'book',
      targetId: keep.id,
      details: {
        duplicateId: duplicate.id,
        duplicateTitle: duplicate.title,
        keptTitle: keep.title,
        listingsMoved: moved.length,
      },
    });
    return { listingsMoved: moved.length };
  });
}
