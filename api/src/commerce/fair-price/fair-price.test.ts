import { FAIR_PRICE_WORDS } from '@reshelf/contracts';
import { describe, expect, it } from 'vitest';
import {
  backtestFairPrice,
  bandOf,
  estimateFairPrice,
  type FairPriceKey,
  type FairPriceSale,
  splitDate,
  toStep,
  weightedQuantile,
} from './fair-price.ts';

const NOW = new Date('2026-11-01T12:00:00Z');
const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY);

const KEY: FairPriceKey = {
  bookId: 'b1',
  workId: 'w1',
  condition: 'very_good',
  format: 'paperback',
  categoryId: 'c1',
};
const sale = (over: Partial<FairPriceSale>): FairPriceSale => ({
  bookId: 'b1',
  workId: 'w1',
  condition: 'very_good',
  format: 'paperback',
  categoryId: 'c1',
  priceMinor: 500,
  soldAt: daysAgo(10),
  ...over,
});
const flat = { minSales: 5, halfLifeDays: 0, windowDays: 730, stepMinor: 10 };

describe('fair price: the pure core', () => {
  it('takes weighted quantiles by running weight', () => {
    const points = [100, 200, 300, 400].map((value) => ({ value, weight: 1 }));
    expect(weightedQuantile(points, 0.25)).toBe(100);
    expect(weightedQuantile(points, 0.5)).toBe(200);
    expect(weightedQuantile(points, 0.75)).toBe(300);
    // A heavy recent sale pulls the median to itself.
    expect(weightedQuantile([...points, { value: 900, weight: 10 }], 0.5)).toBe(900);
    expect(weightedQuantile([], 0.5)).toBeNull();
  });

  it('rounds to 10p: the band outwards, the suggestion to the nearest', () => {
    expect(toStep(347, 10, 'down')).toBe(340);
    expect(toStep(341, 10, 'up')).toBe(350);
    expect(toStep(345, 10, 'nearest')).toBe(350);
    expect(toStep(3, 10, 'down')).toBe(10);
  });

  it("answers the edition's band and median with the number of sales", () => {
    const sales = [300, 420, 455, 510, 640, 700].map((priceMinor) => sale({ priceMinor }));
    expect(bandOf(sales, 'edition', NOW, flat)).toEqual({
      level: 'edition',
      salesCount: 6,
      lowMinor: 420,
      highMinor: 640,
      suggestionMinor: 460,
    });
  });

  it('falls back to the work, then format and genre, and says nothing without enough sales', () => {
    const work = [400, 500, 600, 700, 800].map((priceMinor) => sale({ bookId: 'b2', priceMinor }));
    const genre = [100, 200, 300, 400, 500].map((priceMinor) =>
      sale({ bookId: 'b3', workId: 'w3', priceMinor }),
    );
    const fourOfEdition = [900, 900, 900, 900].map((priceMinor) => sale({ priceMinor }));
    expect(estimateFairPrice(KEY, [...fourOfEdition, ...work, ...genre], NOW, flat)).toMatchObject({
      // The edition's own four are the work's too.
      level: 'work',
      salesCount: 9,
      suggestionMinor: 800,
    });
    expect(estimateFairPrice(KEY, [...fourOfEdition, ...genre], NOW, flat)).toMatchObject({
      level: 'format_genre',
      salesCount: 9,
    });
    // Another condition's sales are not this condition's.
    const otherCondition = work.map((one) => ({ ...one, condition: 'good' as const }));
    expect(estimateFairPrice(KEY, [...fourOfEdition, ...otherCondition], NOW, flat)).toBeNull();
    // Without a format or category there is no format-and-genre level.
    expect(estimateFairPrice({ ...KEY, format: null }, genre, NOW, flat)).toBeNull();
  });

  it('reads only sales inside the window and weighs recent ones more', () => {
    const old = [200, 200, 200, 200, 200].map((priceMinor) => sale({ priceMinor, soldAt: daysAgo(400) }));
    const recent = [800, 800, 800, 800].map((priceMinor) => sale({ priceMinor, soldAt: daysAgo(5) }));
    const rules = { ...flat, halfLifeDays: 60 };
    expect(estimateFairPrice(KEY, [...old, ...recent], NOW, rules)?.suggestionMinor).toBe(800);
    expect(estimateFairPrice(KEY, [...old, ...recent], NOW, flat)?.suggestionMinor).toBe(200);
    expect(estimateFairPrice(KEY, old, NOW, { ...flat, windowDays: 365 })).toBeNull();
    // A sale after "now" is not known yet.
    expect(
      estimateFairPrice(
        KEY,
        recent.map((one) => ({ ...one, soldAt: daysAgo(-1) })),
        NOW,
        flat,
      ),
    ).toBeNull();
  });

  it('says it in the words of the contracts', () => {
    const price = {
      level: 'edition' as const,
      salesCount: 23,
      lowMinor: 390,
      highMinor: 520,
      suggestionMinor: 450,
    };
    expect(FAIR_PRICE_WORDS.suggestion(price, 'very_good')).toBe(
      'Suggested £4.50 · typical £3.90–£5.20 for this edition in Very good condition · from 23 sales',
    );
    expect(FAIR_PRICE_WORDS.typical(price)).toBe('Typical price £3.90–£5.20 in this condition');
    expect(FAIR_PRICE_WORDS.use(price)).toBe('Use £4.50');
    expect(FAIR_PRICE_WORDS.typicalIn({ ...price, salesCount: 1 }, 'good')).toBe(
      'Typical price £3.90–£5.20 in Good condition (1 sale)',
    );
    expect(FAIR_PRICE_WORDS.short(price)).toBe('Suggested £4.50 (£3.90–£5.20, 23 sales)');
  });
});

describe('fair price: the time-split backtest', () => {
  it('fits before the split and scores each later sale against the suggestion it would have had', () => {
    const before = [400, 450, 500, 550, 600].map((priceMinor, i) =>
      sale({ priceMinor, soldAt: daysAgo(100 + i) }),
    );
    const genre = [200, 200, 200, 200, 200].map((priceMinor, i) =>
      sale({ bookId: 'b9', workId: 'w9', priceMinor, soldAt: daysAgo(100 + i) }),
    );
    const after = [
      sale({ priceMinor: 500, soldAt: daysAgo(5) }), // exact: 0%
      sale({ priceMinor: 400, soldAt: daysAgo(4) }), // 25% off
      sale({ priceMinor: 550, soldAt: daysAgo(3) }), // 9.1%
      sale({ bookId: 'b8', workId: 'w9', priceMinor: 250, soldAt: daysAgo(2) }), // another edition: 20%
      sale({ bookId: 'b7', workId: 'w7', format: 'hardback', priceMinor: 999, soldAt: daysAgo(1) }), // no estimate
    ];
    const report = backtestFairPrice([...after, ...before, ...genre], daysAgo(50), flat);
    expect(report).toMatchObject({ fitted: 10, heldOut: 5, predicted: 4, coverage: 0.8 });
    expect(report.medianAbsolutePercentageError).toBeCloseTo((50 / 550 + 0.2) / 2, 10);
    expect(report.within15).toBe(0.5);
    expect(report.inBand).toBe(0.5);
    expect(report.byLevel.edition.predicted).toBe(3);
    expect(report.byLevel.edition.medianAbsolutePercentageError).toBeCloseTo(50 / 550, 10);
    expect(report.byLevel.work.predicted).toBe(1);
    expect(report.byLevel.format_genre.predicted).toBe(0);
  });

  it('holds out the last fifth of the time the sales span', () => {
    const sales = [sale({ soldAt: daysAgo(100) }), sale({ soldAt: daysAgo(0) })];
    expect(splitDate(sales, 0.2).toISOString()).toBe(daysAgo(20).toISOString());
  });
});
