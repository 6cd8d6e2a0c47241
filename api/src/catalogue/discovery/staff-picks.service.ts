/**
 * Staff picks (/admin/staff-picks): the listings shown on the home page and /staff-picks, in
 * the order staff choose. Only active listings are shown publicly (discovery.staffPicks); a
 * pick whose listing sold or was withdrawn stays here, marked, until staff remove it.
 */
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { escapeLike } from '../../db/search.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';

export const MAX_STAFF_PICKS = 48;

export interface StaffPickRow {
  listingId: string;
  slug: string | null;
  title: string;
  authors: string[];
  status: string;
  priceMinor: number | null;
  sellerName: string;
  note: string | null;
  position: number;
  pickedBy: string | null;
}

export async function listStaffPicks(db: Database): Promise<StaffPickRow[]> {
  const rows = await db
    .selectFrom('staff_picks as sp')
    .innerJoin('listings as l', 'l.id', 'sp.listing_id')
    .innerJoin('books as b', 'b.id', 'l.book_id')
    .leftJoin('profiles as p', 'p.id', 'l.seller_id')
    .leftJoin('charities as c', 'c.id', 'l.charity_id')
    .leftJoin('auth.users as u', 'u.id', 'sp.picked_by')
    .select([
      'sp.listing_id',
      'l.slug',
      'b.title',
      'b.authors',
      'l.status',
      'l.price_minor',
      'p.display_name',
      'c.name as charity_name',
      'sp.note',
      'sp.position',
      'u.email as picked_by',
    ])
    .orderBy('sp.position')
    .orderBy('sp.created_at')
    .execute();
  return rows.map((row, index) => ({
    listingId: row.listing_id,
    slug: row.slug,
    title: row.title,
    authors: row.authors,
    status: row.status,
    priceMinor: row.price_minor,
    sellerName: row.charity_name ?? row.display_name ?? '',
    note: row.note,
    position: index,
    pickedBy: row.picked_by,
  }));
}

/** Active listings not yet picked, matching a title, author or slug. */
export async function pickCandidates(db: Database, q: string) {
  const pattern = `%${escapeLike(q.trim().toLowerCase())}%`;
  const rows = await db
    .selectFrom('listings as l')
    .innerJoin('books as b', 'b.id', 'l.book_id')
    .leftJoin('profiles as p', 'p.id', 'l.seller_id')
    .leftJoin('charities as c', 'c.id', 'l.charity_id')
    .select([
      'l.id',
      'l.slug',
      'b.title',
      'b.authors',
      'l.price_minor',
      'p.display_name',
      'c.name as charity_name',
    ])
    .where('l.status', '=', 'active')
    .where((eb) =>
      eb.not(
        eb.exists(eb.selectFrom('staff_picks as sp').select('sp.id').whereRef('sp.listing_id', '=', 'l.id')),
      ),
    )
    .where((eb) =>
      eb.or([
        eb(sql`b.search_title`, 'like', sql`public.search_normalise(${pattern}::text)`),
        eb(sql`b.search_authors`, 'like', sql`public.search_normalise(${pattern}::text)`),
        eb('l.slug', 'like', pattern),
      ]),
    )
    .orderBy('l.published_at', 'desc')
    .limit(10)
    .execute();
  return rows.map((row) => ({
    listingId: row.id,
    slug: row.slug,
    title: row.title,
    authors: row.authors,
    priceMinor: row.price_minor,
    sellerName: row.charity_name ?? row.display_name ?? '',
  }));
}

export async function addStaffPick(
  db: Database,
  staffId: string,
  input: { listingId: string; note?: string | null },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // One curator at a time: positions are worked out under this lock.
    await sql`select pg_advisory_xact_lock(hashtext('staff_picks'))`.execute(trx);
    const listing = await trx
      .selectFrom('listings as l')
      .innerJoin('books as b', 'b.id', 'l.book_id')
      .select(['l.status', 'b.title'])
      .where('l.id', '=', input.listingId)
      .executeTakeFirst();
    if (!listing) throw new AppError('NOT_FOUND', 'We could not find that listing. Search again.');
    if (listing.status !== 'active') {
      throw new AppError('PRECONDITION_FAILED', 'Only a listing on sale can be a staff pick.');
    }
    const { count, last } = await trx
      .selectFrom('staff_picks')
      .select((eb) => [eb.fn.countAll<string>().as('count'), eb.fn.max('position').as('last')])
      .executeTakeFirstOrThrow();
    if (Number(count) >= MAX_STAFF_PICKS) {
      throw new AppError(
        'PRECONDITION_FAILED',
        `There can be at most ${MAX_STAFF_PICKS} staff picks. Remove one first.`,
      );
    }
    const created = await trx
      .insertInto('staff_picks')
      .values({
        listing_id: input.listingId,
        note: input.note ?? null,
        position: (last ?? -1) + 1,
        picked_by: staffId,
      })
      .onConflict((oc) => oc.column('listing_id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!created) throw new AppError('CONFLICT', 'That listing is already a staff pick.');
    await recordAudit(trx, {
      actorId: staffId,
      action: 'staff_pick.add',
      targetType: 'listing',
      targetId: input.listingId,
      details: { title: listing.title, note: input.note ?? null },
    });
  });
}

export async function removeStaffPick(db: Database, staffId: string, listingId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('staff_picks')
      .where('listing_id', '=', listingId)
      .returning('note')
      .executeTakeFirst();
    if (!removed)
      throw new AppError('NOT_FOUND', 'That listing is not a staff pick any more. Refresh the page.');
    await recordAudit(trx, {
      actorId: staffId,
      action: 'staff_pick.remove',
      targetType: 'listing',
      targetId: listingId,
    });
  });
}

export async function updateStaffPickNote(
  db: Database,
  staffId: string,
  input: { listingId: string; note: string | null },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('staff_picks')
      .set({ note: input.note })
      .where('listing_id', '=', input.listingId)
      .returning('id')
      .executeTakeFirst();
    if (!updated)
      throw new AppError('NOT_FOUND', 'That listing is not a staff pick any more. Refresh the page.');
    await recordAudit(trx, {
      actorId: staffId,
      action: 'staff_pick.note',
      targetType: 'listing',
      targetId: input.listingId,
      details: { note: input.note },
    });
  });
}

/** Puts the picks in the given order; the list must name every current pick exactly once. */
export async function reorderStaffPicks(db: Database, staffId: string, listingIds: string[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('staff_picks'))`.execute(trx);
    const current = await trx.selectFrom('staff_picks').select('listing_id').execute();
    const known = new Set(current.map((row) => row.listing_id));
    if (
      new Set(listingIds).size !== listingIds.length ||
      listingIds.length !== known.size ||
      !listingIds.every((id) => known.has(id))
    ) {
      throw new AppError(
        'CONFLICT',
        'The staff picks changed while you were ordering them. Refresh the page and try again.',
      );
    }
    for (const [position, listingId] of listingIds.entries()) {
      await trx.updateTable('staff_picks').set({ position }).where('listing_id', '=', listingId).execute();
    }
    await recordAudit(trx, {
      actorId: staffId,
      action: 'staff_pick.reorder',
      targetType: 'staff_picks',
      details: { order: listingIds },
    });
  });
}
