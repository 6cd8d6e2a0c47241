/**
 * What each side reads about an order, in one place (decision 0051): the next step, where the
 * seller's earnings stand (held, on hold for a report or a return, waiting for payout set-up,
 * released, sent, taken back) and, for the buyer, when the seller is paid. Derived from the
 * order's state, its report and return, and its money, so a line can never disagree with the
 * figures beside it. The order pages, the lists, the payouts ledger and staff read it.
 */
import {
  CARRIERS,
  type Carrier,
  COMMERCIAL_DEFAULTS,
  type EarningsState,
  type OrderActions,
  type OrderRole,
  type OrderStory,
  type PayoutWaitReason,
} from '@reshelf/contracts';

export interface StoryFacts {
  status: string;
  charitySale: boolean;
  buyerId: string;
  paidAt: Date | null;
  reservedUntil: Date | null;
  dispatchBy: Date | null;
  deliveryDueAt: Date | null;
  deliveredAt: Date | null;
  completeAfter: Date | null;
  cancelReason: string | null;
  carrier: string | null;
  /** The order's latest report. */
  dispute: { status: string; openedBy: string } | null;
  /** The order's latest change-of-mind return. */
  returnStatus: string | null;
  /** The seller's earnings for it (the `payouts` row), and whether they went to the seller's account. */
  earnings: {
    status: string;
    releaseAfter: Date | null;
    releasedAt: Date | null;
    sentAt: Date | null;
  } | null;
  /** Why the seller's released earnings wait, when they do (their payout account). */
  sellerWait: PayoutWaitReason | null;
}

const DAY = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  timeZone: 'Europe/London',
});
const TIME = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/London',
});
const day = (value: Date | null) => (value ? DAY.format(value) : '');

const DAY_MS = 86_400_000;

/** When a charity sale's 14-day return window closes (null for other sales, or before delivery). */
export function returnWindowEnds(order: { charitySale: boolean; deliveredAt: Date | null }): Date | null {
  return order.charitySale && order.deliveredAt
    ? new Date(order.deliveredAt.getTime() + COMMERCIAL_DEFAULTS.charityReturnDays * DAY_MS)
    : null;
}

export function carrierLabel(carrier: string | null): string | null {
  if (!carrier) return null;
  return carrier in CARRIERS ? CARRIERS[carrier as Carrier].label : carrier;
}

/** An order waiting for its buyer's payment while the book is still held for them. */
export function heldForBuyer(facts: Pick<StoryFacts, 'status' | 'reservedUntil'>, now = new Date()): boolean {
  return facts.status === 'pending_payment' && facts.reservedUntil !== null && facts.reservedUntil > now;
}

const openReturn = (facts: StoryFacts) =>
  facts.returnStatus === 'requested' || facts.returnStatus === 'accepted';
const openDispute = (facts: StoryFacts) => facts.dispute?.status === 'open';

function returnLine(facts: StoryFacts, role: OrderRole): string | null {
  if (facts.returnStatus === 'requested')
    return role === 'buyer'
      ? 'Return asked for: waiting for the seller’s answer'
      : 'Return asked for: answer the buyer';
  if (facts.returnStatus === 'accepted')
    return role === 'buyer'
      ? 'Return accepted: send the book back'
      : 'Return accepted: waiting for the book to come back';
  return null;
}

function nextStep(facts: StoryFacts, role: OrderRole, now: Date): string {
  switch (facts.status) {
    case 'pending_payment':
      if (role !== 'buyer') return 'Waiting for the buyer’s payment';
      return heldForBuyer(facts, now)
        ? `Reserved for you until ${TIME.format(facts.reservedUntil as Date)}: finish paying`
        : 'The reservation has run out: nothing was taken';
    case 'paid':
      return role === 'seller'
        ? `Send it and add tracking by ${day(facts.dispatchBy)}`
        : `The seller sends it by ${day(facts.dispatchBy)}`;
    case 'dispatched':
      return role === 'buyer'
        ? `On its way — due by ${day(facts.deliveryDueAt)}`
        : `On its way with ${carrierLabel(facts.carrier) ?? 'the carrier'}`;
    case 'delivered': {
      const back = returnLine(facts, role);
      if (back) return back;
      if (role === 'buyer') return `Check it and confirm by ${day(facts.completeAfter)}`;
      const windowEnds = returnWindowEnds(facts);
      return windowEnds
        ? `Payout released on ${day(windowEnds)}, when the 14-day return window closes`
        : `Payout released by ${day(facts.completeAfter)}`;
    }
    case 'completed': {
      const back = returnLine(facts, role);
      if (back) return back;
      // The status badge beside it already says "Completed" (ORDER_STATUS_LABELS): say what is next.
      const windowEnds = returnWindowEnds(facts);
      const open = windowEnds !== null && windowEnds > now;
      if (role !== 'seller')
        return open ? `You can return it until ${day(windowEnds)}` : 'Nothing more to do';
      return open
        ? `Payout released on ${day(windowEnds)}, when the return window closes`
        : 'Payout released';
    }
    case 'disputed':
      return role === 'seller'
        ? 'Problem reported — your payout is on hold until it is sorted out'
        : 'Problem reported — being sorted out between you, or by our team';
    case 'refunded':
      return role === 'buyer' ? 'Refunded to you' : 'Refunded to the buyer';
    case 'cancelled':
      return facts.cancelReason ?? 'Cancelled';
    default:
      return '';
  }
}

const WAITING: Record<PayoutWaitReason, string> = {
  no_account: 'Released, and waiting until you set up payouts (Get paid, on your payouts page).',
  account_not_active:
    'Released, and waiting until your payout account is ready (Get paid, on your payouts page).',
  held: 'Released, and on hold: see Get paid on your payouts page.',
};

function earnings(facts: StoryFacts): { state: EarningsState; text: string } | null {
  const row = facts.earnings;
  if (!row || !facts.paidAt) return null;
  if (row.status === 'cancelled') return { state: 'taken_back', text: 'No payout: the buyer was refunded.' };
  if (row.status === 'held') {
    if (openDispute(facts))
      return { state: 'on_hold', text: 'On hold while the reported problem is sorted out.' };
    if (openReturn(facts))
      return { state: 'on_hold', text: 'On hold while the buyer’s return is sorted out.' };
    if (row.releaseAfter)
      return {
        state: 'held',
        text: `Held until ${day(row.releaseAfter)}, when the 14-day return window closes.`,
      };
    return facts.charitySale
      ? { state: 'held', text: 'Held until the 14-day return window after delivery closes.' }
      : { state: 'held', text: 'Held until the buyer confirms everything is OK, or 2 days after delivery.' };
  }
  if (row.sentAt) return { state: 'sent', text: `Sent to your payout account on ${day(row.sentAt)}.` };
  if (facts.sellerWait) return { state: 'waiting', text: WAITING[facts.sellerWait] };
  return {
    state: 'released',
    text: `Released${row.releasedAt ? ` on ${day(row.releasedAt)}` : ''}: it goes to your payout account shortly.`,
  };
}

function sellerPaid(facts: StoryFacts): string | null {
  if (!['paid', 'dispatched', 'delivered'].includes(facts.status) || openReturn(facts)) return null;
  return facts.charitySale
    ? 'The charity is paid when the 14-day return window after delivery closes: until then you can send the book back for any reason.'
    : 'The seller is paid when you confirm everything is OK, or 2 days after delivery.';
}

export function orderStory(facts: StoryFacts, role: OrderRole, now = new Date()): OrderStory {
  return {
    nextStep: nextStep(facts, role, now),
    earnings: role === 'seller' ? earnings(facts) : null,
    sellerPaid: role === 'buyer' ? sellerPaid(facts) : null,
  };
}

/** The staff's view: the seller's earnings as the seller reads them. */
export function staffEarnings(facts: StoryFacts): OrderStory['earnings'] {
  return earnings(facts);
}

/** What the viewer may do next with the order: the server's word, the page only shows it. */
export function orderActions(facts: StoryFacts, role: OrderRole | 'staff', now = new Date()): OrderActions {
  const buyer = role === 'buyer';
  const seller = role === 'seller';
  // While a return is asked for or on its way back, "Everything is OK" and a report make no sense.
  const returning = openReturn(facts);
  return {
    canDispatch: seller && facts.status === 'paid',
    canCancel: seller && facts.status === 'paid',
    canMarkArrived: buyer && facts.status === 'dispatched',
    canConfirm: buyer && !returning && (facts.status === 'dispatched' || facts.status === 'delivered'),
    canReportProblem:
      buyer &&
      !returning &&
      (facts.status === 'dispatched' ||
        (facts.status === 'delivered' && !!facts.completeAfter && facts.completeAfter > now)),
    canReportNotReceived:
      buyer && facts.status === 'dispatched' && !!facts.deliveryDueAt && facts.deliveryDueAt <= now,
    canWithdrawDispute:
      buyer && facts.status === 'disputed' && openDispute(facts) && facts.dispute?.openedBy === facts.buyerId,
  };
}
