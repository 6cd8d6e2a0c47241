/**
 * Offers, orders, disputes and payouts (brief §4–§5): the shapes both sides share. The server
 * computes what a person may do next (`actions`); the web only shows those buttons.
 */
import { z } from 'zod';
import { COMMERCIAL_DEFAULTS } from './constants.ts';
import { orderDeliverySchema } from './delivery-words.ts';
import { countOf } from './plural.ts';

/** A delivery address as the server answers it (already checked and normalised). */
export const addressViewSchema = z.object({
  fullName: z.string(),
  line1: z.string(),
  line2: z.string().nullable(),
  town: z.string(),
  postcode: z.string(),
});

/** UK carriers a seller can dispatch with, and how many working days each usually takes. */
export const CARRIERS = {
  royal_mail_tracked_24: { label: 'Royal Mail Tracked 24', windowWorkingDays: 2 },
  royal_mail_tracked_48: { label: 'Royal Mail Tracked 48', windowWorkingDays: 3 },
  evri: { label: 'Evri', windowWorkingDays: 4 },
  dpd: { label: 'DPD', windowWorkingDays: 2 },
  yodel: { label: 'Yodel', windowWorkingDays: 4 },
  inpost: { label: 'InPost', windowWorkingDays: 3 },
  parcelforce: { label: 'Parcelforce', windowWorkingDays: 3 },
  other: { label: 'Another tracked service', windowWorkingDays: 5 },
} as const;
export type Carrier = keyof typeof CARRIERS;
export const CARRIER_IDS = Object.keys(CARRIERS) as [Carrier, ...Carrier[]];

/** Each known carrier's public tracking page for a reference (issue 37); 'other' has none. */
const CARRIER_TRACKING_PAGES: Partial<Record<Carrier, (ref: string) => string>> = {
  royal_mail_tracked_24: (ref) => `https://www.royalmail.com/track-your-item#/tracking-results/${ref}`,
  royal_mail_tracked_48: (ref) => `https://www.royalmail.com/track-your-item#/tracking-results/${ref}`,
  evri: (ref) => `https://www.evri.com/track/parcel/${ref}/details`,
  dpd: (ref) => `https://track.dpd.co.uk/parcels/${ref}`,
  yodel: (ref) => `https://www.yodel.co.uk/tracking/${ref}`,
  inpost: (ref) => `https://inpost.co.uk/tracking/?number=${ref}`,
  parcelforce: (ref) => `https://www.parcelforce.com/track-trace?trackNumber=${ref}`,
};

/** The carrier's tracking page for a typed tracking reference, or null when it has none. */
export function trackingUrlFor(carrier: string | null, ref: string | null): string | null {
  if (!carrier || !ref) return null;
  const page = CARRIER_TRACKING_PAGES[carrier as Carrier];
  return page ? page(encodeURIComponent(ref)) : null;
}

/** After the carrier's window, a parcel nobody reported missing is taken as delivered. */
export const PRESUMED_DELIVERY_WORKING_DAYS = 5;

export const trackingRefSchema = z
  .string()
  .trim()
  .transform((value) => value.replace(/\s+/g, '').toUpperCase())
  .pipe(
    z
      .string()
      .min(6, 'Enter the tracking reference from your proof of postage (at least 6 characters)')
      .max(40, 'A tracking reference is at most 40 characters')
      .regex(/^[A-Z0-9-]+$/, 'A tracking reference has only letters, numbers and hyphens'),
  );

export const dispatchInputSchema = z.object({
  orderId: z.string().uuid('Unknown order'),
  carrier: z.enum(CARRIER_IDS, { message: 'Choose the carrier you sent it with' }),
  trackingRef: trackingRefSchema,
});

export const reasonSchema = (what: string) =>
  z
    .string()
    .trim()
    .min(10, `Tell us ${what} in at least 10 characters`)
    .max(2000, 'Use at most 2,000 characters');

export const DISPUTE_KINDS = ['item_not_as_described', 'not_received'] as const;
export type DisputeKind = (typeof DISPUTE_KINDS)[number];
export const DISPUTE_KIND_LABELS: Record<DisputeKind, string> = {
  item_not_as_described: 'Not as described',
  not_received: 'Not received',
};

export const ORDER_STATUS_LABELS: Record<string, string> = {
  pending_payment: 'Awaiting payment',
  paid: 'Paid — to dispatch',
  dispatched: 'Dispatched',
  delivered: 'Delivered',
  completed: 'Completed',
  cancelled: 'Cancelled',
  disputed: 'Issue reported',
  refunded: 'Refunded',
};

export const orderRoleSchema = z.enum(['buyer', 'seller']);
export type OrderRole = z.infer<typeof orderRoleSchema>;

/** One book of an order (decision 0043): its price and its exact shares of the order's money. */
export const orderItemSchema = z.object({
  /** The order item: what a report or a charity return names (`itemIds`). */
  id: z.string().uuid(),
  listingId: z.string().uuid(),
  /** 1 for the first book, then 2, 3, ... */
  position: z.number().int(),
  title: z.string(),
  authors: z.array(z.string()),
  listingSlug: z.string().nullable(),
  imageUrl: z.string().nullable(),
  priceMinor: z.number().int(),
  /** Its share of the seller's bundle discount. */
  bundleDiscountMinor: z.number().int(),
  /** Its share of WELCOME20 or the promotion. */
  discountMinor: z.number().int(),
  /** Its share of the buyer protection fee. */
  protectionMinor: z.number().int(),
  /** What the buyer paid for this book (postage aside): price − discounts + protection. */
  paidMinor: z.number().int(),
  /** Given back for this book (a dispute or a charity return naming it). */
  refundedMinor: z.number().int(),
  /** What is left of it to refund. */
  refundableMinor: z.number().int(),
});
export type OrderItem = z.infer<typeof orderItemSchema>;

/**
 * An order's money as every surface shows it (decision 0051): computed once by the commerce
 * module's money definitions, never added up on a page.
 */
export const orderMoneySchema = z.object({
  /** How many books the order holds (one parcel). */
  books: z.number().int(),
  /** Every book's price, before the bundle discount. */
  itemsMinor: z.number().int(),
  bundleDiscountMinor: z.number().int(),
  /** WELCOME20 or a promotion. */
  discountMinor: z.number().int(),
  postageMinor: z.number().int(),
  protectionMinor: z.number().int(),
  /** The VAT within buyer protection (books are zero-rated). */
  protectionVatMinor: z.number().int(),
  /** What the buyer paid. */
  totalMinor: z.number().int(),
  /** Given back to the buyer so far. */
  refundedMinor: z.number().int(),
  /** Still on the payment to give back. */
  refundableMinor: z.number().int(),
  /** What the buyer paid and kept paid: the total less refunds (0 before payment). */
  buyerNetMinor: z.number().int(),
});
export type OrderMoney = z.infer<typeof orderMoneySchema>;

/** What the order earns its seller (never shown to the buyer). */
export const sellerMoneySchema = z.object({
  /** The books less the bundle discount, and the postage: the earnings at payment. */
  earningsMinor: z.number().int(),
  /** What refunds took back from them (all of it once the payout was cancelled). */
  takenBackMinor: z.number().int(),
  /** What they are paid for the order: earnings less what was taken back. */
  netMinor: z.number().int(),
  /** The outbound label Reshelf bought with the buyer's postage, taken from the earnings (0 without one). */
  labelMinor: z.number().int(),
});
export type SellerMoney = z.infer<typeof sellerMoneySchema>;

/** Where the seller's earnings for an order stand (decision 0051: read from the order's state and its money). */
export const EARNINGS_STATES = [
  /** Held until the buyer confirms (or the return window closes). */
  'held',
  /** Held while a reported problem or a return is sorted out. */
  'on_hold',
  /** Released, and waiting: the seller has not set up payouts, or their account or payouts are on hold. */
  'waiting',
  /** Released; it goes to the seller's payout account with the next run. */
  'released',
  /** Sent to the seller's payout account at the provider. */
  'sent',
  /** None: the buyer was refunded everything. */
  'taken_back',
] as const;
export type EarningsState = (typeof EARNINGS_STATES)[number];

/**
 * What each side reads about an order, derived once on the server from its state and its money
 * (commerce/orders/story.ts): no page words the lifecycle for itself.
 */
export const orderStorySchema = z.object({
  /** A short line saying what happens next (lists, and the order page's header). */
  nextStep: z.string(),
  /** The seller's earnings (seller and staff only; null for the buyer, or before payment). */
  earnings: z.object({ state: z.enum(EARNINGS_STATES), text: z.string() }).nullable(),
  /** For the buyer: when the seller is paid, and what that means for them (null once it no longer applies). */
  sellerPaid: z.string().nullable(),
});
export type OrderStory = z.infer<typeof orderStorySchema>;

export const orderSummarySchema = z.object({
  id: z.string().uuid(),
  reference: z.string(),
  status: z.string(),
  role: orderRoleSchema,
  /** The order's title: its first book, and how many more ("Brave New World and 2 more books"). */
  title: z.string(),
  /** Every book's title, first to last. */
  books: z.array(z.string()),
  listingSlug: z.string().nullable(),
  imageUrl: z.string().nullable(),
  /** How many books the order holds (one parcel). */
  itemCount: z.number().int(),
  counterpartName: z.string(),
  /** What the buyer paid (the same as money.totalMinor). */
  totalMinor: z.number().int(),
  /** The item subtotal (every book's price, before the bundle discount; money.itemsMinor). */
  itemMinor: z.number().int(),
  /** The order's money, from the money definitions: every figure a page shows. */
  money: orderMoneySchema,
  /** What the order earns the seller (their own view, and staff's; null for the buyer). */
  sellerMoney: sellerMoneySchema.nullable(),
  /** What the viewer reads about the order (its next step, the seller's earnings, when the seller is paid). */
  story: orderStorySchema,
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  dispatchBy: z.string().nullable(),
  /** A short line saying what happens next (the same as story.nextStep). */
  nextStep: z.string(),
  /** The buyer's order waiting for payment: until when the book is held for them (else null). */
  reservedUntil: z.string().nullable(),
  /** The buyer left the payment page and can go back to it ("Finish paying"). */
  canFinishPaying: z.boolean(),
});
export type OrderSummary = z.infer<typeof orderSummarySchema>;

export const orderEventSchema = z.object({
  fromStatus: z.string().nullable(),
  toStatus: z.string(),
  actorKind: z.string(),
  note: z.string().nullable(),
  createdAt: z.string(),
});

/** What went wrong, as the buyer reports it. */
export const DISPUTE_PROBLEMS = [
  'not_as_described',
  'damaged',
  'wrong_book',
  'missing_pages',
  'not_received',
] as const;
export type DisputeProblem = (typeof DISPUTE_PROBLEMS)[number];

export const DISPUTE_PROBLEM_LABELS: Record<DisputeProblem, string> = {
  not_as_described: 'Not as described',
  damaged: 'Damaged',
  wrong_book: 'Wrong book',
  missing_pages: 'Missing pages',
  not_received: 'Not received',
};

export const disputeViewSchema = z.object({
  id: z.string().uuid(),
  kind: z.enum(DISPUTE_KINDS),
  /** What went wrong, as the buyer reported it: damaged, wrong book, … */
  problem: z.enum(DISPUTE_PROBLEMS),
  status: z.string(),
  reason: z.string(),
  resolutionNote: z.string().nullable(),
  openedAt: z.string(),
  resolvedAt: z.string().nullable(),
  /** The order items the report is about; empty: the whole order. */
  itemIds: z.array(z.string().uuid()),
});

/** One dispute in the staff's queue. */
export const disputeQueueItemSchema = z.object({
  id: z.string().uuid(),
  orderId: z.string().uuid(),
  reference: z.string(),
  title: z.string(),
  kind: z.enum(DISPUTE_KINDS),
  status: z.string(),
  reason: z.string(),
  resolutionNote: z.string().nullable(),
  buyerName: z.string(),
  sellerName: z.string(),
  totalMinor: z.number().int(),
  openedAt: z.string(),
  resolvedAt: z.string().nullable(),
  /** How many books the order has, and the titles of those the report is about (all when none named). */
  bookCount: z.number().int(),
  books: z.array(z.string()),
  /** What a refund of the report would give back: the named books' share, or the whole order. */
  refundableMinor: z.number().int(),
  /** What deciding it gave back to the buyer (0 while open, or when released to the seller). */
  refundedMinor: z.number().int(),
});
export type DisputeQueueItem = z.infer<typeof disputeQueueItemSchema>;

export const orderActionsSchema = z.object({
  canDispatch: z.boolean(),
  canCancel: z.boolean(),
  canMarkArrived: z.boolean(),
  canConfirm: z.boolean(),
  canReportProblem: z.boolean(),
  canReportNotReceived: z.boolean(),
  canWithdrawDispute: z.boolean(),
});
export type OrderActions = z.infer<typeof orderActionsSchema>;

export const orderDetailSchema = orderSummarySchema.extend({
  /** Every book of the order, first to last. */
  items: z.array(orderItemSchema),
  /** The seller's bundle discount off the item subtotal. */
  bundleDiscountMinor: z.number().int(),
  postageMinor: z.number().int(),
  protectionMinor: z.number().int(),
  protectionVatMinor: z.number().int(),
  discountMinor: z.number().int(),
  discountCode: z.string().nullable(),
  parcelSize: z.string().nullable(),
  /** How the buyer chose to receive it, the parcel's band and when it is expected (null before issue 37). */
  delivery: orderDeliverySchema.nullable(),
  offerId: z.string().uuid().nullable(),
  charitySale: z.boolean(),
  address: addressViewSchema.nullable(),
  carrier: z.string().nullable(),
  carrierLabel: z.string().nullable(),
  trackingRef: z.string().nullable(),
  dispatchedAt: z.string().nullable(),
  deliveryDueAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  disputeUntil: z.string().nullable(),
  completedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  cancelReason: z.string().nullable(),
  refundedMinor: z.number().int(),
  payout: z
    .object({
      amountMinor: z.number().int(),
      /** Taken back from the payout by staff refunds (decision 0022). */
      reversedMinor: z.number().int(),
      status: z.string(),
      releasedAt: z.string().nullable(),
      /** A charity sale's payout, held until its 14-day return window closes. */
      releaseAfter: z.string().nullable(),
    })
    .nullable(),
  dispute: disputeViewSchema.nullable(),
  events: z.array(orderEventSchema),
  actions: orderActionsSchema,
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;

export const payoutsViewSchema = z.object({
  /** Earnings held (until the buyer confirms, a return window closes, or a report is sorted out). */
  heldMinor: z.number().int(),
  /** Earnings released: waiting for the seller's payout set-up, or on their way or sent. */
  releasedMinor: z.number().int(),
  /** Of those released, what waits for the seller (no payout account yet, or on hold). */
  waitingMinor: z.number().int(),
  /** Of those released, what has gone or is going to the seller's payout account. */
  sentMinor: z.number().int(),
  items: z.array(
    z.object({
      id: z.string().uuid(),
      orderId: z.string().uuid(),
      reference: z.string(),
      /** The order's title (its first book, and how many more). */
      title: z.string(),
      /** The earnings at payment. */
      amountMinor: z.number().int(),
      /** What is left of them: less what refunds took back, nothing once cancelled. */
      netMinor: z.number().int(),
      status: z.enum(['held', 'released', 'cancelled']),
      /** Where they stand, and the words for it (the order's story). */
      state: z.enum(EARNINGS_STATES),
      stateText: z.string(),
      createdAt: z.string(),
      releasedAt: z.string().nullable(),
      releaseAfter: z.string().nullable(),
      reversedMinor: z.number().int(),
    }),
  ),
});
export type PayoutsView = z.infer<typeof payoutsViewSchema>;

// Offers ---------------------------------------------------------------------------------

export const offerAmountSchema = z
  .number({ message: 'Enter an amount in pounds, like 4.50' })
  .int('Offers are in whole pence')
  .positive('Enter an amount above £0.00')
  .max(COMMERCIAL_DEFAULTS.maxPriceMinor, 'Offers are at most £10,000.00');

export const offerMessageSchema = z
  .string()
  .trim()
  .max(500, 'Keep your message to 500 characters')
  .optional()
  .transform((value) => (value ? value : null));

export const offerRoundSchema = z.object({
  id: z.string().uuid(),
  madeBy: z.enum(['buyer', 'seller']),
  amountMinor: z.number().int(),
  status: z.string(),
  /** Null when there was none, or when Reshelf removed it after a report. */
  message: z.string().nullable(),
  /** Reshelf removed this round's message after a report (the thread says so). */
  messageRemoved: z.boolean(),
  createdAt: z.string(),
  expiresAt: z.string(),
  checkoutDeadline: z.string().nullable(),
});

export const offerThreadSchema = z.object({
  /** The latest round: the one anybody can act on. */
  currentId: z.string().uuid(),
  status: z.string(),
  role: orderRoleSchema,
  listing: z.object({
    id: z.string().uuid(),
    slug: z.string().nullable(),
    title: z.string(),
    priceMinor: z.number().int(),
    imageUrl: z.string().nullable(),
    status: z.string(),
  }),
  /** A bundle offer: one amount for several books of one seller; `listing` is the first. */
  bundle: z.boolean(),
  /** Every book the offer is for (one for an ordinary offer), in the order offered. */
  books: z.array(
    z.object({
      id: z.string().uuid(),
      slug: z.string().nullable(),
      title: z.string(),
      priceMinor: z.number().int(),
      imageUrl: z.string().nullable(),
      status: z.string(),
    }),
  ),
  /** What the books cost bought now: the price, or a bundle's subtotal less the seller's tier. */
  askingMinor: z.number().int(),
  counterpartName: z.string(),
  rounds: z.array(offerRoundSchema),
  actions: z.object({
    canAccept: z.boolean(),
    canDecline: z.boolean(),
    canCounter: z.boolean(),
    canWithdraw: z.boolean(),
    canPay: z.boolean(),
  }),
  /** The least a counter may be, when countering is allowed. */
  counterMinMinor: z.number().int().nullable(),
  counterMaxMinor: z.number().int().nullable(),
});
export type OfferThread = z.infer<typeof offerThreadSchema>;

export const savedAddressSchema = addressViewSchema.extend({
  id: z.string().uuid(),
  isDefault: z.boolean(),
});
export type SavedAddress = z.infer<typeof savedAddressSchema>;

/**
 * How an order's (or an offer's, a return's, a refund's) books are named in one line: "Title",
 * or "Title and 2 more books" (an order holds one or more books, first first).
 */
export function booksTitle(titles: readonly string[]): string {
  const first = titles[0] ?? '';
  return titles.length > 1 ? `${first} and ${countOf(titles.length - 1, 'more book', 'more books')}` : first;
}
