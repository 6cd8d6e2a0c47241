/**
 * Bulk listing from a CSV file.
 *
 * An upload is read with csv-parse and every row is checked at once (the shared rules in
 * @reshelf/contracts: ISBN with its check digit, condition, price, notes, donor reference,
 * photo URL, parcel size, the collectors' details; duplicates within the file). The import and all its rows are stored
 * in one transaction and the answer comes straight back; valid rows are then listed in
 * batches of 100, one transaction per batch with a savepoint per row, by whichever BFF
 * instance holds the import's lease. The page polls the import for progress.
 *
 * Nothing is listed twice: a row becomes a listing in the same transaction that marks it
 * listed (a retried or resumed batch finds it done), and the same file uploaded again (a
 * retry, a double click) is the same import, answered with its report. An instance that stops
 * mid-import leaves its lease to lapse; the next poll of the import resumes it.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  BULK_COLUMNS,
  BULK_LIMITS,
  BULK_MESSAGES,
  type BulkColumn,
  type BulkImport,
  type BulkImportReport,
  type BulkItem,
  type BulkRowStatus,
  bulkItemKey,
  mapBulkHeader,
  slugify,
  textProblem,
  validateBulkRow,
} from '@reshelf/contracts';
import { CsvError } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import { sql, type Transaction } from 'kysely';
import { saveTypedBook, verifiedBookFor } from '../catalogue/index.ts';
import type { DB } from '../db/database.generated.ts';
import type { Database } from '../db/index.ts';
import { AppError } from '../errors.ts';
import { csvText, readBackCell } from '../http/csv.ts';
import type { BookLookupPort } from '../platform/book-lookup/book-lookup.ts';
import { requireCharity } from '../platform/identity/memberships.ts';

export interface ImportDeps {
  db: Database;
  bookLookup: BookLookupPort;
  /** Where a background failure is reported (the request's logger). */
  log?: (error: unknown, message: string) => void;
  /** Called after each batch's commit: the wants matcher takes what it put on sale (decision 0088). */
  afterBatch?: () => void;
}

const LEASE_SECONDS = 60;

interface ParsedRow {
  rowNumber: number;
  cells: Partial<Record<BulkColumn, string>>;
  item: BulkItem | null;
  errors: string[];
}

/**
 * Reads a CSV file into checked rows; a file that cannot be used at all (not CSV, missing or
 * unknown columns, no rows, too many) is refused whole with the reason.
 */
export function parseBulkCsv(text: string): ParsedRow[] {
  let records: string[][];
  try {
    records = parse(text, { bom: true, relax_column_count: true, max_record_size: 64 * 1024 });
  } catch (error) {
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines;
      throw new AppError(
        'BAD_INPUT',
        `${BULK_MESSAGES.notCsv}${line ? ` (the problem is near line ${line})` : ''}`,
      );
    }
    throw error;
  }
  const [header, ...body] = records;
  if (!header) throw new AppError('BAD_INPUT', BULK_MESSAGES.empty);
  // Text PostgreSQL cannot store (a NUL character): the file is refused, naming the first
  // such cell.
  records.forEach((record, index) => {
    const position = record.findIndex((cell) => textProblem(cell) !== null);
    if (position === -1) return;
    const column = index === 0 ? 'the column names' : header[position]?.trim() || `column ${position + 1}`;
    throw new AppError('BAD_INPUT', `Row ${index + 1}, ${column}: ${textProblem(record[position]!)}`);
  });
  const { columns, missing, unknown } = mapBulkHeader(header);
  if (missing.length) throw new AppError('BAD_INPUT', BULK_MESSAGES.missingColumns(missing));
  if (unknown.length) throw new AppError('BAD_INPUT', BULK_MESSAGES.unknownColumns(unknown));

  const rows: ParsedRow[] = [];
  // Rows are numbered as a spreadsheet shows them: the header is row 1. Blank rows are skipped.
  body.forEach((record, index) => {
    if (record.every((cell) => cell.trim() === '')) return;
    const cells: Partial<Record<BulkColumn, string>> = {};
    record.forEach((cell, position) => {
      const key = columns[position];
      // A corrections file we wrote comes back with our quote mark before a formula character.
      if (key) cells[key] = readBackCell(cell);
    });
    const checked = validateBulkRow(cells);
    rows.push({
      rowNumber: index + 2,
      cells,
      item: checked.ok ? checked.item : null,
      errors: checked.ok ? [] : checked.errors,
    });
  });
  if (rows.length === 0) throw new AppError('BAD_INPUT', BULK_MESSAGES.empty);
  if (rows.length > BULK_LIMITS.maxRows) throw new AppError('BAD_INPUT', BULK_MESSAGES.tooManyRows);

  // The same copy twice in one file is almost always a paste gone wrong: the later one waits.
  const firstSeen = new Map<string, number>();
  for (const row of rows) {
    if (!row.item) continue;
    const key = bulkItemKey(row.item);
    const first = firstSeen.get(key);
    if (first === undefined) firstSeen.set(key, row.rowNumber);
    else {
      row.errors = [BULK_MESSAGES.duplicate(first)];
      row.item = null;
    }
  }
  return rows;
}

interface ImportRow {
  id: string;
  file_name: string;
  status: 'processing' | 'done';
  total_rows: number;
  invalid_rows: number;
  processed_rows: number;
  listed_rows: number;
  draft_rows: number;
  failed_rows: number;
  created_at: Date;
  finished_at: Date | null;
  lease_until: Date | null;
}

function toImport(row: ImportRow, repeated = false): BulkImport {
  return {
    id: row.id,
    fileName: row.file_name,
    status: row.status,
    totalRows: row.total_rows,
    invalidRows: row.invalid_rows,
    processedRows: row.processed_rows,
    listedRows: row.listed_rows,
    draftRows: row.draft_rows,
    failedRows: row.failed_rows,
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
    repeated,
  };
}

const IMPORT_COLUMNS = [
  'id',
  'file_name',
  'status',
  'total_rows',
  'invalid_rows',
  'processed_rows',
  'listed_rows',
  'draft_rows',
  'failed_rows',
  'created_at',
  'finished_at',
  'lease_until',
] as const;

/** Starts listing an import's rows in the background unless an instance already is. */
function resume(deps: ImportDeps, row: Pick<ImportRow, 'id' | 'status' | 'lease_until'>): void {
  if (row.status !== 'processing') return;
  if (row.lease_until && row.lease_until.getTime() > Date.now()) return;
  processImport(deps, row.id).catch((error) => deps.log?.(error, 'bulk import failed'));
}

/**
 * Stores an uploaded file as an import (or finds the same file's earlier import) and starts
 * listing its valid rows. Only an approved charity's members may upload.
 */
export async function createImport(
  deps: ImportDeps,
  userId: string,
  file: { name: string; bytes: Buffer },
): Promise<BulkImport> {
  const charity = await requireCharity(deps.db, userId, { approved: true });
  if (file.bytes.length > BULK_LIMITS.maxFileBytes) throw new AppError('BAD_INPUT', BULK_MESSAGES.tooBig);
  const sha = createHash('sha256').update(file.bytes).digest('hex');
  const earlier = await deps.db
    .selectFrom('charity_imports')
    .select(IMPORT_COLUMNS)
    .where('charity_id', '=', charity.charityId)
    .where('file_sha256', '=', sha)
    .executeTakeFirst();
  if (earlier) {
    resume(deps, earlier as ImportRow);
    return toImport(earlier as ImportRow, true);
  }
  const text = new TextDecoder('utf-8', { fatal: false }).decode(file.bytes);
  const rows = parseBulkCsv(text);
  const invalid = rows.filter((row) => !row.item).length;
  const fileName = (file.name.replace(/[\\/]/g, '_').trim() || 'upload.csv').slice(0, 255);
  let created: ImportRow;
  try {
    created = await deps.db.transaction().execute(async (trx) => {
      const inserted = (await trx
        .insertInto('charity_imports')
        .values({
          charity_id: charity.charityId,
          created_by: userId,
          file_name: fileName,
          file_sha256: sha,
          total_rows: rows.length,
          invalid_rows: invalid,
          processed_rows: invalid,
          status: invalid === rows.length ? 'done' : 'processing',
          finished_at: invalid === rows.length ? new Date() : null,
        })
        .returning(IMPORT_COLUMNS)
        .executeTakeFirstOrThrow()) as ImportRow;
      for (let start = 0; start < rows.length; start += 500) {
        await trx
          .insertInto('charity_import_rows')
          .values(
            rows.slice(start, start + 500).map((row) => ({
              import_id: inserted.id,
              row_number: row.rowNumber,
              cells: JSON.stringify(row.cells),
              item: row.item ? JSON.stringify(row.item) : null,
              errors: JSON.stringify(row.errors),
              status: row.item ? 'pending' : 'invalid',
            })),
          )
          .execute();
      }
      return inserted;
    });
  } catch (error) {
    // The same file uploaded twice at the same moment: the other upload made the import.
    if ((error as { code?: string }).code === '23505') {
      const other = await deps.db
        .selectFrom('charity_imports')
        .select(IMPORT_COLUMNS)
        .where('charity_id', '=', charity.charityId)
        .where('file_sha256', '=', sha)
        .executeTakeFirstOrThrow();
      return toImport(other as ImportRow, true);
    }
    throw error;
  }
  resume(deps, created);
  return toImport(created);
}

/** Takes the import's lease for the next minute, or null when another instance has it. */
async function takeLease(
  db: Database,
  importId: string,
): Promise<{ charity_id: string; created_by: string | null } | null> {
  const row = await db
    .updateTable('charity_imports')
    .set({ lease_until: sql`now() + make_interval(secs => ${LEASE_SECONDS})` })
    .where('id', '=', importId)
    .where('status', '=', 'processing')
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', sql<Date>`now()`)]))
    .returning(['charity_id', 'created_by'])
    .executeTakeFirst();
  return row ?? null;
}

type Outcome = {
  status: Exclude<BulkRowStatus, 'pending' | 'invalid'>;
  listingId: string | null;
  errors: string[];
};

const NOT_APPROVED = 'Not listed: your charity is not approved to sell at the moment.';
const NOT_MEMBER = 'Not listed: the person who uploaded the file no longer belongs to your charity.';
const UNKNOWN_BOOK =
  'Saved as a draft: we don’t know this ISBN yet. Add its title and author in your listings, or add title and author columns and upload it again.';

function listingSlug(title: string): string {
  const base = (slugify(title) || 'book').slice(0, 72).replace(/-+$/, '');
  return `${base}-${randomBytes(4).readUInt32BE(0).toString(36).padStart(6, '0').slice(-6)}`;
}

/** The catalogue's books for these ISBNs; unknown ones through the lookup port or the row's own title. */
async function resolveBooks(
  deps: ImportDeps,
  trx: Transaction<DB>,
  sellerId: string,
  items: BulkItem[],
): Promise<Map<string, { id: string; title: string }>> {
  const isbns = [...new Set(items.map((item) => item.isbn13))];
  const books = new Map<string, { id: string; title: string }>();
  if (isbns.length === 0) return books;
  const known = await trx
    .selectFrom('books')
    .select(['id', 'isbn13', 'title'])
    .where('isbn13', 'in', isbns)
    .where('verification', 'is not', null)
    .execute();
  for (const book of known) if (book.isbn13) books.set(book.isbn13, { id: book.id, title: book.title });
  // The rest: what a lookup finds (verified), else what the row typed (an unverified book, or its
  // correction of one). Details another seller typed are never taken as the row's (decision 0061):
  // a row with neither is corrected by hand.
  const lookup = { lookup: (isbn: string) => deps.bookLookup.lookup(isbn).catch(() => null) };
  for (const isbn of isbns) {
    if (books.has(isbn)) continue;
    const verified = await verifiedBookFor(trx, lookup, isbn);
    const typed = items.find((item) => item.isbn13 === isbn && item.title && item.author);
    const id =
      verified?.id ??
      (typed
        ? (
            await saveTypedBook(
              trx,
              sellerId,
              { isbn13: isbn },
              {
                title: typed.title!,
                subtitle: null,
                authors: [typed.author!],
                publisher: null,
                published_year: null,
              },
            )
          ).id
        : null);
    if (!id) continue;
    const book = await trx
      .selectFrom('books')
      .select(['id', 'title'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    books.set(isbn, book);
  }
  return books;
}

/** A row's collectors' details as the listing's columns (none for a row stored before them). */
function collectorColumns(item: BulkItem) {
  const collector = item.collector;
  return {
    first_edition: collector?.firstEdition ?? false,
    first_printing: collector?.firstPrinting ?? false,
    signed: collector?.signed ?? false,
    inscribed: collector?.inscribed ?? false,
    ex_library: collector?.exLibrary ?? false,
    book_club: collector?.bookClub ?? false,
    print_on_demand: collector?.printOnDemand ?? false,
    dust_jacket: collector?.dustJacket ?? null,
    bookman_grade: collector?.bookmanGrade ?? null,
  };
}

async function listRow(
  trx: Transaction<DB>,
  charityId: string,
  sellerId: string,
  item: BulkItem,
  book: { id: string; title: string } | undefined,
): Promise<Outcome> {
  const common = {
    seller_id: sellerId,
    charity_id: charityId,
    condition: item.condition,
    price_minor: item.priceMinor,
    parcel_size: item.parcelSize,
    condition_notes: item.notes,
    donor_reference: item.donorReference,
    photos: JSON.stringify(item.photoUrl ? [item.photoUrl] : []),
    ...collectorColumns(item),
  };
  if (!book) {
    const draft = await trx
      .insertInto('listings')
      .values({ ...common, status: 'draft', draft_isbn13: item.isbn13 })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { status: 'draft', listingId: draft.id, errors: [UNKNOWN_BOOK] };
  }
  const listed = await trx
    .insertInto('listings')
    .values({
      ...common,
      status: 'active',
      book_id: book.id,
      slug: listingSlug(book.title),
      published_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { status: 'listed', listingId: listed.id, errors: [] };
}

function failureOf(error: unknown): string | null {
  const pg = error as { code?: string; constraint?: string };
  if (pg.code === '23514' && pg.constraint === 'listings_charity_approved') return NOT_APPROVED;
  if (pg.code === '23514' && pg.constraint === 'listings_charity_member') return NOT_MEMBER;
  return null;
}

/** Lists one batch of pending rows; answers how many it handled (0 when none were left). */
async function processBatch(
  deps: ImportDeps,
  importId: string,
  lease: { charity_id: string; created_by: string | null },
): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    const pending = await trx
      .selectFrom('charity_import_rows')
      .select(['row_number', 'item'])
      .where('import_id', '=', importId)
      .where('status', '=', 'pending')
      .orderBy('row_number')
      .limit(BULK_LIMITS.batchSize)
      .forUpdate()
      .skipLocked()
      .execute();
    if (pending.length === 0) return 0;
    const items = pending.map((row) => row.item as unknown as BulkItem);
    const counts = { listed: 0, draft: 0, failed: 0 };
    const sellerId = lease.created_by;
    const books = sellerId ? await resolveBooks(deps, trx, sellerId, items) : new Map();
    for (const [index, row] of pending.entries()) {
      const item = items[index]!;
      let outcome: Outcome;
      if (!sellerId) outcome = { status: 'failed', listingId: null, errors: [NOT_MEMBER] };
      else {
        await sql`savepoint bulk_row`.execute(trx);
        try {
          outcome = await listRow(trx, lease.charity_id, sellerId, item, books.get(item.isbn13));
          await sql`release savepoint bulk_row`.execute(trx);
        } catch (error) {
          await sql`rollback to savepoint bulk_row`.execute(trx);
          const message = failureOf(error);
          if (!message) deps.log?.(error, 'bulk import row failed');
          outcome = {
            status: 'failed',
            listingId: null,
            errors: [message ?? 'Not listed: something went wrong on our side. Upload this row again.'],
          };
        }
      }
      counts[outcome.status] += 1;
      await trx
        .updateTable('charity_import_rows')
        .set({
          status: outcome.status,
          listing_id: outcome.listingId,
          errors: JSON.stringify(outcome.errors),
        })
        .where('import_id', '=', importId)
        .where('row_number', '=', row.row_number)
        .execute();
    }
    await trx
      .updateTable('charity_imports')
      .set((eb) => ({
        processed_rows: eb('processed_rows', '+', pending.length),
        listed_rows: eb('listed_rows', '+', counts.listed),
        draft_rows: eb('draft_rows', '+', counts.draft),
        failed_rows: eb('failed_rows', '+', counts.failed),
        lease_until: sql`now() + make_interval(secs => ${LEASE_SECONDS})`,
      }))
      .where('id', '=', importId)
      .execute();
    return pending.length;
  });
}

/** Lists every pending row of an import, batch by batch, while this instance holds its lease. */
export async function processImport(deps: ImportDeps, importId: string): Promise<void> {
  const lease = await takeLease(deps.db, importId);
  if (!lease) return;
  try {
    while ((await processBatch(deps, importId, lease)) > 0) {
      deps.afterBatch?.();
      // Each batch renews the lease; yield between batches so requests keep being served.
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Rows another instance still holds (it took the lease after ours lapsed, during slow
    // book lookups) are not done yet: that instance marks the import done when it finishes.
    await deps.db
      .updateTable('charity_imports')
      .set({ status: 'done', finished_at: new Date(), lease_until: null })
      .where('id', '=', importId)
      .where('status', '=', 'processing')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('charity_import_rows')
              .select('row_number')
              .where('import_id', '=', importId)
              .where('status', '=', 'pending'),
          ),
        ),
      )
      .execute();
  } catch (error) {
    // Let another poll take it up again at once rather than after the lease.
    await deps.db
      .updateTable('charity_imports')
      .set({ lease_until: null })
      .where('id', '=', importId)
      .execute()
      .catch(() => {});
    throw error;
  }
}

async function ownImport(db: Database, userId: string, importId: string): Promise<ImportRow> {
  const charity = await requireCharity(db, userId);
  const row = await db
    .selectFrom('charity_imports')
    .select(IMPORT_COLUMNS)
    .where('id', '=', importId)
    .where('charity_id', '=', charity.charityId)
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', 'We couldn’t find that upload.');
  return row as ImportRow;
}

/** An import's progress (picking it up again if its instance stopped). */
export async function importStatus(deps: ImportDeps, userId: string, importId: string): Promise<BulkImport> {
  const row = await ownImport(deps.db, userId, importId);
  resume(deps, row);
  return toImport(row);
}

export async function recentImports(db: Database, userId: string): Promise<BulkImport[]> {
  const charity = await requireCharity(db, userId);
  const rows = await db
    .selectFrom('charity_imports')
    .select(IMPORT_COLUMNS)
    .where('charity_id', '=', charity.charityId)
    .orderBy('created_at', 'desc')
    .limit(10)
    .execute();
  return rows.map((row) => toImport(row as ImportRow));
}

export const REPORT_FILTERS = ['all', 'problems', 'listed', 'draft'] as const;

/** The row-by-row report: each row's outcome and what was wrong with it. */
export async function importReport(
  db: Database,
  userId: string,
  input: { importId: string; filter: (typeof REPORT_FILTERS)[number]; page: number; pageSize: number },
): Promise<BulkImportReport> {
  const row = await ownImport(db, userId, input.importId);
  const statuses: Record<(typeof REPORT_FILTERS)[number], BulkRowStatus[] | null> = {
    all: null,
    problems: ['invalid', 'failed'],
    listed: ['listed'],
    draft: ['draft'],
  };
  const wanted = statuses[input.filter];
  let query = db
    .selectFrom('charity_import_rows as r')
    .leftJoin('listings as l', 'l.id', 'r.listing_id')
    .leftJoin('books as b', 'b.id', 'l.book_id')
    .where('r.import_id', '=', row.id);
  if (wanted) query = query.where('r.status', 'in', wanted);
  const [rows, count] = await Promise.all([
    query
      .select(['r.row_number', 'r.status', 'r.cells', 'r.errors', 'r.listing_id', 'l.slug', 'b.title'])
      .orderBy('r.row_number')
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    import: toImport(row),
    rows: rows.map((r) => ({
      rowNumber: r.row_number,
      status: r.status as BulkRowStatus,
      isbn: ((r.cells as Record<string, string>).isbn ?? '').trim(),
      title: r.title ?? ((r.cells as Record<string, string>).title?.trim() || null),
      errors: r.errors as string[],
      listingId: r.listing_id,
      listingSlug: r.slug ?? null,
    })),
    page: input.page,
    pageSize: input.pageSize,
    total: Number(count.n),
  };
}

/**
 * The rows still to put right (invalid or not listed), as a CSV in the template's columns with
 * a "problems" column: correct them in a spreadsheet and upload the file again (the problems
 * column is ignored on upload).
 */
export async function correctionsCsv(
  db: Database,
  userId: string,
  importId: string,
): Promise<{ fileName: string; csv: string }> {
  const row = await ownImport(db, userId, importId);
  const rows = await db
    .selectFrom('charity_import_rows')
    .select(['row_number', 'cells', 'errors'])
    .where('import_id', '=', row.id)
    .where('status', 'in', ['invalid', 'failed'])
    .orderBy('row_number')
    .execute();
  const keys = BULK_COLUMNS.map((column) => column.key);
  // Through the one CSV writer: a cell someone typed that a spreadsheet would run as a formula
  // is written as text (with a quote mark, which parseBulkCsv takes off again).
  const csv = csvText(
    [...keys, 'problems'],
    rows.map((r) => {
      const cells = r.cells as Record<string, string>;
      return {
        ...Object.fromEntries(keys.map((key) => [key, cells[key] ?? ''])),
        problems: `Row ${r.row_number}: ${(r.errors as string[]).join('; ')}`,
      } as Record<BulkColumn | 'problems', string>;
    }),
  );
  const base = row.file_name.replace(/\.csv$/i, '');
  return { fileName: `${base}-to-correct.csv`, csv };
}
