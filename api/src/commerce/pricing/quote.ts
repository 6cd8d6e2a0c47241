/**
 * One quote for everything a buyer can buy (decision 0051): a single book, a basket, an accepted
 * offer. Each is one or more seller groups (one order, one parcel each); a single book is a group
 * of one, and an accepted offer is a group whose books share the agreed amount (a single offer is
 * a bundle of one). Every group is priced by `priceGroup` (packages/contracts/src/pricing.ts: the
 * seller's bundle tier, one parcel's postage, protection on the discounted subtotal), and one
 * discount per checkout is chosen here: WELCOME20 on a buyer's first order, or a promo code when
 * it takes more off (decision 0019), on the group where it takes the most off.
 *
 * Checkout quotes with it, and charges with it again inside the order's transaction (`lock`), so
 * what the buyer was shown is what they pay or they are told it changed.
 */
import {
  apportion,
  type BundleTier,
  DEFAULT_DELIVERY_METHOD,
  DELIVERY_METHODS,
  type DeliveryMethod,
  formatPence,
  type GroupPrice,
  PARCEL_TOO_HEAVY,
  type ParcelSize,
  type PromoOutcome,
  percentOf,
  priceGroup,
  WELCOME_GIFT,
} from '@reshelf/contracts';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { getCommercialSettings } from '../../platform/settings/settings.service.ts';
import { checkPromotion } from '../promotions/promotions.service.ts';

type Executor = Database | Transaction<DB>;

export interface PricingBook {
  listingId: string;
  title: string;
  /** The asking price. */
  priceMinor: number;
  parcelSize: ParcelSize;
  /** The listing's format and the edition's page count: what the parcel is estimated from. */
  format: string | null;
  pageCount: number | null;
}

/** One order to price: one seller's (or one charity shop's) books, in one parcel. */
export interface PricingGroup {
  key: string;
  sellerId: string;
  charityId: string | null;
  sellerName: string;
  books: readonly PricingBook[];
  /** The seller's (or the charity shop's) bundle tiers. */
  tiers: readonly BundleTier[];
  /** An accepted offer's amount for all the group's books (they share it by asking price), or null. */
  agreedMinor: number | null;
  offerId: string | null;
  /** How the buyer wants the parcel; home delivery (the preselected choice) until they chose. */
  method?: DeliveryMethod;
}

export interface PricedGroup {
  group: PricingGroup;
  price: GroupPrice;
  discountCode: string | null;
  discountLabel: string | null;
  /** What the books would cost bought one by one (the basket shows the saving). */
  singleOrdersMinor: number;
  /** What the saving is: one by one less this order (0 when none). */
  savingMinor: number;
  /** The order's postage and total by each delivery method (DELIVERY_METHODS order), same discount. */
  options: { method: DeliveryMethod; postageMinor: number; totalMinor: number }[];
}

export interface PricedOrders {
  groups: PricedGroup[];
  /** Every group's total: the one payment. */
  totalMinor: number;
  promo: PromoOutcome | null;
  /** The promotion the checkout uses, when the entered code won (decision 0019). */
  promotionId: string | null;
  /** Why the entered code cannot be used at all (not "WELCOME20 was better"). */
  promoRefusal: string | null;
}

/** A buyer's first order gets WELCOME20: no order of theirs is live or done yet. */
export async function welcomeEligible(db: Executor, buyerId: string): Promise<boolean> {
  const previous = await db
    .selectFrom('orders')
    .select('id')
    .where('buyer_id', '=', buyerId)
    .where('status', '<>', 'cancelled')
    .limit(1)
    .executeTakeFirst();
  return !previous;
}

/**
 * One discount per checkout (decision 0019): a promo code replaces a first order's WELCOME20 only
 * when it takes more off, and the buyer is told which won and why.
 */
export function promoOrWelcome(
  code: string,
  promoMinor: number,
  welcomeMinor: number | null,
  welcome: boolean,
): { usePromo: boolean; promo: PromoOutcome } {
  if (welcomeMinor !== null && welcomeMinor >= promoMinor) {
    return {
      usePromo: false,
      promo: {
        code,
        status: 'welcome_kept',
        message: `Your first-order ${WELCOME_GIFT.code} discount saves you more (${formatPence(welcomeMinor)}), so we kept it: discounts can’t be combined.`,
      },
    };
  }
  return {
    usePromo: true,
    promo: {
      code,
      status: 'applied',
      message: welcome
        ? `${code} saves you more than your first-order ${WELCOME_GIFT.code} discount, so it replaces it: discounts can’t be combined.`
        : null,
    },
  };
}

/**
 * The books' prices as charged: their asking prices, or an accepted offer's amount shared by
 * asking price (decision 0043's remainder rule), every book at least 1p.
 */
function chargedPrices(group: PricingGroup): number[] {
  const asking = group.books.map((book) => Math.max(book.priceMinor, 1));
  if (group.agreedMinor === null) return asking;
  const shared = apportion(group.agreedMinor, asking);
  if (shared.every((price) => price >= 1)) return shared;
  return apportion(group.agreedMinor - asking.length, asking).map((price) => price + 1);
}

/** The one place a group is priced: an agreed amount is not discounted again by the bundle tiers. */
async function groupPricer(db: Executor) {
  const settings = await getCommercialSettings(db as Database);
  return (group: PricingGroup, discount = 0): GroupPrice => {
    const prices = chargedPrices(group);
    try {
      return priceGroup({
        items: group.books.map((book, index) => ({
          priceMinor: prices[index] as number,
          parcelSize: book.parcelSize,
          format: book.format,
          pageCount: book.pageCount,
        })),
        tiers: group.agreedMinor === null ? group.tiers : [],
        rates: settings.postageRates,
        method: group.method ?? DEFAULT_DELIVERY_METHOD,
        protection: settings.buyerProtection,
        discount,
      });
    } catch (error) {
      // One seller's books past a Medium Parcel (20 kg): said in words, nothing written.
      if (error instanceof RangeError && error.message === PARCEL_TOO_HEAVY) {
        throw new AppError('BAD_INPUT', PARCEL_TOO_HEAVY);
      }
      throw error;
    }
  };
}

/** What the group's books cost as orders of their own at their asking prices, with no discount. */
function asSingleOrders(
  priceOf: (group: PricingGroup, discount?: number) => GroupPrice,
  group: PricingGroup,
): number {
  return group.books
    .map((book) => priceOf({ ...group, books: [book], agreedMinor: null, tiers: [] }).totalMinor)
    .reduce((total, each) => total + each, 0);
}

/** The group priced by each delivery method with the same discount (what the buyer chooses between). */
function byMethod(
  priceOf: (group: PricingGroup, discount?: number) => GroupPrice,
  group: PricingGroup,
  discount: number,
): PricedGroup['options'] {
  return DELIVERY_METHODS.map((method) => {
    const price = priceOf({ ...group, method }, discount);
    return { method, postageMinor: price.postageMinor, totalMinor: price.totalMinor };
  });
}

/** The group a discount takes most off (ties: the earlier group), and how much. */
function best(amounts: readonly number[]): { index: number; minor: number } {
  return amounts.reduce<{ index: number; minor: number }>(
    (top, minor, index) => (minor > top.minor ? { index, minor } : top),
    { index: -1, minor: 0 },
  );
}

/**
 * Prices these orders for a buyer, with at most one discount (WELCOME20 or the code). With
 * `lock` (inside checkout's transaction) a promotion's row is locked while its uses count.
 */
export async function priceOrders(
  db: Executor,
  buyerId: string,
  groups: readonly PricingGroup[],
  promoCode: string | null,
  options: { lock?: boolean } = {},
): Promise<PricedOrders> {
  const priceOf = await groupPricer(db);
  const base = groups.map((group) => priceOf(group));
  const welcome = groups.length > 0 && (await welcomeEligible(db, buyerId));
  let discount: {
    index: number;
    code: string;
    minor: number;
    label: string;
    promotionId: string | null;
  } | null = null;
  if (welcome) {
    const top = best(
      base.map((price) => percentOf(price.discountedSubtotalMinor, WELCOME_GIFT.discountPercent)),
    );
    if (top.index >= 0) {
      discount = {
        ...top,
        code: WELCOME_GIFT.code,
        label: `${WELCOME_GIFT.discountPercent}% off your first order`,
        promotionId: null,
      };
    }
  }
  let promo: PromoOutcome | null = null;
  let promoRefusal: string | null = null;
  if (promoCode) {
    const code = promoCode.trim().toUpperCase();
    if (code === WELCOME_GIFT.code) {
      promoRefusal = welcome ? null : 'WELCOME20 is a gift for your first order only.';
      promo = { code, status: welcome ? 'applied' : 'refused', message: promoRefusal };
    } else if (groups.length > 0) {
      const checks = [];
      for (const price of base) {
        checks.push(await checkPromotion(db, buyerId, code, price.discountedSubtotalMinor, options));
      }
      const top = best(checks.map((check) => (check.ok ? check.discountMinor : 0)));
      const winner = top.index >= 0 ? checks[top.index] : undefined;
      if (!winner?.ok) {
        // Why not: what the largest group was told (e.g. "Spend at least £10.00").
        const largest = best(base.map((price) => price.discountedSubtotalMinor)).index;
        const check = checks[Math.max(largest, 0)];
        promoRefusal = check && !check.ok ? check.message : 'We don’t recognise that code.';
        promo = { code, status: 'refused', message: promoRefusal };
      } else {
        const choice = promoOrWelcome(winner.code, winner.discountMinor, discount?.minor ?? null, welcome);
        promo = choice.promo;
        if (choice.usePromo) {
          discount = {
            index: top.index,
            code: winner.code,
            minor: winner.discountMinor,
            label: winner.label,
            promotionId: winner.promotionId,
          };
        }
      }
    }
  }
  const priced = groups.map((group, index): PricedGroup => {
    const own = discount?.index === index ? discount : null;
    const price = own ? priceOf(group, own.minor) : (base[index] as GroupPrice);
    const singleOrdersMinor = asSingleOrders(priceOf, group);
    return {
      group,
      price,
      discountCode: own && price.discountMinor > 0 ? own.code : null,
      discountLabel: own && price.discountMinor > 0 ? own.label : null,
      singleOrdersMinor,
      savingMinor: Math.max(0, singleOrdersMinor - price.totalMinor),
      options: byMethod(priceOf, group, own?.minor ?? 0),
    };
  });
  return {
    groups: priced,
    totalMinor: priced.reduce((total, entry) => total + entry.price.totalMinor, 0),
    promo,
    promotionId: discount?.promotionId ?? null,
    promoRefusal,
  };
}

/**
 * One group priced with no discount (the demo seed's sales, which were never anyone's first
 * order): the same pricer as checkout, so a seeded order's money is what checkout would charge.
 */
export async function quoteGroup(db: Executor, group: PricingGroup): Promise<PricedGroup> {
  const priceOf = await groupPricer(db);
  const price = priceOf(group);
  const singleOrdersMinor = asSingleOrders(priceOf, group);
  return {
    group,
    price,
    discountCode: null,
    discountLabel: null,
    singleOrdersMinor,
    savingMinor: Math.max(0, singleOrdersMinor - price.totalMinor),
    options: byMethod(priceOf, group, 0),
  };
}
