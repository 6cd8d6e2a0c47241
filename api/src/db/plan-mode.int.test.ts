/**
 * GENERIC_PLAN_TAG: a statement so tagged runs on its generic plan, and no other statement on
 * the same pooled connection ever runs with plan_cache_mode forced (docs/catalogue-queries.md).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/db.ts';
import { createDatabase, type DatabaseHandle, GENERIC_PLAN_TAG, PREPARED_TAG } from './index.ts';

let t: TestDatabase;
let one: DatabaseHandle;

beforeAll(async () => {
  t = await createTestDatabase();
  // One connection: every statement below shares it.
  one = createDatabase(t.url, { max: 1 });
});

afterAll(async () => {
  await one?.close();
  await t?.drop();
});

const modeTagged = async (tag: string, value: number) =>
  (
    await sql<{
      mode: string;
    }>`${sql.raw(tag)} select current_setting('plan_cache_mode') as mode, ${value}::int as v`.execute(one.db)
  ).rows[0]!.mode;
const modeUntagged = async (value: number) =>
  (
    await sql<{
      mode: string;
    }>`select current_setting('plan_cache_mode') as mode, ${value}::int as v`.execute(one.db)
  ).rows[0]!.mode;

describe('a statement tagged for its generic plan', () => {
  it('runs with force_generic_plan, on a generic plan from its first run', async () => {
    expect(await modeTagged(GENERIC_PLAN_TAG, 1)).toBe('force_generic_plan');
    const { rows } = await sql<{ generic_plans: string; custom_plans: string }>`
      select generic_plans, custom_plans from pg_prepared_statements
      where statement like ${`${GENERIC_PLAN_TAG}%`}`.execute(one.db);
    expect(rows).toHaveLength(1);
    expect(Number(rows[0]!.generic_plans)).toBeGreaterThan(0);
    expect(Number(rows[0]!.custom_plans)).toBe(0);
  });

  it('leaves every other statement with parameters to PostgreSQL’s own choice', async () => {
    expect(await modeTagged(GENERIC_PLAN_TAG, 2)).toBe('force_generic_plan');
    expect(await modeUntagged(3)).toBe('auto');
    expect(await modeTagged(GENERIC_PLAN_TAG, 4)).toBe('force_generic_plan');
    expect(await modeTagged(PREPARED_TAG, 5)).toBe('auto');
  });

  it('never leaves the connection forcing generic plans after a rolled-back transaction', async () => {
    expect(await modeTagged(GENERIC_PLAN_TAG, 6)).toBe('force_generic_plan');
    await expect(
      one.db.transaction().execute(async (trx) => {
        const { rows } = await sql<{
          mode: string;
        }>`select current_setting('plan_cache_mode') as mode, ${7}::int as v`.execute(trx);
        expect(rows[0]!.mode).toBe('auto');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await modeUntagged(8)).toBe('auto');
  });
});
