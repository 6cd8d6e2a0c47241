/**
 * Notifications (decision 0036): every kind a member is told about, in the app (the
 * bell and /account/notifications) and by email as their preferences say. Shared by the BFF and
 * the web client: the kinds, what each one's email is (always sent, on a list the member may
 * leave, or none), and the shapes of the list and the preferences.
 */
import { z } from 'zod';
import { formatPence } from './money.ts';
import { SHOWN_PRICE_WORDS, type ShownPrice } from './pricing.ts';

export const NOTIFICATION_KINDS = [
  'offer_received',
  'offer_countered',
  'offer_accepted',
  'offer_declined',
  'offer_expired',
  'offer_cancelled',
  'order_sold',
  'order_paid',
  'order_dispatched',
  'order_delivered',
  'order_completed',
  'order_cancelled',
  'parcel_problem',
  'dispute_opened',
  'dispute_resolved',
  'refund',
  'payout_released',
  'message_received',
  'wishlist_price_drop',
  'wishlist_sold',
  'charity_application_decided',
  'team_invitation',
  'saved_search_match',
  'payout_waiting',
  'payout_paid',
  'payout_failed',
  'payout_account',
  'payout_details_needed',
  'review_requested',
  'review_published',
  'review_removed',
  'return_update',
  'report_decided',
  'content_removed',
  'appeal_decided',
  'reporting_copy',
  'want_match',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The email lists a member may leave from their settings (and from any such email's link). */
export const OPTIONAL_EMAIL_LISTS = ['messages', 'wishlist_alerts', 'saved_searches', 'wants'] as const;
export type OptionalEmailList = (typeof OPTIONAL_EMAIL_LISTS)[number];

export type NotificationEmail =
  /** Always sent: the member needs it to buy and sell safely. */
  | { kind: 'always'; reason: string }
  /** Sent unless the member left the list. */
  | { kind: 'optional'; list: OptionalEmailList; label: string }
  /** In the app only. */
  | { kind: 'none' };

export const NOTIFICATION_GROUPS = [
  { id: 'offers', label: 'Offers' },
  { id: 'orders', label: 'Orders and sales' },
  { id: 'problems', label: 'Problems, refunds and payouts' },
  { id: 'messages', label: 'Messages' },
  { id: 'wishlist', label: 'Your wishlist' },
  { id: 'charity', label: 'Charities' },
  { id: 'searches', label: 'Your saved searches' },
  { id: 'wants', label: 'Books you want' },
  { id: 'reviews', label: 'Reviews' },
  { id: 'safety', label: 'Reports and appeals' },
] as const;
export type NotificationGroup = (typeof NOTIFICATION_GROUPS)[number]['id'];

const ALWAYS_OFFERS: NotificationEmail = {
  kind: 'always',
  reason: 'Someone is waiting for your answer, or you have a deadline to pay: we always email these.',
};
const ALWAYS_ORDERS: NotificationEmail = {
  kind: 'always',
  reason: 'These are about money and parcels you are part of: we always email them.',
};
const ALWAYS_ACCOUNT: NotificationEmail = {
  kind: 'always',
  reason: 'This is about your account itself: we always email it.',
};

export const NOTIFICATION_KIND_INFO: Record<
  NotificationKind,
  { label: string; group: NotificationGroup; email: NotificationEmail }
> = {
  offer_received: { label: 'You receive an offer', group: 'offers', email: ALWAYS_OFFERS },
  offer_countered: { label: 'Your offer is countered', group: 'offers', email: ALWAYS_OFFERS },
  offer_accepted: { label: 'An offer is accepted', group: 'offers', email: ALWAYS_OFFERS },
  offer_declined: { label: 'Your offer is declined', group: 'offers', email: ALWAYS_OFFERS },
  offer_expired: { label: 'Your offer expires unanswered', group: 'offers', email: ALWAYS_OFFERS },
  offer_cancelled: { label: 'Reshelf cancels an offer', group: 'offers', email: ALWAYS_OFFERS },
  order_sold: { label: 'You sell a book', group: 'orders', email: ALWAYS_ORDERS },
  order_paid: { label: 'Your order is paid for', group: 'orders', email: ALWAYS_ORDERS },
  order_dispatched: {
    label: 'Your order is on its way (with tracking)',
    group: 'orders',
    email: ALWAYS_ORDERS,
  },
  order_delivered: { label: 'An order is delivered', group: 'orders', email: ALWAYS_ORDERS },
  order_completed: { label: 'An order is complete', group: 'orders', email: ALWAYS_ORDERS },
  order_cancelled: { label: 'An order is cancelled', group: 'orders', email: ALWAYS_ORDERS },
  parcel_problem: {
    label: 'The carrier cannot deliver a parcel, or sends it back',
    group: 'orders',
    email: ALWAYS_ORDERS,
  },
  dispute_opened: { label: 'A buyer reports a problem', group: 'problems', email: ALWAYS_ORDERS },
  dispute_resolved: { label: 'A reported problem is resolved', group: 'problems', email: ALWAYS_ORDERS },
  refund: { label: 'A refund is made', group: 'problems', email: ALWAYS_ORDERS },
  return_update: {
    label: 'A return moves on (accepted, declined, posted back)',
    group: 'problems',
    email: ALWAYS_ORDERS,
  },
  payout_released: { label: 'Your payout is released', group: 'problems', email: ALWAYS_ORDERS },
  payout_waiting: {
    label: 'Your earnings wait for your payout set-up',
    group: 'problems',
    email: ALWAYS_ORDERS,
  },
  payout_paid: { label: 'A payout is sent to your bank', group: 'problems', email: ALWAYS_ORDERS },
  payout_failed: { label: 'A payout to your bank fails', group: 'problems', email: ALWAYS_ORDERS },
  payout_account: { label: 'Your payout account changes', group: 'problems', email: ALWAYS_ORDERS },
  payout_details_needed: {
    label: 'We need your details for HMRC reporting',
    group: 'problems',
    email: ALWAYS_ORDERS,
  },
  reporting_copy: {
    label: 'Your copy of what we reported to HMRC',
    group: 'problems',
    email: ALWAYS_ORDERS,
  },
  message_received: {
    label: 'You receive a message',
    group: 'messages',
    email: {
      kind: 'optional',
      list: 'messages',
      label: 'Unread messages, in one email 10 minutes after they arrive',
    },
  },
  wishlist_price_drop: {
    label: 'A book on your wishlist drops in price',
    group: 'wishlist',
    email: { kind: 'optional', list: 'wishlist_alerts', label: 'Price drops on your wishlist' },
  },
  wishlist_sold: { label: 'A book on your wishlist sells', group: 'wishlist', email: { kind: 'none' } },
  charity_application_decided: {
    label: 'Your charity application is decided',
    group: 'charity',
    email: ALWAYS_ACCOUNT,
  },
  team_invitation: { label: 'You are invited to a charity’s team', group: 'charity', email: ALWAYS_ACCOUNT },
  saved_search_match: {
    label: 'A new book matches a saved search',
    group: 'searches',
    email: {
      kind: 'optional',
      list: 'saved_searches',
      label: 'New books for your saved searches (at once or daily, as each search says)',
    },
  },
  want_match: {
    label: 'A copy of a book you want is on sale',
    group: 'wants',
    email: {
      kind: 'optional',
      list: 'wants',
      label: 'Books you want, on sale (at once or daily, as each want says)',
    },
  },
  review_requested: {
    label: 'You are asked to review an order',
    group: 'reviews',
    email: { kind: 'always', reason: 'The review window is short, so we always email the request.' },
  },
  review_published: { label: 'Reviews of an order are published', group: 'reviews', email: { kind: 'none' } },
  review_removed: {
    label: 'Reshelf removes a review',
    group: 'reviews',
    email: {
      kind: 'always',
      reason: 'Our team removed something you wrote or received: we always email it.',
    },
  },
  report_decided: {
    label: 'Our team decides something you reported',
    group: 'safety',
    email: {
      kind: 'always',
      reason: 'You asked our team to look at something: we always email what we decided.',
    },
  },
  content_removed: {
    label: 'Our team removes something you posted',
    group: 'safety',
    email: { kind: 'always', reason: 'It says why and how to appeal, so we always email it.' },
  },
  appeal_decided: {
    label: 'Your appeal is decided',
    group: 'safety',
    email: { kind: 'always', reason: 'It is our final answer on your appeal: we always email it.' },
  },
};

/** How long unread messages wait before their one email (the digest). */
export const MESSAGE_DIGEST_DELAY_MINUTES = 10;

export const notificationSchema = z.object({
  id: z.uuid(),
  kind: z.enum(NOTIFICATION_KINDS),
  title: z.string(),
  body: z.string(),
  /** Where the notification leads on the site (a path), if anywhere. */
  link: z.string().nullable(),
  listing: z
    .object({
      slug: z.string().nullable(),
      title: z.string(),
      authors: z.array(z.string()),
      isbn13: z.string().nullable(),
      photoUrl: z.string().nullable(),
      coverUrl: z.string().nullable(),
    })
    .nullable(),
  read: z.boolean(),
  createdAt: z.string(),
});
export type AppNotification = z.infer<typeof notificationSchema>;

export const notificationListSchema = z.object({
  items: z.array(notificationSchema),
  unread: z.number().int(),
  /** Pass as `cursor` for the next (older) page; null when there is none. */
  nextCursor: z.string().nullable(),
});
export type NotificationList = z.infer<typeof notificationListSchema>;

export const notificationListInputSchema = z
  .object({
    limit: z.number().int().min(1).max(100).default(20),
    /** The `nextCursor` of the page before (the newer one). */
    cursor: z
      .string()
      .max(100)
      .regex(/^\d{4}-\d\d-\d\dT[\d:.]+Z_[0-9a-f-]{36}$/, 'Not a page of your notifications')
      .nullish(),
  })
  .default({ limit: 20 });

export const markNotificationsReadInputSchema = z.object({
  ids: z.union([z.literal('all'), z.array(z.uuid()).min(1).max(100, 'Mark at most 100 at a time')]),
});

export const emailPreferencesSchema = z.object({
  /** Whether each optional list is emailed (false: the member left it). */
  lists: z.object({
    messages: z.boolean(),
    wishlist_alerts: z.boolean(),
    saved_searches: z.boolean(),
    wants: z.boolean(),
  }),
});
export type EmailPreferences = z.infer<typeof emailPreferencesSchema>;

export const setEmailPreferenceInputSchema = z.object({
  list: z.enum(OPTIONAL_EMAIL_LISTS),
  enabled: z.boolean(),
});

/**
 * The words of a wishlist notification (written by a database trigger), made when read. A price
 * drop states the shown prices (decision 0071): what the buyer must pay now and before, buyer
 * protection included, under today's rule.
 */
export function notificationText(
  kind: 'wishlist_price_drop' | 'wishlist_sold',
  data: { title: string; now?: ShownPrice | undefined; wasAllInMinor?: number | undefined },
): { title: string; body: string } {
  if (kind === 'wishlist_price_drop' && data.now !== undefined) {
    const was = data.wasAllInMinor !== undefined ? ` (was ${formatPence(data.wasAllInMinor)})` : '';
    return {
      title: 'Price drop on your wishlist',
      body: `${data.title} is now ${formatPence(data.now.allInMinor)}${was}, ${SHOWN_PRICE_WORDS.including}, ${SHOWN_PRICE_WORDS.postageFrom(data.now.postageFromMinor)}.`,
    };
  }
  return {
    title: 'A book on your wishlist has sold',
    body: `${data.title} has been sold to another reader. Other copies may be for sale.`,
  };
}
