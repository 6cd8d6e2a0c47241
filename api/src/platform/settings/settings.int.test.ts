import { DEFAULT_POSTAGE_RATES } from '@reshelf/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../testing/db.ts';
import { getCommercialSettings } from './settings.service.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

describe('commercial settings', () => {
  it('start at the brief’s values: 70p + 5%, and the label rate card the migration stores is the starting one', async () => {
    await expect(getCommercialSettings(t.handle.db)).resolves.toEqual({
      buyerProtection: { fixedMinor: 70, percent: 5 },
      postageRates: DEFAULT_POSTAGE_RATES,
    });
    const stored = await t.handle.db
      .selectFrom('settings')
      .select('value')
      .where('key', 'in', ['postage_rates', 'postage_bands'])
      .execute();
    expect(stored.map((row) => row.value)).toEqual([DEFAULT_POSTAGE_RATES]);
  });

  it('follow a change staff make, and fall back to the defaults for a missing key', async () => {
    const db = t.handle.db;
    await db
      .updateTable('settings')
      .set({ value: JSON.stringify({ fixedMinor: 80, percent: 4.5 }) })
      .where('key', '=', 'buyer_protection')
      .execute();
    await db.deleteFrom('settings').where('key', '=', 'postage_rates').execute();
    await expect(getCommercialSettings(db)).resolves.toEqual({
      buyerProtection: { fixedMinor: 80, percent: 4.5 },
      postageRates: DEFAULT_POSTAGE_RATES,
    });
  });

  it('refuse a malformed value rather than guess what to charge', async () => {
    await t.handle.db
      .updateTable('settings')
      .set({ value: JSON.stringify({ fixedMinor: -5, percent: 5 }) })
      .where('key', '=', 'buyer_protection')
      .execute();
    await expect(getCommercialSettings(t.handle.db)).rejects.toThrow();
    await t.handle.db
      .updateTable('settings')
      .set({ value: JSON.stringify({ fixedMinor: 70, percent: 5 }) })
      .where('key', '=', 'buyer_protection')
      .execute();
    await t.handle.db
      .insertInto('settings')
      .values({ key: 'postage_rates', value: JSON.stringify({ large_letter: { home: 289 } }) })
      .execute();
    await expect(getCommercialSettings(t.handle.db)).rejects.toThrow();
  });
});
