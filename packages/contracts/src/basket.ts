/**
 * The basket's pricing (issue 23, decision 0043): pure functions the server charges with and the
 * web shows, so the two can never disagree. All amounts are integer pence.
 *
 * For one seller's group of books (one order, one parcel):
 *   item subtotal            the books' prices
 *   - bundle discount        the seller's best tier reached, % of the item subtotal
 *   = discounted subtotal
 *   + postage                one parcel: the band from the number and sizes of the books
 *   + buyer protection       70p + 5% of the discounted subtotal (VAT-inclusive, VAT shown)
 *   - WELCOME20 / promo      on the discounted subtotal
 *   = total
 */
import { z } from 'zod';
import { listingCardSchema, namedRefSchema } from './catalogue.ts';
import { addressInputSchema, idempotencyKeySchema, promoOutcomeSchema } from './checkout.ts';
import { COMMERCIAL_DEFAULTS, PARCEL_SIZES, type ParcelSize } from './constants.ts';
import {
  type BuyerProtectionRule,
  buyerProtectionFee,
  percentOf,
  VAT_RATE_PERCENT,
  vatOfInclusive,
} from './money.ts';

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

/** The best tier's percentage for this many books (0 when no tier is reached). */
export function bundlePercent(tiers: readonly BundleTier[], bookCount: number): number {
  let best = 0;
  for (const tier of tiers) if (bookCount >= tier.minBooks && tier.percent > best) best = tier.percent;
  return best;
}

// Postage ----------------------------------------------------------------------------------

/** How much of a parcel each book takes: a paperback 1, a hardback/medium 2, a large book 4. */
export const PARCEL_SIZE_POINTS: Record<ParcelSize, number> = { small: 1, medium: 2, large: 4 };
/** Above a large parcel (6 points), each further 4 points (or part) adds this much. */
export const POSTAGE_STEP_POINTS = 4;
export const POSTAGE_STEP_MINOR = 150;

export type PostageRates = Record<ParcelSize, number>;

export interface ParcelPostage {
  /** What the buyer pays for the one parcel. */
  postageMinor: number;
  /** The parcel's band: small (1 point), medium (2–3), large (4 or more). */
  parcelSize: ParcelSize;
  points: number;
}

/**
 * One parcel's postage from its books (decision 0043's band table), with the seller's
 * per-size rates (the commercial settings; defaults 299 / 399 / 549):
 *
 *   points  1      small rate                     one paperback
 *   points  2–3    medium rate                    2–3 paperbacks, or one medium book (+1)
 *   points  4–6    large rate                     4–6 paperbacks, a large book, 2–3 medium
 *   points  7+     large rate + 150p for each further 4 points or part
 *
 * So a second paperback adds at most 150p (the default rates: 100p), never more than the first
 * paperback cost; one parcel never costs more than the books sent one by one.
 */
export function parcelPostage(
  sizes: readonly ParcelSize[],
  rates: PostageRates = COMMERCIAL_DEFAULTS.postageMinor,
): ParcelPostage {
  if (sizes.length === 0) throw new RangeError('parcelPostage needs at least one book');
  const points = sizes.reduce((sum, size) => sum + PARCEL_SIZE_POINTS[size], 0);
  if (points <= 1) return { postageMinor: rates.small, parcelSize: 'small', points };
  if (points <= 3) return { postageMinor: rates.medium, parcelSize: 'medium', points };
  const steps = points <= 6 ? 0 : Math.ceil((points - 6) / POSTAGE_STEP_POINTS);
  return { postageMinor: rates.large + steps * POSTAGE_STEP_MINOR, parcelSize: 'large', points };
}

// Apportioning -------------------------------------------------------------------------------

/**
 * Splits `total` pence over items in proportion to `weights`, exactly: the shares are whole
 * pence and add up to `total`. The remainder rule (decision 0043): each item first gets the
 * floor of its exact share; the pence left over go one each to the items with the largest
 * fractional remainders, ties to the earlier item. All-zero weights split evenly by the same
 * rule. A share never exceeds its item's weight when total <= sum(weights).
 */
export function apportion(total: number, weights: readonly number[]): number[] {
  if (!Number.isInteger(total) || total < 0)
    throw new RangeError('apportion expects whole, non-negative pence');
  if (weights.length === 0) {
    if (total === 0) return [];
    throw new RangeError('apportion needs at least one item to share pence between');
  }
  for (const weight of weights) {
    if (!Number.isInteger(weight) || weight < 0)
      throw new RangeError('apportion expects whole, non-negative weights');
  }
  const sum = weights.reduce((a, b) => a + b, 0);
  const effective = sum === 0 ? weights.map(() => 1) : weights;
  const denominator = sum === 0 ? weights.length : sum;
  // Integer arithmetic: share_i = floor(total * w_i / sum), remainder_i = (total * w_i) mod sum.
  const shares: number[] = [];
  const remainders: { index: number; remainder: bigint }[] = [];
  let given = 0;
  effective.forEach((weight, index) => {
    const product = BigInt(total) * BigInt(weight);
    const share = Number(product / BigInt(denominator));
    shares.push(share);
    remainders.push({ index, remainder: product % BigInt(denominator) });
    given += share;
  });
  remainders.sort((a, b) =>
    a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1,
  );
  for (let left = total - given, i = 0; left > 0; left--, i++) {
    const target = remainders[i % remainders.length] as { index: number };
    shares[target.index] = (shares[target.index] as number) + 1;
  }
  return shares;
}

// A group's price ---------------------------------------------------------------------------

export interface BasketPricingItem {
  priceMinor: number;
  parcelSize: ParcelSize;
}

export interface PricedItem {
  priceMinor: number;
  bundleDiscountMinor: number;
  discountMinor: number;
  protectionMinor: number;
  /** What the buyer pays for this book (postage aside): price - both discounts + protection. */
  paidMinor: number;
}

export interface GroupPrice {
  bookCount: number;
  itemSubtotalMinor: number;
  bundlePercent: number;
  bundleDiscountMinor: number;
  discountedSubtotalMinor: number;
  postageMinor: number;
  parcelSize: ParcelSize;
  protectionMinor: number;
  protectionVatMinor: number;
  discountMinor: number;
  totalMinor: number;
  /** Each book's shares, apportioned (same order as the input). */
  items: PricedItem[];
}

/**
 * Prices one seller's group. `discount` is WELCOME20 or a promotion, given the discounted
 * subtotal (a number is used as is); it never takes more than the discounted subtotal.
 */
export function priceGroup(input: {
  items: readonly BasketPricingItem[];
  tiers?: readonly BundleTier[];
  postage?: PostageRates;
  protection?: BuyerProtectionRule;
  discount?: number | ((discountedSubtotalMinor: number) => number);
  vatPercent?: number;
}): GroupPrice {
  const { items } = input;
  if (items.length === 0) throw new RangeError('priceGroup needs at least one book');
  for (const item of items) {
    if (!Number.isInteger(item.priceMinor) || item.priceMinor <= 0)
      throw new RangeError('Every book needs a whole, positive price in pence');
    if (!PARCEL_SIZES.includes(item.parcelSize))
      throw new RangeError(`Unknown parcel size ${item.parcelSize}`);
  }
  const protectionRule = input.protection ?? {
    fixedMinor: COMMERCIAL_DEFAULTS.buyerProtectionFixedMinor,
    percent: COMMERCIAL_DEFAULTS.buyerProtectionPercent,
  };
  const prices = items.map((item) => item.priceMinor);
  const itemSubtotalMinor = prices.reduce((a, b) => a + b, 0);
  const percent = bundlePercent(input.tiers ?? [], items.length);
  const bundleDiscountMinor = percentOf(itemSubtotalMinor, percent);
  const discountedSubtotalMinor = itemSubtotalMinor - bundleDiscountMinor;
  const parcel = parcelPostage(
    items.map((item) => item.parcelSize),
    input.postage ?? COMMERCIAL_DEFAULTS.postageMinor,
  );
  const protectionMinor = buyerProtectionFee(discountedSubtotalMinor, protectionRule);
  const asked =
    typeof input.discount === 'function' ? input.discount(discountedSubtotalMinor) : (input.discount ?? 0);
  if (!Number.isInteger(asked) || asked < 0) throw new RangeError('A discount is whole, non-negative pence');
  const discountMinor = Math.min(asked, discountedSubtotalMinor);

  const bundleShares = apportion(bundleDiscountMinor, prices);
  const afterBundle = prices.map((p, i) => p - (bundleShares[i] as number));
  const discountShares = apportion(discountMinor, afterBundle);
  const protectionShares = apportion(protectionMinor, afterBundle);
  const priced = prices.map((priceMinor, i) => {
    const bundle = bundleShares[i] as number;
    const discount = discountShares[i] as number;
    const protection = protectionShares[i] as number;
    return {
      priceMinor,
      bundleDiscountMinor: bundle,
      discountMinor: discount,
      protectionMinor: protection,
      paidMinor: priceMinor - bundle - discount + protection,
    };
  });
  return {
    bookCount: items.length,
    itemSubtotalMinor,
    bundlePercent: percent,
    bundleDiscountMinor,
    discountedSubtotalMinor,
    postageMinor: parcel.postageMinor,
    parcelSize: parcel.parcelSize,
    protectionMinor,
    protectionVatMinor: vatOfInclusive(protectionMinor, input.vatPercent ?? VAT_RATE_PERCENT),
    discountMinor,
    totalMinor: discountedSubtotalMinor + parcel.postageMinor + protectionMinor - discountMinor,
    items: priced,
  };
}

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
  parcelSize: z.enum(PARCEL_SIZES),
  protectionMinor: z.number().int(),
  protectionVatMinor: z.number().int(),
  discountMinor: z.number().int(),
  discountCode: z.string().nullable(),
  discountLabel: z.string().nullable(),
  totalMinor: z.number().int(),
  /** What the same books would cost bought one by one (no discount code): the saving shown. */
  singleOrdersMinor: z.number().int(),
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

/** A quote for some of the basket: these books (the web sends the ones the buyer checks out). */
export const basketQuoteInputSchema = z.object({
  listingIds: basketListingIdsSchema,
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
  promoCode: z.string().trim().toUpperCase().max(40, 'We don’t recognise that code.').nullish(),
  idempotencyKey: idempotencyKeySchema,
  quotedTotalMinor: z.number().int().positive('The quoted total is missing'),
  quotedGroups: z
    .array(z.object({ key: z.string(), totalMinor: z.number().int() }))
    .min(1, 'The quoted groups are missing'),
});
export type BasketStartInput = z.infer<typeof basketStartInputSchema>;
