/**
 * Listings for staff (/admin/listings, moderators too): search by title, slug, seller or
 * status; remove a listing (status `removed`, with the reason the seller is told) and restore
 * it to the status it had. Each change is audited in its transaction; the seller is emailed
 * after it commits.
 *
 * Only a listing nobody is buying can be removed (active, draft or withdrawn): one reserved or
 * sold belongs to an order, which staff handle on the order and dispute pages. Restoring puts
 * back the status recorded by the latest `listing.remove` entry of the (append-only) audit log.
 * Removing a listing answers every open report on it: they close as actioned, with the reason.
 *
 * The listings clean-up (admin-cleanup-listings, decision 0023) withdraws listings the same
 * way, with `listing.remove` entries marked `cleanup`: staff restore those here for
 * CLEANUP_RESTORE_DAYS days, after which they stay withdrawn. Its sellers are emailed by
 * `emailCleanupWithdrawals`, one email per seller.
 */
import { CLEANUP_RESTORE_DAYS, plural } from '@reshelf/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { escapeLike } from '../../db/search.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';
import type { Mailer, OutgoingEmail } from '../../platform/mail/mailer.ts';
import { layout } from '../../platform/mail/registry.ts';
import { recordRemoval } from './close-reports.ts';

export const REMOVABLE_STATUSES = ['active', 'draft', 'withdrawn'] as const;
export const LISTING_STATUSES = ['active', 'draft', 'reserved', 'sold', 'removed', 'withdrawn'] as const;

export interface StaffListing {
  id: string;
  slug: string | null;
  title: string | null;
  status: string;
  priceMinor: number | null;
  removedReason: string | null;
  sellerId: string;
  sellerEmail: string | null;
  sellerName: string | null;
  createdAt: string;
  /** Whether staff may restore it now (removed, and not a clean-up withdrawal past its window). */
  restorable: boolean;
  /** For a clean-up withdrawal: the end of the window in which staff may restore it. */
  restoreUntil: string | null;
}

const RESTORE_WINDOW_MS = CLEANUP_RESTORE_DAYS * 86_400_000;

/** When the clean-up withdrew the listing, if its latest removal was the clean-up's. */
const cleanupWithdrawnAt = sql<Date | null>`(
  select case when a.details ? 'cleanup' then a.created_at end
  from public.audit_log a
  where a.target_type = 'listing' and a.target_id = l.id::text and a.action = 'listing.remove'
  order by a.id desc
  limit 1
)`;

function listingQuery(db: Database) {
  return db
    .selectFrom('listings as l')
    .leftJoin('books as b', 'b.id', 'l.book_id')
    .innerJoin('auth.users as u', 'u.id', 'l.seller_id')
    .leftJoin('profiles as p', 'p.id', 'l.seller_id')
    .select([
      'l.id',
      'l.slug',
      'b.title',
      'l.status',
      'l.price_minor',
      'l.removed_reason',
      'l.seller_id',
      'u.email',
      'p.display_name',
      'l.created_at',
      cleanupWithdrawnAt.as('cleanup_withdrawn_at'),
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof listingQuery>['executeTakeFirstOrThrow']>>;

function toListing(row: Row): StaffListing {
  const removed = row.status === 'removed';
  const withdrawnAt = removed && row.cleanup_withdrawn_at ? new Date(row.cleanup_withdrawn_at) : null;
  const restoreUntil = withdrawnAt ? new Date(withdrawnAt.getTime() + RESTORE_WINDOW_MS) : null;
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    status: row.status,
    priceMinor: row.price_minor,
    removedReason: row.removed_reason,
    sellerId: row.seller_id,
    sellerEmail: row.email ?? null,
    sellerName: row.display_name ?? null,
    createdAt: row.created_at.toISOString(),
    restorable: removed && (!restoreUntil || restoreUntil.getTime() > Date.now()),
    restoreUntil: restoreUntil?.toISOString() ?? null,
  };
}

export async function searchListings(
  db: Database,
  filter: { q?: string; seller?: string; status?: string; limit: number },
): Promise<StaffListing[]> {
  let query = listingQuery(db);
  if (filter.q) {
    const pattern = `%${escapeLike(filter.q)}%`;
    query = query.where((eb) => eb.or([eb('b.title', 'ilike', pattern), eb('l.slug', 'ilike', pattern)]));
  }
  if (filter.seller) {
    const pattern = `%${escapeLike(filter.seller)}%`;
    query = query.where((eb) =>
      eb.or([eb('u.email', 'ilike', pattern), eb('p.display_name', 'ilike', pattern)]),
    );
  }
  if (filter.status) query = query.where('l.status', '=', filter.status);
  const rows = await query.orderBy('l.created_at', 'desc').orderBy('l.id').limit(filter.limit).execute();
  return rows.map(toListing);
}

/** The seller's email about a removal or a restore, queued on `trx` (the change's transaction). */
async function emailSeller(
  trx: Database,
  mailer: Mailer,
  listing: StaffListing,
  reason: string,
  origin: string,
) {
  if (!listing.sellerEmail) return;
  const title = listing.title ?? 'your listing';
  const paragraphs = [
    `Hello ${listing.sellerName ?? 'there'},`,
    `Our team has restored your listing “${title}” on Reshelf.`,
    `The reason: ${reason}`,
  ];
  const url = `${origin}/account/listings`;
  await mailer.send(
    {
      to: listing.sellerEmail,
      subject: `Your listing “${title}” is back`,
      text: `${paragraphs.join('\n\n')}\n\nYour listings: ${url}\n`,
      html: layout(paragraphs, { label: 'See your listings', url }),
      template: 'listing_restored',
      userId: listing.sellerId,
    },
    { trx },
  );
}

export async function setListingRemoved(
  deps: { db: Database; mailer: Mailer; origin: string },
  staffId: string,
  input: { listingId: string; removed: boolean; reason: string },
): Promise<StaffListing> {
  return deps.db.transaction().execute((trx) => setListingRemovedIn(trx, deps, staffId, input));
}

/**
 * Removes or restores a listing on `trx`: a removal closes its open reports and tells its
 * reporters and its seller (with the appeal, close-reports.ts); a restoration emails the seller.
 */
export async function setListingRemovedIn(
  trx: Transaction<DB>,
  deps: { mailer: Mailer; origin: string },
  staffId: string,
  input: { listingId: string; removed: boolean; reason: string },
): Promise<StaffListing> {
  {
    const before = await trx
      .selectFrom('listings')
      .select(['id', 'status'])
      .where('id', '=', input.listingId)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw new AppError('NOT_FOUND', 'There is no such listing. Search again.');
    let status: string;
    if (input.removed) {
      if (before.status === 'removed') {
        throw new AppError('CONFLICT', 'This listing is already removed. Refresh the page.');
      }
      if (!(REMOVABLE_STATUSES as readonly string[]).includes(before.status)) {
        throw new AppError(
          'CONFLICT',
          `This listing is ${before.status}: a buyer has it. Handle it from the order or its dispute instead.`,
        );
      }
      status = 'removed';
    } else {
      if (before.status !== 'removed') {
        throw new AppError('CONFLICT', 'This listing is not removed. Refresh the page.');
      }
      const removal = await trx
        .selectFrom('audit_log')
        .select([
          sql<string | null>`details->>'from'`.as('from'),
          sql<boolean>`details ? 'cleanup'`.as('cleanup'),
          'created_at',
        ])
        .where('action', '=', 'listing.remove')
        .where('target_type', '=', 'listing')
        .where('target_id', '=', input.listingId)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (removal?.cleanup && Date.now() - removal.created_at.getTime() > RESTORE_WINDOW_MS) {
        throw new AppError(
          'CONFLICT',
          `The clean-up withdrew this listing more than ${CLEANUP_RESTORE_DAYS} days ago, so it can no longer be restored. The seller can list the book again.`,
        );
      }
      status = (REMOVABLE_STATUSES as readonly string[]).includes(removal?.from ?? '')
        ? (removal?.from as string)
        : 'withdrawn';
    }
    await trx
      .updateTable('listings')
      .set({ status, removed_reason: input.removed ? input.reason : null, updated_at: new Date() })
      .where('id', '=', input.listingId)
      .execute();
    await recordAudit(trx, {
      actorId: staffId,
      action: input.removed ? 'listing.remove' : 'listing.restore',
      targetType: 'listing',
      targetId: input.listingId,
      details: { from: before.status, to: status, reason: input.reason },
    });
    const after = toListing(
      await listingQuery(trx).where('l.id', '=', input.listingId).executeTakeFirstOrThrow(),
    );
    if (input.removed) {
      await recordRemoval(trx, deps, staffId, {
        target: { listingId: input.listingId },
        ownerId: after.sellerId,
        note: input.reason,
        what: `your listing “${after.title ?? 'Untitled'}”`,
      });
    } else {
      await emailSeller(trx, deps.mailer, after, input.reason, deps.origin);
    }
    return after;
  }
}

/**
 * After the clean-up withdrew listings: one email per seller, naming each listing and why, and
 * how long our team can put them back. The clean-up is one statement of its own (an Edge
 * Function in hosted mode), so these are queued after it committed, all in one transaction;
 * a failure is logged and does not undo the withdrawal.
 */
export async function emailCleanupWithdrawals(
  deps: { db: Database; mailer: Mailer; origin: string; log: Pick<FastifyBaseLogger, 'error'> },
  listingIds: readonly string[],
): Promise<number> {
  if (listingIds.length === 0) return 0;
  const rows = await deps.db
    .selectFrom('listings as l')
    .leftJoin('books as b', 'b.id', 'l.book_id')
    .innerJoin('auth.users as u', 'u.id', 'l.seller_id')
    .leftJoin('profiles as p', 'p.id', 'l.seller_id')
    .select(['l.id', 'l.seller_id', 'l.removed_reason', 'b.title', 'u.email', 'p.display_name'])
    .where('l.id', 'in', [...listingIds])
    .orderBy('b.title')
    .execute();
  const bySeller = new Map<string, typeof rows>();
  for (const row of rows) {
    if (!row.email) continue;
    bySeller.set(row.seller_id, [...(bySeller.get(row.seller_id) ?? []), row]);
  }
  const url = `${deps.origin}/account/listings`;
  const letters: OutgoingEmail[] = [];
  for (const [sellerId, listings] of bySeller) {
    const first = listings[0]!;
    const lines = listings.map(
      (listing) =>
        `“${listing.title ?? 'Untitled'}”: ${(listing.removed_reason ?? '').replace(/^Withdrawn by our clean-up: /, '')}`,
    );
    const paragraphs = [
      `Hello ${first.display_name ?? 'there'},`,
      plural(
        listings.length,
        `Our clean-up of the catalogue has withdrawn your listing “${first.title ?? 'Untitled'}” from Reshelf. Buyers can no longer see or buy it.`,
        `Our clean-up of the catalogue has withdrawn ${listings.length} of your listings from Reshelf. Buyers can no longer see or buy them.`,
      ),
      ...lines,
      `If this was a mistake, reply to this email within ${CLEANUP_RESTORE_DAYS} days and our team will put ${plural(listings.length, 'it', 'them')} back. After that you can list the book again yourself.`,
    ];
    letters.push({
      to: first.email!,
      subject: plural(
        listings.length,
        `Your listing “${first.title ?? 'Untitled'}” has been withdrawn`,
        `${listings.length} of your listings have been withdrawn`,
      ),
      text: `${paragraphs.join('\n\n')}\n\nYour listings: ${url}\n`,
      html: layout(paragraphs, { label: 'See your listings', url }),
      template: 'listing_removed',
      userId: sellerId,
    });
  }
  try {
    await deps.db.transaction().execute(async (trx) => {
      for (const letter of letters) await deps.mailer.send(letter, { trx });
    });
  } catch (error) {
    deps.log.error({ err: error, sellers: letters.length }, 'clean-up withdrawal emails not queued');
    return 0;
  }
  return letters.length;
}
