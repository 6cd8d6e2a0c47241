/**
 * Times as the site shows them: always in Europe/London whatever the device's zone, because every
 * deadline (dispatch, delivery, offers, a book held while its buyer pays) is a UK one.
 */
import { countOf } from '@reshelf/contracts';

const TIME_ZONE = 'Europe/London';

const WHEN = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: TIME_ZONE,
});

const DAY = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: TIME_ZONE,
});

const TIME = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: TIME_ZONE });

/** "14:05" in UK time, for a deadline within the hour (a book held while its buyer pays). */
export function formatTime(iso: string): string {
  return TIME.format(new Date(iso));
}

/** "Sat 22 Nov, 14:05" in UK time. */
export function formatWhen(iso: string): string {
  return WHEN.format(new Date(iso));
}

/** "Sat 22 Nov 2026" in UK time (en-GB would put a comma after the weekday). */
export function formatDay(iso: string): string {
  const parts = Object.fromEntries(DAY.formatToParts(new Date(iso)).map((part) => [part.type, part.value]));
  return `${parts.weekday} ${parts.day} ${parts.month} ${parts.year}`;
}

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY_MS = 24 * HOUR;

/**
 * How long until a deadline, roughly, as a person would say it: "2 days", "5 hours",
 * "35 minutes", "under a minute"; null once it has passed.
 */
export function timeLeft(iso: string, now: number = Date.now()): string | null {
  const left = new Date(iso).getTime() - now;
  if (left <= 0) return null;
  if (left >= 2 * DAY_MS) return countOf(Math.floor(left / DAY_MS), 'day', 'days');
  if (left >= HOUR) return countOf(Math.floor(left / HOUR), 'hour', 'hours');
  if (left >= MINUTE) return countOf(Math.floor(left / MINUTE), 'minute', 'minutes');
  return 'under a minute';
}
