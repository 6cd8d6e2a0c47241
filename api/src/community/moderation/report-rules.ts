/**
 * What every report door shares (listings, offers, messages, reviews, profiles, charities' pages): how often a
 * member may report, what a second report of the same thing is told, and writing the report with
 * the harm its reason is about. Apart from reports.service.ts so that the reviews and messages
 * services, which take their own reports, need not import it (it removes reviews, so that would
 * be a loop).
 */
import { REPORT_REASON_HARM, type ReportReason } from '@reshelf/contracts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import type { RateRule } from '../../http/rate-limit.ts';
import { type ReportTarget, targetColumn } from './close-reports.ts';

/** Enough for a member reporting a bad batch of listings; not enough to flood the queue. */
export const REPORT_RATE: RateRule = { bucket: 'report', limit: 20, windowSeconds: 60 * 60 };

export const ALREADY_REPORTED = 'You’ve already reported this; our team will review it.';

/** Writes a report of `target` with the harm its reason is about; a second open one is refused kindly. */
export async function insertReport(
  db: Database,
  reporterId: string,
  target: ReportTarget,
  input: { reason: ReportReason; details: string | null },
): Promise<{ id: string }> {
  const { column, kind, id } = targetColumn(target);
  try {
    return await db
      .insertInto('reports')
      .values({
        target_kind: kind,
        [column]: id,
        reporter_id: reporterId,
        reason: input.reason,
        harm: REPORT_REASON_HARM[input.reason],
        details: input.details,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  } catch (error) {
    if ((error as { code?: string } | null)?.code === '23505')
      throw new AppError('CONFLICT', ALREADY_REPORTED);
    throw error;
  }
}
