/**
 * Reading lists in and out (issue 38, decision 0090).
 *
 * In: a Goodreads or StoryGraph export is read (parse.ts), each row matched to a work — by ISBN
 * (any edition with it), else by title and first author's surname through the catalogue's own
 * grouping key (`public.work_key`) — and previewed; the import then makes the rows on the
 * shelves the member chose into wants (a work want, remembering its shelf and import) and books
 * they have, in one transaction with the import's record and its report. Rows that cannot be
 * read are skipped only when the member saw them in the preview and said so; otherwise the
 * whole import is refused. Nothing is added twice: a work already wanted, or already had, is
 * reported as such.
 *
 * Out: the member's wants (as to-read) and purchases on Reshelf (as read, on the day they were
 * delivered) in either layout, through the one CSV writer.
 */
import {
  type GOODREADS_COLUMNS,
  isbn13To10,
  READING_LIST_COLUMNS,
  READING_LIST_MESSAGES,
  type ReadingListImport,
  type ReadingListImportInput,
  type ReadingListOutcome,
  type ReadingListPreview,
  type ReadingListPreviewInput,
  type ReadingListRow,
  type ReadingListSource,
  readingListImportInputSchema,
  readingListPreviewInputSchema,
  type STORYGRAPH_COLUMNS,
} from '@reshelf/contracts';
import { sql } from 'kysely';
import { assertWithinWantLimit } from '../../community/index.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { type CsvRow, csvText, excelLiteral } from '../../http/csv.ts';
import { parseReadingList, type ReadingListEntry, titleCandidates } from './parse.ts';

type Work = NonNullable<ReadingListRow['work']>;

/** Each readable row's work: by ISBN first, then by title and author; unmatched rows say why. */
export async function matchEntries(db: Database, entries: ReadingListEntry[]): Promise<ReadingListRow[]> {
  const readable = entries.filter((entry) => entry.error === null);
  const isbns = [...new Set(readable.flatMap((entry) => (entry.isbn13 ? [entry.isbn13] : [])))];
  const byIsbn = new Map<string, Work>();
  if (isbns.length > 0) {
    const rows = await db
      .selectFrom('books as b')
      .innerJoin('works as w', 'w.id', 'b.work_id')
      .select(['b.isbn13', 'w.id', 'w.slug', 'w.title', 'w.authors'])
      .where('b.isbn13', 'in', isbns)
      .orderBy('b.created_at')
      .execute();
    for (const row of rows) {
      if (row.isbn13 && !byIsbn.has(row.isbn13)) {
        byIsbn.set(row.isbn13, { id: row.id, slug: row.slug, title: row.title, authors: row.authors });
      }
    }
  }
  // Title and author: each candidate title with the first author, keyed as the catalogue keys a
  // work (`work_key`); an Open Library work's key carries its id after a further `|`, so the
  // key's first two parts are compared (indexed: works_title_author_key_idx).
  const wanted = readable.filter((entry) => !(entry.isbn13 && byIsbn.has(entry.isbn13)));
  const candidates = wanted.flatMap((entry) =>
    titleCandidates(entry.title).map((title, rank) => ({
      row: entry.row,
      rank,
      title,
      author: entry.authors[0] ?? '',
    })),
  );
  const byTitle = new Map<number, Work>();
  if (candidates.length > 0) {
    const { rows } = await sql<{ row: number } & Work>`
      with candidate as (
        select c.row, c.rank, public.work_key(c.title, array[c.author]) as key
        from jsonb_to_recordset(${JSON.stringify(candidates)}::jsonb) as c(row int, rank int, title text, author text)
      )
      select distinct on (c.row) c.row, w.id, w.slug, w.title, w.authors
      from candidate c
      join public.works w
        on (split_part(w.work_key, '|', 1) || '|' || split_part(w.work_key, '|', 2)) = c.key
      where c.key not like '%|' and c.key not like '|%'
      order by c.row, c.rank, (w.work_key = c.key) desc, w.created_at
    `.execute(db);
    for (const { row, ...work } of rows) byTitle.set(row, work);
  }
  return entries.map((entry): ReadingListRow => {
    const base = {
      row: entry.row,
      title: entry.title,
      author: entry.authors[0] ?? '',
      isbn13: entry.isbn13,
      shelves: entry.shelves,
    };
    if (entry.error) return { ...base, match: 'error', work: null, reason: entry.error };
    const isbnWork = entry.isbn13 ? byIsbn.get(entry.isbn13) : undefined;
    if (isbnWork) return { ...base, match: 'isbn', work: isbnWork, reason: null };
    const titleWork = byTitle.get(entry.row);
    if (titleWork) return { ...base, match: 'title_author', work: titleWork, reason: null };
    const reason = entry.isbn13
      ? `No book with ISBN ${entry.isbn13} or this title and author on Reshelf yet.`
      : 'No book with this title and author on Reshelf yet (the row has no ISBN).';
    return { ...base, match: 'unmatched', work: null, reason };
  });
}

function countsOf(rows: ReadingListRow[]) {
  return {
    rows: rows.length,
    isbn: rows.filter((row) => row.match === 'isbn').length,
    titleAuthor: rows.filter((row) => row.match === 'title_author').length,
    unmatched: rows.filter((row) => row.match === 'unmatched').length,
    errors: rows.filter((row) => row.match === 'error').length,
  };
}

function shelvesOf(entries: ReadingListEntry[]) {
  const counts = new Map<string, number>();
  for (const entry of entries) {
    if (entry.error) continue;
    for (const shelf of entry.shelves) counts.set(shelf, (counts.get(shelf) ?? 0) + 1);
  }
  return [...counts]
    .map(([name, rows]) => ({ name, rows }))
    .sort((a, b) => b.rows - a.rows || a.name.localeCompare(b.name));
}

/** What an import of this file would do: its format, shelves and every row's match. Writes nothing. */
export async function previewReadingList(
  db: Database,
  raw: ReadingListPreviewInput,
): Promise<ReadingListPreview> {
  const input = readingListPreviewInputSchema.parse(raw);
  const { source, entries } = parseReadingList(input.text);
  const rows = await matchEntries(db, entries);
  return { source, shelves: shelvesOf(entries), counts: countsOf(rows), rows };
}

interface ImportRecord {
  id: string;
  source: string;
  file_name: string | null;
  created_at: Date | string;
  want_shelves: string[];
  have_shelves: string[];
  report: unknown;
}

function importFrom(record: ImportRecord): ReadingListImport {
  const rows = record.report as ReadingListRow[];
  const count = (outcome: ReadingListOutcome) => rows.filter((row) => row.outcomes?.includes(outcome)).length;
  return {
    id: record.id,
    source: record.source as ReadingListSource,
    fileName: record.file_name,
    createdAt: new Date(record.created_at).toISOString(),
    wantShelves: record.want_shelves,
    haveShelves: record.have_shelves,
    counts: countsOf(rows),
    added: { wants: count('want'), haves: count('have') },
    rows,
  };
}

/**
 * Imports the file: in one transaction, the import's record and report, the wants of the rows on
 * the want shelves and the books the member has from the have shelves.
 */
export async function importReadingList(
  db: Database,
  userId: string,
  raw: ReadingListImportInput,
): Promise<ReadingListImport> {
  const input = readingListImportInputSchema.parse(raw);
  const { source, entries } = parseReadingList(input.text);
  const known = new Set(shelvesOf(entries).map((shelf) => shelf.name));
  for (const shelf of [...input.wantShelves, ...input.haveShelves]) {
    if (!known.has(shelf))
      throw new AppError('BAD_INPUT', `“${shelf}”: ${READING_LIST_MESSAGES.unknownShelf}`);
  }
  if (entries.some((entry) => entry.error) && !input.skipBadRows) {
    throw new AppError('BAD_INPUT', READING_LIST_MESSAGES.badRowsNotConfirmed);
  }
  const wantShelves = new Set(input.wantShelves);
  const haveShelves = new Set(input.haveShelves);
  const rows = await matchEntries(db, entries);

  return db.transaction().execute(async (trx) => {
    const record = await trx
      .insertInto('reading_list_imports')
      .values({
        user_id: userId,
        source,
        file_name: input.fileName,
        rows: rows.length,
        want_shelves: [...wantShelves],
        have_shelves: [...haveShelves],
        report: JSON.stringify([]),
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    const onShelf = (row: ReadingListRow, shelves: Set<string>) =>
      row.shelves.some((shelf) => shelves.has(shelf));
    const wantRows = rows.filter((row) => row.work && onShelf(row, wantShelves));
    const haveRows = rows.filter((row) => row.work && onShelf(row, haveShelves));

    // Wants: a work want with no conditions, unless the member wants that work already (with
    // any conditions). Same columns and unique index as the wants service (decision 0088).
    const wantWorks = [...new Set(wantRows.map((row) => row.work!.id))];
    const alreadyWanted = new Set(
      wantWorks.length === 0
        ? []
        : (
            await trx
              .selectFrom('wants')
              .select('work_id')
              .where('user_id', '=', userId)
              .where('kind', '=', 'work')
              .where('work_id', 'in', wantWorks)
              .execute()
          ).map((want) => want.work_id),
    );
    const firstShelf = (row: ReadingListRow, shelves: Set<string>) =>
      row.shelves.find((shelf) => shelves.has(shelf))!;
    const newWants = new Map<string, ReadingListRow>();
    for (const row of wantRows)
      if (!alreadyWanted.has(row.work!.id) && !newWants.has(row.work!.id)) newWants.set(row.work!.id, row);
    const addedWants = new Set<string>();
    if (newWants.size > 0) {
      const inserted = await trx
        .insertInto('wants')
        .values(
          [...newWants].map(([workId, row]) => ({
            user_id: userId,
            kind: 'work',
            work_id: workId,
            source,
            shelf: firstShelf(row, wantShelves),
            import_id: record.id,
          })),
        )
        .onConflict((conflict) => conflict.doNothing())
        .returning('work_id')
        .execute();
      for (const want of inserted) addedWants.add(want.work_id!);
      await assertWithinWantLimit(trx, userId, 0);
    }

    // Books the member has.
    const newHaves = new Map<string, ReadingListRow>();
    for (const row of haveRows) if (!newHaves.has(row.work!.id)) newHaves.set(row.work!.id, row);
    const addedHaves = new Set<string>();
    if (newHaves.size > 0) {
      const inserted = await trx
        .insertInto('member_books')
        .values(
          [...newHaves].map(([workId, row]) => ({
            user_id: userId,
            work_id: workId,
            source,
            shelf: firstShelf(row, haveShelves),
            import_id: record.id,
          })),
        )
        .onConflict((conflict) => conflict.columns(['user_id', 'work_id']).doNothing())
        .returning('work_id')
        .execute();
      for (const have of inserted) addedHaves.add(have.work_id);
    }

    // The report: what became of every row. A work on the file twice is added once, by its first row.
    const credited = new Set<string>();
    const report = rows.map((row): ReadingListRow => {
      if (!row.work) return { ...row, outcomes: ['skipped'] };
      const outcomes: ReadingListOutcome[] = [];
      const workId = row.work.id;
      if (onShelf(row, wantShelves)) {
        const key = `want:${workId}`;
        outcomes.push(addedWants.has(workId) && !credited.has(key) ? 'want' : 'already_wanted');
        credited.add(key);
      }
      if (onShelf(row, haveShelves)) {
        const key = `have:${workId}`;
        outcomes.push(addedHaves.has(workId) && !credited.has(key) ? 'have' : 'already_had');
        credited.add(key);
      }
      if (outcomes.length === 0) outcomes.push('not_chosen');
      return { ...row, outcomes };
    });
    const saved = await trx
      .updateTable('reading_list_imports')
      .set({ report: JSON.stringify(report) })
      .where('id', '=', record.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return importFrom(saved);
  });
}

/** The member's past imports, newest first, without their rows. */
export async function listReadingListImports(db: Database, userId: string) {
  const records = await db
    .selectFrom('reading_list_imports')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(100)
    .execute();
  return records.map((record) => {
    const { rows: _rows, ...summary } = importFrom(record);
    return summary;
  });
}

/** One of the member's imports with its report. */
export async function getReadingListImport(
  db: Database,
  userId: string,
  id: string,
): Promise<ReadingListImport> {
  const record = await db
    .selectFrom('reading_list_imports')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!record) throw new AppError('NOT_FOUND', READING_LIST_MESSAGES.notFound);
  return importFrom(record);
}

interface ExportBook {
  title: string;
  authors: string[];
  isbn13: string | null;
  publisher: string | null;
  pages: number | null;
  year: number | null;
  added: Date | string;
  read: Date | string | null;
  shelf: 'to-read' | 'read';
}

/** 2026/11/29, as both services write their dates. */
function slashDate(value: Date | string | null): string {
  if (!value) return '';
  return new Date(value).toLocaleDateString('en-CA', { timeZone: 'Europe/London' }).replaceAll('-', '/');
}

async function exportBooks(db: Database, userId: string): Promise<ExportBook[]> {
  // Wants of a work or an edition (a series want names no book), with an edition's details.
  const { rows: wants } = await sql<ExportBook>`
    select coalesce(b.title, w.title, wb.title) as title,
           coalesce(b.authors, w.authors, wb.authors, '{}') as authors,
           coalesce(b.isbn13, wb.isbn13, want.isbn13) as isbn13,
           coalesce(b.publisher, wb.publisher) as publisher,
           coalesce(b.page_count, wb.page_count) as pages,
           coalesce(b.published_year, wb.published_year) as year,
           want.created_at as added, null as read, 'to-read' as shelf
    from public.wants want
    left join public.books b on b.id = want.book_id
    left join public.works w on w.id = want.work_id
    left join lateral (
      select * from public.books e where e.work_id = want.work_id
      order by (e.isbn13 is null), e.created_at limit 1
    ) wb on want.kind = 'work'
    where want.user_id = ${userId} and want.kind in ('work', 'edition')
    order by want.created_at
  `.execute(db);
  const purchases = await db
    .selectFrom('orders as o')
    .innerJoin('order_items as i', 'i.order_id', 'o.id')
    .innerJoin('listings as l', 'l.id', 'i.listing_id')
    .innerJoin('books as b', 'b.id', 'l.book_id')
    .select([
      'b.title',
      'b.authors',
      'b.isbn13',
      'b.publisher',
      'b.page_count as pages',
      'b.published_year as year',
      'o.created_at as added',
      sql<Date>`coalesce(o.delivered_at, o.completed_at)`.as('read'),
    ])
    .where('o.buyer_id', '=', userId)
    .where('i.live', '=', true)
    .where((eb) => eb.or([eb('o.delivered_at', 'is not', null), eb('o.completed_at', 'is not', null)]))
    .orderBy('o.created_at')
    .execute();
  return [
    ...wants.filter((want) => want.title),
    ...purchases.map((book) => ({ ...book, shelf: 'read' as const })),
  ];
}

type GoodreadsColumn = (typeof GOODREADS_COLUMNS)[number];
type StoryGraphColumn = (typeof STORYGRAPH_COLUMNS)[number];

function goodreadsRow(book: ExportBook): CsvRow<GoodreadsColumn> {
  const [author = '', ...others] = book.authors;
  const parts = author.trim().split(/\s+/);
  const last = parts.length > 1 ? `${parts.at(-1)}, ${parts.slice(0, -1).join(' ')}` : author;
  return {
    'Book Id': null,
    Title: book.title,
    Author: author,
    'Author l-f': last,
    'Additional Authors': others.join(', '),
    ISBN: excelLiteral(book.isbn13 ? isbn13To10(book.isbn13) : null),
    ISBN13: excelLiteral(book.isbn13),
    'My Rating': 0,
    'Average Rating': null,
    Publisher: book.publisher,
    Binding: null,
    'Number of Pages': book.pages,
    'Year Published': book.year,
    'Original Publication Year': null,
    'Date Read': slashDate(book.read),
    'Date Added': slashDate(book.added),
    Bookshelves: book.shelf === 'read' ? null : book.shelf,
    'Bookshelves with positions': null,
    'Exclusive Shelf': book.shelf,
    'My Review': null,
    Spoiler: null,
    'Private Notes': null,
    'Read Count': book.shelf === 'read' ? 1 : 0,
    'Owned Copies': book.shelf === 'read' ? 1 : 0,
  };
}

function storygraphRow(book: ExportBook): CsvRow<StoryGraphColumn> {
  return {
    Title: book.title,
    Authors: book.authors.join(', '),
    Contributors: null,
    'ISBN/UID': book.isbn13,
    Format: null,
    'Read Status': book.shelf,
    'Date Added': slashDate(book.added),
    'Last Date Read': slashDate(book.read),
    'Dates Read': slashDate(book.read),
    'Read Count': book.shelf === 'read' ? 1 : 0,
    Moods: null,
    Pace: null,
    'Character- or Plot-Driven?': null,
    'Strong Character Development?': null,
    'Loveable Characters?': null,
    'Diverse Characters?': null,
    'Flawed Characters?': null,
    'Star Rating': null,
    Review: null,
    'Content Warnings': null,
    'Content Warning Description': null,
    Tags: null,
    'Owned?': book.shelf === 'read' ? 'Yes' : 'No',
  };
}

/** The member's wants (to-read) and purchases (read) as a Goodreads or StoryGraph file. */
export async function exportReadingList(db: Database, userId: string, format: ReadingListSource) {
  const books = await exportBooks(db, userId);
  const csv =
    format === 'goodreads'
      ? csvText(READING_LIST_COLUMNS.goodreads as readonly GoodreadsColumn[], books.map(goodreadsRow))
      : csvText(READING_LIST_COLUMNS.storygraph as readonly StoryGraphColumn[], books.map(storygraphRow));
  const fileName = format === 'goodreads' ? 'reshelf_goodreads_export.csv' : 'reshelf_storygraph_export.csv';
  return { fileName, csv, rows: books.length };
}
