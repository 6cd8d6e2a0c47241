/**
 * Fixed-window rate limits kept in PostgreSQL, so every BFF instance shares the counts.
 *
 * Checking and counting are one statement (`reserve`): a conditional upsert takes one of the
 * window's `limit` slots, or takes nothing and answers "refused" once they are gone. However
 * many requests arrive at the same moment, at most `limit` of them are let through to do the
 * work the limit guards; the rest are refused without being evaluated.
 *
 * Limits on failures only (wrong passwords for an account, API tokens that do not work) take
 * a slot before the attempt is evaluated and give it back (`release`) when the attempt turns
 * out not to be a failure. Counting after the check instead let 40 concurrent wrong passwords
 * all through a limit of 10, since each one checked before any had counted.
 */
import { countOf } from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../db/index.ts';
import { AppError } from '../errors.ts';

export interface RateRule {
  bucket: string;
  limit: number;
  windowSeconds: number;
}

export interface RateState {
  /** A slot was taken for this attempt: go ahead. */
  allowed: boolean;
  /** Slots taken in this window, this one included when allowed. */
  hits: number;
  retryAfterSeconds: number;
  /** The window the slot was taken in (to give it back to the same one). */
  windowStart: Date;
}

function windowStart(rule: RateRule) {
  return sql<Date>`to_timestamp(floor(extract(epoch from now()) / ${rule.windowSeconds}) * ${rule.windowSeconds})`;
}

function retryAfter(rule: RateRule, start: Date): number {
  const resetAt = start.getTime() + rule.windowSeconds * 1000;
  return Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
}

/**
 * Takes one of the window's slots for an attempt, in one statement: the row is created with
 * 1, or raised by 1 only while it is below the limit (the row lock makes concurrent callers
 * take turns, each seeing the others' counts). Nothing is counted when the answer is no.
 */
export async function reserve(db: Database, rule: RateRule, key: string): Promise<RateState> {
  const taken = await db
    .insertInto('rate_limits')
    .values({ bucket: rule.bucket, key, window_start: windowStart(rule), hits: 1 })
    .onConflict((oc) =>
      oc
        .columns(['bucket', 'key', 'window_start'])
        .doUpdateSet({ hits: sql`rate_limits.hits + 1` })
        .where('rate_limits.hits', '<', rule.limit),
    )
    .returning(['hits', 'window_start'])
    .executeTakeFirst();
  // Now and then, forget windows that ended long ago.
  if (Math.random() < 0.01) {
    await db
      .deleteFrom('rate_limits')
      .where('window_start', '<', sql<Date>`now() - interval '1 day'`)
      .execute();
  }
  if (taken) {
    return {
      allowed: true,
      hits: taken.hits,
      retryAfterSeconds: retryAfter(rule, taken.window_start),
      windowStart: taken.window_start,
    };
  }
  const full = await db
    .selectFrom('rate_limits')
    .select(['hits', 'window_start'])
    .where('bucket', '=', rule.bucket)
    .where('key', '=', key)
    .where('window_start', '=', windowStart(rule))
    .executeTakeFirst();
  const start = full?.window_start ?? new Date();
  return {
    allowed: false,
    hits: full?.hits ?? rule.limit,
    retryAfterSeconds: retryAfter(rule, start),
    windowStart: start,
  };
}

/** Gives back a slot `reserve` took: the attempt did not count against the limit after all. */
export async function release(db: Database, rule: RateRule, key: string, taken: RateState): Promise<void> {
  if (!taken.allowed) return;
  await db
    .updateTable('rate_limits')
    .set({ hits: sql`hits - 1` })
    .where('bucket', '=', rule.bucket)
    .where('key', '=', key)
    .where('window_start', '=', taken.windowStart)
    .where('hits', '>', 0)
    .execute();
}

/** Forgets every count for a key (e.g. an account's failed sign-ins once one succeeds). */
export async function clear(db: Database, rule: RateRule, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('bucket', '=', rule.bucket).where('key', '=', key).execute();
}

export function tooManyAttempts(retryAfterSeconds: number): AppError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return new AppError(
    'RATE_LIMITED',
    `Too many attempts. Try again in ${countOf(minutes, 'minute', 'minutes')}.`,
    { retryAfterSeconds },
  );
}

/**
 * Takes a slot under each rule and throws when any is full. A refused attempt counts under
 * none of them: the slots already taken for it are given back.
 */
export async function enforce(db: Database, checks: [RateRule, string][]): Promise<void> {
  const taken: [RateRule, string, RateState][] = [];
  for (const [rule, key] of checks) {
    const state = await reserve(db, rule, key);
    if (!state.allowed) {
      for (const [heldRule, heldKey, held] of taken) await release(db, heldRule, heldKey, held);
      throw tooManyAttempts(state.retryAfterSeconds);
    }
    taken.push([rule, key, state]);
  }
}
