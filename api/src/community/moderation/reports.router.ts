/**
 * Reports: members report a listing or a message sent to them (`reports`); staff, moderators
 * too, work the queue at /admin/reports (`staffReports`).
 */
import { REPORT_REASONS, REPORT_STATUSES, REPORT_TARGET_KINDS, reportFieldsSchema } from '@reshelf/contracts';
import { z } from 'zod';
import { authedProcedure, router, staffProcedure } from '../../trpc.ts';
import {
  actOnReport,
  countOpenReports,
  dismissReport,
  listReports,
  reportListing,
  reportOfferMessage,
} from './reports.service.ts';

const created = z.object({ id: z.string() });

export const reportsRouter = router({
  /** Reports a listing to the team (not your own). */
  listing: authedProcedure
    .input(reportFieldsSchema('listing').extend({ listingId: z.uuid('Choose a listing to report') }))
    .output(created)
    .mutation(({ ctx, input }) => reportListing(ctx.db, ctx.user.userId, input)),

  /** Reports the message someone sent you with an offer or counter-offer. */
  message: authedProcedure
    .input(reportFieldsSchema('offer_message').extend({ offerId: z.uuid('Choose a message to report') }))
    .output(created)
    .mutation(({ ctx, input }) => reportOfferMessage(ctx.db, ctx.user.userId, input)),
});

const reportId = z.uuid('Choose a report from the list');
const note = (what: string) =>
  z
    .string()
    .trim()
    .min(3, `Write a note (at least 3 characters): ${what}`)
    .max(1000, 'Use at most 1,000 characters');

const reportSchema = z.object({
  id: z.string(),
  kind: z.enum(REPORT_TARGET_KINDS),
  reason: z.enum(REPORT_REASONS),
  reasonLabel: z.string(),
  details: z.string().nullable(),
  status: z.enum(REPORT_STATUSES),
  createdAt: z.string(),
  reporter: z.object({ id: z.string(), name: z.string().nullable(), email: z.string().nullable() }),
  openOnTarget: z.number().int(),
  resolvedAt: z.string().nullable(),
  resolvedByEmail: z.string().nullable(),
  resolutionNote: z.string().nullable(),
  listing: z
    .object({
      id: z.string(),
      slug: z.string().nullable(),
      title: z.string().nullable(),
      status: z.string(),
      sellerName: z.string().nullable(),
      sellerEmail: z.string().nullable(),
    })
    .nullable(),
  message: z
    .object({
      offerId: z.string(),
      text: z.string().nullable(),
      hidden: z.boolean(),
      senderName: z.string().nullable(),
      senderEmail: z.string().nullable(),
      listingTitle: z.string().nullable(),
      listingSlug: z.string().nullable(),
    })
    .nullable(),
  threadMessage: z
    .object({
      messageId: z.string(),
      threadId: z.string(),
      text: z.string().nullable(),
      photos: z.array(z.string()),
      hidden: z.boolean(),
      senderName: z.string().nullable(),
      senderEmail: z.string().nullable(),
      listingTitle: z.string().nullable(),
      listingSlug: z.string().nullable(),
    })
    .nullable(),
  review: z
    .object({
      reviewId: z.string(),
      stars: z.number().int(),
      text: z.string(),
      reply: z.string().nullable(),
      removed: z.boolean(),
      authorName: z.string().nullable(),
      authorEmail: z.string().nullable(),
      orderReference: z.string().nullable(),
    })
    .nullable(),
});

export const staffReportsRouter = router({
  list: staffProcedure
    .input(
      z.object({
        status: z.enum(REPORT_STATUSES, 'Choose a status from the list').default('open'),
        kind: z.enum(REPORT_TARGET_KINDS, 'Choose listings or messages').optional(),
        limit: z.number().int().min(1).max(200).default(100),
      }),
    )
    .output(z.array(reportSchema))
    .query(({ ctx, input }) => listReports(ctx.db, input)),

  openCount: staffProcedure
    .input(z.void())
    .output(z.object({ open: z.number().int() }))
    .query(async ({ ctx }) => ({ open: await countOpenReports(ctx.db) })),

  /** Closes one report without action; the note is for the team. */
  dismiss: staffProcedure
    .input(z.object({ reportId, note: note('why it needs no action') }))
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await dismissReport(ctx.db, ctx.user.userId, input);
      return { ok: true as const };
    }),

  /**
   * Acts on a report: removes the listing (the note is the reason the seller is told) or hides
   * the message (and, if asked, warns its sender with the note). Every open report on the same
   * target closes as actioned.
   */
  act: staffProcedure
    .input(
      z.object({
        reportId,
        note: note('the reason for the action'),
        warnSender: z.boolean().default(false),
      }),
    )
    .output(z.object({ kind: z.enum(REPORT_TARGET_KINDS), closed: z.number().int() }))
    .mutation(({ ctx, input }) => actOnReport(ctx.deps, ctx.user.userId, input)),
});
