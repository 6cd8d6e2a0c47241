/**
 * Times and labels for offers, orders and disputes. Times are shown in Europe/London whatever
 * the device's zone, because every deadline (dispatch, delivery, offers) is a UK one.
 */
import { ORDER_STATUS_LABELS } from '@reshelf/contracts';

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

function count(value: number, unit: string): string {
  return `${value} ${unit}${value === 1 ? '' : 's'}`;
}

/**
 * How long until a deadline, roughly, as a person would say it: "2 days", "5 hours",
 * "35 minutes", "under a minute"; null once it has passed.
 */
export function timeLeft(iso: string, now: number = Date.now()): string | null {
  const left = new Date(iso).getTime() - now;
  if (left <= 0) return null;
  if (left >= 2 * DAY_MS) return count(Math.floor(left / DAY_MS), 'day');
  if (left >= HOUR) return count(Math.floor(left / HOUR), 'hour');
  if (left >= MINUTE) return count(Math.floor(left / MINUTE), 'minute');
  return 'under a minute';
}

export function orderStatusLabel(status: string): string {
  return ORDER_STATUS_LABELS[status] ?? status;
}

/** Tailwind classes for an order status pill. */
export function orderStatusTone(status: string): string {
  switch (status) {
    case 'paid':
      return 'bg-accent/25 text-accent-foreground';
    case 'dispatched':
    case 'delivered':
      return 'bg-brand-soft text-brand';
    case 'completed':
      return 'bg-moss-soft text-moss';
    case 'disputed':
      return 'bg-destructive/10 text-destructive';
    case 'refunded':
    case 'cancelled':
      return 'bg-paper-deep text-ink-muted';
    default:
      return 'bg-paper-edge text-ink-soft';
  }
}

/** Who moved an order, as the person reading the timeline would put it. */
export function actorLabel(actorKind: string, viewer: 'buyer' | 'seller' | 'staff'): string {
  if (actorKind === viewer) return 'You';
  switch (actorKind) {
    case 'buyer':
      return 'The buyer';
    case 'seller':
      return 'The seller';
    case 'staff':
      return 'Reshelf’s team';
    case 'provider':
      return 'The payment provider';
    default:
      return 'Reshelf';
  }
}

/** What an offer round's status means, from the point of view of `role`. */
export function offerStatusLabel(status: string): string {
  switch (status) {
    case 'pending':
      return 'Waiting for an answer';
    case 'countered':
      return 'Countered';
    case 'accepted':
      return 'Accepted';
    case 'declined':
      return 'Declined';
    case 'withdrawn':
      return 'Withdrawn';
    case 'expired':
      return 'Expired';
    case 'lapsed':
      return 'Not paid in time';
    case 'purchased':
      return 'Bought';
    case 'cancelled':
      return 'Cancelled by Reshelf';
    default:
      return status;
  }
}
