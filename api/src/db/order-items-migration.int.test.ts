/**
 * Migration 20261126100000 on a database that already has orders (decision 0043): every
 * existing order becomes a one-item order with the same id, reference, events and payments;
 * what was refunded is on its item (capped at what the book was paid); every payment becomes
 * its own checkout payment (same id) and the order's current payment.
 */
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmptyDatabase } from '../testing/db.ts';
import { migrate } from './migrate.ts';

const MIGRATIONS = fileURLToPath(new URL('../../../supabase/migrations/', import.meta.url));
const ITEMS = '20261126100000_basket_and_order_items.sql';

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
  dir = await mkdtemp(path.join(tmpdir(), 'reshelf-items-migration-'));
  database = await createEmptyDatabase();
  for (const file of await readdir(MIGRATIONS)) {
    if (file.endsWith('.sql') && file < ITEMS)
      await copyFile(path.join(MIGRATIONS, file), path.join(dir, file));
  }
  await migrate(database.url, { dir, bootstrap: true });
});

afterAll(async () => {
  await database?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the order items migration', () => {
  it('turns every existing order into a one-item order, keeping its references, events and money', async () => {
    const [seller, buyer, other] = await query<{ id: string }>(
      `insert into auth.users (email) values ('m-seller@reshelf.test'), ('m-buyer@reshelf.test'), ('m-other@reshelf.test') returning id`,
    );
    const listings: string[] = [];
    for (const slug of ['m-one', 'm-two']) {
      const [book] = await query<{ id: string }>(
        `insert into public.books (title, authors) values ($1, array['A. Writer']) returning id`,
        [`Book ${slug}`],
      );
      const [listing] = await query<{ id: string }>(
        `insert into public.listings (seller_id, book_id, slug, status, condition, price_minor, parcel_size, published_at)
         values ($1, $2, $3, 'sold', 'good', 800, 'small', now()) returning id`,
        [seller?.id, book?.id, slug],
      );
      listings.push(listing?.id as string);
    }
    // A paid order, refunded in part, and a cancelled one.
    const [paid] = await query<{ id: string; reference: string }>(
      `insert into public.orders (buyer_id, seller_id, listing_id, status, item_price_minor, postage_minor,
         buyer_protection_minor, discount_minor, total_minor, paid_at)
       values ($1, $2, $3, 'refunded', 800, 299, 110, 160, 1049, now()) returning id, reference`,
      [buyer?.id, seller?.id, listings[0]],
    );
    const [cancelled] = await query<{ id: string }>(
      `insert into public.orders (buyer_id, seller_id, listing_id, status, item_price_minor, postage_minor,
         buyer_protection_minor, total_minor)
       values ($1, $2, $3, 'cancelled', 800, 299, 110, 1209) returning id`,
      [other?.id, seller?.id, listings[1]],
    );
    await query(
      `insert into public.order_events (order_id, from_status, to_status, actor_kind) values ($1, null, 'paid', 'system')`,
      [paid?.id],
    );
    const [payment] = await query<{ id: string }>(
      `insert into public.payments (order_id, provider, provider_ref, amount_minor, status, refunded_minor)
       values ($1, 'test', 'tp_migrated', 1049, 'succeeded', 1049) returning id`,
      [paid?.id],
    );
    // Refunded in full, postage included: the item's record stops at what the book was paid.
    await query(
      `insert into public.refunds (order_id, payment_id, amount_minor, reason) values ($1, $2, 1049, 'Refunded in full')`,
      [paid?.id, payment?.id],
    );

    await copyFile(path.join(MIGRATIONS, ITEMS), path.join(dir, ITEMS));
    expect((await migrate(database.url, { dir })).applied).toEqual([ITEMS]);

    const items = await query(
      `select order_id, listing_id, position, price_minor, bundle_discount_minor, discount_minor, protection_minor,
              refunded_minor, live from public.order_items order by price_minor, order_id`,
    );
    expect(items).toEqual(
      expect.arrayContaining([
        {
          order_id: paid?.id,
          listing_id: listings[0],
          position: 1,
          price_minor: 800,
          bundle_discount_minor: 0,
          discount_minor: 160,
          protection_minor: 110,
          refunded_minor: 800 - 160 + 110,
          live: false,
        },
        {
          order_id: cancelled?.id,
          listing_id: listings[1],
          position: 1,
          price_minor: 800,
          bundle_discount_minor: 0,
          discount_minor: 0,
          protection_minor: 110,
          refunded_minor: 0,
          live: false,
        },
      ]),
    );
    expect(items).toHaveLength(2);
    const [order] = await query(
      `select reference, checkout_payment_id, bundle_discount_minor from public.orders where id = $1`,
      [paid?.id],
    );
    expect(order).toEqual({
      reference: paid?.reference,
      checkout_payment_id: payment?.id,
      bundle_discount_minor: 0,
    });
    expect(
      await query(`select id, buyer_id, provider_ref, amount_minor, status from public.checkout_payments`),
    ).toEqual([
      {
        id: payment?.id,
        buyer_id: buyer?.id,
        provider_ref: 'tp_migrated',
        amount_minor: 1049,
        status: 'succeeded',
      },
    ]);
    expect(await query(`select checkout_payment_id from public.payments`)).toEqual([
      { checkout_payment_id: payment?.id },
    ]);
    expect(
      await query(`select count(*)::int as n from public.order_events where order_id = $1`, [paid?.id]),
    ).toEqual([{ n: 1 }]);
  });
});
