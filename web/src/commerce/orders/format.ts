/** Labels for offers, orders and disputes (their times: lib/dates.ts). */
import { ORDER_STATUS_LABELS } from '@reshelf/contracts';

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
export function actorLabel(
  actorKind: string,
  viewer: 'buyer' | 'seller' | 'staff',
  toStatus?: string,
): string {
  if (actorKind === viewer) return 'You';
  // The provider kind is the payment provider's, and the carrier's when its scans dispatch or
  // deliver a parcel with a label bought through Reshelf (issue 37, decision 0086).
  if (actorKind === 'provider' && (toStatus === 'dispatched' || toStatus === 'delivered'))
    return 'The carrier';
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
