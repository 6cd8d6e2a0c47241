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
  it('start at the brief’s values: 70p + 5%, postage £2.99 / £3.99 / £5.49', async () => {
    await expect(getCommercialSettings(t.handle.db)).resolves.toEqual({
      buyerProtection: { fixedMinor: 70, percent: 5 },
      postageMinor: { small: 299, medium: 399, large: 549 },
    });
  });

  it('follow a change staff make, and fall back to the defaults for a missing key', async () => {
    const db = t.handle.db;
    await db
      .updateTable('settings')
      .set({ value: JSON.stringify({ fixedMinor: 80, percent: 4.5 }) })
      .where('key', '=', 'buyer_protection')
      .execute();
    await db.deleteFrom('settings').where('key', '=', 'postage_bands').execute();
    await expect(getCommercialSettings(db)).resolves.toEqual({
      buyerProtection: { fixedMinor: 80, percent: 4.5 },
      postageMinor: { small: 299, medium: 399, large: 549 },
    });
  });

  it('refuse a malformed value rather than guess what to charge', async () => {
    await t.handle.db
      .updateTable('settings')
      .set({ value: JSON.stringify({ fixedMinor: -5, percent: 5 }) })
      .where('key', '=', 'buyer_protection')
      .execute();
    await expect(getCommercialSettings(t.handle.db)).rejects.toThrow();
  });
});
