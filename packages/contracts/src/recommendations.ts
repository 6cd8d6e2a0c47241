/** Recommendations and seller analytics: what the API answers and the web reads. */
import { z } from 'zod';
import { listingCardSchema } from './catalogue.ts';
import { RECOMMENDATION_REASONS } from './recommendation-reasons.ts';

export const recommendationSchema = listingCardSchema.extend({
  reason: z.enum(RECOMMENDATION_REASONS),
  /** The book, author or genre the reason names (null for staff picks and trending). */
  because: z.string().nullable(),
});
export type Recommendation = z.infer<typeof recommendationSchema>;

export const recommendationsSchema = z.object({
  items: z.array(recommendationSchema),
  /** Nothing of the member's own to go on yet: only trending books and staff picks. */
  coldStart: z.boolean(),
  computedAt: z.string().nullable(),
});
export type Recommendations = z.infer<typeof recommendationsSchema>;

export const ANALYTICS_PERIODS = ['7d', '30d', '12m'] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];

const totals = {
  views: z.number().int(),
  wishlists: z.number().int(),
  offersReceived: z.number().int(),
  offersAccepted: z.number().int(),
  sales: z.number().int(),
  /** What the seller is owed for the sales, in pence (payouts less refunds taken back). */
  revenueNetMinor: z.number().int(),
};

export const sellerAnalyticsSchema = z.object({
  period: z.enum(ANALYTICS_PERIODS),
  /** Whose books: the member's own, or their charity's. */
  scope: z.enum(['seller', 'charity']),
  totals: z.object({
    ...totals,
    /** Sales per 100 views in the period (null without views). */
    conversionPercent: z.number().nullable(),
    /** Days from publishing to sale, over the period's sales (null without sales). */
    averageDaysToSell: z.number().nullable(),
  }),
  /** Day by day (7 d, 30 d) or month by month (12 m), London time. */
  points: z.array(z.object({ bucket: z.string(), ...totals })),
  listings: z.array(
    z.object({
      id: z.uuid(),
      slug: z.string().nullable(),
      title: z.string(),
      status: z.string(),
      priceMinor: z.number().int().nullable(),
      views: z.number().int(),
      wishlists: z.number().int(),
      offers: z.number().int(),
      daysListed: z.number().int().nullable(),
      suggestion: z.string().nullable(),
    }),
  ),
});
export type SellerAnalytics = z.infer<typeof sellerAnalyticsSchema>;
