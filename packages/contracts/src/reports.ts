/**
 * Reports (issue 9): a member reports a listing, or a message someone sent them with an offer,
 * to the Reshelf team. The reasons are a fixed list, so staff can sort the queue by them.
 */
import { z } from 'zod';

export const REPORT_REASONS = [
  'not_as_described',
  'prohibited',
  'offensive',
  'spam_or_scam',
  'wrong_details',
  'other',
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  not_as_described: 'Counterfeit or not as described',
  prohibited: 'Prohibited item',
  offensive: 'Offensive content',
  spam_or_scam: 'Spam or scam',
  wrong_details: 'Wrong price or details',
  other: 'Something else',
};

export const REPORT_TARGET_KINDS = ['listing', 'offer_message', 'message', 'review'] as const;
export type ReportTargetKind = (typeof REPORT_TARGET_KINDS)[number];

export const REPORT_STATUSES = ['open', 'actioned', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const REPORT_DETAILS_MAX = 1000;

/** What a member sends: a reason from the list and, if they like, what is wrong. */
export const reportFieldsSchema = z.object({
  reason: z.enum(REPORT_REASONS, 'Choose a reason from the list'),
  details: z
    .string()
    .trim()
    .max(REPORT_DETAILS_MAX, `Keep the details to ${REPORT_DETAILS_MAX.toLocaleString('en-GB')} characters`)
    .optional()
    .transform((value) => (value ? value : null)),
});
