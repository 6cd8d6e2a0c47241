/**
 * Money out (decision 0046): sellers and charities are paid through the payment
 * provider (Stripe Connect Express; the local test provider in test mode). The states the schema
 * keeps (supabase/migrations/20261128100000_payouts_through_the_provider.sql) and the shapes of
 * the seller's `payouts.member.*` procedures, shared by the BFF and the web client.
 */
import { z } from 'zod';

/** The seller's payout account. `not_started`: no account at the provider yet. */
export const CONNECTED_ACCOUNT_STATES = [
  'not_started',
  'pending',
  'needs_information',
  'active',
  'restricted',
  'rejected',
] as const;
export type ConnectedAccountState = (typeof CONNECTED_ACCOUNT_STATES)[number];

export const CONNECTED_ACCOUNT_STATE_LABELS: Record<ConnectedAccountState, string> = {
  not_started: 'Not set up',
  pending: 'Pending',
  needs_information: 'Needs information',
  active: 'Active',
  restricted: 'Restricted',
  rejected: 'Rejected',
};

/** A transfer from Reshelf's balance to the seller's account, one per released sale. */
export const TRANSFER_STATUSES = ['pending', 'paid', 'failed', 'reversed'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/** A payout from the seller's account to their bank. */
export const PROVIDER_PAYOUT_STATUSES = ['pending', 'in_transit', 'paid', 'failed', 'canceled'] as const;
export type ProviderPayoutStatus = (typeof PROVIDER_PAYOUT_STATUSES)[number];

export const PROVIDER_PAYOUT_STATUS_LABELS: Record<ProviderPayoutStatus, string> = {
  pending: 'Pending',
  in_transit: 'In transit',
  paid: 'Paid',
  failed: 'Failed',
  canceled: 'Cancelled',
};

/** Why a seller's payouts are held: by staff, or until the HMRC reporting details are given. */
export const PAYOUT_HOLD_KINDS = ['staff', 'reporting'] as const;
export type PayoutHoldKind = (typeof PAYOUT_HOLD_KINDS)[number];

/** Why released earnings wait (the seller is told once for each). */
export const PAYOUT_WAIT_REASONS = ['no_account', 'account_not_active', 'held'] as const;
export type PayoutWaitReason = (typeof PAYOUT_WAIT_REASONS)[number];

/** The kinds of ledger entry (see the migration for their signs). */
export const LEDGER_ENTRY_KINDS = [
  'payment',
  'refund',
  'seller_credit',
  'seller_debit',
  'fee',
  'transfer',
  'transfer_reversal',
  'payout',
  'payout_failed',
] as const;
export type LedgerEntryKind = (typeof LEDGER_ENTRY_KINDS)[number];

const iso = z.string();

/** `commerce.payouts.member.account`: the seller's payout account and why earnings wait, if they do. */
export const payoutAccountSchema = z.object({
  state: z.enum(CONNECTED_ACCOUNT_STATES),
  /** What the provider still needs, in words (needs_information / restricted). */
  due: z.array(z.string()),
  disabledReason: z.string().nullable(),
  /** Open holds on the seller's payouts (kind and reason). */
  holds: z.array(z.object({ kind: z.enum(PAYOUT_HOLD_KINDS), reason: z.string(), since: iso })),
  /** Released earnings not yet transferred, and why they wait (null: they do not). */
  waitingMinor: z.number().int(),
  waitingReason: z.enum(PAYOUT_WAIT_REASONS).nullable(),
  /** Money in the seller's account at the provider not yet paid out (e.g. after a failed payout). */
  balanceMinor: z.number().int(),
  /** What the seller owes when that balance is below zero (refunds taken back after payout), else 0. */
  owedMinor: z.number().int(),
  updatedAt: iso.nullable(),
});
export type PayoutAccount = z.infer<typeof payoutAccountSchema>;

/** `commerce.payouts.member.startOnboarding`: where the seller goes to set up (the provider's hosted page). */
export const onboardingLinkSchema = z.object({ url: z.string() });
export type OnboardingLink = z.infer<typeof onboardingLinkSchema>;

export const payoutSummarySchema = z.object({
  id: z.string(),
  amountMinor: z.number().int(),
  status: z.enum(PROVIDER_PAYOUT_STATUSES),
  createdAt: iso,
  arrivalDate: z.string().nullable(),
  paidAt: iso.nullable(),
  failureMessage: z.string().nullable(),
  /** What the seller should do about a failed payout. */
  whatToDo: z.string().nullable(),
  orderCount: z.number().int(),
});
export type PayoutSummary = z.infer<typeof payoutSummarySchema>;

/** One sale a payout carried: its order, what the buyer paid, Reshelf's fee, refunds and reversals. */
export const payoutLineSchema = z.object({
  transferId: z.string(),
  orderId: z.string(),
  reference: z.string(),
  title: z.string(),
  /** The seller's sale: the books (less any bundle discount) and postage; sellers pay no fee. */
  saleMinor: z.number().int(),
  /** What the buyer paid: the sale, plus buyer protection, less any discount Reshelf funded. */
  paidMinor: z.number().int(),
  /** Reshelf's income from the order: buyer protection less a discount Reshelf funded (may be below 0). */
  feeMinor: z.number().int(),
  refundedMinor: z.number().int(),
  reversedMinor: z.number().int(),
  /** What this payout carried for the sale. */
  amountMinor: z.number().int(),
});
export type PayoutLine = z.infer<typeof payoutLineSchema>;

export const payoutDetailSchema = payoutSummarySchema.extend({
  lines: z.array(payoutLineSchema),
  reversals: z.array(
    z.object({ orderId: z.string(), reference: z.string(), amountMinor: z.number().int(), createdAt: iso }),
  ),
});
export type PayoutDetail = z.infer<typeof payoutDetailSchema>;

/** A transfer as the seller and staff see it. */
export const transferSummarySchema = z.object({
  id: z.string(),
  orderId: z.string(),
  reference: z.string(),
  amountMinor: z.number().int(),
  reversedMinor: z.number().int(),
  /** What it still carries: sent less taken back. */
  netMinor: z.number().int(),
  status: z.enum(TRANSFER_STATUSES),
  failureReason: z.string().nullable(),
  createdAt: iso,
});
export type TransferSummary = z.infer<typeof transferSummarySchema>;

export const payoutsListSchema = z.object({
  payouts: z.array(payoutSummarySchema),
  /** Transfers not yet in a payout (in the seller's balance). */
  transfers: z.array(transferSummarySchema),
});
export type PayoutsList = z.infer<typeof payoutsListSchema>;

/** One order's line in the reconciliation: imbalances first. */
export const reconciliationRowSchema = z.object({
  orderId: z.string(),
  reference: z.string(),
  paidMinor: z.number().int(),
  sellerNetMinor: z.number().int(),
  feeMinor: z.number().int(),
  refundedMinor: z.number().int(),
  /** Labels Reshelf bought with the buyer's postage (issue 37). */
  labelsMinor: z.number().int(),
  /** paid − (seller net + fee + refunds + labels), and the ledger's disagreement with the tables; 0 when balanced. */
  imbalanceMinor: z.number().int(),
  problems: z.array(z.string()),
});
export type ReconciliationRow = z.infer<typeof reconciliationRowSchema>;
