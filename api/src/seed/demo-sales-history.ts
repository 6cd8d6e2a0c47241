/**
 * The demo's sales history (issue 38, decision 0091): two years of past sales of the demo
 * catalogue's editions, so the fair price has something to rest on from the first start. Drawn
 * from a price model of its own, never from the estimator: a base price by format, category and
 * age, a per-edition and per-work level, condition multipliers, log-normal noise, a few outliers,
 * charity shops a little cheaper, prices drifting up over time, and the endings sellers type.
 * Deterministic (a seeded generator), so the demo and the bench see the same history.
 */
import type { BookFormat, Condition } from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../db/index.ts';

const DAY = 86_400_000;

export interface HistoryBook {
  id: string;
  workId: string | null;
  categoryId: string | null;
  /** The category's slug: its base price (cookery and art cost more than romance). */
  categorySlug: string | null;
  publishedYear: number | null;
}

export interface HistorySale {
  bookId: string;
  workId: string | null;
  condition: Condition;
  format: BookFormat;
  categoryId: string | null;
  priceMinor: number;
  soldAt: Date;
  charity: boolean;
}

/** The model's knobs (pounds, shares and spreads): the demo and the bench use these. */
export const HISTORY_MODEL = {
  days: 730,
  /** The average number of sales of an edition over the period (the spread is log-normal). */
  meanSalesPerEdition: 40,
  base: { paperback: 4.2, hardback: 7.5 } as Record<BookFormat, number>,
  category: {
    'art-photography': 1.9,
    cookery: 1.5,
    travel: 1.2,
    history: 1.25,
    'science-nature': 1.2,
    'philosophy-religion': 1.15,
    'biography-memoir': 1.05,
    romance: 0.8,
    'crime-thriller': 0.9,
    childrens: 0.85,
  } as Record<string, number>,
  condition: { like_new: 1.25, very_good: 1, good: 0.78, well_read: 0.55 } as Record<Condition, number>,
  conditionShare: [
    ['like_new', 0.2],
    ['very_good', 0.42],
    ['good', 0.28],
    ['well_read', 0.1],
  ] as [Condition, number][],
  hardbackShare: 0.3,
  charityShare: 0.3,
  charityMultiplier: 0.85,
  /** Spread of an edition's own level around its work's, and of a work's around the model. */
  editionSpread: 0.18,
  workSpread: 0.3,
  /** One sale's noise around its edition's price. */
  noise: 0.2,
  outlierShare: 0.03,
  /** Prices drift up over the period. */
  yearlyDrift: 0.04,
};

/** mulberry32: a small seeded generator, enough for a demo. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function normal(random: () => number): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

function pick<T>(random: () => number, shares: readonly [T, number][]): T {
  let roll = random();
  for (const [value, share] of shares) {
    roll -= share;
    if (roll <= 0) return value;
  }
  return shares[shares.length - 1]?.[0] as T;
}

/** The prices people type: mostly ending 99 or 49 or 00 or 50, some to 10p. */
function asTyped(pounds: number, random: () => number): number {
  const pence = Math.max(50, Math.round(pounds * 100));
  const roll = random();
  if (roll < 0.45) return Math.max(99, Math.round(pence / 50) * 50 - 1);
  if (roll < 0.75) return Math.max(50, Math.round(pence / 50) * 50);
  return Math.max(50, Math.round(pence / 10) * 10);
}

export function demoSalesHistory(
  books: readonly HistoryBook[],
  options: { now: Date; seed?: number; model?: typeof HISTORY_MODEL },
): HistorySale[] {
  const model = options.model ?? HISTORY_MODEL;
  const random = seededRandom(options.seed ?? 38);
  const workLevel = new Map<string, number>();
  const sales: HistorySale[] = [];
  const thisYear = options.now.getUTCFullYear();
  for (const book of books) {
    const workKey = book.workId ?? book.id;
    let work = workLevel.get(workKey);
    if (work === undefined) {
      work = Math.exp(model.workSpread * normal(random));
      workLevel.set(workKey, work);
    }
    const format: BookFormat = random() < model.hardbackShare ? 'hardback' : 'paperback';
    const age = book.publishedYear ? Math.max(0, thisYear - book.publishedYear) : 10;
    // New books sell near their cover price; older ones cheaper, and the very old a little dearer.
    const ageFactor = age <= 2 ? 1.25 : age <= 10 ? 1 : age <= 40 ? 0.85 : 1.1;
    const level =
      model.base[format] *
      (model.category[book.categorySlug ?? ''] ?? 1) *
      ageFactor *
      work *
      Math.exp(model.editionSpread * normal(random));
    const count = Math.round(model.meanSalesPerEdition * Math.exp(0.9 * normal(random) - 0.405));
    for (let i = 0; i < count; i += 1) {
      const condition = pick(random, model.conditionShare);
      const charity = random() < model.charityShare;
      // More sales lately (the marketplace grows): sale times lean towards now.
      const daysAgo = model.days * (1 - Math.sqrt(random()));
      const drift = (1 + model.yearlyDrift) ** (-daysAgo / 365);
      let pounds =
        level *
        model.condition[condition] *
        (charity ? model.charityMultiplier : 1) *
        drift *
        Math.exp(model.noise * normal(random));
      if (random() < model.outlierShare) pounds *= random() < 0.5 ? 2 + 2 * random() : 0.3 + 0.2 * random();
      sales.push({
        bookId: book.id,
        workId: book.workId,
        condition,
        format,
        categoryId: book.categoryId,
        priceMinor: asTyped(pounds, random),
        soldAt: new Date(options.now.getTime() - daysAgo * DAY),
        charity,
      });
    }
  }
  return sales;
}

/** Writes the history for every book in the catalogue (one insert); answers how many sales, and how long it took. */
export async function seedDemoSalesHistory(
  db: Database,
  now = new Date(),
): Promise<{ sales: number; books: number; ms: number }> {
  const started = performance.now();
  const rows = await db
    .selectFrom('books as b')
    .leftJoin('categories as c', 'c.id', 'b.category_id')
    .select(['b.id', 'b.work_id', 'b.category_id', 'c.slug', 'b.published_year'])
    .orderBy('b.created_at')
    .orderBy('b.id')
    .execute();
  const books: HistoryBook[] = rows.map((row) => ({
    id: row.id,
    workId: row.work_id,
    categoryId: row.category_id,
    categorySlug: row.slug,
    publishedYear: row.published_year,
  }));
  const sales = demoSalesHistory(books, { now });
  if (sales.length > 0) {
    await sql`
      insert into public.sales_history (book_id, condition, format, category_id, price_minor, sold_at, charity)
      select * from unnest(
        ${sales.map((sale) => sale.bookId)}::uuid[], ${sales.map((sale) => sale.condition)}::text[],
        ${sales.map((sale) => sale.format)}::text[], ${sales.map((sale) => sale.categoryId)}::uuid[],
        ${sales.map((sale) => sale.priceMinor)}::int[], ${sales.map((sale) => sale.soldAt)}::timestamptz[],
        ${sales.map((sale) => sale.charity)}::boolean[])
    `.execute(db);
  }
  return { sales: sales.length, books: books.length, ms: Math.round(performance.now() - started) };
}
