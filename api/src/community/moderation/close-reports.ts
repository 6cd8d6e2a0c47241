/**
 * Closing every open report on a target once staff have acted on it. Its own module because
 * the staff listing removal calls it (removing a listing, from /admin/listings or from a
 * report, answers every open report on it) and the reports service calls that removal.
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';

export type ReportTarget =
  | { listingId: string }
  | { offerId: string }
  | { messageId: string }
  | { reviewId: string };

function targetColumn(target: ReportTarget) {
  if ('listingId' in target) return ['listing_id', target.listingId] as const;
  if ('offerId' in target) return ['offer_id', target.offerId] as const;
  if ('messageId' in target) return ['message_id', target.messageId] as const;
  return ['review_id', target.reviewId] as const;
}

/** Marks the target's open reports actioned, each audited; returns how many were closed. */
export async function closeOpenReports(
  trx: Transaction<DB>,
  staffId: string,
  target: ReportTarget,
  note: string,
): Promise<number> {
  const closed = await trx
    .updateTable('reports')
    .set({ status: 'actioned', resolved_by: staffId, resolved_at: sql<Date>`now()`, resolution_note: note })
    .where('status', '=', 'open')
    .where(targetColumn(target)[0], '=', targetColumn(target)[1])
    .returning(['id', 'target_kind', 'reason', 'reporter_id'])
    .execute();
  for (const report of closed) {
    await recordAudit(trx, {
      actorId: staffId,
      action: 'report.action',
      targetType: 'report',
      targetId: report.id,
      details: { kind: report.target_kind, reason: report.reason, ...target, note },
    });
  }
  return closed.length;
}
