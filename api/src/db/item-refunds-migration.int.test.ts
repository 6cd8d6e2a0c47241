/**
 * Migration 20261126200000 on a database that already has refunds (decision 0043, "Refunds of
 * some books"): an order refunded or cancelled after payment carries its whole WELCOME20/promo
 * discount on its last refund, so revenue's "discounts returned" (now the sum of the refunds'
 * discounts) keeps its figures; a partial refund of an order that went on carries none.
 */
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEmptyDatabase } from '../testing/db.ts';
import { migrate } from './migrate.ts';

const MIGRATIONS = fileURLToPath(new URL('../../../supabase/migrations/', import.meta.url));
const MINE = '20261126200000_items_in_disputes_returns_refunds.sql';

let dir: string;
let database: Awaited<ReturnType<typeof createEmptyDatabase>>;

async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'reshelf-item-refunds-migration-'));
  database = await createEmptyDatabase();
  for (const file of await readdir(MIGRATIONS)) {
    if (file.endsWith('.sql') && file < MINE)
      await copyFile(path.join(MIGRATIONS, file), path.join(dir, file));
  }
  await migrate(database.url, { dir, bootstrap: true });
});

afterAll(async () => {
  await database?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('puts a refunded order’s discount on its last refund, and none on a partial refund', async () => {
  const [seller, buyer] = await query<{ id: string }>(
    `insert into auth.users (email) values ('r-seller@reshelf.test'), ('r-buyer@reshelf.test') returning id`,
  );
  const orders: string[] = [];
  for (const [slug, status] of [
    ['r-one', 'refunded'],
    ['r-two', 'completed'],
  ] as const) {
    const [book] = await query<{ id: string }>(
      `insert into public.books (title, authors) values ($1, array['A. Writer']) returning id`,
      [`Book ${slug}`],
    );
    const [listing] = await query<{ id: string }>(
      `insert into public.listings (seller_id, book_id, slug, status, condition, price_minor, parcel_size, published_at)
       values ($1, $2, $3, 'sold', 'good', 800, 'small', now()) returning id`,
      [seller?.id, book?.id, slug],
    );
    const [order] = await query<{ id: string }>(
      `insert into public.orders (buyer_id, seller_id, listing_id, status, item_price_minor, postage_minor,
         buyer_protection_minor, discount_minor, total_minor, paid_at)
       values ($1, $2, $3, $4, 800, 299, 110, 160, 1049, now() - interval '2 days') returning id`,
      [buyer?.id, seller?.id, listing?.id, status],
    );
    const [payment] = await query<{ id: string }>(
      `insert into public.payments (order_id, provider, provider_ref, amount_minor, refunded_minor, status)
       values ($1, 'test', $2, 1049, $3, 'succeeded') returning id`,
      [order?.id, `pay_${slug}`, status === 'refunded' ? 1049 : 200],
    );
    if (status === 'refunded') {
      await query(
        `insert into public.refunds (order_id, payment_id, amount_minor, reason, created_at)
         values ($1, $2, 300, 'First part', now() - interval '1 day'), ($1, $2, 749, 'The rest', now())`,
        [order?.id, payment?.id],
      );
    } else {
      await query(
        `insert into public.refunds (order_id, payment_id, amount_minor, reason) values ($1, $2, 200, 'Goodwill')`,
        [order?.id, payment?.id],
      );
    }
    orders.push(order?.id as string);
  }
  await copyFile(path.join(MIGRATIONS, MINE), path.join(dir, MINE));
  await migrate(database.url, { dir, bootstrap: true });
  const rows = await query<{ order_id: string; reason: string; discount_minor: number }>(
    `select order_id, reason, discount_minor from public.refunds order by created_at`,
  );
  expect(rows.filter((r) => r.order_id === orders[0]).map((r) => [r.reason, r.discount_minor])).toEqual([
    ['First part', 0],
    ['The rest', 160],
  ]);
  expect(rows.filter((r) => r.order_id === orders[1]).map((r) => r.discount_minor)).toEqual([0]);
});
