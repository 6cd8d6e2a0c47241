import { describe, expect, it } from 'vitest';
import { COMMERCIAL_DEFAULTS } from './constants.ts';
import { DEFAULT_POSTAGE_RATES, DELIVERY_METHODS, parcelFor, postageFromFor } from './parcel-words.ts';
import { itemPriceRangeForShown, priceGroup, shownAllInMinor, shownPrice } from './pricing.ts';

const live = {
  buyerProtection: {
    fixedMinor: COMMERCIAL_DEFAULTS.buyerProtectionFixedMinor,
    percent: COMMERCIAL_DEFAULTS.buyerProtectionPercent,
  },
  postageRates: DEFAULT_POSTAGE_RATES,
};

const paperback = { parcelSize: 'small' as const, format: 'paperback', pageCount: 320 };
const hardback = { parcelSize: 'medium' as const, format: 'hardback', pageCount: 400 };

describe('shownPrice (decision 0071): the headline price a buyer must pay', () => {
  it('is the item plus buyer protection under the rule, and postage from the book’s own band', () => {
    // £3.99 + 70p + 5% of £3.99 (19.95p → 20p) = £4.89; a 320-page paperback is a Large Letter.
    expect(shownPrice({ priceMinor: 399, ...paperback }, live)).toEqual({
      allInMinor: 489,
      postageFromMinor: postageFromFor('large_letter'),
      band: 'large_letter',
    });
    const heavy = shownPrice({ priceMinor: 1250, ...hardback }, live);
    expect(heavy.allInMinor).toBe(1383);
    expect(heavy.band).toBe(parcelFor([hardback]).band);
    expect(heavy.postageFromMinor).toBe(postageFromFor(heavy.band));
  });

  it('is checkout’s total for the one book less its postage, and postage from is its cheapest method', () => {
    const rules = [
      live,
      {
        buyerProtection: { fixedMinor: 99, percent: 7 },
        postageRates: {
          large_letter: { home: 250, drop_off: 260 },
          small_parcel: { home: 350, drop_off: 300 },
          medium_parcel: { home: 500, drop_off: 450 },
        },
      },
      {
        buyerProtection: { fixedMinor: 0, percent: 0 },
        postageRates: {
          large_letter: { home: 0, drop_off: 0 },
          small_parcel: { home: 0, drop_off: 0 },
          medium_parcel: { home: 0, drop_off: 0 },
        },
      },
    ];
    for (const rule of rules)
      for (const priceMinor of [1, 50, 399, 1001, 12_345])
        for (const book of [
          paperback,
          hardback,
          { parcelSize: 'large' as const, format: null, pageCount: null },
        ]) {
          const shown = shownPrice({ priceMinor, ...book }, rule);
          const totals = DELIVERY_METHODS.map(
            (method) =>
              priceGroup({
                items: [{ priceMinor, ...book }],
                rates: rule.postageRates,
                method,
                protection: rule.buyerProtection,
              }).totalMinor,
          );
          expect(shown.allInMinor + shown.postageFromMinor).toBe(Math.min(...totals));
          expect(shownAllInMinor(priceMinor, rule)).toBe(shown.allInMinor);
        }
  });

  it('turns an all-in price range into the item prices inside it, exactly at the edges', () => {
    const range = itemPriceRangeForShown({ minMinor: 489, maxMinor: 1383 }, live.buyerProtection);
    const allIn = (priceMinor: number) => shownAllInMinor(priceMinor, live);
    expect(range.minMinor).toBeDefined();
    expect(range.maxMinor).toBeDefined();
    expect(allIn(range.minMinor as number)).toBeGreaterThanOrEqual(489);
    expect(allIn((range.minMinor as number) - 1)).toBeLessThan(489);
    expect(allIn(range.maxMinor as number)).toBeLessThanOrEqual(1383);
    expect(allIn((range.maxMinor as number) + 1)).toBeGreaterThan(1383);
    // A bound below the fee itself matches no item price at all.
    expect(itemPriceRangeForShown({ maxMinor: 50 }, live.buyerProtection).maxMinor).toBe(0);
    expect(itemPriceRangeForShown({}, live.buyerProtection)).toEqual({});
  });
});
