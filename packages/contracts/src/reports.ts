/**
 * Reports: a member reports something another member wrote or posted (a listing, a message in a
 * conversation or with an offer, a review or its reply, a member's profile, a charity's page) to
 * the Reshelf team.
 * The reasons are fixed lists, one for each kind of thing reported; every reason belongs to a
 * kind of harm (REPORT_REASON_HARM), recorded with the report, and staff work the queue by harm,
 * fraud first (HARM_KINDS' order; docs/safety/illegal-harms-risk-assessment.md says why).
 */
import { z } from 'zod';

/**
 * The kinds of harm a report is about, in the order staff work them: fraud and scams first (the
 * harm a book marketplace meets most, and money is lost while it waits), then the priority
 * illegal harms of the Online Safety Act 2023 that fit Reshelf, then the rest.
 */
export const HARM_KINDS = [
  'fraud',
  'csea',
  'terrorism',
  'illegal_item',
  'hate',
  'harassment',
  'intellectual_property',
  'spam',
  'other',
] as const;
export type HarmKind = (typeof HARM_KINDS)[number];

export const HARM_LABELS: Record<HarmKind, string> = {
  fraud: 'Fraud or scam',
  csea: 'Child sexual abuse or exploitation',
  terrorism: 'Terrorist material',
  illegal_item: 'Illegal or prohibited item',
  hate: 'Hate',
  harassment: 'Harassment or threats',
  intellectual_property: 'Counterfeit or intellectual property',
  spam: 'Spam',
  other: 'Something else',
};

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
  'hate',
  'terrorism',
  'child_abuse',
  'other',
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  not_as_described: 'Counterfeit or not as described',
  prohibited: 'Prohibited item',
  offensive: 'Offensive content',
  spam_or_scam: 'Spam or scam',
  wrong_details: 'Wrong price or details',
  harassment: 'Harassment or threats',
  spam: 'Spam',
  scam_or_fraud: 'Scam or fraud',
  off_platform_payment: 'Asking to pay outside Reshelf',
  hate: 'Hate towards a group of people',
  terrorism: 'Terrorist material or support for terrorism',
  child_abuse: 'Sexual content involving a child',
  other: 'Something else',
};

/** The kind of harm each reason is about: what the report records and the queue sorts by. */
export const REPORT_REASON_HARM: Record<ReportReason, HarmKind> = {
  scam_or_fraud: 'fraud',
  spam_or_scam: 'fraud',
  off_platform_payment: 'fraud',
  child_abuse: 'csea',
  terrorism: 'terrorism',
  prohibited: 'illegal_item',
  hate: 'hate',
  offensive: 'hate',
  harassment: 'harassment',
  not_as_described: 'intellectual_property',
  spam: 'spam',
  wrong_details: 'other',
  other: 'other',
};

export const REPORT_TARGET_KINDS = [
  'listing',
  'offer_message',
  'message',
  'review',
  'profile',
  'charity',
] as const;
export type ReportTargetKind = (typeof REPORT_TARGET_KINDS)[number];

/** What each kind of thing is called in words ("the listing you reported"). */
export const REPORT_TARGET_LABELS: Record<ReportTargetKind, string> = {
  listing: 'listing',
  offer_message: 'message',
  message: 'message',
  review: 'review',
  profile: 'profile',
  charity: 'charity’s page',
};

/** The illegal harms anything can carry, after each kind's own reasons. */
const SERIOUS = ['hate', 'terrorism', 'child_abuse'] as const;
const MESSAGE_REASONS = [
  'scam_or_fraud',
  'off_platform_payment',
  'harassment',
  ...SERIOUS,
  'spam',
  'other',
] as const;

const PROFILE_REASONS = ['scam_or_fraud', 'harassment', ...SERIOUS, 'spam', 'other'] as const;

/**
 * The reasons a member may give, by what they report, fraud first: a listing's faults (a
 * prohibited item, a wrong price) are not a message's or a review's. A message sent with an
 * offer is a message. Reports made before these lists keep the reason they were given.
 */
export const REPORT_REASONS_FOR = {
  listing: ['scam_or_fraud', 'prohibited', 'not_as_described', ...SERIOUS, 'wrong_details', 'spam', 'other'],
  message: MESSAGE_REASONS,
  offer_message: MESSAGE_REASONS,
  review: ['scam_or_fraud', 'harassment', ...SERIOUS, 'spam', 'other'],
  profile: PROFILE_REASONS,
  /** A charity's page (its description and logo): what its team wrote, as a member's profile. */
  charity: PROFILE_REASONS,
} as const satisfies Record<ReportTargetKind, readonly ReportReason[]>;

/** A reason a member may give today (the others are kept by reports made before). */
export type OfferedReportReason = (typeof REPORT_REASONS_FOR)[ReportTargetKind][number];

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

// Removals and appeals ----------------------------------------------------------------------------

/** How long a member has to appeal a removal of something they posted. */
export const APPEAL_WINDOW_DAYS = 14;
export const APPEAL_TEXT_MIN = 10;
export const APPEAL_TEXT_MAX = 2000;

export const APPEAL_STATUSES = ['open', 'upheld', 'rejected'] as const;
export type AppealStatus = (typeof APPEAL_STATUSES)[number];

/** What a member writes to appeal: why the removal was wrong. */
export const appealInputSchema = z.object({
  removalId: z.uuid('Choose a removal from your notifications'),
  text: z
    .string()
    .trim()
    .min(APPEAL_TEXT_MIN, `Tell us why in at least ${APPEAL_TEXT_MIN} characters`)
    .max(APPEAL_TEXT_MAX, `Keep your appeal to ${APPEAL_TEXT_MAX.toLocaleString('en-GB')} characters`),
});

/**
 * Something our team removed, as its owner sees it: which content, the rule it broke (the harm
 * kind, when a report named one, and the team's reason), what the team did, and the appeal.
 */
export const removalSchema = z.object({
  id: z.string(),
  kind: z.enum(REPORT_TARGET_KINDS),
  /** Which content, in words (“your listing “Dracula””). */
  what: z.string(),
  harm: z.enum(HARM_KINDS).nullable(),
  harmLabel: z.string().nullable(),
  reason: z.string(),
  /** What the team did, in words (“removed it from Reshelf”). */
  action: z.string(),
  removedAt: z.string(),
  appealBy: z.string(),
  canAppeal: z.boolean(),
  appeal: z
    .object({
      text: z.string(),
      at: z.string(),
      status: z.enum(APPEAL_STATUSES),
      decidedAt: z.string().nullable(),
      decisionNote: z.string().nullable(),
    })
    .nullable(),
});
export type Removal = z.infer<typeof removalSchema>;

/** An appeal in the staff queue. */
export const staffAppealSchema = removalSchema.extend({
  owner: z.object({ id: z.string(), name: z.string().nullable(), email: z.string().nullable() }),
  actionedByEmail: z.string().nullable(),
  /** The one who took the action may not decide its appeal. */
  actionedByYou: z.boolean(),
  decidedByEmail: z.string().nullable(),
});
export type StaffAppeal = z.infer<typeof staffAppealSchema>;

export const APPEAL_SAME_STAFF =
  'You took this action, so another member of staff must decide the appeal against it.';
