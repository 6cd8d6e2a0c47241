import { describe, expect, it } from 'vitest';
import { COMMERCIAL_DEFAULTS } from './constants.ts';
import { itemPriceRangeForShown, priceGroup, shownPrice } from './pricing.ts';

const live = {
  buyerProtection: {
    fixedMinor: COMMERCIAL_DEFAULTS.buyerProtectionFixedMinor,
    percent: COMMERCIAL_DEFAULTS.buyerProtectionPercent,
  },
  postageMinor: COMMERCIAL_DEFAULTS.postageMinor,
};

describe('shownPrice (decision 0071): the headline price a buyer must pay', () => {
  it('is the item plus buyer protection under the rule, and postage from the listing’s own band', () => {
    // £3.99 + 70p + 5% of £3.99 (19.95p → 20p) = £4.89; one paperback's postage £2.99.
    expect(shownPrice({ priceMinor: 399, parcelSize: 'small' }, live)).toEqual({
      allInMinor: 489,
      postageFromMinor: 299,
    });
    expect(shownPrice({ priceMinor: 1250, parcelSize: 'medium' }, live)).toEqual({
      allInMinor: 1383,
      postageFromMinor: 399,
    });
  });

  it('equals what checkout charges for the one book less its postage, under any rule', () => {
    const rules = [
      live,
      {
        buyerProtection: { fixedMinor: 99, percent: 7 },
        postageMinor: { small: 250, medium: 350, large: 500 },
      },
      { buyerProtection: { fixedMinor: 0, percent: 0 }, postageMinor: { small: 0, medium: 0, large: 0 } },
    ];
    for (const rule of rules)
      for (const priceMinor of [1, 50, 399, 1001, 12_345])
        for (const parcelSize of ['small', 'medium', 'large'] as const) {
          const group = priceGroup({
            items: [{ priceMinor, parcelSize }],
            postage: rule.postageMinor,
            protection: rule.buyerProtection,
          });
          const shown = shownPrice({ priceMinor, parcelSize }, rule);
          expect(shown.allInMinor + shown.postageFromMinor).toBe(group.totalMinor);
          expect(shown.postageFromMinor).toBe(group.postageMinor);
        }
  });

  it('turns an all-in price range into the item prices inside it, exactly at the edges', () => {
    const range = itemPriceRangeForShown({ minMinor: 489, maxMinor: 1383 }, live.buyerProtection);
    const allIn = (priceMinor: number) => shownPrice({ priceMinor, parcelSize: 'small' }, live).allInMinor;
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
