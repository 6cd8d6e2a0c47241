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
 */
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { escapeLike } from '../../db/search.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Mailer } from '../mail/mailer.ts';
import { layout } from '../mail/registry.ts';
import { closeOpenReports } from '../reports/close-reports.ts';

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
}

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
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof listingQuery>['executeTakeFirstOrThrow']>>;

function toListing(row: Row): StaffListing {
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

async function emailSeller(
  mailer: Mailer,
  listing: StaffListing,
  removed: boolean,
  reason: string,
  origin: string,
) {
  if (!listing.sellerEmail) return;
  const title = listing.title ?? 'your listing';
  const paragraphs = removed
    ? [
        `Hello ${listing.sellerName ?? 'there'},`,
        `Our team has removed your listing “${title}” from Reshelf. Buyers can no longer see or buy it.`,
        `The reason: ${reason}`,
        'If you think this is a mistake, reply to this email and tell us why.',
      ]
    : [
        `Hello ${listing.sellerName ?? 'there'},`,
        `Our team has restored your listing “${title}” on Reshelf.`,
        `The reason: ${reason}`,
      ];
  const url = `${origin}/account/listings`;
  await mailer.send({
    to: listing.sellerEmail,
    subject: removed ? `Your listing “${title}” has been removed` : `Your listing “${title}” is back`,
    text: `${paragraphs.join('\n\n')}\n\nYour listings: ${url}\n`,
    html: layout(paragraphs, { label: 'See your listings', url }),
    template: removed ? 'listing_removed' : 'listing_restored',
    userId: listing.sellerId,
  });
}

export async function setListingRemoved(
  deps: { db: Database; mailer: Mailer; origin: string },
  staffId: string,
  input: { listingId: string; removed: boolean; reason: string },
): Promise<StaffListing> {
  const { db } = deps;
  const listing = await db.transaction().execute(async (trx) => {
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
        .select(sql<string | null>`details->>'from'`.as('from'))
        .where('action', '=', 'listing.remove')
        .where('target_id', '=', input.listingId)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
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
    if (input.removed) {
      await closeOpenReports(trx, staffId, { listingId: input.listingId }, input.reason);
    }
    return toListing(await listingQuery(trx).where('l.id', '=', input.listingId).executeTakeFirstOrThrow());
  });
  await emailSeller(deps.mailer, listing, input.removed, input.reason, deps.origin);
  return listing;
}
