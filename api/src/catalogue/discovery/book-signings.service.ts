/**
 * Book signings (/admin/book-signings, staff): events with a title, author, venue, date and
 * description; created as drafts, edited, published and unpublished. Every change is audited.
 */
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';

export interface BookSigningInput {
  title: string;
  author: string;
  venue: string;
  startsAt: string;
  description: string | null;
}

export interface BookSigning extends BookSigningInput {
  id: string;
  publishedAt: string | null;
  updatedAt: string;
}

const GONE = 'That event no longer exists. Refresh the page.';

export async function listBookSignings(db: Database): Promise<BookSigning[]> {
  const rows = await db
    .selectFrom('book_signings')
    .select(['id', 'title', 'author', 'venue', 'starts_at', 'description', 'published_at', 'updated_at'])
    .orderBy('starts_at')
    .orderBy('created_at')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    author: row.author,
    venue: row.venue,
    startsAt: new Date(row.starts_at).toISOString(),
    description: row.description,
    publishedAt: row.published_at ? new Date(row.published_at).toISOString() : null,
    updatedAt: new Date(row.updated_at).toISOString(),
  }));
}

const columns = (input: BookSigningInput) => ({
  title: input.title,
  author: input.author,
  venue: input.venue,
  starts_at: input.startsAt,
  description: input.description,
});

export async function createBookSigning(
  db: Database,
  staffId: string,
  input: BookSigningInput,
): Promise<{ id: string }> {
  return db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('book_signings')
      .values({ ...columns(input), created_by: staffId })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      actorId: staffId,
      action: 'book_signing.create',
      targetType: 'book_signing',
      targetId: id,
      details: { ...input },
    });
    return { id };
  });
}

export async function updateBookSigning(
  db: Database,
  staffId: string,
  id: string,
  input: BookSigningInput,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('book_signings')
      .set(columns(input))
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst();
    if (!updated) throw new AppError('NOT_FOUND', GONE);
    await recordAudit(trx, {
      actorId: staffId,
      action: 'book_signing.update',
      targetType: 'book_signing',
      targetId: id,
      details: { ...input },
    });
  });
}

export async function setBookSigningPublished(
  db: Database,
  staffId: string,
  id: string,
  published: boolean,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const event = await trx
      .selectFrom('book_signings')
      .select(['title', 'published_at'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!event) throw new AppError('NOT_FOUND', GONE);
    if (published === (event.published_at !== null)) {
      throw new AppError(
        'CONFLICT',
        `That event is already ${published ? 'published' : 'a draft'}. Refresh the page.`,
      );
    }
    await trx
      .updateTable('book_signings')
      .set({ published_at: published ? sql<Date>`now()` : null })
      .where('id', '=', id)
      .execute();
    await recordAudit(trx, {
      actorId: staffId,
      action: published ? 'book_signing.publish' : 'book_signing.unpublish',
      targetType: 'book_signing',
      targetId: id,
      details: { title: event.title },
    });
  });
}
