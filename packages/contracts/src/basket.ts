/** The basket (decision 0043): bundle tiers, and the shapes the API and the web share. Its pricing is pricing.ts. */
import { z } from 'zod';
import { listingCardSchema, namedRefSchema } from './catalogue.ts';
import { addressInputSchema, idempotencyKeySchema, promoOutcomeSchema } from './checkout.ts';
import { PARCEL_SIZES } from './constants.ts';
import { deliveryChoiceSchema, deliveryQuoteSchema } from './parcels.ts';
import { traderSchema } from './traders.ts';

// Bundle tiers ---------------------------------------------------------------------------------

export const BUNDLE_TIER_LIMITS = {
  maxTiers: 3,
  minBooks: 2,
  maxBooks: 20,
  minPercent: 1,
  maxPercent: 50,
} as const;

export const bundleTierSchema = z.object({
  minBooks: z
    .number({ error: 'Enter the number of books' })
    .int('Use a whole number of books')
    .min(BUNDLE_TIER_LIMITS.minBooks, `A tier starts at ${BUNDLE_TIER_LIMITS.minBooks} books or more`)
    .max(BUNDLE_TIER_LIMITS.maxBooks, `A tier starts at ${BUNDLE_TIER_LIMITS.maxBooks} books at most`),
  percent: z
    .number({ error: 'Enter a percentage' })
    .int('Use a whole percentage')
    .min(BUNDLE_TIER_LIMITS.minPercent, `The discount is at least ${BUNDLE_TIER_LIMITS.minPercent}%`)
    .max(BUNDLE_TIER_LIMITS.maxPercent, `The discount is at most ${BUNDLE_TIER_LIMITS.maxPercent}%`),
});
export type BundleTier = z.infer<typeof bundleTierSchema>;

/** Up to three tiers, strictly increasing in both books and percentage; [] is "off". */
export const bundleTiersSchema = z
  .array(bundleTierSchema)
  .max(BUNDLE_TIER_LIMITS.maxTiers, `Set at most ${BUNDLE_TIER_LIMITS.maxTiers} tiers`)
  .superRefine((tiers, ctx) => {
    for (let i = 1; i < tiers.length; i++) {
      const previous = tiers[i - 1] as BundleTier;
      const tier = tiers[i] as BundleTier;
      if (tier.minBooks <= previous.minBooks) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'minBooks'],
          message: `Each tier needs more books than the one before (more than ${previous.minBooks})`,
        });
      }
      if (tier.percent <= previous.percent) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'percent'],
          message: `Each tier needs a bigger discount than the one before (more than ${previous.percent}%)`,
        });
      }
    }
  });

// Shapes the API and the web share -------------------------------------------------------------

/** Most books a basket holds (all sellers), and a group (one order). */
export const BASKET_LIMITS = { maxItems: 50, maxGroupItems: 20 } as const;

export const basketListingIdsSchema = z
  .array(z.string().uuid('That is not a book we know'))
  .min(1, 'Choose at least one book')
  .max(BASKET_LIMITS.maxItems, `A basket holds at most ${BASKET_LIMITS.maxItems} books`);

/** Why a book in the basket cannot be bought now. */
export const basketItemStateSchema = z.enum(['available', 'gone', 'own']);

/** A book in the basket: its card (as everywhere), whether it can be bought now, when it was added. */
export const basketItemSchema = listingCardSchema.extend({
  /** available: can be bought; gone: sold, reserved or withdrawn meanwhile; own: the buyer's own book. */
  state: basketItemStateSchema,
  addedAt: z.string(),
});
export type BasketItem = z.infer<typeof basketItemSchema>;

export const bundleTierOutSchema = z.object({ minBooks: z.number().int(), percent: z.number().int() });

/** One seller's group: one parcel, one order. */
export const basketGroupSchema = z.object({
  /** Stable key of the group: the seller (and the charity, for a charity's shop). */
  key: z.string(),
  sellerId: z.string().uuid(),
  charityId: z.string().uuid().nullable(),
  /** The seller's display name, or the charity's. */
  /** The seller's display name, or the charity's name for a charity's shop. */
  sellerName: z.string(),
  /** The charity's shop (its page is /charities/<slug>), for a charity's listings. */
  charity: namedRefSchema.nullable(),
  tiers: z.array(bundleTierOutSchema),
  items: z.array(basketItemSchema),
});
export type BasketGroup = z.infer<typeof basketGroupSchema>;

export const basketSchema = z.object({
  groups: z.array(basketGroupSchema),
  count: z.number().int(),
});
export type Basket = z.infer<typeof basketSchema>;

export const groupQuoteItemSchema = z.object({
  listingId: z.string().uuid(),
  title: z.string(),
  priceMinor: z.number().int(),
  parcelSize: z.enum(PARCEL_SIZES),
  bundleDiscountMinor: z.number().int(),
  discountMinor: z.number().int(),
  protectionMinor: z.number().int(),
  paidMinor: z.number().int(),
});

export const groupQuoteSchema = z.object({
  key: z.string(),
  sellerId: z.string().uuid(),
  charityId: z.string().uuid().nullable(),
  sellerName: z.string(),
  items: z.array(groupQuoteItemSchema),
  bookCount: z.number().int(),
  itemSubtotalMinor: z.number().int(),
  bundlePercent: z.number().int(),
  bundleDiscountMinor: z.number().int(),
  discountedSubtotalMinor: z.number().int(),
  postageMinor: z.number().int(),
  /** The group's one parcel: the method its postage is for, and both options. */
  delivery: deliveryQuoteSchema,
  protectionMinor: z.number().int(),
  protectionVatMinor: z.number().int(),
  discountMinor: z.number().int(),
  discountCode: z.string().nullable(),
  discountLabel: z.string().nullable(),
  totalMinor: z.number().int(),
  /** What the same books would cost bought one by one (no discount code): the saving shown. */
  singleOrdersMinor: z.number().int(),
  /** What this order saves on them: one by one less this order (0 when nothing). */
  savingMinor: z.number().int(),
  /** The trader selling this group's books (traders.ts); null: a private seller. */
  trader: traderSchema.nullable(),
});
export type GroupQuote = z.infer<typeof groupQuoteSchema>;

export const basketQuoteSchema = z.object({
  groups: z.array(groupQuoteSchema),
  totalMinor: z.number().int(),
  /** The promo code the buyer entered, whether it applied (to which group), and if not, why. */
  promo: promoOutcomeSchema.nullable(),
  /** Books asked about that cannot be bought now (sold, reserved, withdrawn, or the buyer's own): not priced. */
  gone: z.array(z.object({ listingId: z.string().uuid(), title: z.string() })),
});
export type BasketQuote = z.infer<typeof basketQuoteSchema>;

/**
 * How the buyer wants each seller group's parcel, by the group's key (a group not named gets
 * home delivery, the preselected choice).
 */
export const groupDeliveriesSchema = z
  .record(z.string().max(80, 'Unknown seller group'), deliveryChoiceSchema)
  .refine((value) => Object.keys(value).length <= 50, 'Too many seller groups');

/** A quote for some of the basket: these books (the web sends the ones the buyer checks out). */
export const basketQuoteInputSchema = z.object({
  listingIds: basketListingIdsSchema,
  deliveries: groupDeliveriesSchema.optional(),
  promoCode: z.string().trim().toUpperCase().max(40, 'We don’t recognise that code.').nullish(),
});

export const basketStartResultSchema = z.object({
  checkoutPaymentId: z.string().uuid(),
  orders: z.array(
    z.object({ orderId: z.string().uuid(), reference: z.string(), totalMinor: z.number().int() }),
  ),
  redirectUrl: z.string(),
  totalMinor: z.number().int(),
});
export type BasketStartResult = z.infer<typeof basketStartResultSchema>;

/**
 * Checkout of basket groups: the books, and the totals the buyer was shown. If the price is no
 * longer the quoted one, checkout refuses (PRECONDITION_FAILED, code QUOTE_CHANGED) with the new quote.
 */
export const basketStartInputSchema = z.object({
  listingIds: basketListingIdsSchema,
  address: addressInputSchema,
  deliveries: groupDeliveriesSchema.optional(),
  promoCode: z.string().trim().toUpperCase().max(40, 'We don’t recognise that code.').nullish(),
  idempotencyKey: idempotencyKeySchema,
  quotedTotalMinor: z.number().int().positive('The quoted total is missing'),
  quotedGroups: z
    .array(z.object({ key: z.string(), totalMinor: z.number().int() }))
    .min(1, 'The quoted groups are missing'),
});
export type BasketStartInput = z.infer<typeof basketStartInputSchema>;
