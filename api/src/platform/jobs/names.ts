/**
 * The names of the time-based jobs, in the order a round runs them. The registry that binds each
 * name to its work is the composition root's (api/src/jobs.ts, which must name every one: its type
 * says so); the job log and the platform health page read the names from here.
 */
export const JOB_NAMES = [
  'reservations.lapse',
  'offers.expire',
  'offers.lapse',
  'orders.dispatch_deadline',
  'orders.presume_delivered',
  'orders.auto_complete',
  'payouts.release_held',
  'payouts.send',
  'disputes.escalate',
  'returns.refund_posted',
  'reporting.ask',
  'reporting.purge',
  'request_log.prune',
  'reviews.publish',
  'notifications.email',
  'saved_searches.alerts',
  'wants.match',
  'realtime.prune',
  'message_photos.sweep',
  'recommendations.refresh',
  'photos.sizes',
  'mail.deliver',
] as const;

export type JobName = (typeof JOB_NAMES)[number];
