/**
 * Time-based transitions run from PostgreSQL, not from timers holding state in one process:
 * each job finds what is due with a query and moves it with a conditional update, so a
 * restart loses nothing and several BFF instances never move the same row twice. A
 * transaction-scoped advisory lock keeps one instance per job at a time, and every run is
 * recorded in job_runs.
 */
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { cancelPendingOrder } from '../checkout/checkout.service.ts';

export interface JobContext {
  db: Database;
}

export type Job = (context: JobContext) => Promise<number>;

/** Pending orders whose 15-minute reservation has lapsed: cancelled, books back on sale. */
export const lapseReservations: Job = async ({ db }) => {
  const due = await db
    .selectFrom('orders')
    .select('id')
    .where('status', '=', 'pending_payment')
    .where('reserved_until', '<', new Date())
    .orderBy('reserved_until')
    .limit(500)
    .execute();
  let moved = 0;
  for (const order of due) {
    if (
      await cancelPendingOrder(db, order.id, 'The 15-minute reservation lapsed before payment', {
        id: null,
        kind: 'system',
      })
    ) {
      moved += 1;
    }
  }
  return moved;
};

export const JOBS: Record<string, Job> = {
  'reservations.lapse': lapseReservations,
};

/** Runs one job unless another instance is running it; answers how many rows it moved. */
export async function runJob(context: JobContext, name: string): Promise<number | null> {
  const job = JOBS[name];
  if (!job) throw new Error(`No job called ${name}`);
  const lock = await sql<{
    locked: boolean;
  }>`select pg_try_advisory_lock(hashtext(${`job:${name}`})) as locked`.execute(context.db);
  if (!lock.rows[0]?.locked) return null;
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
  } finally {
    await sql`select pg_advisory_unlock(hashtext(${`job:${name}`}))`.execute(context.db);
  }
}

/** Runs every job every `intervalMs` until stopped; a failing job is logged, not fatal. */
export function startJobRunner(
  context: JobContext,
  options: { intervalMs?: number; log?: (message: string, error?: unknown) => void } = {},
): () => Promise<void> {
  const interval = options.intervalMs ?? 30_000;
  let stopped = false;
  let running: Promise<void> | undefined;
  const tick = async () => {
    for (const name of Object.keys(JOBS)) {
      if (stopped) return;
      try {
        const moved = await runJob(context, name);
        if (moved) options.log?.(`job ${name} moved ${moved}`);
      } catch (error) {
        options.log?.(`job ${name} failed`, error);
      }
    }
  };
  const timer = setInterval(() => {
    if (!running) running = tick().finally(() => (running = undefined));
  }, interval);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
