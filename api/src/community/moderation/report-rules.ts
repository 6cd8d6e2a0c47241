/**
 * What every report door shares (listings, offers, messages, reviews): how often a member may
 * report, and what a second report of the same thing is told. Apart from reports.service.ts so
 * that the reviews and messages services, which take their own reports, need not import it (it
 * removes reviews, so that would be a loop).
 */
import type { RateRule } from '../../http/rate-limit.ts';

/** Enough for a member reporting a bad batch of listings; not enough to flood the queue. */
export const REPORT_RATE: RateRule = { bucket: 'report', limit: 20, windowSeconds: 60 * 60 };

export const ALREADY_REPORTED = 'You’ve already reported this; our team will review it.';
