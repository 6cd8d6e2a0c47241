/**
 * Two-sided disputes and returns (decision 0049): the rules as data. The API enforces
 * them and the help page (/help-centre/buyer-protection) is written from them, so the page cannot say
 * something the code does not do.
 */
import { z } from 'zod';
import { COMMERCIAL_DEFAULTS } from './constants.ts';
import { conversationPhotoSchema } from './messages.ts';
import { formatPence } from './money.ts';
import { CARRIER_IDS, DISPUTE_PROBLEMS, type DisputeProblem } from './orders.ts';
import { DEFAULT_POSTAGE_RATES } from './parcel-words.ts';

/** Who pays to post a book back. */
export type ReturnPostagePayer = 'seller' | 'buyer';

/**
 * The protection rules. Every window and every "who pays" below is read by the code that
 * enforces it (commerce/disputes) and printed by the help page.
 */
export const PROTECTION_RULES = {
  /** Days after delivery in which the buyer can report a problem with the book. */
  reportWindowDays: COMMERCIAL_DEFAULTS.disputeWindowDays,
  /** Working days (UK bank holidays skipped) the seller has to answer a report. */
  sellerResponseWorkingDays: 3,
  /** Photos a report, or the seller's answer, may carry. */
  maxPhotos: 6,
  /** Characters of the buyer's description and of the seller's answer. */
  maxText: 2000,
  /** Days after delivery a charity's buyer may return a book for any reason (trader rules). */
  charityReturnDays: COMMERCIAL_DEFAULTS.charityReturnDays,
  /** Days after delivery a private seller who accepts returns takes a book back. */
  privateReturnDays: COMMERCIAL_DEFAULTS.charityReturnDays,
  /**
   * Who pays the return postage when the seller (or our team) asks for the book back, by what
   * was reported: the seller whenever the book is not what the buyer paid for (their fault). The
   * buyer pays to post it and enters what it cost with the tracking; the refund then includes it
   * (up to `returnPostageCapMinor`), taken from the seller's payout.
   */
  returnPostageBy: {
    not_as_described: 'seller',
    damaged: 'seller',
    wrong_book: 'seller',
    missing_pages: 'seller',
    not_received: 'seller',
  } satisfies Record<DisputeProblem, ReturnPostagePayer>,
  /**
   * The most return postage the seller refunds: the dearest rate on the label rate card
   * (DEFAULT_POSTAGE_RATES: a Medium Parcel to the door), enough to post any book back tracked. A card refund
   * can never exceed what the buyer paid, so it is also capped at what is left of the payment.
   */
  returnPostageCapMinor: Math.max(
    ...Object.values(DEFAULT_POSTAGE_RATES).flatMap((byMethod) => Object.values(byMethod)),
  ),
  /** A return for a change of mind (a charity's 14 days, or a private seller's opt-in): the buyer. */
  changeOfMindReturnPostageBy: 'buyer' as ReturnPostagePayer,
  /** What a report covers. */
  covered: [
    'The book never arrived',
    'The book is not what the listing described (edition, condition, signed copy)',
    'The book arrived damaged',
    'You were sent a different book',
    'Pages are missing',
  ],
  /** What it does not cover. */
  notCovered: [
    'Changing your mind about a private seller’s book, unless the seller accepts returns',
    'Wear the listing described or showed in its photos',
    'Orders paid outside Reshelf',
  ],
} as const;

/** The kind a problem is filed under (the existing staff queues split by it). */
export function disputeKindOf(problem: DisputeProblem): 'not_received' | 'item_not_as_described' {
  return problem === 'not_received' ? 'not_received' : 'item_not_as_described';
}

export const DISPUTE_STAGES = ['seller', 'buyer', 'return', 'staff', 'closed'] as const;
export type DisputeStage = (typeof DISPUTE_STAGES)[number];

export const SELLER_RESPONSES = ['accept_full', 'offer_partial', 'ask_return', 'contest'] as const;
export type SellerResponse = (typeof SELLER_RESPONSES)[number];

export const STAFF_DECISIONS = ['full_refund', 'partial_refund', 'return_first', 'release'] as const;
export type StaffDecision = (typeof STAFF_DECISIONS)[number];

const photosSchema = z
  .array(conversationPhotoSchema)
  .max(PROTECTION_RULES.maxPhotos, `Add at most ${PROTECTION_RULES.maxPhotos} photos`)
  .default([]);

const textSchema = (what: string) =>
  z
    .string()
    .trim()
    .min(10, `Tell us ${what} in at least 10 characters`)
    .max(
      PROTECTION_RULES.maxText,
      `Use at most ${PROTECTION_RULES.maxText.toLocaleString('en-GB')} characters`,
    );

export const reportDisputeInputSchema = z.object({
  orderId: z.uuid('Unknown order'),
  problem: z.enum(DISPUTE_PROBLEMS, { error: 'Choose what went wrong' }),
  description: textSchema('what went wrong'),
  photos: photosSchema,
  itemIds: z
    .array(z.uuid('Unknown book'))
    .min(1, 'Choose at least one book')
    .max(50, 'An order has at most 50 books')
    .optional(),
});

export const sellerRespondInputSchema = z.discriminatedUnion(
  'response',
  [
    z.object({ disputeId: z.uuid('Unknown report'), response: z.literal('accept_full') }),
    z.object({
      disputeId: z.uuid('Unknown report'),
      response: z.literal('offer_partial'),
      amountMinor: z
        .number({ error: 'Say how much to give back' })
        .int('Use whole pence')
        .positive('Offer more than £0.00'),
    }),
    z.object({ disputeId: z.uuid('Unknown report'), response: z.literal('ask_return') }),
    z.object({
      disputeId: z.uuid('Unknown report'),
      response: z.literal('contest'),
      statement: textSchema('why you disagree'),
      photos: photosSchema,
    }),
  ],
  { error: 'Choose how you answer' },
);
export type SellerRespondInput = z.input<typeof sellerRespondInputSchema>;

/** Return postage the buyer paid, in pence: whole, not negative, at most £100 (a sanity bound). */
export const returnPostageSchema = z
  .number({ error: 'Give the postage in pounds, such as 3.85' })
  .int('Use whole pence')
  .min(0, 'The postage cannot be negative')
  .max(10_000, 'Give the postage you paid (at most £100.00)');

export const returnTrackingInputSchema = z.object({
  disputeId: z.uuid('Unknown report'),
  carrier: z.enum(CARRIER_IDS, { error: 'Choose the carrier you sent it with' }),
  trackingRef: z
    .string()
    .trim()
    .min(6, 'Give the tracking reference (at least 6 characters)')
    .max(40, 'Use at most 40 characters')
    .regex(/^[A-Za-z0-9 -]+$/, 'Use letters, numbers, spaces and dashes only'),
  /**
   * What the buyer paid to post it back, in pence (when the seller pays the return postage, the
   * refund includes it up to PROTECTION_RULES.returnPostageCapMinor).
   */
  postageMinor: returnPostageSchema.optional(),
});

/**
 * A change-of-mind return's posting back (a charity's 14 days): the same carrier and tracking
 * rule as a dispute's return, on the return request.
 */
export const changeOfMindTrackingInputSchema = returnTrackingInputSchema
  .pick({ carrier: true, trackingRef: true })
  .extend({ returnId: z.uuid('Unknown return') });

export const staffDecisionInputSchema = z
  .object({
    disputeId: z.uuid('Unknown dispute'),
    decision: z.enum(STAFF_DECISIONS, { error: 'Choose a decision' }),
    amountMinor: z.number().int('Use whole pence').positive('Refund more than £0.00').optional(),
    note: z
      .string()
      .trim()
      .min(5, 'Write a short note for both parties (at least 5 characters)')
      .max(2000, 'Use at most 2,000 characters'),
  })
  .refine((input) => input.decision !== 'partial_refund' || input.amountMinor !== undefined, {
    message: 'Say how much to refund',
    path: ['amountMinor'],
  });

/** A report as both sides (and staff) see it. */
export const disputeCaseSchema = z.object({
  id: z.uuid(),
  orderId: z.uuid(),
  reference: z.string(),
  title: z.string(),
  problem: z.enum(DISPUTE_PROBLEMS),
  status: z.string(),
  stage: z.enum(DISPUTE_STAGES),
  description: z.string(),
  photos: z.array(z.string()),
  openedAt: z.string(),
  respondBy: z.string().nullable(),
  sellerResponse: z.enum(SELLER_RESPONSES).nullable(),
  sellerStatement: z.string().nullable(),
  sellerPhotos: z.array(z.string()),
  offerMinor: z.number().int().nullable(),
  offerStatus: z.string().nullable(),
  returnPostageBy: z.enum(['seller', 'buyer']).nullable(),
  returnCarrier: z.string().nullable(),
  returnTrackingRef: z.string().nullable(),
  /** What the buyer said they paid to post it back (a seller-paid return), in pence. */
  returnPostageMinor: z.number().int().nullable(),
  returnSentAt: z.string().nullable(),
  returnReceivedAt: z.string().nullable(),
  refundedMinor: z.number().int(),
  /** What was paid and not yet given back: the most any refund can be. */
  refundableMinor: z.number().int(),
  /** What a full refund of the report gives back: the books it names, or everything left. */
  fullRefundMinor: z.number().int(),
  /** Where the case stands, in the one set of words every side reads (disputeStateText). */
  stateText: z.string(),
  resolutionNote: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  buyerName: z.string(),
  sellerName: z.string(),
  threadId: z.uuid().nullable(),
  /** What the viewer may do now. */
  can: z.object({
    respond: z.boolean(),
    answerOffer: z.boolean(),
    addReturnTracking: z.boolean(),
    confirmReturn: z.boolean(),
    decide: z.boolean(),
  }),
});
export type DisputeCase = z.infer<typeof disputeCaseSchema>;

const LONDON_WHEN = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/London',
});

/**
 * Where a case stands, for the buyer, the seller and staff alike, from its stage and what was
 * refunded: the server puts it on every DisputeCase, so no page words it for itself.
 */
export function disputeStateText(c: {
  status: string;
  stage: DisputeStage;
  respondBy: string | null;
  offerMinor: number | null;
  returnSentAt: string | null;
  refundedMinor: number;
}): string {
  if (c.status === 'withdrawn') return 'Withdrawn by the buyer';
  switch (c.stage) {
    case 'seller':
      return `Waiting for the seller’s answer${c.respondBy ? `, due by ${LONDON_WHEN.format(new Date(c.respondBy))}` : ''}`;
    case 'buyer':
      return `The seller offers ${formatPence(c.offerMinor ?? 0)} back: waiting for the buyer`;
    case 'return':
      return c.returnSentAt
        ? 'The book is on its way back to the seller'
        : 'Waiting for the buyer to send the book back';
    case 'staff':
      return 'Our team is deciding';
    case 'closed':
      return c.refundedMinor > 0
        ? `Settled: ${formatPence(c.refundedMinor)} refunded`
        : 'Settled: no refund, the payment went to the seller';
  }
}
