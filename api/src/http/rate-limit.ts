/**
 * Fixed-window rate limits kept in PostgreSQL, so every BFF instance shares the counts.
 * `hit` counts an attempt; `peek` reads without counting (for limits on failures only).
 */
import { sql } from 'kysely';
import type { Database } from '../db/index.ts';
import { AppError } from '../errors.ts';

export interface RateRule {
  bucket: string;
  limit: number;
  windowSeconds: number;
}

export interface RateState {
  hits: number;
  allowed: boolean;
  retryAfterSeconds: number;
}

function windowStart(rule: RateRule) {
  return sql<Date>`to_timestamp(floor(extract(epoch from now()) / ${rule.windowSeconds}) * ${rule.windowSeconds})`;
}

function state(rule: RateRule, hits: number, start: Date): RateState {
  const resetAt = start.getTime() + rule.windowSeconds * 1000;
  return {
    hits,
    allowed: hits <= rule.limit,
    retryAfterSeconds: Math.max(1, Math.ceil((resetAt - Date.now()) / 1000)),
  };
}

export async function hit(db: Database, rule: RateRule, key: string): Promise<RateState> {
  const row = await db
    .insertInto('rate_limits')
    .values({ bucket: rule.bucket, key, window_start: windowStart(rule), hits: 1 })
    .onConflict((oc) =>
      oc.columns(['bucket', 'key', 'window_start']).doUpdateSet({ hits: sql`rate_limits.hits + 1` }),
    )
    .returning(['hits', 'window_start'])
    .executeTakeFirstOrThrow();
  // Now and then, forget windows that ended long ago.
  if (Math.random() < 0.01) {
    await db
      .deleteFrom('rate_limits')
      .where('window_start', '<', sql<Date>`now() - interval '1 day'`)
      .execute();
  }
  return state(rule, row.hits, row.window_start);
}

export async function peek(db: Database, rule: RateRule, key: string): Promise<RateState> {
  const row = await db
    .selectFrom('rate_limits')
    .select(['hits', 'window_start'])
    .where('bucket', '=', rule.bucket)
    .where('key', '=', key)
    .where('window_start', '=', windowStart(rule))
    .executeTakeFirst();
  // A peek asks "may one more happen?", so the limit is reached at `limit` hits.
  const hits = row?.hits ?? 0;
  const result = state(rule, hits, row?.window_start ?? new Date());
  return { ...result, allowed: hits < rule.limit };
}

export async function clear(db: Database, rule: RateRule, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('bucket', '=', rule.bucket).where('key', '=', key).execute();
}

export function tooManyAttempts(retryAfterSeconds: number): AppError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return new AppError(
    'RATE_LIMITED',
    `Too many attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
    { retryAfterSeconds },
  );
}

/** Counts an attempt against each rule and throws when any is over its limit. */
export async function enforce(db: Database, checks: [RateRule, string][]): Promise<void> {
  for (const [rule, key] of checks) {
    const result = await hit(db, rule, key);
    if (!result.allowed) throw tooManyAttempts(result.retryAfterSeconds);
  }
}
