/**
 * The covers backfill (/admin/covers-backfill, decision 0021): books without a cover that have
 * a listing on sale (or being prepared) with no photo of its own, so the catalogue shows a
 * placeholder. A run looks up to 50 of them by ISBN through the book lookup port, one after
 * another with the port's own timeout, and stores any https cover found on the book (only if
 * it still has none). Offline (the embedded default) the port knows nothing, so a run finds
 * nothing but still checks and reports for real.
 *
 * A run is a `cover_backfill_runs` row with its books (`cover_backfill_items`). Starting it
 * (the row, its books and the audit entry) is one short transaction; the lookups happen after
 * the request has answered, outside any transaction, and each outcome is written in a short
 * transaction of its own, so a slow Open Library never holds a database connection. One run at
 * a time: a partial unique index allows a single running row. A running row older than
 * STALE_MINUTES (the server stopped mid-run) is marked failed before a new run starts.
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';
import type { BookLookupPort, LookupOutcome } from '../../platform/book-lookup/book-lookup.ts';

export const MAX_PER_RUN = 50;
const STALE_MINUTES = 15;
export const ALREADY_RUNNING = 'A backfill is already running. Wait for it to finish, then run another.';

/** Listings whose only image would be the book's cover. */
const OPEN_LISTING = ['draft', 'active', 'reserved'];

export type Outcome = 'found' | 'not_found' | 'no_isbn' | 'error';

export interface MissingCoverBook {
  id: string;
  title: string;
  authors: string[];
  isbn13: string | null;
  /** Its open listings without a photo. */
  listings: number;
  lastCheck: { at: string; outcome: Outcome } | null;
}

export interface BackfillRun {
  id: string;
  status: 'running' | 'finished' | 'failed';
  lookup: 'offline' | 'openlibrary';
  selection: 'all' | 'chosen';
  startedBy: string | null;
  startedAt: string;
  finishedAt: string | null;
  requested: number;
  checked: number;
  found: number;
  notFound: number;
  noIsbn: number;
  errors: number;
  error: string | null;
}

export interface BackfillItem {
  position: number;
  bookId: string | null;
  title: string;
  isbn13: string | null;
  outcome: Outcome | null;
  coverUrl: string | null;
  detail: string | null;
}

/** Books missing a cover, those never checked first, then those checked longest ago. */
function missingQuery(db: Database | Transaction<DB>) {
  return db
    .selectFrom('books as b')
    .where('b.cover_url', 'is', null)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('listings as l')
          .select('l.id')
          .whereRef('l.book_id', '=', 'b.id')
          .where('l.status', 'in', OPEN_LISTING)
          .where(sql<boolean>`jsonb_array_length(l.photos) = 0`),
      ),
    )
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('cover_backfill_items as i')
          .select(['i.checked_at', 'i.outcome'])
          .whereRef('i.book_id', '=', 'b.id')
          .where('i.checked_at', 'is not', null)
          .orderBy('i.checked_at', 'desc')
          .limit(1)
          .as('last'),
      (join) => join.onTrue(),
    );
}

export async function listMissingCovers(
  db: Database,
  limit = 200,
): Promise<{ total: number; books: MissingCoverBook[] }> {
  const [rows, total] = await Promise.all([
    missingQuery(db)
      .select([
        'b.id',
        'b.title',
        'b.authors',
        'b.isbn13',
        'last.checked_at',
        'last.outcome',
        sql<number>`(select count(*)::int from public.listings l where l.book_id = b.id
          and l.status in ('draft', 'active', 'reserved') and jsonb_array_length(l.photos) = 0)`.as(
          'listings',
        ),
      ])
      .orderBy(sql`last.checked_at nulls first`)
      .orderBy('b.title')
      .orderBy('b.id')
      .limit(limit)
      .execute(),
    missingQuery(db).select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow(),
  ]);
  return {
    total: total.count,
    books: rows.map((row) => ({
      id: row.id,
      title: row.title,
      authors: row.authors,
      isbn13: row.isbn13,
      listings: row.listings,
      lastCheck:
        row.checked_at && row.outcome
          ? { at: new Date(row.checked_at).toISOString(), outcome: row.outcome as Outcome }
          : null,
    })),
  };
}

const RUN_COLUMNS = [
  'r.id',
  'r.status',
  'r.lookup',
  'r.selection',
  'u.email as started_by',
  'r.started_at',
  'r.finished_at',
  'r.requested',
  'r.checked',
  'r.found',
  'r.not_found',
  'r.no_isbn',
  'r.errors',
  'r.error',
] as const;

function runsQuery(db: Database) {
  return db
    .selectFrom('cover_backfill_runs as r')
    .leftJoin('auth.users as u', 'u.id', 'r.started_by')
    .select(RUN_COLUMNS);
}

type RunRow = Awaited<ReturnType<ReturnType<typeof runsQuery>['executeTakeFirstOrThrow']>>;

function toRun(row: RunRow): BackfillRun {
  return {
    id: row.id,
    status: row.status as BackfillRun['status'],
    lookup: row.lookup as BackfillRun['lookup'],
    selection: row.selection as BackfillRun['selection'],
    startedBy: row.started_by ?? null,
    startedAt: row.started_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
    requested: row.requested,
    checked: row.checked,
    found: row.found,
    notFound: row.not_found,
    noIsbn: row.no_isbn,
    errors: row.errors,
    error: row.error,
  };
}

export async function recentRuns(db: Database, limit = 10): Promise<BackfillRun[]> {
  const rows = await runsQuery(db).orderBy('r.started_at', 'desc').orderBy('r.id').limit(limit).execute();
  return rows.map(toRun);
}

export async function getRun(db: Database, runId: string): Promise<BackfillRun & { items: BackfillItem[] }> {
  const row = await runsQuery(db).where('r.id', '=', runId).executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', 'There is no such backfill run. Refresh the page.');
  const items = await db
    .selectFrom('cover_backfill_items')
    .select(['position', 'book_id', 'title', 'isbn13', 'outcome', 'cover_url', 'detail'])
    .where('run_id', '=', runId)
    .orderBy('position')
    .execute();
  return {
    ...toRun(row),
    items: items.map((item) => ({
      position: item.position,
      bookId: item.book_id,
      title: item.title,
      isbn13: item.isbn13,
      outcome: item.outcome as Outcome | null,
      coverUrl: item.cover_url,
      detail: item.detail,
    })),
  };
}

export interface BackfillDeps {
  db: Database;
  bookLookup: BookLookupPort;
  log?: (message: string, error?: unknown) => void;
}

/**
 * Starts a run over the chosen books (those still missing a cover) or the next 50 missing, and
 * returns at once; `finished` settles when every book has been looked up (tests await it).
 */
export async function startCoverBackfill(
  deps: BackfillDeps,
  staffId: string,
  input: { bookIds?: string[] | undefined },
): Promise<{ runId: string; requested: number; finished: Promise<void> }> {
  const { runId, books } = await deps.db.transaction().execute(async (trx) => {
    // A run left "running" by a server that stopped can never finish: it would block every run.
    await trx
      .updateTable('cover_backfill_runs')
      .set({
        status: 'failed',
        finished_at: new Date(),
        error: 'Interrupted: the server stopped during the run',
      })
      .where('status', '=', 'running')
      .where('started_at', '<', new Date(Date.now() - STALE_MINUTES * 60 * 1000))
      .execute();
    const running = await trx
      .selectFrom('cover_backfill_runs')
      .select('id')
      .where('status', '=', 'running')
      .executeTakeFirst();
    if (running) throw new AppError('CONFLICT', ALREADY_RUNNING);
    let query = missingQuery(trx).select(['b.id', 'b.title', 'b.isbn13']);
    if (input.bookIds) query = query.where('b.id', 'in', input.bookIds);
    const books = await query
      .orderBy(sql`last.checked_at nulls first`)
      .orderBy('b.title')
      .orderBy('b.id')
      .limit(MAX_PER_RUN)
      .execute();
    if (books.length === 0) {
      throw new AppError(
        'PRECONDITION_FAILED',
        input.bookIds
          ? 'None of the chosen books is missing a cover any more. Refresh the page.'
          : 'No books are missing a cover: there is nothing to look up.',
      );
    }
    let run: { id: string };
    try {
      run = await trx
        .insertInto('cover_backfill_runs')
        .values({
          started_by: staffId,
          lookup: deps.bookLookup.kind,
          selection: input.bookIds ? 'chosen' : 'all',
          requested: books.length,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    } catch (error) {
      // Another run started between our check and this insert: the unique index decided.
      if ((error as { code?: string }).code === '23505') throw new AppError('CONFLICT', ALREADY_RUNNING);
      throw error;
    }
    await trx
      .insertInto('cover_backfill_items')
      .values(
        books.map((book, index) => ({
          run_id: run.id,
          position: index + 1,
          book_id: book.id,
          title: book.title,
          isbn13: book.isbn13,
        })),
      )
      .execute();
    await recordAudit(trx, {
      actorId: staffId,
      action: 'covers_backfill.run',
      targetType: 'cover_backfill_run',
      targetId: run.id,
      details: {
        lookup: deps.bookLookup.kind,
        selection: input.bookIds ? 'chosen' : 'all',
        books: books.length,
      },
    });
    return { runId: run.id, books };
  });
  const finished = processRun(deps, runId, books).catch(async (error) => {
    deps.log?.(`covers backfill ${runId} failed`, error);
    await deps.db
      .updateTable('cover_backfill_runs')
      .set({ status: 'failed', finished_at: new Date(), error: 'The run stopped on an unexpected error' })
      .where('id', '=', runId)
      .where('status', '=', 'running')
      .execute()
      .catch((cause) => deps.log?.(`covers backfill ${runId}: could not mark it failed`, cause));
  });
  return { runId, requested: books.length, finished };
}

const COUNTER: Record<Outcome, 'found' | 'not_found' | 'no_isbn' | 'errors'> = {
  found: 'found',
  not_found: 'not_found',
  no_isbn: 'no_isbn',
  error: 'errors',
};

async function processRun(
  deps: BackfillDeps,
  runId: string,
  books: { id: string; title: string; isbn13: string | null }[],
): Promise<void> {
  for (const [index, book] of books.entries()) {
    // The lookup: no transaction, no connection held while Open Library thinks.
    const looked: LookupOutcome | null = book.isbn13 ? await deps.bookLookup.find(book.isbn13) : null;
    let outcome: Outcome;
    let coverUrl: string | null = null;
    let detail: string | null = null;
    if (!looked) {
      outcome = 'no_isbn';
    } else if (looked.status === 'error') {
      outcome = 'error';
      detail = looked.message.slice(0, 500);
    } else if (
      looked.status === 'found' &&
      looked.book.coverUrl &&
      /^https:\/\//.test(looked.book.coverUrl)
    ) {
      outcome = 'found';
      coverUrl = looked.book.coverUrl;
    } else {
      outcome = 'not_found';
      if (looked.status === 'found') detail = 'The book is known, but without a cover';
    }
    await deps.db.transaction().execute(async (trx) => {
      if (coverUrl) {
        const stored = await trx
          .updateTable('books')
          .set({ cover_url: coverUrl })
          .where('id', '=', book.id)
          .where('cover_url', 'is', null)
          .returning('id')
          .executeTakeFirst();
        if (!stored) detail = 'The book had been given a cover meanwhile; it was kept';
      }
      await trx
        .updateTable('cover_backfill_items')
        .set({ outcome, cover_url: coverUrl, detail, checked_at: new Date() })
        .where('run_id', '=', runId)
        .where('position', '=', index + 1)
        .execute();
      const counter = COUNTER[outcome];
      await trx
        .updateTable('cover_backfill_runs')
        .set((eb) => ({ checked: eb('checked', '+', 1), [counter]: eb(counter, '+', 1) }))
        .where('id', '=', runId)
        .execute();
    });
  }
  await deps.db
    .updateTable('cover_backfill_runs')
    .set({ status: 'finished', finished_at: new Date() })
    .where('id', '=', runId)
    .where('status', '=', 'running')
    .execute();
}
