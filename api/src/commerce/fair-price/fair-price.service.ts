/**
 * The fair price's read (decision 0091): the sales that might concern a batch of copies (their
 * edition's, their work's, their format-and-genre's, in their condition, inside the window), in
 * one query over `fair_price_sales`, then the pure core (fair-price.ts) for each copy.
 */
import {
  CONDITIONS,
  type Condition,
  FAIR_PRICE_PUBLIC_LEVELS,
  type FairPrice,
  type FairPriceQuery,
} from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { estimateFairPrice, FAIR_PRICE_RULES, type FairPriceKey, type FairPriceSale } from './fair-price.ts';

interface SaleRow {
  key_index: number;
  book_id: string;
  work_id: string | null;
  condition: Condition;
  format: string | null;
  category_id: string | null;
  price_minor: number;
  sold_at: Date;
}

interface KeyRow {
  key_index: number;
  book_id: string;
  work_id: string | null;
  category_id: string | null;
}

/** The fair price of each query, in order (null: not enough sales at any level, or an unknown book). */
export async function fairPrices(
  db: Database,
  queries: readonly FairPriceQuery[],
  now: Date = new Date(),
): Promise<(FairPrice | null)[]> {
  if (queries.length === 0) return [];
  const books = queries.map((query) => query.bookId);
  const conditions = queries.map((query) => query.condition);
  const formats = queries.map((query) => query.format ?? null);
  const since = new Date(now.getTime() - FAIR_PRICE_RULES.windowDays * 86_400_000);
  // One statement: the keys (each query with its book's work and category), then every sale in
  // the window that shares a key's condition and its edition, work, or format and category.
  const result = await sql<SaleRow | (KeyRow & { price_minor: null })>`
    with q as (
      select (q.ord - 1)::int as key_index, q.book_id, q.condition, q.format
        from unnest(${books}::uuid[], ${conditions}::text[], ${formats}::text[])
             with ordinality as q(book_id, condition, format, ord)
    ), k as (
      select q.key_index, q.book_id, b.work_id, b.category_id, q.condition, q.format
        from q join public.books b on b.id = q.book_id
    )
    select k.key_index, k.book_id, k.work_id, k.category_id, null::text as condition, null::text as format,
           null::int as price_minor, null::timestamptz as sold_at
      from k
    union all
    select k.key_index, s.book_id, s.work_id, s.category_id, s.condition, s.format, s.price_minor, s.sold_at
      from k
      join public.fair_price_sales s
        on s.condition = k.condition and s.sold_at >= ${since} and s.sold_at <= ${now}
       and (s.book_id = k.book_id
            or (k.work_id is not null and s.work_id = k.work_id)
            or (k.format is not null and k.category_id is not null
                and s.format = k.format and s.category_id = k.category_id))
  `.execute(db);
  const keys = new Map<number, FairPriceKey>();
  const sales = new Map<number, FairPriceSale[]>();
  for (const row of result.rows) {
    const query = queries[row.key_index];
    if (!query) continue;
    if (row.price_minor === null) {
      keys.set(row.key_index, {
        bookId: row.book_id,
        workId: row.work_id,
        condition: query.condition,
        format: query.format ?? null,
        categoryId: row.category_id,
      });
      continue;
    }
    const sale = row as SaleRow;
    const list = sales.get(row.key_index) ?? [];
    list.push({
      bookId: sale.book_id,
      workId: sale.work_id,
      condition: sale.condition,
      format: sale.format,
      categoryId: sale.category_id,
      priceMinor: sale.price_minor,
      soldAt: new Date(sale.sold_at),
    });
    sales.set(row.key_index, list);
  }
  return queries.map((_, index) => {
    const key = keys.get(index);
    return key ? estimateFairPrice(key, sales.get(index) ?? [], now) : null;
  });
}

/** What a buyer sees: only a band from this book's own sales (its edition's or its work's). */
export async function typicalPrice(
  db: Database,
  query: { bookId: string; condition: Condition },
): Promise<FairPrice | null> {
  const [price] = await fairPrices(db, [{ bookId: query.bookId, condition: query.condition, format: null }]);
  return price && FAIR_PRICE_PUBLIC_LEVELS.includes(price.level) ? price : null;
}

/**
 * A charity's bulk upload report: each listed or draft row's fair price, for its copy's
 * edition, condition and format; in the ids' order (null for a copy without a book or condition,
 * or too few sales). Two statements for the whole page of rows.
 */
export async function fairPricesForListings(
  db: Database,
  listingIds: readonly string[],
): Promise<(FairPrice | null)[]> {
  if (listingIds.length === 0) return [];
  const copies = await db
    .selectFrom('listings')
    .select(['id', 'book_id', 'condition', 'format'])
    .where('id', 'in', [...listingIds])
    .execute();
  const asked = copies.filter(
    (copy): copy is typeof copy & { book_id: string; condition: Condition } =>
      copy.book_id !== null && copy.condition !== null,
  );
  const prices = await fairPrices(
    db,
    asked.map((copy) => ({ bookId: copy.book_id, condition: copy.condition, format: copy.format })),
  );
  const byId = new Map(asked.map((copy, index) => [copy.id, prices[index] ?? null]));
  return listingIds.map((id) => byId.get(id) ?? null);
}

/** A book page: the typical price of an edition in each condition that has one (its own sales or its work's). */
export async function typicalByCondition(
  db: Database,
  bookId: string,
): Promise<{ condition: Condition; price: FairPrice }[]> {
  const prices = await fairPrices(
    db,
    CONDITIONS.map((condition) => ({ bookId, condition, format: null })),
  );
  return CONDITIONS.flatMap((condition, index) => {
    const price = prices[index];
    return price && FAIR_PRICE_PUBLIC_LEVELS.includes(price.level) ? [{ condition, price }] : [];
  });
}
