/**
 * Time-based transitions run from PostgreSQL, not from timers holding state in one process:
 * each job finds what is due with a query and moves it with a conditional update, so a
 * restart loses nothing and several BFF instances never move the same row twice. A
 * transaction-scoped advisory lock keeps one instance per job at a time, and every run is
 * recorded in job_runs.
 */
import { sql } from 'kysely';
import { emailDueNotifications } from '../../account/notifications/notification-mail.ts';
import { cancelPendingOrder, LAPSED_REASON } from '../../commerce/checkout/checkout.service.ts';
import { escalateUnanswered } from '../../commerce/disputes/disputes.service.ts';
import { expireOffers, lapseAcceptedOffers } from '../../commerce/offers/offers.service.ts';
import {
  autoComplete,
  cancelUndispatched,
  presumeDelivered,
  releaseHeldPayouts,
} from '../../commerce/orders/orders.service.ts';
import { payOut } from '../../commerce/payouts/payouts.service.ts';
import { askForReportingDetails } from '../../commerce/tax-reporting/reporting.service.ts';
import { sweepUnsentPhotos } from '../../community/messages/messages.service.ts';
import { refreshRecommendations } from '../../community/recommendations/recommendations.service.ts';
import { publishDueWindows } from '../../community/reviews/reviews.service.ts';
import { runSavedSearchAlerts } from '../../community/social/saved-searches.service.ts';
import { type BackoffOptions, backoffDelay } from '../../db/backoff.ts';
import type { Database } from '../../db/index.ts';
import { infrastructureFailure } from '../../errors.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { PaymentProvider } from '../payments/port.ts';
import { pruneRealtimeEvents } from '../realtime/realtime.ts';
import { pruneRequestLog } from '../request-log/request-log.service.ts';
import type { StoragePort } from '../storage/port.ts';

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
    if (await cancelPendingOrder(db, order.id, LAPSED_REASON, { id: null, kind: 'system' })) {
      moved += 1;
    }
  }
  return moved;
};

export const JOBS: Record<string, Job> = {
  'reservations.lapse': lapseReservations,
  'offers.expire': (context) => expireOffers(context),
  'offers.lapse': ({ db }) => lapseAcceptedOffers(db),
  'orders.dispatch_deadline': (context) => cancelUndispatched(context),
  'orders.presume_delivered': (context) => presumeDelivered(context),
  'orders.auto_complete': (context) => autoComplete(context),
  'payouts.release_held': (context) => releaseHeldPayouts(context),
  // Released sales become transfers to the sellers' accounts, and balances go to their banks (issue 24).
  'payouts.send': async (context) => {
    const report = await payOut(context);
    return report.transfers + report.payouts;
  },
  // Reports the seller did not answer within 3 working days go to staff (issue 25).
  'disputes.escalate': (context) => escalateUnanswered(context),
  // HMRC platform reporting: ask sellers near the threshold for their details (decision 0047).
  'reporting.ask': (context) => askForReportingDetails(context),
  'request_log.prune': ({ db }) => pruneRequestLog(db),
  // Review windows whose 14 days are over: their reviews are published (decision 0048).
  'reviews.publish': (context) => publishDueWindows(context),
  // Wishlist price-drop emails, and unread messages as one email after 10 minutes.
  'notifications.email': (context) => emailDueNotifications(context),
  // New listings for saved searches: in the app, and emailed at once or in a daily digest.
  'saved_searches.alerts': (context) => runSavedSearchAlerts(context),
  // Realtime events older than 7 days (clients resume from them; notifications stay).
  'realtime.prune': ({ db }) => pruneRealtimeEvents(db),
  // Photos uploaded to a conversation or a report's evidence and not sent within
  // UNSENT_PHOTO_HOURS (24): their files are deleted, then their records (decision 0035).
  'message_photos.sweep': (context) => sweepUnsentPhotos(context),
  // The backstop of mail delivery: retries that came due, and anything a NOTIFY wake-up missed.
  // Members' recommendations whose signals changed, or that are older than 6 hours (issue 26).
  'recommendations.refresh': ({ db }) => refreshRecommendations(db),
  'mail.deliver': async ({ mailer, log }) => {
    const report = await mailer.deliver(log ? { log } : {});
    return report.sent + report.retried + report.failed + report.suppressed;
  },
};

/**
 * Runs one job unless another instance is running it; answers how many rows it moved, or null
 * when another instance holds it. The advisory lock is session-level, so it is taken and
 * released on one pinned connection (a pool could hand the unlock to another session).
 */
export async function runJob(context: JobContext, name: string): Promise<number | null> {
  const job = JOBS[name];
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
export function startJobRunner(context: JobContext, options: JobRunnerOptions = {}): () => Promise<void> {
  const interval = options.intervalMs ?? 30_000;
  const backoff = options.backoff ?? { baseMs: 1_000, capMs: interval };
  let stopped = false;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let failures = 0;

  /** One round of every job; false when the database could not be reached. */
  const round = async (): Promise<boolean> => {
    for (const name of Object.keys(JOBS)) {
      if (stopped) return true;
      try {
        const moved = await runJob(context, name);
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
