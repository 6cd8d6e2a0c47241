/**
 * The time-based jobs (docs/architecture.md, "The job runner"): each name in
 * platform/jobs/names.ts bound to the domain service that does the work. The runner itself
 * (advisory locks, job_runs, backoff) is platform/jobs/runner.ts; this is the one place that
 * knows every domain's jobs, as router.ts knows every domain's procedures.
 */
import { emailDueNotifications } from './account/index.ts';
import {
  askForReportingDetails,
  autoComplete,
  cancelUndispatched,
  escalateUnanswered,
  expireOffers,
  lapseAcceptedOffers,
  lapseReservations,
  payOut,
  presumeDelivered,
  purgeReportingRecords,
  refundPostedReturns,
  releaseHeldPayouts,
} from './commerce/index.ts';
import {
  matchQueuedWants,
  publishDueWindows,
  refreshRecommendations,
  runSavedSearchAlerts,
  sweepUnsentPhotos,
} from './community/index.ts';
import {
  type JobContext,
  type JobRegistry,
  type JobRunnerOptions,
  runJobIn,
  startJobRunnerFor,
} from './platform/jobs/runner.ts';
import { pruneRealtimeEvents } from './platform/realtime/realtime.ts';
import { pruneRequestLog } from './platform/request-log/request-log.service.ts';
import { backfillPhotoSizes } from './selling/index.ts';

export type { JobContext } from './platform/jobs/runner.ts';

export const JOBS: JobRegistry = {
  'reservations.lapse': ({ db }) => lapseReservations(db),
  'offers.expire': (context) => expireOffers(context),
  'offers.lapse': ({ db }) => lapseAcceptedOffers(db),
  'orders.dispatch_deadline': (context) => cancelUndispatched(context),
  'orders.presume_delivered': (context) => presumeDelivered(context),
  'orders.auto_complete': (context) => autoComplete(context),
  'payouts.release_held': (context) => releaseHeldPayouts(context),
  // Released sales become transfers to the sellers' accounts, and balances go to their banks.
  'payouts.send': async (context) => {
    const report = await payOut(context);
    return report.transfers + report.payouts;
  },
  // Reports the seller did not answer within 3 working days go to staff.
  'disputes.escalate': (context) => escalateUnanswered(context),
  // A trader's return posted back (tracked) and not confirmed: refunded after the refund days (decision 0073).
  'returns.refund_posted': (context) => refundPostedReturns(context),
  // HMRC platform reporting: ask sellers near the threshold for their details (decision 0047).
  'reporting.ask': (context) => askForReportingDetails(context),
  // HMRC platform reporting: records kept 5 years after the reporting year, then purged (decision 0078).
  'reporting.purge': ({ db }) => purgeReportingRecords({ db }),
  'request_log.prune': ({ db }) => pruneRequestLog(db),
  // Review windows whose 14 days are over: their reviews are published (decision 0048).
  'reviews.publish': (context) => publishDueWindows(context),
  // Wishlist price-drop emails, and unread messages as one email after 10 minutes.
  'notifications.email': (context) => emailDueNotifications(context),
  // New listings for saved searches: in the app, and emailed at once or in a daily digest.
  'saved_searches.alerts': (context) => runSavedSearchAlerts(context),
  // Copies published for members' wants (the backstop of the match right after publishing), and the daily digests.
  'wants.match': (context) => matchQueuedWants(context),
  // Realtime events older than 7 days (clients resume from them; notifications stay).
  'realtime.prune': ({ db }) => pruneRealtimeEvents(db),
  // Photos uploaded to a conversation or a report's evidence and not sent within
  // UNSENT_PHOTO_HOURS (24): their files are deleted, then their records (decision 0035).
  'message_photos.sweep': (context) => sweepUnsentPhotos(context),
  // The backstop of mail delivery: retries that came due, and anything a NOTIFY wake-up missed.
  // Members' recommendations whose signals changed, or that are older than 6 hours.
  'recommendations.refresh': ({ db }) => refreshRecommendations(db),
  // Listing photos stored before there were sizes get them, a few a round (decision 0063).
  'photos.sizes': ({ db, storage }) => backfillPhotoSizes({ db, storage }),
  'mail.deliver': async ({ mailer, log }) => {
    const report = await mailer.deliver(log ? { log } : {});
    return report.sent + report.retried + report.failed + report.suppressed;
  },
};

/** Runs one job now (tests, `pnpm ops`): how many rows it moved, or null when another instance runs it. */
export function runJob(context: JobContext, name: string): Promise<number | null> {
  return runJobIn(JOBS, context, name);
}

/** Every job every 30 seconds until stopped (main.ts). */
export function startJobRunner(context: JobContext, options: JobRunnerOptions = {}): () => Promise<void> {
  return startJobRunnerFor(JOBS, context, options);
}
