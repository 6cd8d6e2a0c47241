/**
 * A snapshot of real books (real titles, authors, editions and ISBN-13s; descriptions written
 * for Reshelf), for the demo seed and the staff "seed books + orders" function. There is no
 * network at run time, so nothing here is fetched: covers are drawn by the web client.
 *
 * The records are checked when this module loads: a bad ISBN or an unknown category or
 * genre slug fails fast rather than half-seeding.
 */
import { isbn13To10, isValidIsbn13 } from '@reshelf/contracts';
import { sql } from 'kysely';
import { z } from 'zod';
import { placeWorkInSeries } from '../catalogue/index.ts';
import type { Database } from '../db/index.ts';
import snapshot from './books-snapshot.json' with { type: 'json' };
import { CATEGORIES, GENRES } from './reference-data.ts';

const categorySlugs = CATEGORIES.map((category) => category.slug) as [string, ...string[]];
const genreSlugs = GENRES.map((genre) => genre.slug) as [string, ...string[]];

const seedBookSchema = z.object({
  isbn13: z.string().refine(isValidIsbn13, 'not a valid ISBN-13'),
  title: z.string().min(1).max(300),
  subtitle: z.string().min(1).max(300).optional(),
  authors: z.array(z.string().min(1)).min(1).max(20),
  publisher: z.string().min(1).max(200),
  publishedYear: z.number().int().min(1450).max(2100),
  pageCount: z.number().int().min(1).optional(),
  category: z.enum(categorySlugs),
  genres: z.array(z.enum(genreSlugs)),
  description: z.string().min(40).max(2000),
  /** The book's series and its place in it (decision 0089): "Harry Potter", 2. */
  series: z
    .object({ name: z.string().min(1).max(200), position: z.number().positive().multipleOf(0.5) })
    .optional(),
  /** Copies the demo catalogue lists when not its usual number (0: a volume no one is selling). */
  demoCopies: z.number().int().min(0).max(2).optional(),
});

export type SeedBook = z.infer<typeof seedBookSchema> & { isbn10: string | null };

export const SNAPSHOT_BOOKS: readonly SeedBook[] = z
  .array(seedBookSchema)
  .parse(snapshot)
  .map((book) => ({ ...book, isbn10: isbn13To10(book.isbn13) }));

/**
 * Inserts the snapshot's books (and their genres) that are not there yet, matched by ISBN-13,
 * places their works in their series (unless placed already), and answers every snapshot book's
 * id by ISBN-13. The categories and genres must exist (seedReferenceData).
 */
export async function upsertSnapshotBooks(
  db: Database,
  books: readonly SeedBook[] = SNAPSHOT_BOOKS,
): Promise<Map<string, string>> {
  const categories = new Map(
    (await db.selectFrom('categories').select(['id', 'slug']).execute()).map((row) => [row.slug, row.id]),
  );
  const genres = new Map(
    (await db.selectFrom('genres').select(['id', 'slug']).execute()).map((row) => [row.slug, row.id]),
  );
  const inserted = await db
    .insertInto('books')
    .values(
      books.map((book) => ({
        isbn13: book.isbn13,
        isbn10: book.isbn10,
        title: book.title,
        subtitle: book.subtitle ?? null,
        authors: book.authors,
        publisher: book.publisher,
        published_year: book.publishedYear,
        page_count: book.pageCount ?? null,
        description: book.description,
        category_id: categories.get(book.category) ?? null,
      })),
    )
    .onConflict((oc) => oc.column('isbn13').doNothing())
    .returning(['id', 'isbn13'])
    .execute();
  const insertedIsbns = new Set(inserted.map((row) => row.isbn13));
  const genreRows = books
    .filter((book) => insertedIsbns.has(book.isbn13))
    .flatMap((book) => {
      const bookId = inserted.find((row) => row.isbn13 === book.isbn13)!.id;
      return book.genres.flatMap((slug) => {
        const genreId = genres.get(slug);
        return genreId ? [{ book_id: bookId, genre_id: genreId }] : [];
      });
    });
  if (genreRows.length) {
    await db
      .insertInto('book_genres')
      .values(genreRows)
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  const all = await db
    .selectFrom('books')
    .select(['id', 'isbn13'])
    .where(
      'isbn13',
      'in',
      books.map((book) => book.isbn13),
    )
    .execute();
  // Series need works (decision 0089). The seed also runs on a database from before works and
  // series (the works migration's own test seeds one, then migrates it): there, nothing to place.
  const { rows: schema } = await sql<{ series: boolean }>`
    select to_regclass('public.series') is not null as series`.execute(db);
  const inSeries = books.filter((book) => book.series).map((book) => book.isbn13);
  if (schema[0]?.series && inSeries.length > 0) {
    const placed = await db
      .selectFrom('books')
      .select(['isbn13', 'work_id'])
      .where('isbn13', 'in', inSeries)
      .execute();
    const works = new Map(placed.map((row) => [row.isbn13!, row.work_id!]));
    for (const book of books) {
      const workId = works.get(book.isbn13);
      if (book.series && workId) await placeWorkInSeries(db, workId, book.series);
    }
  }
  return new Map(all.map((row) => [row.isbn13!, row.id]));
}
