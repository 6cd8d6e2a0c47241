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

/**
 * Records that something already happened (no limit, never refused) and answers how many times
 * it has in this window. Not a limiter: `reserve` is the only way to ask "may this go ahead?".
 * Used beside a failure limit to tell failures that happened from slots still being checked.
 */
export async function tally(db: Database, rule: RateRule, key: string): Promise<number> {
  const row = await db
    .insertInto('rate_limits')
    .values({ bucket: rule.bucket, key, window_start: windowStart(rule), hits: 1 })
    .onConflict((oc) =>
      oc.columns(['bucket', 'key', 'window_start']).doUpdateSet({ hits: sql`rate_limits.hits + 1` }),
    )
    .returning('hits')
    .executeTakeFirstOrThrow();
  return row.hits;
}

/** How many times `tally` has recorded for a key in this window. */
export async function tallied(db: Database, rule: RateRule, key: string): Promise<number> {
  const row = await db
    .selectFrom('rate_limits')
    .select('hits')
    .where('bucket', '=', rule.bucket)
    .where('key', '=', key)
    .where('window_start', '=', windowStart(rule))
    .executeTakeFirst();
  return row?.hits ?? 0;
}

/** Forgets every count for a key (e.g. an account's failed sign-ins once one succeeds). */
export async function clear(db: Database, rule: RateRule, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('bucket', '=', rule.bucket).where('key', '=', key).execute();
}

export function tooManyAttempts(retryAfterSeconds: number, hint?: string): AppError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return new AppError(
    'RATE_LIMITED',
    `Too many attempts. Try again in ${countOf(minutes, 'minute', 'minutes')}${hint ? `, ${hint}` : ''}.`,
    { retryAfterSeconds },
  );
}

/**
 * Wrong passwords at one door (signing in, closing an account), limited so that guessing is
 * bounded but an attacker cannot deny the owner (decision 0058). Two counts of failures, each
 * taken before the password is checked and given back unless it was wrong:
 *   - per account and address (`accountAddress`): past it, that address may not try that account;
 *   - per account, every address (`account`): past `freshOnlyAfter` failures only an address
 *     with no failure at this account in the window is checked (this attempt holds its first
 *     slot), so the owner's correct password from somewhere the attacker is not still works,
 *     while each address the attacker brings buys one guess; past `account.limit` nothing is
 *     checked until the window ends, or until the owner proves who they are another way (a
 *     password reset clears the account's count).
 * The per-address limits of each door (all attempts, any account) stay as they were.
 */
export interface FailureLimits {
  accountAddress: RateRule;
  account: RateRule;
  freshOnlyAfter: number;
  /** Added to the refusal when the account itself is locked (how else to get in). */
  lockedHint?: string;
}

/** The key of the account-and-address count. */
export function accountAddressKey(account: string, address: string): string {
  return `${account} ${address}`;
}

/**
 * Runs `check` (which throws an error `isFailure` recognises for a wrong password) under the
 * limits. A success forgets the account's failures (from every address, and from this one).
 */
export async function underFailureLimits<T>(
  db: Database,
  limits: FailureLimits,
  who: { account: string; address: string },
  check: () => Promise<T>,
  isFailure: (error: unknown) => boolean,
): Promise<T> {
  const pairKey = accountAddressKey(who.account, who.address);
  const taken: [RateRule, string, RateState][] = [];
  const giveBack = async () => {
    for (const [rule, key, state] of taken) await release(db, rule, key, state).catch(() => {});
  };
  const take = async (rule: RateRule, key: string, hint?: string) => {
    const state = await reserve(db, rule, key);
    if (!state.allowed) {
      await giveBack();
      throw tooManyAttempts(state.retryAfterSeconds, hint);
    }
    taken.push([rule, key, state]);
    return state;
  };
  const pair = await take(limits.accountAddress, pairKey);
  const account = await take(limits.account, who.account, limits.lockedHint);
  if (account.hits > limits.freshOnlyAfter && pair.hits > 1) {
    // The account is under attack and this address has failed at it before in this window:
    // refused unchecked. Fresh addresses (the owner's, most likely) are still checked.
    await giveBack();
    throw tooManyAttempts(pair.retryAfterSeconds, limits.lockedHint);
  }
  let result: T;
  try {
    result = await check();
  } catch (error) {
    if (!isFailure(error)) await giveBack();
    throw error;
  }
  await giveBack();
  await clear(db, limits.accountAddress, pairKey);
  await clear(db, limits.account, who.account);
  return result;
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
