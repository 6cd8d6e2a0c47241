/**
 * Reports. A signed-in member reports a listing on sale (not their own), or a
 * message someone sent them with an offer (not their own), with a reason from a fixed list
 * and optional details. One open report per member and target: reporting again while it is
 * open is refused kindly. Reports are rate-limited per member.
 *
 * Staff (moderators too) work the queue at /admin/reports: each report with what it is about
 * and how many open reports that target has. They dismiss one with a note, or act: a listing
 * is removed through the staff listing removal (which closes every open report on it, see
 * close-reports.ts), a message is hidden (`offers.message_hidden_at`; threads then say
 * "Message removed by Reshelf") and its sender may be warned by email. Every change is
 * audited in its transaction.
 */
import {
  HARM_KINDS,
  HARM_LABELS,
  type HarmKind,
  REPORT_REASON_LABELS,
  type ReportReason,
  type ReportStatus,
  type ReportTargetKind,
} from '@reshelf/contracts';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { enforce } from '../../http/rate-limit.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import { layout } from '../../platform/mail/registry.ts';
import { publish, userTopic } from '../../platform/realtime/realtime.ts';
import { removeReview } from '../reviews/reviews.service.ts';
import { type ReportTarget, recordRemoval, tellReporter } from './close-reports.ts';
import { insertReport, REPORT_RATE } from './report-rules.ts';
import { setListingRemoved } from './staff-listings.service.ts';

const GONE = 'That report no longer exists. Refresh the page.';

/** Listings a member can see on the site, and so report. */
const REPORTABLE_LISTING_STATUSES = ['active', 'reserved', 'sold', 'withdrawn'];

export interface ReportInput {
  reason: ReportReason;
  details: string | null;
}

export async function reportListing(
  db: Database,
  reporterId: string,
  input: ReportInput & { listingId: string },
): Promise<{ id: string }> {
  const listing = await db
    .selectFrom('listings')
    .select(['seller_id', 'status'])
    .where('id', '=', input.listingId)
    .executeTakeFirst();
  if (!listing || !REPORTABLE_LISTING_STATUSES.includes(listing.status)) {
    if (listing?.status === 'removed') {
      throw new AppError('CONFLICT', 'Our team has already removed this listing.');
    }
    throw new AppError('NOT_FOUND', 'We could not find that listing.');
  }
  if (listing.seller_id === reporterId) {
    throw new AppError('FORBIDDEN', 'You can’t report your own listing.');
  }
  await enforce(db, [[REPORT_RATE, reporterId]]);
  return insertReport(db, reporterId, { listingId: input.listingId }, input);
}

export async function reportOfferMessage(
  db: Database,
  reporterId: string,
  input: ReportInput & { offerId: string },
): Promise<{ id: string }> {
  const offer = await db
    .selectFrom('offers')
    .select(['buyer_id', 'seller_id', 'made_by', 'message', 'message_hidden_at'])
    .where('id', '=', input.offerId)
    .executeTakeFirst();
  const NOT_FOUND = new AppError('NOT_FOUND', 'We could not find that message.');
  // Only the two people in the thread know the message exists.
  if (!offer || (offer.buyer_id !== reporterId && offer.seller_id !== reporterId)) throw NOT_FOUND;
  const senderId = offer.made_by === 'buyer' ? offer.buyer_id : offer.seller_id;
  if (senderId === reporterId) throw new AppError('FORBIDDEN', 'You can’t report your own message.');
  if (!offer.message) throw NOT_FOUND;
  if (offer.message_hidden_at) {
    throw new AppError('CONFLICT', 'Our team has already removed this message.');
  }
  await enforce(db, [[REPORT_RATE, reporterId]]);
  return insertReport(db, reporterId, { offerId: input.offerId }, input);
}

/** Reports a member's profile (their name, bio or photo): anyone's but your own, while the account is open. */
export async function reportProfile(
  db: Database,
  reporterId: string,
  input: ReportInput & { profileId: string },
): Promise<{ id: string }> {
  const profile = await db
    .selectFrom('profiles')
    .select(['id', 'closed_at'])
    .where('id', '=', input.profileId)
    .executeTakeFirst();
  if (!profile || profile.closed_at) throw new AppError('NOT_FOUND', 'We could not find that member.');
  if (profile.id === reporterId) throw new AppError('FORBIDDEN', 'You can’t report your own profile.');
  await enforce(db, [[REPORT_RATE, reporterId]]);
  return insertReport(db, reporterId, { profileId: input.profileId }, input);
}

/**
 * Reports a charity's page (its description and logo, written by its team): any approved charity's
 * but one you are on the team of. The moderation domain sits below charities, so it reads the
 * tables, not the charities domain.
 */
export async function reportCharity(
  db: Database,
  reporterId: string,
  input: ReportInput & { charityId: string },
): Promise<{ id: string }> {
  const charity = await db
    .selectFrom('charities as c')
    .leftJoin('charity_members as cm', (join) =>
      join.onRef('cm.charity_id', '=', 'c.id').on('cm.user_id', '=', reporterId),
    )
    .select(['c.id', 'c.status', 'cm.user_id as member'])
    .where('c.id', '=', input.charityId)
    .executeTakeFirst();
  if (charity?.status !== 'approved') {
    throw new AppError('NOT_FOUND', 'We could not find that charity.');
  }
  if (charity.member) throw new AppError('FORBIDDEN', 'You can’t report your own charity’s page.');
  await enforce(db, [[REPORT_RATE, reporterId]]);
  return insertReport(db, reporterId, { charityId: input.charityId }, input);
}

// Staff ------------------------------------------------------------------------------------------

export interface StaffReport {
  id: string;
  kind: ReportTargetKind;
  reason: ReportReason;
  reasonLabel: string;
  harm: HarmKind;
  harmLabel: string;
  details: string | null;
  status: ReportStatus;
  createdAt: string;
  reporter: { id: string; name: string | null; email: string | null };
  /** Open reports on the same listing or message, this one included if open. */
  openOnTarget: number;
  resolvedAt: string | null;
  resolvedByEmail: string | null;
  resolutionNote: string | null;
  listing: {
    id: string;
    slug: string | null;
    title: string | null;
    status: string;
    sellerName: string | null;
    sellerEmail: string | null;
  } | null;
  message: {
    offerId: string;
    text: string | null;
    hidden: boolean;
    senderName: string | null;
    senderEmail: string | null;
    listingTitle: string | null;
    listingSlug: string | null;
  } | null;
  /** A message in a conversation (community/messages); staff open the thread through the report. */
  threadMessage: {
    messageId: string;
    threadId: string;
    text: string | null;
    photos: string[];
    hidden: boolean;
    senderName: string | null;
    senderEmail: string | null;
    listingTitle: string | null;
    listingSlug: string | null;
  } | null;
  /** A review of an order (community/reviews); acting on the report removes it. */
  review: {
    reviewId: string;
    stars: number;
    text: string;
    reply: string | null;
    removed: boolean;
    authorName: string | null;
    authorEmail: string | null;
    orderReference: string | null;
  } | null;
  /** A member's profile: what they wrote about themselves, as it is now. */
  profile: {
    profileId: string;
    name: string | null;
    bio: string | null;
    avatarUrl: string | null;
    email: string | null;
  } | null;
  /** A charity's page: what its team wrote, as it is now, and whom a removal tells (its owner). */
  charity: {
    charityId: string;
    slug: string;
    name: string;
    description: string | null;
    logoUrl: string | null;
    ownerEmail: string | null;
  } | null;
}

export async function listReports(
  db: Database,
  filter: { status: ReportStatus; kind?: ReportTargetKind; harm?: HarmKind; limit: number },
): Promise<StaffReport[]> {
  let query = db
    .selectFrom('reports as r')
    .innerJoin('auth.users as ru', 'ru.id', 'r.reporter_id')
    .leftJoin('profiles as rp', 'rp.id', 'r.reporter_id')
    .leftJoin('auth.users as staff', 'staff.id', 'r.resolved_by')
    .leftJoin('offers as o', 'o.id', 'r.offer_id')
    .leftJoin('messages as tm', 'tm.id', 'r.message_id')
    .leftJoin('message_threads as mt', 'mt.id', 'tm.thread_id')
    .leftJoin('auth.users as tmu', 'tmu.id', 'tm.sender_id')
    .leftJoin('profiles as tmp', 'tmp.id', 'tm.sender_id')
    .leftJoin('reviews as rv', 'rv.id', 'r.review_id')
    .leftJoin('auth.users as rvu', 'rvu.id', 'rv.author_id')
    .leftJoin('profiles as rvp', 'rvp.id', 'rv.author_id')
    .leftJoin('orders as rvo', 'rvo.id', 'rv.order_id')
    .leftJoin('profiles as pp', 'pp.id', 'r.profile_id')
    .leftJoin('auth.users as ppu', 'ppu.id', 'r.profile_id')
    .leftJoin('charities as ch', 'ch.id', 'r.charity_id')
    .leftJoin('auth.users as chu', 'chu.id', 'ch.owner_id')
    // The listing reported, or the one the offer or conversation was about.
    .leftJoin('listings as l', (join) =>
      join.on((eb) =>
        eb.or([
          eb('l.id', '=', eb.ref('r.listing_id')),
          eb('l.id', '=', eb.ref('o.listing_id')),
          eb('l.id', '=', eb.ref('mt.listing_id')),
        ]),
      ),
    )
    .leftJoin('books as b', 'b.id', 'l.book_id')
    .leftJoin('auth.users as su', 'su.id', 'l.seller_id')
    .leftJoin('profiles as sp', 'sp.id', 'l.seller_id')
    // Who sent the message: the buyer for an offer, the seller for a counter.
    .leftJoin('auth.users as mu', (join) =>
      join.on((eb) =>
        eb(
          'mu.id',
          '=',
          eb
            .case()
            .when('o.made_by', '=', 'buyer')
            .then(eb.ref('o.buyer_id'))
            .else(eb.ref('o.seller_id'))
            .end(),
        ),
      ),
    )
    .leftJoin('profiles as mp', 'mp.id', 'mu.id')
    .select((eb) => [
      'r.id',
      'r.target_kind',
      'r.listing_id',
      'r.offer_id',
      'r.message_id',
      'r.review_id',
      'r.profile_id',
      'r.charity_id',
      'r.harm',
      'ch.slug as ch_slug',
      'ch.name as ch_name',
      'ch.description as ch_description',
      'ch.logo_url as ch_logo',
      'chu.email as ch_owner_email',
      'pp.display_name as pp_name',
      'pp.bio as pp_bio',
      'pp.avatar_url as pp_avatar',
      'ppu.email as pp_email',
      'rv.stars as rv_stars',
      'rv.body as rv_body',
      'rv.reply as rv_reply',
      'rv.removed_at as rv_removed_at',
      'rvu.email as rv_author_email',
      'rvp.display_name as rv_author_name',
      'rvo.reference as rv_reference',
      'tm.thread_id',
      'tm.body as tm_body',
      'tm.photos as tm_photos',
      'tm.hidden_at as tm_hidden_at',
      'tmu.email as tm_sender_email',
      'tmp.display_name as tm_sender_name',
      'r.reason',
      'r.details',
      'r.status',
      'r.created_at',
      'r.resolved_at',
      'r.resolution_note',
      'r.reporter_id',
      'ru.email as reporter_email',
      'rp.display_name as reporter_name',
      'staff.email as staff_email',
      'o.message',
      'o.message_hidden_at',
      'l.id as l_id',
      'l.slug',
      'l.status as listing_status',
      'b.title',
      'su.email as seller_email',
      'sp.display_name as seller_name',
      'mu.email as sender_email',
      'mp.display_name as sender_name',
      eb
        .selectFrom('reports as s')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('s.status', '=', 'open')
        .where((inner) =>
          inner.or([
            inner('s.listing_id', '=', inner.ref('r.listing_id')),
            inner('s.offer_id', '=', inner.ref('r.offer_id')),
            inner('s.message_id', '=', inner.ref('r.message_id')),
            inner('s.review_id', '=', inner.ref('r.review_id')),
            inner('s.profile_id', '=', inner.ref('r.profile_id')),
            inner('s.charity_id', '=', inner.ref('r.charity_id')),
          ]),
        )
        .as('open_on_target'),
    ])
    .where('r.status', '=', filter.status);
  if (filter.kind) query = query.where('r.target_kind', '=', filter.kind);
  if (filter.harm) query = query.where('r.harm', '=', filter.harm);
  // The open queue by harm, fraud first (HARM_KINDS' order), oldest first within each (first
  // come, first served); closed ones most recent first.
  query =
    filter.status === 'open'
      ? query
          .orderBy(sql`array_position(${sql.val([...HARM_KINDS])}::text[], r.harm)`)
          .orderBy('r.created_at', 'asc')
      : query.orderBy('r.resolved_at', 'desc');
  const rows = await query.orderBy('r.id').limit(filter.limit).execute();
  return rows.map((row) => {
    const reason = row.reason as ReportReason;
    const harm = row.harm as HarmKind;
    return {
      id: row.id,
      kind: row.target_kind as ReportTargetKind,
      reason,
      reasonLabel: REPORT_REASON_LABELS[reason] ?? reason,
      harm,
      harmLabel: HARM_LABELS[harm],
      details: row.details,
      status: row.status as ReportStatus,
      createdAt: row.created_at.toISOString(),
      reporter: { id: row.reporter_id, name: row.reporter_name ?? null, email: row.reporter_email ?? null },
      openOnTarget: row.open_on_target ?? 0,
      resolvedAt: row.resolved_at?.toISOString() ?? null,
      resolvedByEmail: row.staff_email ?? null,
      resolutionNote: row.resolution_note,
      listing:
        row.target_kind === 'listing' && row.l_id
          ? {
              id: row.l_id,
              slug: row.slug ?? null,
              title: row.title ?? null,
              status: row.listing_status ?? 'removed',
              sellerName: row.seller_name ?? null,
              sellerEmail: row.seller_email ?? null,
            }
          : null,
      message:
        row.target_kind === 'offer_message' && row.offer_id
          ? {
              offerId: row.offer_id,
              text: row.message ?? null,
              hidden: row.message_hidden_at !== null,
              senderName: row.sender_name ?? null,
              senderEmail: row.sender_email ?? null,
              listingTitle: row.title ?? null,
              listingSlug: row.slug ?? null,
            }
          : null,
      threadMessage:
        row.target_kind === 'message' && row.message_id && row.thread_id
          ? {
              messageId: row.message_id,
              threadId: row.thread_id,
              text: row.tm_body ?? null,
              photos: Array.isArray(row.tm_photos) ? (row.tm_photos as string[]) : [],
              hidden: row.tm_hidden_at !== null,
              senderName: row.tm_sender_name ?? null,
              senderEmail: row.tm_sender_email ?? null,
              listingTitle: row.title ?? null,
              listingSlug: row.slug ?? null,
            }
          : null,
      review:
        row.target_kind === 'review' && row.review_id
          ? {
              reviewId: row.review_id,
              stars: row.rv_stars ?? 0,
              text: row.rv_body ?? '',
              reply: row.rv_reply ?? null,
              removed: row.rv_removed_at !== null,
              authorName: row.rv_author_name ?? null,
              authorEmail: row.rv_author_email ?? null,
              orderReference: row.rv_reference ?? null,
            }
          : null,
      profile:
        row.target_kind === 'profile' && row.profile_id
          ? {
              profileId: row.profile_id,
              name: row.pp_name ?? null,
              bio: row.pp_bio ?? null,
              avatarUrl: row.pp_avatar ?? null,
              email: row.pp_email ?? null,
            }
          : null,
      charity:
        row.target_kind === 'charity' && row.charity_id
          ? {
              charityId: row.charity_id,
              slug: row.ch_slug ?? '',
              name: row.ch_name ?? '',
              description: row.ch_description ?? null,
              logoUrl: row.ch_logo ?? null,
              ownerEmail: row.ch_owner_email ?? null,
            }
          : null,
    };
  });
}

/** Open reports, for the staff sidebar and dashboard. */
export async function countOpenReports(db: Database): Promise<number> {
  const row = await db
    .selectFrom('reports')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('status', '=', 'open')
    .executeTakeFirstOrThrow();
  return row.n;
}

/**
 * Open reports by harm, every harm in the queue's order (fraud first) with how many wait and
 * since when the oldest has waited.
 */
export async function openReportsByHarm(
  db: Database,
): Promise<{ harm: HarmKind; label: string; open: number; oldestAt: string | null }[]> {
  const rows = await db
    .selectFrom('reports')
    .select(['harm', sql<number>`count(*)::int`.as('n'), sql<Date>`min(created_at)`.as('oldest')])
    .where('status', '=', 'open')
    .groupBy('harm')
    .execute();
  return HARM_KINDS.map((harm) => {
    const row = rows.find((r) => r.harm === harm);
    return { harm, label: HARM_LABELS[harm], open: row?.n ?? 0, oldestAt: row?.oldest.toISOString() ?? null };
  });
}

async function openReport(db: Database, reportId: string) {
  const report = await db
    .selectFrom('reports')
    .select([
      'id',
      'status',
      'target_kind',
      'listing_id',
      'offer_id',
      'message_id',
      'review_id',
      'profile_id',
      'charity_id',
    ])
    .where('id', '=', reportId)
    .executeTakeFirst();
  if (!report) throw new AppError('NOT_FOUND', GONE);
  if (report.status !== 'open') {
    throw new AppError('CONFLICT', `This report is already ${report.status}. Refresh the page.`);
  }
  return report;
}

/** Closes one report without action (the others on the same target stay open). */
export async function dismissReport(
  deps: ActDeps,
  staffId: string,
  input: { reportId: string; note: string },
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const closed = await trx
      .updateTable('reports')
      .set({
        status: 'dismissed',
        resolved_by: staffId,
        resolved_at: sql<Date>`now()`,
        resolution_note: input.note,
      })
      .where('id', '=', input.reportId)
      .where('status', '=', 'open')
      .returning([
        'id',
        'target_kind',
        'reason',
        'harm',
        'reporter_id',
        'listing_id',
        'offer_id',
        'message_id',
        'review_id',
        'profile_id',
        'charity_id',
      ])
      .executeTakeFirst();
    if (!closed) {
      await openReport(trx, input.reportId); // throws why: gone, or closed already
      throw new AppError('CONFLICT', GONE);
    }
    await recordAudit(trx, {
      actorId: staffId,
      action: 'report.dismiss',
      targetType: 'report',
      targetId: input.reportId,
      details: {
        kind: closed.target_kind,
        reason: closed.reason,
        harm: closed.harm,
        ...(closed.listing_id
          ? { listingId: closed.listing_id }
          : closed.message_id
            ? { messageId: closed.message_id }
            : closed.review_id
              ? { reviewId: closed.review_id }
              : closed.profile_id
                ? { profileId: closed.profile_id }
                : closed.charity_id
                  ? { charityId: closed.charity_id }
                  : { offerId: closed.offer_id }),
        note: input.note,
      },
    });
    // The reporter hears what was decided, not the note (it is for the team).
    await tellReporter(trx, deps, closed, false);
  });
}

export interface ActDeps {
  db: Database;
  mailer: Mailer;
  origin: string;
}

/**
 * Acts on a report. A listing is removed with the note as the reason the seller is told
 * (the staff listing removal, which also closes every open report on it). A message is hidden
 * from the thread, every open report on it closes, and, if asked, its sender is warned.
 */
export async function actOnReport(
  deps: ActDeps,
  staffId: string,
  input: { reportId: string; note: string; warnSender: boolean },
): Promise<{ kind: ReportTargetKind; closed: number }> {
  const report = await openReport(deps.db, input.reportId);
  if (report.target_kind === 'listing' && report.listing_id) {
    const open = await countOpenOn(deps.db, { listingId: report.listing_id });
    await setListingRemoved(deps, staffId, {
      listingId: report.listing_id,
      removed: true,
      reason: input.note,
    });
    return { kind: 'listing', closed: open };
  }
  if (report.target_kind === 'message' && report.message_id) {
    return actOnThreadMessage(deps, staffId, report.message_id, input);
  }
  if (report.target_kind === 'review' && report.review_id) {
    // The review is removed with the note as the reason both members are told (decision 0048).
    const { closedReports } = await removeReview(deps, staffId, {
      reviewId: report.review_id,
      reason: input.note,
    });
    return { kind: 'review', closed: closedReports };
  }
  if (report.target_kind === 'profile' && report.profile_id) {
    return actOnProfile(deps, staffId, report.profile_id, input.note);
  }
  if (report.target_kind === 'charity' && report.charity_id) {
    return actOnCharity(deps, staffId, report.charity_id, input.note);
  }
  if (!report.offer_id) throw new Error(`report ${report.id} has no target`);
  const offerId = report.offer_id;
  const { closed } = await deps.db.transaction().execute(async (trx) => {
    const offer = await trx
      .selectFrom('offers as o')
      .innerJoin('listings as l', 'l.id', 'o.listing_id')
      .innerJoin('books as b', 'b.id', 'l.book_id')
      .select(['o.message_hidden_at', 'o.made_by', 'o.buyer_id', 'o.seller_id', 'b.title'])
      .where('o.id', '=', offerId)
      .forUpdate('o')
      .executeTakeFirst();
    if (!offer) throw new AppError('NOT_FOUND', 'That message no longer exists. Refresh the page.');
    if (!offer.message_hidden_at) {
      await trx
        .updateTable('offers')
        .set({ message_hidden_at: sql<Date>`now()` })
        .where('id', '=', offerId)
        .execute();
    }
    const senderId = offer.made_by === 'buyer' ? offer.buyer_id : offer.seller_id;
    const closed = await closeHiddenMessage(trx, deps, staffId, input, {
      audit: { action: 'offer.hide_message', targetType: 'offer', targetId: offerId, details: { senderId } },
      reportsOn: { offerId },
      senderId,
      title: offer.title,
      what: `a message you sent with an offer on “${offer.title}”`,
    });
    return { closed };
  });
  return { kind: 'offer_message', closed };
}

/** A reported conversation message: hidden from both members, its reports closed, its sender warned if asked. */
async function actOnThreadMessage(
  deps: ActDeps,
  staffId: string,
  messageId: string,
  input: { note: string; warnSender: boolean },
): Promise<{ kind: ReportTargetKind; closed: number }> {
  const closed = await deps.db.transaction().execute(async (trx) => {
    const message = await trx
      .selectFrom('messages as m')
      .innerJoin('message_threads as t', 't.id', 'm.thread_id')
      .innerJoin('listings as l', 'l.id', 't.listing_id')
      .leftJoin('books as b', 'b.id', 'l.book_id')
      .select(['m.hidden_at', 'm.sender_id', 'm.thread_id', 't.buyer_id', 't.seller_id', 'b.title'])
      .where('m.id', '=', messageId)
      .forUpdate('m')
      .executeTakeFirst();
    if (!message) throw new AppError('NOT_FOUND', 'That message no longer exists. Refresh the page.');
    if (!message.hidden_at) {
      await trx
        .updateTable('messages')
        .set({ hidden_at: sql<Date>`now()` })
        .where('id', '=', messageId)
        .execute();
    }
    // Both members' screens read the thread again (the message now says it was removed).
    await publish(trx, {
      topic: [userTopic(message.buyer_id), userTopic(message.seller_id)],
      kind: 'message.hidden',
      entityId: message.thread_id,
    });
    return closeHiddenMessage(trx, deps, staffId, input, {
      audit: {
        action: 'message.hide',
        targetType: 'message',
        targetId: messageId,
        details: { threadId: message.thread_id, senderId: message.sender_id },
      },
      reportsOn: { messageId },
      senderId: message.sender_id,
      title: message.title ?? 'a book',
      what: `a message you sent about “${message.title ?? 'a book'}”`,
      about: {
        what: `a message you sent about “${message.title ?? 'a book'}”`,
        url: `${deps.origin}/messages/${message.thread_id}`,
        label: 'See the conversation',
      },
    });
  });
  return { kind: 'message', closed };
}

/**
 * What follows hiding a reported message, of an offer or of a conversation, in the hiding's
 * transaction: the audit entry (with the note and whether the sender was warned), every open
 * report on the message closed, and the sender warned by email if asked. Answers how many
 * reports closed.
 */
async function closeHiddenMessage(
  trx: Transaction<DB>,
  deps: ActDeps,
  staffId: string,
  input: { note: string; warnSender: boolean },
  hidden: {
    audit: { action: string; targetType: string; targetId: string; details: Record<string, unknown> };
    reportsOn: ReportTarget;
    senderId: string;
    title: string;
    /** The message in words, as its sender knows it. */
    what: string;
    about?: { what: string; url: string; label: string };
  },
): Promise<number> {
  await recordAudit(trx, {
    actorId: staffId,
    ...hidden.audit,
    details: { ...hidden.audit.details, note: input.note, warned: input.warnSender },
  });
  // Its reporters are told the outcome, and its sender why, with the appeal (close-reports.ts).
  const closed = await recordRemoval(trx, deps, staffId, {
    target: hidden.reportsOn,
    ownerId: hidden.senderId,
    note: input.note,
    what: hidden.what,
  });
  if (input.warnSender) await warnSender(trx, deps, hidden.senderId, hidden.title, input.note, hidden.about);
  return closed;
}

/**
 * A reported profile: what the member wrote about themselves (bio) and their photo are taken
 * down (kept with the removal, to put back if their appeal is upheld), its reports closed, and
 * the member told why. Their name stays: staff change a name from the member's account.
 */
async function actOnProfile(
  deps: ActDeps,
  staffId: string,
  profileId: string,
  note: string,
): Promise<{ kind: ReportTargetKind; closed: number }> {
  const closed = await deps.db.transaction().execute(async (trx) => {
    const profile = await trx
      .selectFrom('profiles')
      .select(['bio', 'avatar_url'])
      .where('id', '=', profileId)
      .forUpdate()
      .executeTakeFirst();
    if (!profile) throw new AppError('NOT_FOUND', 'That member no longer exists. Refresh the page.');
    await trx
      .updateTable('profiles')
      .set({ bio: null, avatar_url: null, updated_at: new Date() })
      .where('id', '=', profileId)
      .execute();
    await recordAudit(trx, {
      actorId: staffId,
      action: 'profile.hide',
      targetType: 'profile',
      targetId: profileId,
      details: { note, hadBio: profile.bio !== null, hadPhoto: profile.avatar_url !== null },
    });
    return recordRemoval(trx, deps, staffId, {
      target: { profileId },
      ownerId: profileId,
      note,
      what: 'the bio and photo on your profile',
      removedContent: { bio: profile.bio, avatarUrl: profile.avatar_url },
    });
  });
  return { kind: 'profile', closed };
}

/**
 * A charity's page broke the rules: its description and logo come down (kept, to put back if an
 * appeal is upheld); its name, registered number and books stay. Its owner is told and may appeal
 * (the charity's team has one owner: charity_members' other role, staff, does not manage the page).
 */
async function actOnCharity(
  deps: ActDeps,
  staffId: string,
  charityId: string,
  note: string,
): Promise<{ kind: ReportTargetKind; closed: number }> {
  const closed = await deps.db.transaction().execute(async (trx) => {
    const charity = await trx
      .selectFrom('charities')
      .select(['name', 'description', 'logo_url', 'owner_id'])
      .where('id', '=', charityId)
      .forUpdate()
      .executeTakeFirst();
    if (!charity) throw new AppError('NOT_FOUND', 'That charity no longer exists. Refresh the page.');
    const ownerId =
      charity.owner_id ??
      (
        await trx
          .selectFrom('charity_members')
          .select('user_id')
          .where('charity_id', '=', charityId)
          .where('role', '=', 'owner')
          .executeTakeFirst()
      )?.user_id;
    if (!ownerId) {
      throw new AppError(
        'CONFLICT',
        'This charity has no owner to tell or to appeal, so its page can’t be taken down here. Ask an admin to contact the charity.',
      );
    }
    await trx
      .updateTable('charities')
      .set({ description: null, logo_url: null, updated_at: new Date() })
      .where('id', '=', charityId)
      .execute();
    await recordAudit(trx, {
      actorId: staffId,
      action: 'charity.hide',
      targetType: 'charity',
      targetId: charityId,
      details: { note, hadDescription: charity.description !== null, hadLogo: charity.logo_url !== null },
    });
    return recordRemoval(trx, deps, staffId, {
      target: { charityId },
      ownerId,
      note,
      what: `the description and logo on your charity’s page (${charity.name})`,
      removedContent: { description: charity.description, logoUrl: charity.logo_url },
    });
  });
  return { kind: 'charity', closed };
}

async function countOpenOn(db: Database, target: { listingId: string }): Promise<number> {
  const row = await db
    .selectFrom('reports')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('status', '=', 'open')
    .where('listing_id', '=', target.listingId)
    .executeTakeFirstOrThrow();
  return row.n;
}

/**
 * The sender of a removed message is told why, and what happens if it continues: queued on
 * `trx`, the removal's transaction.
 */
async function warnSender(
  trx: Database,
  deps: ActDeps,
  senderId: string,
  title: string,
  note: string,
  about?: { what: string; url: string; label: string },
): Promise<void> {
  const person = await trx
    .selectFrom('auth.users as u')
    .leftJoin('profiles as p', 'p.id', 'u.id')
    .select(['u.email', 'p.display_name'])
    .where('u.id', '=', senderId)
    .executeTakeFirst();
  if (!person?.email) return;
  const paragraphs = [
    `Hello ${person.display_name ?? 'there'},`,
    `Our team has removed ${about?.what ?? `a message you sent with an offer on “${title}”`}, because it broke our community rules.`,
    `The reason: ${note}`,
    'Please keep messages polite and about the book. If it happens again we may suspend your account.',
  ];
  const url = about?.url ?? `${deps.origin}/account/offers`;
  await deps.mailer.send(
    {
      to: person.email,
      subject: 'A message you sent on Reshelf was removed',
      text: `${paragraphs.join('\n\n')}\n\n${about ? 'The conversation' : 'Your offers'}: ${url}\n`,
      html: layout(paragraphs, { label: about?.label ?? 'See your offers', url }),
      template: 'offer_message_removed',
      userId: senderId,
    },
    { trx },
  );
}
