/**
 * Pricing (decision 0051): the rules every quote follows, as pure functions the server charges
 * with and the web shows (a visitor's basket estimate, an offer's least amount), so the two can
 * never disagree. The quote itself, WELCOME20 or a promo code, and the order's money are the
 * commerce module's (api/src/commerce/pricing, api/src/commerce/money). All amounts are integer
 * pence; with packages/contracts/src/money.ts this is the only shared code that does arithmetic
 * on them (api/scripts/check-money.ts).
 *
 * For one seller's group of books (one order, one parcel):
 *   item subtotal            the books' prices
 *   - bundle discount        the seller's best tier reached, % of the item subtotal
 *   = discounted subtotal
 *   + postage                one parcel: its band from the books' estimated weight and
 *                            thickness, at the label's price for the delivery method
 *   + buyer protection       70p + 5% of the discounted subtotal (VAT-inclusive, VAT shown)
 *   - WELCOME20 / promo      on the discounted subtotal
 *   = total
 */
import type { BundleTier } from './basket.ts';
import { COMMERCIAL_DEFAULTS, PARCEL_SIZES, type ParcelSize } from './constants.ts';
import {
  type BuyerProtectionRule,
  buyerProtectionFee,
  percentOf,
  VAT_RATE_PERCENT,
  vatOfInclusive,
} from './money.ts';
import {
  DEFAULT_POSTAGE_RATES,
  DELIVERY_METHOD_LABELS,
  type DeliveryMethod,
  type Parcel,
  type ParcelBook,
  POSTAGE_BAND_LABELS,
  type PostageBand,
  type PostageRateCard,
  parcelFor,
  postageFor,
  postageFromFor,
} from './parcel-words.ts';

/** The best tier's percentage for this many books (0 when no tier is reached). */
export function bundlePercent(tiers: readonly BundleTier[], bookCount: number): number {
  let best = 0;
  for (const tier of tiers) if (bookCount >= tier.minBooks && tier.percent > best) best = tier.percent;
  return best;
}

// Postage ----------------------------------------------------------------------------------

/**
 * One parcel's postage from its books (decision 0083, parcel-words.ts): the books stacked into
 * one parcel (`parcelFor`: its band from their estimated weight and thickness), priced at what
 * the label costs for the buyer's delivery method (`postageFor`, the rate card in the settings).
 * Throws RangeError(PARCEL_TOO_HEAVY) past a Medium Parcel.
 */
export function parcelPostageFor(
  books: readonly ParcelBook[],
  method: DeliveryMethod,
  rates: PostageRateCard = DEFAULT_POSTAGE_RATES,
): { postageMinor: number; parcel: Parcel } {
  const parcel = parcelFor(books);
  return { postageMinor: postageFor(parcel.band, method, rates), parcel };
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

/** What a quote prices before the buyer chose (preselected at checkout). */
export const DEFAULT_DELIVERY_METHOD: DeliveryMethod = 'home';

/** A book as priced: its price, and what its parcel is estimated from (format, pages, size). */
export interface BasketPricingItem extends ParcelBook {
  priceMinor: number;
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
  /** The delivery method the postage is for (home delivery until the buyer chose). */
  method: DeliveryMethod;
  /** The one parcel the books go in: its band, estimated weight and thickness. */
  parcel: Parcel;
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
  /** The label rate card (the commercial setting `postage_rates`). */
  rates?: PostageRateCard;
  /** How the buyer wants it: home delivery (tracked) until they choose. */
  method?: DeliveryMethod;
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
  const method = input.method ?? DEFAULT_DELIVERY_METHOD;
  const { postageMinor, parcel } = parcelPostageFor(items, method, input.rates ?? DEFAULT_POSTAGE_RATES);
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
    postageMinor,
    method,
    parcel,
    protectionMinor,
    protectionVatMinor: vatOfInclusive(protectionMinor, input.vatPercent ?? VAT_RATE_PERCENT),
    discountMinor,
    totalMinor: discountedSubtotalMinor + postageMinor + protectionMinor - discountMinor,
    items: priced,
  };
}

// The price shown (decision 0071) ----------------------------------------------------------------

/** The live commercial rules a shown price follows (the settings staff change). */
export interface ShownPriceRules {
  buyerProtection: BuyerProtectionRule;
  postageRates: PostageRateCard;
}

export interface ShownPrice {
  /** What the buyer must pay for the book: the item and buyer protection (the headline price). */
  allInMinor: number;
  /** The postage the buyer would pay for this book on its own: its band's cheapest method. */
  postageFromMinor: number;
  /** The band the book on its own goes in. */
  band: PostageBand;
}

/**
 * The price every surface shows for one listing (the Digital Markets, Competition and Consumers
 * Act 2024 bans leaving a mandatory fee out of the headline): the book bought on its own, no
 * discount, priced by priceGroup exactly as checkout prices it, less the postage, which follows
 * as "+ postage from". A bundle tier starts at two books, so it never changes one book's price.
 */
export function shownPrice(item: BasketPricingItem, rules: ShownPriceRules): ShownPrice {
  const group = priceGroup({
    items: [item],
    rates: rules.postageRates,
    protection: rules.buyerProtection,
  });
  const band = group.parcel.band;
  return {
    allInMinor: group.totalMinor - group.postageMinor,
    postageFromMinor: postageFromFor(band, rules.postageRates),
    band,
  };
}

/**
 * What "+ postage from" would be for this book at each of the seller's sizes (the seller's
 * choice shows the buyer's postage): its band's cheapest method, the book on its own.
 */
export function postageFromBySize(
  book: Pick<ParcelBook, 'format' | 'pageCount'>,
  rates: PostageRateCard,
): Record<ParcelSize, number> {
  const of = (parcelSize: ParcelSize) => postageFromFor(parcelFor([{ ...book, parcelSize }]).band, rates);
  return { small: of('small'), medium: of('medium'), large: of('large') };
}

/**
 * The all-in price alone (the item and buyer protection), where no "+ postage from" is shown:
 * postage never enters the all-in, so it needs no parcel. Still priced by shownPrice.
 */
export function shownAllInMinor(priceMinor: number, rules: ShownPriceRules): number {
  return shownPrice({ priceMinor, parcelSize: 'small', format: null, pageCount: null }, rules).allInMinor;
}

/** The postage line's words: the band, and how it comes ("Large Letter · Home delivery (tracked)"). */
export function postageLineWords(band: PostageBand, method: DeliveryMethod | null): string {
  return method
    ? `${POSTAGE_BAND_LABELS[band]} · ${DELIVERY_METHOD_LABELS[method]}`
    : POSTAGE_BAND_LABELS[band];
}

// The words beside a shown price live in shown-price-words.ts: the first load reads them
// without the pricing rules (docs/performance.md, the first-load budget).
export { SHOWN_PRICE_WORDS } from './shown-price-words.ts';

/** The all-in price of an item price under a protection rule (never below the item price). */
function allInOf(itemMinor: number, rule: BuyerProtectionRule): number {
  return itemMinor + buyerProtectionFee(itemMinor, rule);
}

/** The least whole item price whose all-in price is at least `target` (the all-in rises with the item). */
function leastItemReaching(target: number, rule: BuyerProtectionRule): number {
  let low = 0;
  let high = Math.max(0, target);
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (allInOf(middle, rule) >= target) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * A price filter is on the all-in price (decision 0071: "under £5" is what the buyer pays):
 * its bounds as the item prices inside them, so the query filters and sorts on the item price
 * and its indexes. The all-in price rises with the item price, so the order is the same.
 * A maximum below the fee itself gives 0 (no listing is free).
 */
export function itemPriceRangeForShown(
  shown: { minMinor?: number | undefined; maxMinor?: number | undefined },
  rule: BuyerProtectionRule,
): { minMinor?: number; maxMinor?: number } {
  const range: { minMinor?: number; maxMinor?: number } = {};
  if (shown.minMinor !== undefined) range.minMinor = leastItemReaching(shown.minMinor, rule);
  if (shown.maxMinor !== undefined) {
    // The greatest item price whose all-in is at most the maximum: one below the least above it.
    const above = leastItemReaching(shown.maxMinor + 1, rule);
    range.maxMinor = Math.max(0, above - 1);
  }
  return range;
}

/** The least a buyer may offer: half the asking price, rounded up to the penny. */
export function minimumOfferMinor(askingMinor: number): number {
  return Math.ceil((askingMinor * COMMERCIAL_DEFAULTS.offerMinPercent) / 100);
}

/** One payment for several orders (a basket's groups): their totals together. */
export function paymentTotal(orders: readonly { totalMinor: number }[]): number {
  return orders.reduce((total, order) => total + order.totalMinor, 0);
}

// Offers (decision 0043) ------------------------------------------------------------------------

/** The books' asking prices added up: what a bundle offer's 50% minimum is of. */
export function askingSubtotal(prices: readonly (number | null)[]): number {
  return prices.reduce<number>((total, price) => total + (price ?? 0), 0);
}

/** The asking price of books bought together: their subtotal less the bundle tier they reach. */
export function bundleAsking(subtotalMinor: number, percent: number): number {
  return subtotalMinor - percentOf(subtotalMinor, percent);
}

/**
 * What a counter-offer may be: the seller counters above the buyer's last offer and below the
 * asking price; the buyer counters at least the minimum (and above their own opening offer) and
 * below the seller's last counter.
 */
export function counterBounds(input: {
  role: 'buyer' | 'seller';
  currentMinor: number;
  askingMinor: number;
  subtotalMinor: number;
  openingMinor: number;
}): { minMinor: number; maxMinor: number } {
  return input.role === 'seller'
    ? { minMinor: input.currentMinor + 1, maxMinor: input.askingMinor - 1 }
    : {
        minMinor: Math.max(minimumOfferMinor(input.subtotalMinor), input.openingMinor + 1),
        maxMinor: input.currentMinor - 1,
      };
}

/** How far below the asking price an offer is, in whole percent (0 for a free book). */
export function offerDiscountPercent(priceMinor: number, amountMinor: number): number {
  if (priceMinor <= 0) return 0;
  return Math.round(((priceMinor - amountMinor) / priceMinor) * 100);
}

// Selling ----------------------------------------------------------------------------------------

/**
 * A price this many times the suggestion, or more, is warned of before publishing (a
 * seller typed £5,000 against a suggested £4.74); never refused, for a rare copy may be worth it.
 */
export const PRICE_WARNING_FACTOR = 3;

/** Whether a price is far enough above the suggestion to warn of it. */
export function priceFarAboveSuggestion(priceMinor: number, suggestedMinor: number): boolean {
  return priceMinor >= PRICE_WARNING_FACTOR * suggestedMinor;
}
