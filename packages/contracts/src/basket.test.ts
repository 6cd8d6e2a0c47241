import { describe, expect, it } from 'vitest';
import {
  apportion,
  type BundleTier,
  bundlePercent,
  bundleTiersSchema,
  COMMERCIAL_DEFAULTS,
  DEFAULT_POSTAGE_RATES,
  PARCEL_SIZES,
  type ParcelSize,
  parcelFor,
  parcelPostageFor,
  postageFor,
  priceBreakdown,
  priceGroup,
} from './index.ts';

const RULE = {
  fixedMinor: COMMERCIAL_DEFAULTS.buyerProtectionFixedMinor,
  percent: COMMERCIAL_DEFAULTS.buyerProtectionPercent,
};

/** A book of this size with the size's typical page count, as a listing with no edition pages. */
const book = (parcelSize: ParcelSize) => ({ parcelSize, format: null, pageCount: null });

/** Home delivery's postage for these books in one parcel (the rule, not a typed figure). */
const homePostage = (...sizes: ParcelSize[]) => postageFor(parcelFor(sizes.map(book)).band, 'home');

/** What the same book costs as its own order today (no discount code), sent to the door. */
function singleOrder(priceMinor: number, size: ParcelSize): number {
  return priceBreakdown({
    itemMinor: priceMinor,
    postageMinor: homePostage(size),
    protection: RULE,
  }).totalMinor;
}

describe('apportion', () => {
  it('splits pence exactly, largest remainder first, ties to the earlier item', () => {
    expect(apportion(10, [1, 1, 1])).toEqual([4, 3, 3]);
    expect(apportion(2, [1, 1, 1])).toEqual([1, 1, 0]);
    expect(apportion(100, [349, 549, 550])).toEqual([24, 38, 38]);
    // 7 * 2/7 = 2, 7 * 5/7 = 5: exact.
    expect(apportion(7, [2, 5])).toEqual([2, 5]);
    // 1 over [3, 1]: 0.75 and 0.25, the larger remainder wins.
    expect(apportion(1, [1, 3])).toEqual([0, 1]);
    expect(apportion(0, [5, 5])).toEqual([0, 0]);
    expect(apportion(5, [0, 0])).toEqual([3, 2]);
    expect(apportion(0, [])).toEqual([]);
  });

  it('refuses what cannot be split', () => {
    expect(() => apportion(-1, [1])).toThrow(RangeError);
    expect(() => apportion(1.5, [1])).toThrow(RangeError);
    expect(() => apportion(3, [])).toThrow(RangeError);
    expect(() => apportion(3, [1, -1])).toThrow(RangeError);
  });

  it('always sums to the total and never gives an item more than its weight when the total fits', () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    for (let run = 0; run < 2000; run++) {
      const weights = Array.from({ length: 1 + (next() % 6) }, () => next() % 5000);
      const sum = weights.reduce((a, b) => a + b, 0);
      const total = sum === 0 ? next() % 20 : next() % (sum + 1);
      const shares = apportion(total, weights);
      expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
      if (sum > 0) {
        shares.forEach((share, i) => {
          expect(share).toBeLessThanOrEqual(weights[i] as number);
        });
      }
    }
  });
});

describe('bundle tiers', () => {
  it('accepts up to three tiers rising in books and percentage, or none', () => {
    expect(bundleTiersSchema.safeParse([]).success).toBe(true);
    expect(
      bundleTiersSchema.safeParse([
        { minBooks: 2, percent: 5 },
        { minBooks: 3, percent: 10 },
        { minBooks: 5, percent: 15 },
      ]).success,
    ).toBe(true);
  });

  it('says what is wrong with tiers that do not rise or are out of range', () => {
    const flat = bundleTiersSchema.safeParse([
      { minBooks: 2, percent: 10 },
      { minBooks: 3, percent: 10 },
    ]);
    expect(flat.success).toBe(false);
    expect(flat.error?.issues[0]?.message).toBe(
      'Each tier needs a bigger discount than the one before (more than 10%)',
    );
    const books = bundleTiersSchema.safeParse([
      { minBooks: 3, percent: 5 },
      { minBooks: 3, percent: 10 },
    ]);
    expect(books.error?.issues[0]?.message).toBe(
      'Each tier needs more books than the one before (more than 3)',
    );
    expect(bundleTiersSchema.safeParse([{ minBooks: 1, percent: 5 }]).error?.issues[0]?.message).toBe(
      'A tier starts at 2 books or more',
    );
    expect(bundleTiersSchema.safeParse([{ minBooks: 2, percent: 51 }]).error?.issues[0]?.message).toBe(
      'The discount is at most 50%',
    );
    expect(
      bundleTiersSchema.safeParse([
        { minBooks: 2, percent: 5 },
        { minBooks: 3, percent: 6 },
        { minBooks: 4, percent: 7 },
        { minBooks: 5, percent: 8 },
      ]).error?.issues[0]?.message,
    ).toBe('Set at most 3 tiers');
  });

  it('uses the best tier reached', () => {
    const tiers: BundleTier[] = [
      { minBooks: 2, percent: 5 },
      { minBooks: 3, percent: 10 },
      { minBooks: 5, percent: 15 },
    ];
    expect(bundlePercent(tiers, 1)).toBe(0);
    expect(bundlePercent(tiers, 2)).toBe(5);
    expect(bundlePercent(tiers, 4)).toBe(10);
    expect(bundlePercent(tiers, 9)).toBe(15);
    expect(bundlePercent([], 9)).toBe(0);
  });
});

describe('one parcel’s postage', () => {
  it('is the label’s price for the books’ band and the delivery method', () => {
    const paperback = parcelPostageFor([book('small')], 'home');
    expect(paperback.parcel.band).toBe('large_letter');
    expect(paperback.postageMinor).toBe(DEFAULT_POSTAGE_RATES.large_letter.home);
    expect(parcelPostageFor([book('small')], 'drop_off').postageMinor).toBe(
      DEFAULT_POSTAGE_RATES.large_letter.drop_off,
    );
    expect(parcelPostageFor([book('small'), book('small')], 'home').parcel.band).toBe('small_parcel');
    expect(() => parcelPostageFor([], 'home')).toThrow(RangeError);
  });

  it('never charges more for one more book than that book would cost on its own', () => {
    for (const size of PARCEL_SIZES) {
      const sizes: ParcelSize[] = [];
      for (let n = 0; n < 12; n++) {
        const before = sizes.length ? homePostage(...sizes) : 0;
        sizes.push(size);
        expect(homePostage(...sizes) - before).toBeLessThanOrEqual(homePostage(size));
      }
    }
  });
});

describe('a seller’s group priced as one order', () => {
  it('prices the issue’s three books from Sam’s Shelf as one parcel, for less than three orders', () => {
    const items = [
      { priceMinor: 349, ...book('small') },
      { priceMinor: 549, ...book('small') },
      { priceMinor: 550, ...book('small') },
    ];
    const singles = items.reduce((sum, item) => sum + singleOrder(item.priceMinor, item.parcelSize), 0);
    expect(singles).toBe(1448 + 3 * homePostage('small') + 17 + 70 + 27 + 70 + 28 + 70);
    const group = priceGroup({ items });
    expect(group).toMatchObject({
      itemSubtotalMinor: 1448,
      bundleDiscountMinor: 0,
      method: 'home',
      postageMinor: homePostage('small', 'small', 'small'),
      protectionMinor: 142,
      protectionVatMinor: 24,
      totalMinor: 1448 + homePostage('small', 'small', 'small') + 142,
    });
    expect(group.parcel.band).toBe('small_parcel');
    expect(group.totalMinor).toBeLessThan(singles);
  });

  it('takes the bundle discount off the subtotal, then protection and WELCOME20 on what is left', () => {
    const group = priceGroup({
      items: [
        { priceMinor: 1000, ...book('small') },
        { priceMinor: 500, ...book('medium') },
        { priceMinor: 251, ...book('small') },
      ],
      tiers: [
        { minBooks: 2, percent: 5 },
        { minBooks: 3, percent: 10 },
      ],
      discount: (subtotal) => Math.floor((subtotal * 20) / 100 + 0.5),
    });
    expect(group.itemSubtotalMinor).toBe(1751);
    expect(group.bundlePercent).toBe(10);
    expect(group.bundleDiscountMinor).toBe(175); // 175.1
    expect(group.discountedSubtotalMinor).toBe(1576);
    expect(group.protectionMinor).toBe(70 + 79); // 78.8
    expect(group.discountMinor).toBe(315); // 315.2
    expect(group.postageMinor).toBe(homePostage('small', 'medium', 'small'));
    expect(group.totalMinor).toBe(1576 + group.postageMinor + 149 - 315);
    const sum = (key: 'bundleDiscountMinor' | 'discountMinor' | 'protectionMinor' | 'priceMinor') =>
      group.items.reduce((total, item) => total + item[key], 0);
    expect(sum('bundleDiscountMinor')).toBe(group.bundleDiscountMinor);
    expect(sum('discountMinor')).toBe(group.discountMinor);
    expect(sum('protectionMinor')).toBe(group.protectionMinor);
    expect(group.items.reduce((total, item) => total + item.paidMinor, 0) + group.postageMinor).toBe(
      group.totalMinor,
    );
  });

  it('never takes off more than the discounted subtotal', () => {
    const group = priceGroup({ items: [{ priceMinor: 300, ...book('small') }], discount: 1000 });
    expect(group.discountMinor).toBe(300);
    expect(group.totalMinor).toBe(homePostage('small') + 70 + 15);
  });

  it('refuses books without a price', () => {
    expect(() => priceGroup({ items: [] })).toThrow(RangeError);
    expect(() => priceGroup({ items: [{ priceMinor: 0, ...book('small') }] })).toThrow(RangeError);
  });

  it('costs less than the single orders for every allowed combination of 2 to 5 books', () => {
    const prices = [1, 2, 99, 100, 349, 999, 1010, 5000, 100_000, COMMERCIAL_DEFAULTS.maxPriceMinor];
    const tierSets: BundleTier[][] = [
      [],
      [{ minBooks: 2, percent: 1 }],
      [
        { minBooks: 2, percent: 5 },
        { minBooks: 3, percent: 10 },
        { minBooks: 5, percent: 15 },
      ],
      [{ minBooks: 2, percent: 50 }],
    ];
    let checked = 0;
    // Every multiset of sizes for 2..5 books, every price for every book position (a sample of
    // price tuples per size set, exhaustive over the size sets and the price list per book).
    const sizeSets: ParcelSize[][] = [];
    const build = (from: number, current: ParcelSize[]) => {
      if (current.length >= 2) sizeSets.push([...current]);
      if (current.length === 5) return;
      for (let i = from; i < PARCEL_SIZES.length; i++) build(i, [...current, PARCEL_SIZES[i] as ParcelSize]);
    };
    build(0, []);
    for (const sizes of sizeSets) {
      // Each book takes each price in turn while the others cycle through the list.
      for (let shift = 0; shift < prices.length; shift++) {
        for (let step = 1; step <= 3; step++) {
          const items = sizes.map((parcelSize, i) => ({
            priceMinor: prices[(shift + i * step) % prices.length] as number,
            ...book(parcelSize),
          }));
          const singles = items.reduce((sum, item) => sum + singleOrder(item.priceMinor, item.parcelSize), 0);
          for (const tiers of tierSets) {
            const basket = priceGroup({ items, tiers }).totalMinor;
            expect(basket, JSON.stringify({ items, tiers })).toBeLessThan(singles);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(2000);
  });
});
