/**
 * Removals and appeals (Online Safety Act 2023; decision 0077). Every time our team removes a
 * member's content, close-reports.ts' recordRemoval writes a `moderation_removals` row and tells
 * the member why. Here: the member reads it (/account/removals/:id) and, within
 * APPEAL_WINDOW_DAYS, appeals once in their own words; staff work the open appeals oldest first
 * (/admin/appeals); someone other than the one who removed it decides (refused here in words,
 * and by the table's check); upholding puts the content back; either way the member is told, and
 * every step is audited.
 */
import {
  APPEAL_SAME_STAFF,
  type AppealStatus,
  HARM_LABELS,
  type HarmKind,
  type Removal,
  type ReportTargetKind,
  type StaffAppeal,
} from '@reshelf/contracts';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';
import { type ModerationDeps, removalPath, tellMember } from './close-reports.ts';
import { setListingRemovedIn } from './staff-listings.service.ts';

const NOT_FOUND = 'We could not find that removal. Open it from your notifications.';

/** What the team did, in words, by the kind of thing removed. */
const ACTION: Record<ReportTargetKind, string> = {
  listing: 'We took the listing off Reshelf: buyers can no longer see or buy it.',
  offer_message: 'We hid the message: the other member now sees “Message removed by Reshelf”.',
  message: 'We hid the message: the other member now sees “Message removed by Reshelf”.',
  review: 'We took the review down: it no longer shows or counts towards a rating.',
  profile: 'We took the bio and photo off your profile; your name and listings stay.',
  charity: 'We took the description and logo off your charity’s page; its name, number and books stay.',
};

function removalQuery(db: Database) {
  return db
    .selectFrom('moderation_removals as m')
    .leftJoin('auth.users as ou', 'ou.id', 'm.owner_id')
    .leftJoin('profiles as op', 'op.id', 'm.owner_id')
    .leftJoin('auth.users as rb', 'rb.id', 'm.removed_by')
    .leftJoin('auth.users as db', 'db.id', 'm.decided_by')
    .select([
      'm.id',
      'm.target_kind',
      'm.what',
      'm.harm',
      'm.reason',
      'm.created_at',
      'm.appeal_by',
      'm.appeal_text',
      'm.appealed_at',
      'm.appeal_status',
      'm.decided_at',
      'm.decision_note',
      'm.owner_id',
      'm.removed_by',
      'ou.email as owner_email',
      'op.display_name as owner_name',
      'rb.email as removed_by_email',
      'db.email as decided_by_email',
      sql<boolean>`m.appeal_status is null and now() <= m.appeal_by`.as('can_appeal'),
    ]);
}

type RemovalRow = Awaited<ReturnType<ReturnType<typeof removalQuery>['executeTakeFirstOrThrow']>>;

function toRemoval(row: RemovalRow): Removal {
  const kind = row.target_kind as ReportTargetKind;
  const harm = (row.harm as HarmKind | null) ?? null;
  return {
    id: row.id,
    kind,
    what: row.what,
    harm,
    harmLabel: harm ? HARM_LABELS[harm] : null,
    reason: row.reason,
    action: ACTION[kind],
    removedAt: row.created_at.toISOString(),
    appealBy: row.appeal_by.toISOString(),
    canAppeal: row.can_appeal,
    appeal:
      row.appeal_status && row.appeal_text && row.appealed_at
        ? {
            text: row.appeal_text,
            at: row.appealed_at.toISOString(),
            status: row.appeal_status as AppealStatus,
            decidedAt: row.decided_at?.toISOString() ?? null,
            decisionNote: row.decision_note,
          }
        : null,
  };
}

/** One removal of the member's own content (anyone else's is not found). */
export async function myRemoval(db: Database, userId: string, removalId: string): Promise<Removal> {
  const row = await removalQuery(db)
    .where('m.id', '=', removalId)
    .where('m.owner_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
  return toRemoval(row);
}

/** The member's appeal against a removal of their content: once, within the window. */
export async function appealRemoval(
  db: Database,
  userId: string,
  input: { removalId: string; text: string },
): Promise<Removal> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('moderation_removals')
      .select(['id', 'owner_id', 'appeal_status', sql<boolean>`now() <= appeal_by`.as('in_time')])
      .where('id', '=', input.removalId)
      .forUpdate()
      .executeTakeFirst();
    if (!row || row.owner_id !== userId) throw new AppError('NOT_FOUND', NOT_FOUND);
    if (row.appeal_status) {
      throw new AppError(
        'CONFLICT',
        'You have already appealed this removal; our team will tell you what they decide.',
      );
    }
    if (!row.in_time) {
      throw new AppError('CONFLICT', 'The time to appeal this removal has passed.');
    }
    await trx
      .updateTable('moderation_removals')
      .set({ appeal_text: input.text, appealed_at: sql<Date>`now()`, appeal_status: 'open' })
      .where('id', '=', input.removalId)
      .execute();
    await recordAudit(trx, {
      actorId: userId,
      action: 'removal.appeal',
      targetType: 'removal',
      targetId: input.removalId,
      details: { text: input.text },
    });
    return myRemoval(trx, userId, input.removalId);
  });
}

/** Appeals for staff: the open ones oldest first (or the decided ones, most recent first). */
export async function listAppeals(
  db: Database,
  staffId: string,
  filter: { status: AppealStatus; limit: number },
): Promise<StaffAppeal[]> {
  let query = removalQuery(db).where('m.appeal_status', '=', filter.status);
  query =
    filter.status === 'open' ? query.orderBy('m.appealed_at', 'asc') : query.orderBy('m.decided_at', 'desc');
  const rows = await query.orderBy('m.id').limit(filter.limit).execute();
  return rows.map((row) => ({
    ...toRemoval(row),
    owner: { id: row.owner_id, name: row.owner_name ?? null, email: row.owner_email ?? null },
    actionedByEmail: row.removed_by_email ?? null,
    actionedByYou: row.removed_by === staffId,
    decidedByEmail: row.decided_by_email ?? null,
  }));
}

export async function countOpenAppeals(db: Database): Promise<number> {
  const row = await db
    .selectFrom('moderation_removals')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('appeal_status', '=', 'open')
    .executeTakeFirstOrThrow();
  return row.n;
}

function isSameStaffViolation(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string } | null;
  return e?.code === '23514' && e.constraint === 'moderation_removals_appeal_decided_by_another';
}

/**
 * Decides an open appeal. Upheld: the content is put back and the member told; rejected: the
 * member is told the final reason. Refused to the one who removed it.
 */
export async function decideAppeal(
  deps: ModerationDeps,
  staffId: string,
  input: { removalId: string; uphold: boolean; note: string },
): Promise<{ status: AppealStatus }> {
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const removal = await trx
        .selectFrom('moderation_removals')
        .selectAll()
        .where('id', '=', input.removalId)
        .forUpdate()
        .executeTakeFirst();
      if (!removal) throw new AppError('NOT_FOUND', 'That appeal no longer exists. Refresh the page.');
      if (removal.appeal_status !== 'open') {
        throw new AppError(
          'CONFLICT',
          removal.appeal_status
            ? `This appeal is already ${removal.appeal_status}. Refresh the page.`
            : 'There is no appeal against this removal.',
        );
      }
      if (removal.removed_by === staffId) throw new AppError('FORBIDDEN', APPEAL_SAME_STAFF);
      const status: AppealStatus = input.uphold ? 'upheld' : 'rejected';
      await trx
        .updateTable('moderation_removals')
        .set({
          appeal_status: status,
          decided_by: staffId,
          decided_at: sql<Date>`now()`,
          decision_note: input.note,
        })
        .where('id', '=', input.removalId)
        .execute();
      if (input.uphold) await restore(trx, deps, staffId, removal, input.note);
      await recordAudit(trx, {
        actorId: staffId,
        action: input.uphold ? 'removal.appeal_upheld' : 'removal.appeal_rejected',
        targetType: 'removal',
        targetId: removal.id,
        details: { kind: removal.target_kind, ownerId: removal.owner_id, note: input.note },
      });
      await tellMember(trx, deps, removal.owner_id, {
        kind: 'appeal_decided',
        title: input.uphold
          ? `Your appeal was upheld: ${removal.what} is back`
          : 'Your appeal was not upheld',
        lines: input.uphold
          ? [
              `We looked again at ${removal.what} and agree with you: we have put it back.`,
              `Our note: ${input.note}`,
            ]
          : [
              `We looked again at ${removal.what} and the removal stands. This is our final decision.`,
              `The reason: ${input.note}`,
            ],
        link: removalPath(removal.id),
        linkLabel: 'See the decision',
        entityId: removal.id,
      });
      return { status };
    });
  } catch (error) {
    if (isSameStaffViolation(error)) throw new AppError('FORBIDDEN', APPEAL_SAME_STAFF);
    throw error;
  }
}

/** Puts back what the removal took down, on the appeal's transaction. */
async function restore(
  trx: Transaction<DB>,
  deps: ModerationDeps,
  staffId: string,
  removal: {
    id: string;
    target_kind: string;
    listing_id: string | null;
    offer_id: string | null;
    message_id: string | null;
    review_id: string | null;
    profile_id: string | null;
    charity_id: string | null;
    removed_content: unknown;
  },
  note: string,
): Promise<void> {
  const reason = `Appeal upheld: ${note}`;
  if (removal.listing_id) {
    const listing = await trx
      .selectFrom('listings')
      .select('status')
      .where('id', '=', removal.listing_id)
      .executeTakeFirst();
    // Put back unless a later change already did.
    if (listing?.status === 'removed') {
      await setListingRemovedIn(trx, deps, staffId, {
        listingId: removal.listing_id,
        removed: false,
        reason,
      });
    }
    return;
  }
  if (removal.review_id) {
    await trx
      .updateTable('reviews')
      .set({ removed_at: null, removed_by: null, removed_reason: null })
      .where('id', '=', removal.review_id)
      .execute();
  } else if (removal.message_id) {
    await trx.updateTable('messages').set({ hidden_at: null }).where('id', '=', removal.message_id).execute();
  } else if (removal.offer_id) {
    await trx
      .updateTable('offers')
      .set({ message_hidden_at: null })
      .where('id', '=', removal.offer_id)
      .execute();
  } else if (removal.profile_id) {
    const kept = (removal.removed_content ?? {}) as { bio?: string | null; avatarUrl?: string | null };
    // What the member has written since stays: only empty fields are filled back.
    await trx
      .updateTable('profiles')
      .set((eb) => ({
        bio: eb.fn.coalesce('bio', sql.val(kept.bio ?? null)),
        avatar_url: eb.fn.coalesce('avatar_url', sql.val(kept.avatarUrl ?? null)),
        updated_at: new Date(),
      }))
      .where('id', '=', removal.profile_id)
      .execute();
  } else if (removal.charity_id) {
    const kept = (removal.removed_content ?? {}) as { description?: string | null; logoUrl?: string | null };
    // What the charity's team has written since stays, as for a profile.
    await trx
      .updateTable('charities')
      .set((eb) => ({
        description: eb.fn.coalesce('description', sql.val(kept.description ?? null)),
        logo_url: eb.fn.coalesce('logo_url', sql.val(kept.logoUrl ?? null)),
        updated_at: new Date(),
      }))
      .where('id', '=', removal.charity_id)
      .execute();
  }
  await recordAudit(trx, {
    actorId: staffId,
    action: `${removal.target_kind}.restore`,
    targetType: removal.target_kind,
    targetId:
      removal.review_id ??
      removal.message_id ??
      removal.offer_id ??
      removal.profile_id ??
      removal.charity_id ??
      removal.id,
    details: { removalId: removal.id, reason },
  });
}
