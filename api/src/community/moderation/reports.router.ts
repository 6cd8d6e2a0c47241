/**
 * Reports: members report a listing, a message sent to them, a member's profile or a charity's
 * page (`reports`); staff, moderators too, work the queue at /admin/reports (`staffReports`).
 */
import {
  APPEAL_STATUSES,
  appealInputSchema,
  HARM_KINDS,
  REPORT_REASONS,
  REPORT_STATUSES,
  REPORT_TARGET_KINDS,
  removalSchema,
  reportFieldsSchema,
  staffAppealSchema,
} from '@reshelf/contracts';
import { z } from 'zod';
import { authedProcedure, router, staffProcedure } from '../../trpc.ts';
import { appealRemoval, countOpenAppeals, decideAppeal, listAppeals, myRemoval } from './removals.service.ts';
import {
  actOnReport,
  countOpenReports,
  dismissReport,
  listReports,
  openReportsByHarm,
  reportCharity,
  reportListing,
  reportOfferMessage,
  reportProfile,
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

  /** Reports a member's profile (their name, bio or photo), not your own. */
  profile: authedProcedure
    .input(reportFieldsSchema('profile').extend({ profileId: z.uuid('Choose a member to report') }))
    .output(created)
    .mutation(({ ctx, input }) => reportProfile(ctx.db, ctx.user.userId, input)),

  /** Reports a charity's page (its description or logo), not your own charity's. */
  charity: authedProcedure
    .input(reportFieldsSchema('charity').extend({ charityId: z.uuid('Choose a charity to report') }))
    .output(created)
    .mutation(({ ctx, input }) => reportCharity(ctx.db, ctx.user.userId, input)),
});

/** A member's own removals: why our team removed something they posted, and their appeal. */
export const removalsRouter = router({
  get: authedProcedure
    .input(z.object({ removalId: z.uuid('Choose a removal from your notifications') }))
    .output(removalSchema)
    .query(({ ctx, input }) => myRemoval(ctx.db, ctx.user.userId, input.removalId)),

  /** Appeals a removal once, within APPEAL_WINDOW_DAYS: someone else on our team decides it. */
  appeal: authedProcedure
    .input(appealInputSchema)
    .output(removalSchema)
    .mutation(({ ctx, input }) => appealRemoval(ctx.db, ctx.user.userId, input)),
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
  harm: z.enum(HARM_KINDS),
  harmLabel: z.string(),
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
  profile: z
    .object({
      profileId: z.string(),
      name: z.string().nullable(),
      bio: z.string().nullable(),
      avatarUrl: z.string().nullable(),
      email: z.string().nullable(),
    })
    .nullable(),
  charity: z
    .object({
      charityId: z.string(),
      slug: z.string(),
      name: z.string(),
      description: z.string().nullable(),
      logoUrl: z.string().nullable(),
      ownerEmail: z.string().nullable(),
    })
    .nullable(),
});

export const staffReportsRouter = router({
  list: staffProcedure
    .input(
      z.object({
        status: z.enum(REPORT_STATUSES, 'Choose a status from the list').default('open'),
        kind: z.enum(REPORT_TARGET_KINDS, 'Choose listings or messages').optional(),
        harm: z.enum(HARM_KINDS, 'Choose a kind of harm from the list').optional(),
        limit: z.number().int().min(1).max(200).default(100),
      }),
    )
    .output(z.array(reportSchema))
    .query(({ ctx, input }) => listReports(ctx.db, input)),

  openCount: staffProcedure
    .input(z.void())
    .output(z.object({ open: z.number().int() }))
    .query(async ({ ctx }) => ({ open: await countOpenReports(ctx.db) })),

  /** Open reports by kind of harm, fraud first, with when the oldest of each came in. */
  byHarm: staffProcedure
    .input(z.void())
    .output(
      z.array(
        z.object({
          harm: z.enum(HARM_KINDS),
          label: z.string(),
          open: z.number().int(),
          oldestAt: z.string().nullable(),
        }),
      ),
    )
    .query(({ ctx }) => openReportsByHarm(ctx.db)),

  /** Closes one report without action; the note is for the team. */
  dismiss: staffProcedure
    .input(z.object({ reportId, note: note('why it needs no action') }))
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await dismissReport(ctx.deps, ctx.user.userId, input);
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

/** Appeals against removals: staff other than the one who removed the content decide them. */
export const staffAppealsRouter = router({
  list: staffProcedure
    .input(
      z.object({
        status: z.enum(APPEAL_STATUSES, 'Choose a status from the list').default('open'),
        limit: z.number().int().min(1).max(200).default(100),
      }),
    )
    .output(z.array(staffAppealSchema))
    .query(({ ctx, input }) => listAppeals(ctx.db, ctx.user.userId, input)),

  openCount: staffProcedure
    .input(z.void())
    .output(z.object({ open: z.number().int() }))
    .query(async ({ ctx }) => ({ open: await countOpenAppeals(ctx.db) })),

  /** Upholds (the content goes back) or rejects an appeal; the member is told the note. */
  decide: staffProcedure
    .input(
      z.object({
        removalId: z.uuid('Choose an appeal from the list'),
        uphold: z.boolean('Choose to uphold or reject the appeal'),
        note: note('what you decided and why; the member reads it'),
      }),
    )
    .output(z.object({ status: z.enum(APPEAL_STATUSES) }))
    .mutation(({ ctx, input }) => decideAppeal(ctx.deps, ctx.user.userId, input)),
});
