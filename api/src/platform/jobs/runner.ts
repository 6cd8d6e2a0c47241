/**
 * Time-based transitions run from PostgreSQL, not from timers holding state in one process:
 * each job finds what is due with a query and moves it with a conditional update, so a
 * restart loses nothing and several BFF instances never move the same row twice. A
 * transaction-scoped advisory lock keeps one instance per job at a time, and every run is
 * recorded in job_runs.
 */
import { sql } from 'kysely';
import { type BackoffOptions, backoffDelay } from '../../db/backoff.ts';
import type { Database } from '../../db/index.ts';
import { infrastructureFailure } from '../../errors.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { PaymentProvider } from '../payments/port.ts';
import type { StoragePort } from '../storage/port.ts';
import type { JobName } from './names.ts';

export interface JobContext {
  db: Database;
  payments: PaymentProvider;
  mailer: Mailer;
  /** Stored files: the unsent-photo sweep deletes through it. */
  storage: StoragePort;
  /** The site's origin, for links in emails. */
  origin: string;
  log?: (message: string, error?: unknown) => void;
  /**
   * Takes the session-level advisory lock that keeps one instance per job, on a session
   * connection (DatabaseHandle.tryAdvisoryLock: DATABASE_DIRECT_URL when the pool goes through a
   * transaction pooler); null when another instance holds it. Without it the lock is taken on
   * a connection pinned from the pool, which is a session only without a transaction pooler.
   */
  lock?: (key: string) => Promise<(() => Promise<void>) | null>;
}

export type Job = (context: JobContext) => Promise<number>;

/** Every job by its name: the composition root's `JOBS` (api/src/jobs.ts) is the one registry. */
export type JobRegistry = Readonly<Record<JobName, Job>>;

/**
 * Runs one job unless another instance is running it; answers how many rows it moved, or null
 * when another instance holds it. The advisory lock is session-level, so it is taken and
 * released on one pinned connection (a pool could hand the unlock to another session).
 */
export async function runJobIn(
  registry: JobRegistry,
  context: JobContext,
  name: string,
): Promise<number | null> {
  const job = registry[name as JobName];
  if (!job) throw new Error(`No job called ${name}`);
  const key = `job:${name}`;
  if (context.lock) {
    const release = await context.lock(key);
    if (!release) return null;
    try {
      return await recordedRun(context, name, job);
    } finally {
      await release();
    }
  }
  return context.db.connection().execute(async (connection) => {
    const lock = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_lock(hashtext(${key})) as locked`.execute(connection);
    if (!lock.rows[0]?.locked) return null;
    try {
      return await recordedRun(context, name, job);
    } finally {
      await sql`select pg_advisory_unlock(hashtext(${key}))`.execute(connection);
    }
  });
}

/** One run of a job, recorded in job_runs with what it moved or how it failed. */
async function recordedRun(context: JobContext, name: string, job: Job): Promise<number> {
  const run = await context.db
    .insertInto('job_runs')
    .values({ job: name })
    .returning('id')
    .executeTakeFirstOrThrow();
  try {
    const affected = await job(context);
    await context.db
      .updateTable('job_runs')
      .set({ finished_at: new Date(), affected })
      .where('id', '=', run.id)
      .execute();
    return affected;
  } catch (error) {
    await context.db
      .updateTable('job_runs')
      .set({ finished_at: new Date(), error: String((error as Error).message ?? error).slice(0, 1000) })
      .where('id', '=', run.id)
      .execute();
    throw error;
  }
}

export interface JobRunnerOptions {
  /** Between rounds while the database answers (30 s). */
  intervalMs?: number;
  /** Before the first round (the interval). */
  firstRunMs?: number;
  /** Between attempts while the database cannot be reached: doubling, capped at the interval, jittered. */
  backoff?: BackoffOptions;
  log?: (message: string, error?: unknown) => void;
  /** After each round: whether the database answered, and when the next round is. */
  onRound?: (round: { ok: boolean; nextInMs: number }) => void;
}

/**
 * Runs every job every `intervalMs` until stopped; a failing job is logged, not fatal. When the
 * database cannot be reached the round stops (every job would fail the same way) and the next
 * attempt comes sooner than the interval but further apart each time (exponential backoff), so
 * the jobs resume soon after the database is back without hammering it while it is down. Each
 * job takes its pinned connection afresh from the pool, so a lost connection is simply replaced.
 */
export function startJobRunnerFor(
  registry: JobRegistry,
  context: JobContext,
  options: JobRunnerOptions = {},
): () => Promise<void> {
  const interval = options.intervalMs ?? 30_000;
  const backoff = options.backoff ?? { baseMs: 1_000, capMs: interval };
  let stopped = false;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let failures = 0;

  /** One round of every job; false when the database could not be reached. */
  const round = async (): Promise<boolean> => {
    for (const name of Object.keys(registry)) {
      if (stopped) return true;
      try {
        const moved = await runJobIn(registry, context, name);
        if (moved) options.log?.(`job ${name} moved ${moved}`);
      } catch (error) {
        if (infrastructureFailure(error)) {
          if (failures === 0) options.log?.('jobs paused: the database cannot be reached', error);
          return false;
        }
        options.log?.(`job ${name} failed`, error);
      }
    }
    if (failures > 0) options.log?.('jobs resumed: the database answers again');
    return true;
  };
  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = round()
        .then((ok) => {
          failures = ok ? 0 : failures + 1;
          const nextInMs = ok ? interval : backoffDelay(failures - 1, backoff);
          options.onRound?.({ ok, nextInMs });
          schedule(nextInMs);
        })
        .finally(() => {
          running = undefined;
        });
    }, delay);
    timer.unref();
  };
  schedule(options.firstRunMs ?? interval);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
