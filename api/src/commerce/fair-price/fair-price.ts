/**
 * A fair price from Reshelf's own sales (issue 38, decision 0091): the pure core. From the sales
 * of an edition in a condition, the band (25th–75th percentile) and a suggestion (the median),
 * each to the nearest 10p; with fewer than `minSales` it falls back to the work's sales in that
 * condition, then to sales of the same format and category in that condition, and answers which
 * level it rests on and on how many sales. Fewer than `minSales` at every level: no answer.
 * Sales older than `windowDays` (two years) are not read; inside it a sale's weight can halve
 * every `halfLifeDays`, but the backtest found equal weights best (0: off; docs/performance.md,
 * "Fair price"). The backtest (`backtestFairPrice`) runs this same code.
 */
import type { Condition, FairPrice, FairPriceLevel } from '@reshelf/contracts';

const DAY = 86_400_000;

/** A sale as the estimator reads it (the view `fair_price_sales`). */
export interface FairPriceSale {
  bookId: string;
  workId: string | null;
  condition: Condition;
  format: string | null;
  categoryId: string | null;
  priceMinor: number;
  soldAt: Date;
}

/** The estimator's question for one copy. */
export interface FairPriceKey {
  bookId: string;
  workId: string | null;
  condition: Condition;
  format: string | null;
  categoryId: string | null;
}

/** Chosen by the backtest (tests/bench/fair-price.ts; docs/performance.md, "Fair price"). */
export const FAIR_PRICE_RULES = {
  minSales: 5,
  halfLifeDays: 0,
  windowDays: 730,
  stepMinor: 10,
} as const;
export type FairPriceRules = { [K in keyof typeof FAIR_PRICE_RULES]: number };

/** Whether a sale belongs to the key's group at a level. */
export function inGroup(level: FairPriceLevel, key: FairPriceKey, sale: FairPriceSale): boolean {
  if (sale.condition !== key.condition) return false;
  if (level === 'edition') return sale.bookId === key.bookId;
  if (level === 'work') return key.workId !== null && sale.workId === key.workId;
  return (
    key.format !== null &&
    key.categoryId !== null &&
    sale.format === key.format &&
    sale.categoryId === key.categoryId
  );
}

/**
 * The weighted quantile `q` of prices (weights need not sum to 1): the first price, in order,
 * at which the running weight reaches q of the total. Empty: null.
 */
export function weightedQuantile(
  points: readonly { value: number; weight: number }[],
  q: number,
): number | null {
  if (points.length === 0) return null;
  const sorted = [...points].sort((a, b) => a.value - b.value);
  let total = 0;
  for (const point of sorted) total += point.weight;
  let running = 0;
  for (const point of sorted) {
    running += point.weight;
    if (running >= q * total - 1e-9) return point.value;
  }
  return sorted[sorted.length - 1]?.value ?? null;
}

/** Pence to a step (10p): down for the band's low end, up for its high end, nearest for the suggestion. */
export function toStep(pence: number, step: number, how: 'down' | 'up' | 'nearest'): number {
  const steps =
    how === 'down'
      ? Math.floor(pence / step)
      : how === 'up'
        ? Math.ceil(pence / step)
        : Math.round(pence / step);
  return Math.max(step, steps * step);
}

/** The band and suggestion from one group's sales, or null with fewer than `minSales`. */
export function bandOf(
  sales: readonly FairPriceSale[],
  level: FairPriceLevel,
  now: Date,
  rules: FairPriceRules = FAIR_PRICE_RULES,
): FairPrice | null {
  const since = now.getTime() - rules.windowDays * DAY;
  const points = sales
    .filter((sale) => sale.soldAt.getTime() >= since && sale.soldAt.getTime() <= now.getTime())
    .map((sale) => ({
      value: sale.priceMinor,
      weight:
        rules.halfLifeDays > 0
          ? 0.5 ** ((now.getTime() - sale.soldAt.getTime()) / (rules.halfLifeDays * DAY))
          : 1,
    }));
  if (points.length < rules.minSales) return null;
  const low = weightedQuantile(points, 0.25) ?? 0;
  const median = weightedQuantile(points, 0.5) ?? 0;
  const high = weightedQuantile(points, 0.75) ?? 0;
  return {
    level,
    salesCount: points.length,
    lowMinor: toStep(low, rules.stepMinor, 'down'),
    highMinor: toStep(high, rules.stepMinor, 'up'),
    suggestionMinor: toStep(median, rules.stepMinor, 'nearest'),
  };
}

/**
 * The fair price for a key from the sales that might concern it (any level's): the most
 * specific level with enough sales, or null.
 */
export function estimateFairPrice(
  key: FairPriceKey,
  sales: readonly FairPriceSale[],
  now: Date,
  rules: FairPriceRules = FAIR_PRICE_RULES,
): FairPrice | null {
  for (const level of ['edition', 'work', 'format_genre'] as const) {
    const band = bandOf(
      sales.filter((sale) => inGroup(level, key, sale)),
      level,
      now,
      rules,
    );
    if (band) return band;
  }
  return null;
}

export interface BacktestReport {
  splitAt: string;
  fitted: number;
  heldOut: number;
  /** Held-out sales with a suggestion. */
  predicted: number;
  coverage: number;
  /** Median of |suggestion − price| / price over predicted sales. */
  medianAbsolutePercentageError: number | null;
  /** Share of predicted sales whose price is within ±15% of the suggestion's. */
  within15: number | null;
  /** Share of predicted sales whose price fell inside the band. */
  inBand: number | null;
  byLevel: Record<FairPriceLevel, { predicted: number; medianAbsolutePercentageError: number | null }>;
}

/** The median of numbers (the mean of the middle two for an even count), or null. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? null) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/**
 * The time-split backtest: fit on the sales before `splitAt`, predict every later sale from the
 * estimator as it stood at `splitAt` (the level it would use), and score the suggestion against
 * the price the book sold for.
 */
export function backtestFairPrice(
  sales: readonly FairPriceSale[],
  splitAt: Date,
  rules: FairPriceRules = FAIR_PRICE_RULES,
): BacktestReport {
  const fit = sales.filter((sale) => sale.soldAt < splitAt);
  const held = sales.filter((sale) => sale.soldAt >= splitAt);
  // The candidates of a key, by index rather than a scan of every sale per prediction.
  const index = new Map<string, FairPriceSale[]>();
  const add = (name: string, sale: FairPriceSale) => {
    const list = index.get(name);
    if (list) list.push(sale);
    else index.set(name, [sale]);
  };
  for (const sale of fit) {
    add(`b:${sale.bookId}:${sale.condition}`, sale);
    if (sale.workId) add(`w:${sale.workId}:${sale.condition}`, sale);
    add(`f:${sale.format}:${sale.categoryId}:${sale.condition}`, sale);
  }
  const errors: number[] = [];
  const errorsBy: Record<FairPriceLevel, number[]> = { edition: [], work: [], format_genre: [] };
  let inBand = 0;
  for (const sale of held) {
    const candidates = [
      ...(index.get(`b:${sale.bookId}:${sale.condition}`) ?? []),
      ...(sale.workId ? (index.get(`w:${sale.workId}:${sale.condition}`) ?? []) : []),
      ...(index.get(`f:${sale.format}:${sale.categoryId}:${sale.condition}`) ?? []),
    ];
    const estimate = estimateFairPrice(sale, candidates, splitAt, rules);
    if (!estimate) continue;
    // money-ok: the backtest's score, a ratio of two prices; no money figure is made here.
    const error = Math.abs(estimate.suggestionMinor - sale.priceMinor) / sale.priceMinor;
    errors.push(error);
    errorsBy[estimate.level].push(error);
    if (sale.priceMinor >= estimate.lowMinor && sale.priceMinor <= estimate.highMinor) inBand += 1;
  }
  const share = (count: number) => (errors.length === 0 ? null : count / errors.length);
  return {
    splitAt: splitAt.toISOString(),
    fitted: fit.length,
    heldOut: held.length,
    predicted: errors.length,
    coverage: held.length === 0 ? 0 : errors.length / held.length,
    medianAbsolutePercentageError: median(errors),
    within15: share(errors.filter((error) => error <= 0.15 + 1e-12).length),
    inBand: share(inBand),
    byLevel: {
      edition: {
        predicted: errorsBy.edition.length,
        medianAbsolutePercentageError: median(errorsBy.edition),
      },
      work: { predicted: errorsBy.work.length, medianAbsolutePercentageError: median(errorsBy.work) },
      format_genre: {
        predicted: errorsBy.format_genre.length,
        medianAbsolutePercentageError: median(errorsBy.format_genre),
      },
    },
  };
}

/** The split date holding out the last `share` of the time the sales span. */
export function splitDate(sales: readonly FairPriceSale[], share = 0.2): Date {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const sale of sales) {
    first = Math.min(first, sale.soldAt.getTime());
    last = Math.max(last, sale.soldAt.getTime());
  }
  return new Date(last - (last - first) * share);
}
