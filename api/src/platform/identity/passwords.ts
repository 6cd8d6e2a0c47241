/**
 * Password hashing for the local identity provider (decision 0057): argon2id at OWASP's
 * parameters, computed by a native implementation on libuv's thread pool, never on the event
 * loop (bcryptjs, pure JavaScript, held the loop for about 80 ms a hash, so a burst of wrong
 * passwords made load shedding turn away everyone else).
 *
 * - New hashes: argon2id, m = 19 MiB, t = 2, p = 1 (PHC string `$argon2id$v=19$m=19456,t=2,p=1$…`).
 * - Old hashes: bcrypt (`$2a$`/`$2b$`/`$2y$`, what the provider wrote before, and Supabase Auth's
 *   format) are still checked, natively and off the loop too, and `rehash` says so: the caller
 *   replaces the hash after a correct password, as it does for an argon2 hash made with other
 *   parameters than today's.
 * - At most `PASSWORD_WORK_CONCURRENCY` hashes run at once (one core's worth fewer than the
 *   machine has, so the event loop keeps a core, and the thread pool keeps threads for files and
 *   compression); more wait in line.
 * - Every door that checks or sets a password (sign-in, sign-up, reset, closing an account) runs
 *   its whole attempt, rate-limit queries included, through `passwordAttempts`: at most
 *   `PASSWORD_ATTEMPT_CONCURRENCY` at once, the rest waiting in memory. A burst of guesses then
 *   holds a few database connections, never the pool's whole queue (which sheds everyone, decision
 *   0024); past `PASSWORD_ATTEMPT_QUEUE` waiting, an attempt is answered 503 with Retry-After.
 */
import { availableParallelism } from 'node:os';
import { hash as argon2Hash, verify as argon2Verify, parseOptions } from '@node-rs/argon2';
import { verify as bcryptVerify } from '@node-rs/bcrypt';
import { AppError } from '../../errors.ts';
import { WorkLimiter } from '../work-limiter.ts';

export interface HashingParameters {
  /** KiB of memory per hash. */
  memoryCost: number;
  /** Passes over the memory. */
  timeCost: number;
  /** Lanes (threads) per hash. */
  parallelism: number;
}

/** OWASP Password Storage Cheat Sheet, argon2id's first option: 19 MiB, 2 passes, 1 lane. */
export const OWASP_ARGON2ID: HashingParameters = { memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 };

/** @node-rs/argon2's `Algorithm.Argon2id` (a const enum, which an isolated module cannot read). */
const ARGON2ID = 2;

export const PASSWORD_WORK_CONCURRENCY = Math.max(1, Math.min(4, availableParallelism() - 1));
/** Database connections a burst of password attempts may hold at once (of DATABASE_POOL_MAX). */
export const PASSWORD_ATTEMPT_CONCURRENCY = 3;
export const PASSWORD_ATTEMPT_QUEUE = 500;
export const PASSWORD_BUSY_RETRY_SECONDS = 5;
export const PASSWORD_BUSY_MESSAGE =
  'We’re checking a lot of passwords right now. Try again in a few seconds.';

const busy = () =>
  new AppError('UNAVAILABLE', PASSWORD_BUSY_MESSAGE, { retryAfterSeconds: PASSWORD_BUSY_RETRY_SECONDS });

/** The hashing threads. Everything that reaches it has already passed `passwordAttempts`, so its
 * line is bounded by that one's; it never refuses. */
export const passwordWork = new WorkLimiter(PASSWORD_WORK_CONCURRENCY, Number.POSITIVE_INFINITY, busy);

/** The doors' attempts, whole: limits, lookup, hash and the writes after it. */
export const passwordAttempts = new WorkLimiter(PASSWORD_ATTEMPT_CONCURRENCY, PASSWORD_ATTEMPT_QUEUE, busy);

export function isBcryptHash(stored: string): boolean {
  return /^\$2[abxy]\$\d{2}\$/.test(stored);
}

export function hashPassword(
  password: string,
  parameters: HashingParameters = OWASP_ARGON2ID,
): Promise<string> {
  return passwordWork.run(() => argon2Hash(password, { ...parameters, algorithm: ARGON2ID }));
}

/** Whether a stored hash should be replaced by one made today (bcrypt, or other parameters). */
export function needsRehash(stored: string, parameters: HashingParameters = OWASP_ARGON2ID): boolean {
  if (!stored.startsWith('$argon2id$')) return true;
  try {
    const used = parseOptions(stored);
    return (
      used.memoryCost !== parameters.memoryCost ||
      used.timeCost !== parameters.timeCost ||
      used.parallelism !== parameters.parallelism
    );
  } catch {
    return true;
  }
}

/** One dummy hash per parameter set, made once: checked when there is no account or no password,
 * so a wrong email costs what a wrong password costs. */
const dummies = new Map<string, Promise<string>>();
function dummyHash(parameters: HashingParameters): Promise<string> {
  const key = `${parameters.memoryCost}/${parameters.timeCost}/${parameters.parallelism}`;
  let dummy = dummies.get(key);
  if (!dummy) {
    dummy = hashPassword('reshelf-timing-equaliser', parameters);
    dummies.set(key, dummy);
    dummy.catch(() => dummies.delete(key));
  }
  return dummy;
}

export interface PasswordCheck {
  matches: boolean;
  /** The password matched a hash that should be replaced (`needsRehash`). */
  rehash: boolean;
}

/**
 * Checks a password against a stored hash (argon2id or bcrypt), or against a dummy when there is
 * none, so that the time taken does not tell whether the account exists.
 */
export async function checkPassword(
  password: string,
  stored: string | null | undefined,
  parameters: HashingParameters = OWASP_ARGON2ID,
): Promise<PasswordCheck> {
  if (!stored) {
    const dummy = await dummyHash(parameters);
    await passwordWork.run(() => argon2Verify(dummy, password));
    return { matches: false, rehash: false };
  }
  let matches: boolean;
  if (isBcryptHash(stored)) {
    matches = await passwordWork.run(() => bcryptVerify(password, stored).catch(() => false));
  } else if (stored.startsWith('$argon2')) {
    matches = await passwordWork.run(() => argon2Verify(stored, password).catch(() => false));
  } else {
    // Not a hash we know: nothing matches it, and it costs what a check costs.
    await checkPassword(password, null, parameters);
    matches = false;
  }
  return { matches, rehash: matches && needsRehash(stored, parameters) };
}
