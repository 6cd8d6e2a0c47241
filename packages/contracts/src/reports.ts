/**
 * Reports: a member reports a listing, a message someone sent them (in a conversation
 * or with an offer) or a review to the Reshelf team. The reasons are fixed lists, one for each
 * kind of thing reported, so staff can sort the queue by them.
 */
import { z } from 'zod';

/** Every reason a report can give, for the staff queue's filter and labels (and the database's check). */
export const REPORT_REASONS = [
  'not_as_described',
  'prohibited',
  'offensive',
  'spam_or_scam',
  'wrong_details',
  'harassment',
  'spam',
  'scam_or_fraud',
  'off_platform_payment',
  'other',
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  not_as_described: 'Counterfeit or not as described',
  prohibited: 'Prohibited item',
  offensive: 'Offensive content',
  spam_or_scam: 'Spam or scam',
  wrong_details: 'Wrong price or details',
  harassment: 'Harassment or abuse',
  spam: 'Spam',
  scam_or_fraud: 'Scam or fraud',
  off_platform_payment: 'Asking to pay outside Reshelf',
  other: 'Something else',
};

export const REPORT_TARGET_KINDS = ['listing', 'offer_message', 'message', 'review'] as const;
export type ReportTargetKind = (typeof REPORT_TARGET_KINDS)[number];

const MESSAGE_REASONS = ['harassment', 'spam', 'scam_or_fraud', 'off_platform_payment', 'other'] as const;

/**
 * The reasons a member may give, by what they report: a listing's faults (a
 * prohibited item, a wrong price) are not a message's or a review's. A message sent with an
 * offer is a message. Reports made before these lists keep the reason they were given.
 */
export const REPORT_REASONS_FOR = {
  listing: ['not_as_described', 'prohibited', 'offensive', 'spam_or_scam', 'wrong_details', 'other'],
  message: MESSAGE_REASONS,
  offer_message: MESSAGE_REASONS,
  review: ['offensive', 'harassment', 'spam', 'other'],
} as const satisfies Record<ReportTargetKind, readonly ReportReason[]>;

export const REPORT_STATUSES = ['open', 'actioned', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const REPORT_DETAILS_MAX = 1000;

export const REPORT_REASON_MESSAGE = 'Choose a reason from the list';

/** What a member sends about a `kind` of thing: one of its reasons and, if they like, what is wrong. */
export function reportFieldsSchema(kind: ReportTargetKind) {
  return z.object({
    reason: z.enum(REPORT_REASONS_FOR[kind], REPORT_REASON_MESSAGE),
    details: z
      .string()
      .trim()
      .max(REPORT_DETAILS_MAX, `Keep the details to ${REPORT_DETAILS_MAX.toLocaleString('en-GB')} characters`)
      .optional()
      .transform((value) => (value ? value : null)),
  });
}
