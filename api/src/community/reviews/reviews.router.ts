/**
 * Reviews (decision 0048): `reviews.member` is what buyers and sellers call,
 * `reviews.public` what anyone reads on seller, charity and listing pages, `reviews.staff` the
 * staff's removal.
 */
import {
  myReviewsSchema,
  ratingSchema,
  removeReviewInputSchema,
  replyToReviewInputSchema,
  reportFieldsSchema,
  reviewCursorSchema,
  sellerReviewsSchema,
  writeReviewInputSchema,
} from '@reshelf/contracts';
import { z } from 'zod';
import { authedProcedure, publicProcedure, router, staffProcedure } from '../../trpc.ts';
import {
  myReviews,
  ratingsOf,
  ratingsOfListings,
  removeReview,
  replyToReview,
  reportReview,
  reviewsFor,
  reviewsForCharity,
  writeReview,
} from './reviews.service.ts';

const ok = z.object({ ok: z.literal(true) });

export const reviewsMemberRouter = router({
  /** The orders the member may still review (window open, not yet reviewed by them). */
  pending: authedProcedure
    .input(z.void())
    .output(myReviewsSchema.shape.pending)
    .query(async ({ ctx }) => (await myReviews(ctx.db, ctx.user.userId)).pending),

  /** Everything about the member's reviews: to write, given, and received (published). */
  mine: authedProcedure
    .input(z.void())
    .output(myReviewsSchema)
    .query(({ ctx }) => myReviews(ctx.db, ctx.user.userId)),

  /** Reviews the other side of a completed order; both in → both are published. */
  write: authedProcedure
    .input(writeReviewInputSchema)
    .output(z.object({ id: z.string(), published: z.boolean() }))
    .mutation(({ ctx, input }) => writeReview(ctx.db, ctx.user.userId, input)),

  /** The one reply of the person reviewed, to a published review. */
  reply: authedProcedure
    .input(replyToReviewInputSchema)
    .output(ok)
    .mutation(async ({ ctx, input }) => {
      await replyToReview(ctx.db, ctx.user.userId, input);
      return { ok: true as const };
    }),

  /** Reports a published review to the team (the reports queue). */
  report: authedProcedure
    .input(reportFieldsSchema('review').extend({ reviewId: z.uuid('Choose a review to report') }))
    .output(z.object({ id: z.string() }))
    .mutation(({ ctx, input }) => reportReview(ctx.db, ctx.user.userId, input)),
});

export const reviewsPublicRouter = router({
  /** A seller's rating and the published reviews buyers wrote of them, newest first. */
  forSeller: publicProcedure
    .input(
      z.object({
        sellerId: z.uuid('That is not a seller id'),
        limit: z.number().int().min(1).max(50).default(20),
        cursor: reviewCursorSchema.nullish(),
      }),
    )
    .output(sellerReviewsSchema)
    .query(({ ctx, input }) =>
      reviewsFor(ctx.db, { sellerId: input.sellerId }, input.limit, input.cursor ?? null),
    ),

  /** A charity's rating and reviews, from its own sales. */
  forCharity: publicProcedure
    .input(
      z.object({
        slug: z.string().trim().min(1, 'Choose a charity').max(200),
        limit: z.number().int().min(1).max(50).default(20),
        cursor: reviewCursorSchema.nullish(),
      }),
    )
    .output(sellerReviewsSchema)
    .query(({ ctx, input }) => reviewsForCharity(ctx.db, input.slug, input.limit, input.cursor ?? null)),

  /** Ratings of the sellers of a page of listing cards. */
  ratings: publicProcedure
    .input(
      z.object({
        sellerIds: z.array(z.uuid('That is not a seller id')).max(100, 'Ask for at most 100 sellers'),
      }),
    )
    .output(z.record(z.string(), ratingSchema))
    .query(({ ctx, input }) => ratingsOf(ctx.db, [...new Set(input.sellerIds)])),

  /** The ratings of the sellers of a page of listing cards, by listing id. */
  ratingsForListings: publicProcedure
    .input(
      z.object({
        listingIds: z.array(z.uuid('That is not a listing id')).max(100, 'Ask for at most 100 listings'),
      }),
    )
    .output(z.record(z.string(), ratingSchema))
    .query(({ ctx, input }) => ratingsOfListings(ctx.db, [...new Set(input.listingIds)])),
});

export const staffReviewsRouter = router({
  /** Removes a review with a reason (both members are told it); closes its open reports. */
  remove: staffProcedure
    .input(removeReviewInputSchema)
    .output(z.object({ closedReports: z.number().int() }))
    .mutation(({ ctx, input }) => removeReview(ctx.deps, ctx.user.userId, input)),
});
