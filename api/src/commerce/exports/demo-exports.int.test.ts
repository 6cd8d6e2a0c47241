/**
 * The demo seed's orders in orders.csv (issue 32): seeded orders are sold through the commerce
 * core, so their buyer protection carries its VAT in the export as a bought order's does (on main
 * before the rebuild every seeded order exported buyer_protection_vat_gbp as 0.00).
 */
import { poundsString, vatOfInclusive } from '@reshelf/contracts';
import { parse as parseCsv } from 'csv-parse/sync';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { runDemoSeed } from '../../seed/demo.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { MAX_EXPORT_DAYS } from './exports.route.ts';

let t: TestApp;
let db: Database;
let moderator: TestUser;

beforeAll(async () => {
  t = await createTestApp({ referenceData: false });
  db = t.database.handle.db;
  await runDemoSeed(db, t.services, { origin: t.config.siteOrigin });
  moderator = await createUser(db, t.services.identity, 'moderator@demo-exports.test', {
    roles: ['moderator'],
  });
});

afterAll(async () => {
  await t?.close();
});

const DAY_MS = 86_400_000;
const londonDay = (date: Date) => date.toLocaleDateString('en-CA', { timeZone: 'Europe/London' });

/** orders.csv for every seeded order: the seed's paid days, a window of at most MAX_EXPORT_DAYS at a time. */
async function ordersCsv(): Promise<Record<string, string>[]> {
  const range = await db
    .selectFrom('orders')
    .select((eb) => [eb.fn.min('paid_at').as('first'), eb.fn.max('paid_at').as('last')])
    .executeTakeFirstOrThrow();
  const rows: Record<string, string>[] = [];
  const last = new Date(range.last as Date);
  for (
    let from = new Date(range.first as Date);
    from <= last;
    from = new Date(from.getTime() + MAX_EXPORT_DAYS * DAY_MS)
  ) {
    const to = new Date(Math.min(from.getTime() + (MAX_EXPORT_DAYS - 1) * DAY_MS, last.getTime() + DAY_MS));
    const response = await request(t.app.server)
      .get(`/api/admin/exports/orders.csv?from=${londonDay(from)}&to=${londonDay(to)}`)
      .set('authorization', `Bearer ${moderator.accessToken}`);
    expect(response.status).toBe(200);
    rows.push(...(parseCsv(response.text, { bom: true, columns: true }) as Record<string, string>[]));
  }
  return rows;
}

describe('the demo seed in the exports', () => {
  it('exports each seeded order’s buyer-protection VAT, the VAT within its protection', async () => {
    const rows = await ordersCsv();
    const seeded = await db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('paid_at', 'is not', null)
      .executeTakeFirstOrThrow();
    // Every paid seeded order is in the file, once.
    expect(new Set(rows.map((row) => row.reference)).size).toBe(Number(seeded.n));
    expect(rows.length).toBeGreaterThan(5);
    const protectedRows = rows.filter((row) => row.buyer_protection_gbp !== '0.00');
    expect(protectedRows.length).toBeGreaterThan(5);
    for (const row of protectedRows) {
      const protectionMinor = Math.round(Number(row.buyer_protection_gbp) * 100);
      expect(row.buyer_protection_vat_gbp, row.reference).toBe(poundsString(vatOfInclusive(protectionMinor)));
      expect(row.buyer_protection_vat_gbp, row.reference).not.toBe('0.00');
    }
  });
});
