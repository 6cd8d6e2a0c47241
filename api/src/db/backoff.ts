/**
 * Exponential backoff with jitter for reconnecting to PostgreSQL (the LISTEN connection, the job
 * runner): the delay doubles with each failed attempt up to a cap, and each delay is drawn at
 * random from its upper half ("equal jitter"), so that many instances that lost the database at
 * the same moment do not all come back at the same moment.
 */
export interface BackoffOptions {
  /** The first delay's upper bound. */
  baseMs: number;
  /** No delay is longer than this. */
  capMs: number;
}

export const RECONNECT_BACKOFF: BackoffOptions = { baseMs: 250, capMs: 10_000 };

/** The delay before attempt `attempt + 1`, after `attempt` consecutive failures (0-based). */
export function backoffDelay(attempt: number, options: BackoffOptions, random = Math.random): number {
  const ceiling = Math.min(options.capMs, options.baseMs * 2 ** Math.min(Math.max(attempt, 0), 30));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
