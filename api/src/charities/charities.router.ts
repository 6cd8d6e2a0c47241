/**
 * Charities: the public directory and profiles; a charity's own side (applying, its team,
 * selling, bulk listing, the dashboard, Gift Aid and returns); the buyer's return request; and
 * staff review of applications. A charity's procedures are for signed-in people and check
 * membership in the service (requireCharity), so a non-member is refused with a reason.
 */
import {
  bulkImportReportSchema,
  bulkImportSchema,
  bundleTiersSchema,
  CHARITY_STATUSES,
  charityApplicationSchema,
  charityDashboardSchema,
  charityDirectoryInputSchema,
  charityDirectorySchema,
  charityInvitationSchema,
  charityReviewInputSchema,
  charitySignupInputSchema,
  charitySummarySchema,
  charityTeamSchema,
  csvFileSchema,
  DONOR_REFERENCE_PATTERN,
  declineReasonSchema,
  giftAidInputSchema,
  giftAidSummarySchema,
  isbnInputSchema,
  myCharitySchema,
  requestReturnInputSchema,
  returnEligibilitySchema,
  returnRequestSchema,
  sellerListingSchema,
  slugSchema,
} from '@reshelf/contracts';
import { z } from 'zod';
import {
  acceptReturn,
  bundleTiersViewSchema,
  charityReturns,
  declineReturn,
  receiveReturn,
  requestReturn,
  returnEligibility,
} from '../commerce/index.ts';
import { kickWantMatcher } from '../community/index.ts';
import { authedProcedure, type Context, cachedPublicProcedure, router, staffProcedure } from '../trpc.ts';
import {
  correctionsCsv,
  importReport,
  importStatus,
  REPORT_FILTERS,
  recentImports,
} from './bulk-import.service.ts';
import { charityBySlug, charityDirectory, featuredCharities } from './charities.service.ts';
import {
  acceptInvitation,
  charityTeam,
  getCharityTiers,
  inviteMember,
  myCharity,
  myInvitations,
  removeMember,
  revokeInvitation,
  setCharityTiers,
  signUpCharity,
  startCharityListing,
  waitingApplications,
} from './charity-account.service.ts';
import { charityDashboard, giftAidCsv, giftAidSummary } from './charity-dashboard.service.ts';
import { charityApplications, reviewCharity } from './charity-review.service.ts';

function importDeps(ctx: Context) {
  return {
    db: ctx.db,
    bookLookup: ctx.bookLookup,
    log: (err: unknown, message: string) => ctx.req.log.error({ err }, message),
    afterBatch: () => kickWantMatcher(ctx.deps),
  };
}

const ok = z.object({ ok: z.literal(true) });
const importId = z.object({ importId: z.uuid('Unknown upload') });
const returnId = z.object({ returnId: z.uuid('Unknown return') });
const orderId = z.object({ orderId: z.uuid('Unknown order') });
const donorReferenceSchema = z
  .string()
  .trim()
  .regex(
    DONOR_REFERENCE_PATTERN,
    'A donor reference has letters, digits, spaces and . _ / - only, up to 40 characters',
  );

export const charitiesRouter = router({
  // Public ---------------------------------------------------------------------------------
  featured: cachedPublicProcedure
    .input(z.object({ limit: z.number().int().min(1).max(24).default(6) }))
    .output(z.array(charitySummarySchema))
    .query(({ ctx, input }) => featuredCharities(ctx.db, input.limit)),
  directory: cachedPublicProcedure
    .input(charityDirectoryInputSchema)
    .output(charityDirectorySchema)
    .query(({ ctx, input }) => charityDirectory(ctx.db, input)),
  bySlug: cachedPublicProcedure
    .input(z.object({ slug: slugSchema }))
    .output(charitySummarySchema)
    .query(({ ctx, input }) => charityBySlug(ctx.db, input.slug)),

  // Applying and the team ------------------------------------------------------------------
  mine: authedProcedure
    .input(z.object({}).optional())
    .output(myCharitySchema)
    .query(({ ctx }) => myCharity(ctx.db, ctx.user.userId)),
  signup: authedProcedure
    .input(charitySignupInputSchema)
    .output(z.object({ id: z.uuid(), slug: z.string(), name: z.string() }))
    .mutation(({ ctx, input }) =>
      signUpCharity(ctx.deps, { userId: ctx.user.userId, email: ctx.user.email }, input),
    ),
  invitations: authedProcedure
    .input(z.object({}).optional())
    .output(z.array(charityInvitationSchema))
    .query(({ ctx }) => myInvitations(ctx.db, { userId: ctx.user.userId, email: ctx.user.email })),
  acceptInvitation: authedProcedure
    .input(z.object({ invitationId: z.uuid('Unknown invitation') }))
    .output(myCharitySchema)
    .mutation(({ ctx, input }) =>
      acceptInvitation(ctx.db, { userId: ctx.user.userId, email: ctx.user.email }, input.invitationId),
    ),
  team: authedProcedure
    .input(z.object({}).optional())
    .output(charityTeamSchema)
    .query(({ ctx }) => charityTeam(ctx.db, ctx.user.userId)),
  invite: authedProcedure
    .input(z.object({ email: z.email('Enter the email address of the person to invite').max(254) }))
    .output(z.object({ id: z.uuid() }))
    .mutation(({ ctx, input }) => inviteMember(ctx.deps, { userId: ctx.user.userId }, input.email)),
  revokeInvitation: authedProcedure
    .input(z.object({ invitationId: z.uuid('Unknown invitation') }))
    .output(ok)
    .mutation(async ({ ctx, input }) => {
      await revokeInvitation(ctx.db, ctx.user.userId, input.invitationId);
      return { ok: true as const };
    }),
  removeMember: authedProcedure
    .input(z.object({ userId: z.uuid('Unknown person') }))
    .output(ok)
    .mutation(async ({ ctx, input }) => {
      await removeMember(ctx.db, ctx.user.userId, input.userId);
      return { ok: true as const };
    }),

  // Selling ----------------------------------------------------------------------------------
  startListing: authedProcedure
    .input(
      z.object({
        isbn: isbnInputSchema.nullable(),
        donorReference: donorReferenceSchema.nullable().default(null),
      }),
    )
    .output(
      z.object({
        listing: sellerListingSchema,
        resumed: z.boolean(),
        source: z.enum(['catalogue', 'openlibrary']).nullable(),
      }),
    )
    .mutation(({ ctx, input }) => startCharityListing(ctx.db, ctx.bookLookup, ctx.user.userId, input)),
  imports: authedProcedure
    .input(z.object({}).optional())
    .output(z.array(bulkImportSchema))
    .query(({ ctx }) => recentImports(ctx.db, ctx.user.userId)),
  importStatus: authedProcedure
    .input(importId)
    .output(bulkImportSchema)
    .query(({ ctx, input }) => importStatus(importDeps(ctx), ctx.user.userId, input.importId)),
  importReport: authedProcedure
    .input(
      importId.extend({
        filter: z.enum(REPORT_FILTERS).default('all'),
        page: z.number().int().min(1).max(1000).default(1),
        pageSize: z.number().int().min(1).max(200).default(50),
      }),
    )
    .output(bulkImportReportSchema)
    .query(({ ctx, input }) => importReport(ctx.db, ctx.user.userId, input)),
  importCorrections: authedProcedure
    .input(importId)
    .output(csvFileSchema)
    .query(({ ctx, input }) => correctionsCsv(ctx.db, ctx.user.userId, input.importId)),

  // Dashboard and Gift Aid ------------------------------------------------------------------
  dashboard: authedProcedure
    .input(z.object({}).optional())
    .output(charityDashboardSchema)
    .query(({ ctx }) => charityDashboard(ctx.db, ctx.user.userId)),
  giftAid: authedProcedure
    .input(giftAidInputSchema)
    .output(giftAidSummarySchema)
    .query(({ ctx, input }) => giftAidSummary(ctx.db, ctx.user.userId, input.taxYear)),
  giftAidCsv: authedProcedure
    .input(giftAidInputSchema.extend({ detail: z.enum(['donors', 'items']).default('donors') }))
    .output(csvFileSchema)
    .query(({ ctx, input }) => giftAidCsv(ctx.db, ctx.user.userId, input)),

  // The shop's bundle discount tiers: any member reads them, the owner sets them.
  bundleTiers: router({
    get: authedProcedure
      .input(z.object({}).optional())
      .output(bundleTiersViewSchema)
      .query(({ ctx }) => getCharityTiers(ctx.db, ctx.user.userId)),
    set: authedProcedure
      .input(z.object({ tiers: bundleTiersSchema }))
      .output(bundleTiersViewSchema)
      .mutation(({ ctx, input }) => setCharityTiers(ctx.db, ctx.user.userId, input.tiers)),
  }),

  // Returns ----------------------------------------------------------------------------------
  returns: authedProcedure
    .input(z.object({}).optional())
    .output(z.array(returnRequestSchema))
    .query(({ ctx }) => charityReturns(ctx.db, ctx.user.userId)),
  acceptReturn: authedProcedure
    .input(returnId)
    .output(returnRequestSchema)
    .mutation(({ ctx, input }) => acceptReturn(ctx.deps, ctx.user.userId, input.returnId)),
  declineReturn: authedProcedure
    .input(returnId.extend({ reason: declineReasonSchema }))
    .output(returnRequestSchema)
    .mutation(({ ctx, input }) => declineReturn(ctx.deps, ctx.user.userId, input)),
  receiveReturn: authedProcedure
    .input(returnId)
    .output(returnRequestSchema)
    .mutation(({ ctx, input }) => receiveReturn(ctx.deps, ctx.user.userId, input.returnId)),
  returnEligibility: authedProcedure
    .input(orderId)
    .output(returnEligibilitySchema)
    .query(({ ctx, input }) => returnEligibility(ctx.db, ctx.user.userId, input.orderId)),
  /** The buyer asks to return the order's books, or some of them (`itemIds`, order items). */
  requestReturn: authedProcedure
    .input(requestReturnInputSchema)
    .output(returnEligibilitySchema)
    .mutation(({ ctx, input }) => requestReturn(ctx.deps, { userId: ctx.user.userId }, input)),

  // Staff ------------------------------------------------------------------------------------
  /** How many applications wait for review: the dashboard's card and the sidebar's badge. */
  waitingCount: staffProcedure
    .input(z.object({}).optional())
    .output(z.object({ waiting: z.number().int() }))
    .query(async ({ ctx }) => ({ waiting: await waitingApplications(ctx.db) })),
  applications: staffProcedure
    .input(z.object({ status: z.enum(CHARITY_STATUSES).default('pending') }))
    .output(z.array(charityApplicationSchema))
    .query(({ ctx, input }) => charityApplications(ctx.db, input.status)),
  review: staffProcedure
    .input(charityReviewInputSchema)
    .output(z.object({ status: z.enum(['approved', 'rejected']) }))
    .mutation(({ ctx, input }) => reviewCharity(ctx.deps, ctx.user.userId, input)),
});
