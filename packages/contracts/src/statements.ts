/**
 * The seller's monthly statement: every movement of their money in a calendar month
 * (UK time), from the one ledger: sales earned, refunds taken back, transfers to their payout
 * account, reversals of transfers, payouts to their bank and payouts that failed.
 */
import { z } from 'zod';

export const STATEMENT_ENTRY_KINDS = [
  'seller_credit',
  'seller_debit',
  'transfer',
  'transfer_reversal',
  'payout',
  'payout_failed',
] as const;
export type StatementEntryKind = (typeof STATEMENT_ENTRY_KINDS)[number];

export const STATEMENT_ENTRY_LABELS: Record<StatementEntryKind, string> = {
  seller_credit: 'Sale',
  seller_debit: 'Refund',
  transfer: 'Transfer to your payout account',
  transfer_reversal: 'Reversal',
  payout: 'Payout to your bank',
  payout_failed: 'Payout failed (money back in your balance)',
};

/** A seller_debit for a label Reshelf bought with the buyer's postage (issue 37). */
export const STATEMENT_LABEL_ENTRY = 'Postage label (paid from the buyer’s postage)';

export const statementMonthSchema = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Choose a month as YYYY-MM, like 2026-11');

export const statementSchema = z.object({
  month: z.string(),
  /** "November 2026" */
  label: z.string(),
  entries: z.array(
    z.object({
      id: z.string(),
      at: z.string(),
      kind: z.enum(STATEMENT_ENTRY_KINDS),
      label: z.string(),
      orderId: z.string().nullable(),
      reference: z.string().nullable(),
      title: z.string().nullable(),
      amountMinor: z.number().int(),
      memo: z.string().nullable(),
    }),
  ),
  totals: z.object({
    earnedMinor: z.number().int(),
    refundedMinor: z.number().int(),
    transferredMinor: z.number().int(),
    reversedMinor: z.number().int(),
    paidOutMinor: z.number().int(),
    failedMinor: z.number().int(),
  }),
  /** Months with entries, newest first (for the month picker). */
  months: z.array(z.string()),
});
export type Statement = z.infer<typeof statementSchema>;

export const STATEMENT_CSV_COLUMNS = [
  'date',
  'type',
  'order_reference',
  'book',
  'amount_gbp',
  'note',
] as const;
