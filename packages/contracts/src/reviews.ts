/**
 * Reviews (decision 0048): after an order completes, its buyer and its seller are each
 * asked to review the other within REVIEW_WINDOW_DAYS; the two reviews are published together
 * when both are in, or when the window closes. The help page reads these same constants.
 */
import { z } from 'zod';

/** Days after completion in which each side may review the other. */
export const REVIEW_WINDOW_DAYS = 14;
/** The most characters a review's text (or a reply) may have. */
export const REVIEW_MAX_LENGTH = 500;
export const REVIEW_MIN_STARS = 1;
export const REVIEW_MAX_STARS = 5;

export const REVIEW_ROLES = ['buyer', 'seller'] as const;
export type ReviewRole = (typeof REVIEW_ROLES)[number];

const reviewText = (what: string) =>
  z
    .string()
    .trim()
    .max(
      REVIEW_MAX_LENGTH,
      `Keep ${what} to ${REVIEW_MAX_LENGTH.toLocaleString('en-GB')} characters or fewer`,
    );

export const writeReviewInputSchema = z.object({
  orderId: z.uuid('Choose an order to review'),
  stars: z
    .number('Choose from 1 to 5 stars')
    .int('Choose a whole number of stars')
    .min(REVIEW_MIN_STARS, `Choose from ${REVIEW_MIN_STARS} to ${REVIEW_MAX_STARS} stars`)
    .max(REVIEW_MAX_STARS, `Choose from ${REVIEW_MIN_STARS} to ${REVIEW_MAX_STARS} stars`),
  body: reviewText('your review').default(''),
});
export type WriteReviewInput = z.input<typeof writeReviewInputSchema>;

export const replyToReviewInputSchema = z.object({
  reviewId: z.uuid('Choose a review to reply to'),
  reply: reviewText('your reply').min(1, 'Write your reply'),
});

export const removeReviewInputSchema = z.object({
  reviewId: z.uuid('Choose a review'),
  reason: z
    .string()
    .trim()
    .min(3, 'Write the reason (at least 3 characters): both members are told it')
    .max(1000, 'Use at most 1,000 characters'),
});

/** A seller's (or charity's) rating, from real orders only. */
export const ratingSchema = z.object({
  /** Average stars of the published reviews buyers wrote about them; null with none. */
  average: z.number().nullable(),
  count: z.number().int(),
  /** Orders whose dispatch deadline has come (dispatched or not) and how many were dispatched by it. */
  dispatchCounted: z.number().int(),
  dispatchedOnTime: z.number().int(),
  /** dispatchedOnTime / dispatchCounted as a whole percentage; null when nothing counted yet. */
  onTimePercent: z.number().int().nullable(),
});
export type Rating = z.infer<typeof ratingSchema>;

export const publicReviewSchema = z.object({
  id: z.uuid(),
  stars: z.number().int(),
  body: z.string(),
  /** Who wrote it about whom: a buyer about the seller, or the seller about the buyer. */
  authorRole: z.enum(REVIEW_ROLES),
  authorName: z.string(),
  /** The order reviewed, titled as everywhere: its first book, and how many more ("X and 2 more books"). */
  bookTitle: z.string(),
  publishedAt: z.string(),
  reply: z.string().nullable(),
  repliedAt: z.string().nullable(),
});
export type PublicReview = z.infer<typeof publicReviewSchema>;

export const sellerReviewsSchema = z.object({
  rating: ratingSchema,
  reviews: z.array(publicReviewSchema),
  /** Where the next page of reviews starts (`cursor`), or null when these are the last. */
  nextCursor: z.string().nullable(),
});

/** A page of a seller's or charity's reviews starts after this one (newest first). */
export const reviewCursorSchema = z
  .string()
  .max(100)
  .regex(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z_[0-9a-f-]{36}$/, 'That is not a page of reviews');
export type SellerReviews = z.infer<typeof sellerReviewsSchema>;

export const pendingReviewSchema = z.object({
  orderId: z.uuid(),
  reference: z.string(),
  role: z.enum(REVIEW_ROLES),
  counterpartName: z.string(),
  title: z.string(),
  closesAt: z.string(),
});
export type PendingReview = z.infer<typeof pendingReviewSchema>;

export const myReviewSchema = z.object({
  id: z.uuid(),
  orderId: z.uuid(),
  reference: z.string(),
  stars: z.number().int(),
  body: z.string(),
  authorRole: z.enum(REVIEW_ROLES),
  /** The other person: whom it is about (given), or who wrote it (received). */
  counterpartName: z.string(),
  title: z.string(),
  createdAt: z.string(),
  /** Null until both are in or the window closes. */
  publishedAt: z.string().nullable(),
  reply: z.string().nullable(),
  /** A received, published review not yet replied to. */
  canReply: z.boolean(),
  /** A received, published review the member may report. */
  canReport: z.boolean(),
  removedReason: z.string().nullable(),
});
export type MyReview = z.infer<typeof myReviewSchema>;

export const myReviewsSchema = z.object({
  pending: z.array(pendingReviewSchema),
  given: z.array(myReviewSchema),
  /** Only published ones: a review about you is hidden from you until it is published. */
  received: z.array(myReviewSchema),
});
export type MyReviews = z.infer<typeof myReviewsSchema>;
