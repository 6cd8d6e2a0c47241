/**
 * Money out for staff: /admin/payouts (transfers and payouts by seller, state and
 * period; retry a failed one; hold or release a seller's payouts) and the reconciliation page.
 * Staff read; admins act (each action audited).
 */
import { PROVIDER_PAYOUT_STATUSES, reconciliationRowSchema, TRANSFER_STATUSES } from '@reshelf/contracts';
import { z } from 'zod';
import { adminProcedure, router, staffProcedure } from '../../trpc.ts';
import { reconciliation } from '../money/ledger.ts';
import {
  holdSeller,
  listHolds,
  MONEY_OUT_KINDS,
  releaseHold,
  retryMoneyOut,
  searchMoneyOut,
} from './staff-payouts.service.ts';

const dayInput = (what: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `Choose the ${what} day as YYYY-MM-DD`)
    .refine((value) => !Number.isNaN(new Date(`${value}T00:00:00Z`).getTime()), `Choose a real ${what} day`)
    .optional();

const reason = (what: string) =>
  z
    .string()
    .trim()
    .min(3, `Write the reason ${what} (at least 3 characters)`)
    .max(500, 'Use at most 500 characters');

const moneyOutRow = z.object({
  id: z.string(),
  kind: z.enum(['transfer', 'payout']),
  sellerId: z.string(),
  sellerEmail: z.string().nullable(),
  sellerName: z.string().nullable(),
  orderId: z.string().nullable(),
  reference: z.string().nullable(),
  amountMinor: z.number().int(),
  reversedMinor: z.number().int(),
  status: z.string(),
  failure: z.string().nullable(),
  providerRef: z.string().nullable(),
  createdAt: z.string(),
  retryable: z.boolean(),
});

const holdRow = z.object({
  id: z.string(),
  sellerId: z.string(),
  sellerEmail: z.string().nullable(),
  sellerName: z.string().nullable(),
  kind: z.enum(['staff', 'reporting']),
  reason: z.string(),
  createdAt: z.string(),
  createdByEmail: z.string().nullable(),
});

const STATUSES = [...new Set([...TRANSFER_STATUSES, ...PROVIDER_PAYOUT_STATUSES])] as [string, ...string[]];

export const staffPayoutsRouter = router({
  /** Transfers (one per released sale) or payouts to sellers' banks, newest first. */
  search: staffProcedure
    .input(
      z.object({
        kind: z.enum(MONEY_OUT_KINDS, 'Choose transfers or payouts'),
        seller: z.string().trim().max(320, 'Use at most 320 characters').optional(),
        status: z.enum(STATUSES, 'Choose a state from the list').optional(),
        from: dayInput('first'),
        to: dayInput('last'),
        limit: z.number().int().min(1).max(200).default(50),
      }),
    )
    .output(z.array(moneyOutRow))
    .query(({ ctx, input }) => searchMoneyOut(ctx.db, input)),

  /** Sellers whose payouts are held, by staff or until their HMRC reporting details are given. */
  holds: staffProcedure.output(z.array(holdRow)).query(({ ctx }) => listHolds(ctx.db)),

  hold: adminProcedure
    .input(
      z.object({
        seller: z.string().trim().min(3, 'Enter the seller’s email address').max(320),
        reason: reason('for holding their payouts'),
      }),
    )
    .output(holdRow)
    .mutation(({ ctx, input }) => holdSeller(ctx.db, ctx.user.userId, input)),

  release: adminProcedure
    .input(z.object({ holdId: z.uuid('Choose a hold from the list'), reason: reason('for releasing them') }))
    .output(z.object({ released: z.literal(true), stillHeld: z.boolean() }))
    .mutation(({ ctx, input }) => releaseHold(ctx.deps, ctx.user.userId, input)),

  retry: adminProcedure
    .input(z.object({ kind: z.enum(['transfer', 'payout']), id: z.uuid('Choose one from the list') }))
    .output(
      z.object({
        sellerId: z.string(),
        transfers: z.number().int(),
        payouts: z.number().int(),
        waiting: z.number().int(),
      }),
    )
    .mutation(({ ctx, input }) => retryMoneyOut(ctx.deps, input)),

  /** Every order's money: paid in = seller net + Reshelf fee + refunds; imbalances first. */
  reconciliation: staffProcedure
    .input(z.object({ problemsOnly: z.boolean().default(false) }))
    .output(
      z.object({
        rows: z.array(reconciliationRowSchema),
        orders: z.number().int(),
        imbalances: z.number().int(),
      }),
    )
    .query(({ ctx, input }) => reconciliation(ctx.db, { problemsOnly: input.problemsOnly, limit: 500 })),
});
