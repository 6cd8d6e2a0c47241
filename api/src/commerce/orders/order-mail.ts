/**
 * The emails of the order lifecycle: placed, dispatched, delivered, completed,
 * cancelled, dispute opened and resolved, payouts released, and the offer steps. Queued in the
 * outbox on the transaction of the step itself (decision 0028): they exist exactly when the
 * step committed, and go out after it. Each step's in-app notifications (decision 0036) are
 * written here too, beside its emails and in the same transaction, with the same words: every
 * party told by email is told in the app, whatever their email settings.
 */
import {
  booksTitle,
  CANCELLATION_RIGHTS,
  CANCELLATION_RIGHTS_TITLE,
  countOf,
  formatPence,
  modelCancellationForm,
  type OrderDelivery,
  orderDeliveryWords,
  PRIVATE_SELLER_NOTICE,
  PROTECTION_RULES,
  plural,
  type Trader,
  traderSummary,
} from '@reshelf/contracts';
import { sql } from 'kysely';
import { traderOfListing } from '../../catalogue/index.ts';
import { openReviewWindow } from '../../community/index.ts';
import type { Database } from '../../db/index.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import { layout } from '../../platform/mail/templates.ts';
import { type NotificationInput, notify } from '../../platform/notifications/notify.ts';
import { sellerEarnings } from '../money/amounts.ts';
import { orderDeliveryOf } from './order-views.ts';

const londonDayFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});
const londonDay = (date: Date) => londonDayFormat.format(date);

export interface OrderMailDeps {
  db: Database;
  mailer: Mailer;
  /** The site's origin, for the links. */
  origin: string;
  log?: (message: string, error?: unknown) => void;
}

interface Party {
  id: string;
  email: string;
  name: string;
}

export interface OrderParties {
  reference: string;
  /** The book's title, or "3 books" for an order of several (decision 0043). */
  title: string;
  /** Every book's title, first to last. */
  titles: string[];
  totalMinor: number;
  payoutMinor: number;
  /** A charity sale's payout still held through the return window: when it will be released. */
  payoutReleaseAfter: Date | null;
  buyer: Party;
  seller: Party;
  /** The trader selling the books (a charity, a business seller); null: a private seller. */
  trader: Trader | null;
  /** How the buyer chose to receive it (null on an order from before issue 37). */
  delivery: OrderDelivery | null;
}

/** The delivery choice in one sentence: "Collect from a locker or parcel shop: InPost Locker …, EC1A 9WB. Expected by …". */
export function deliveryLine(delivery: OrderDelivery): string {
  const words = orderDeliveryWords(delivery);
  return [
    `${words.method}${words.point ? `: ${words.point}` : ''}.`,
    words.expected ? `${words.expected}.` : null,
  ]
    .filter(Boolean)
    .join(' ');
}

export async function orderParties(db: Database, orderId: string): Promise<OrderParties | undefined> {
  const row = await db
    .selectFrom('orders as o')
    .innerJoin('auth.users as bu', 'bu.id', 'o.buyer_id')
    .innerJoin('auth.users as su', 'su.id', 'o.seller_id')
    .leftJoin('profiles as bp', 'bp.id', 'o.buyer_id')
    .leftJoin('profiles as sp', 'sp.id', 'o.seller_id')
    .leftJoin('payouts as po', (join) => join.onRef('po.order_id', '=', 'o.id').on('po.status', '=', 'held'))
    .select([
      'po.release_after',
      'o.reference',
      'o.total_minor',
      'o.item_price_minor',
      'o.bundle_discount_minor',
      'o.postage_minor',
      'o.delivery_method',
      'o.postage_band',
      'o.drop_off_point',
      sql<string | null>`to_char(o.expected_delivery_on, 'YYYY-MM-DD')`.as('expected_delivery_on'),
      'o.buyer_id',
      'o.seller_id',
      'bu.email as buyer_email',
      'su.email as seller_email',
      'bp.display_name as buyer_name',
      'sp.display_name as seller_name',
    ])
    .where('o.id', '=', orderId)
    .executeTakeFirst();
  if (!row) return undefined;
  const items = await db
    .selectFrom('order_items as i')
    .innerJoin('listings as l', 'l.id', 'i.listing_id')
    .innerJoin('books as b', 'b.id', 'l.book_id')
    .select(['b.title', 'i.listing_id'])
    .where('i.order_id', '=', orderId)
    .orderBy('i.position')
    .execute();
  const titles = items.map((item) => item.title);
  return {
    reference: row.reference,
    title: booksTitle(titles),
    titles,
    totalMinor: row.total_minor,
    // The seller gives the bundle discount (decision 0043).
    payoutMinor: sellerEarnings({
      itemsMinor: row.item_price_minor,
      bundleDiscountMinor: row.bundle_discount_minor,
      postageMinor: row.postage_minor,
    }),
    payoutReleaseAfter: row.release_after,
    buyer: { id: row.buyer_id, email: row.buyer_email ?? '', name: row.buyer_name ?? 'there' },
    seller: { id: row.seller_id, email: row.seller_email ?? '', name: row.seller_name ?? 'there' },
    // Every book of an order is one seller's (one charity's): the first names the trader.
    trader: items[0] ? await traderOfListing(db, items[0].listing_id) : null,
    delivery: orderDeliveryOf(row),
  };
}

export type OrderMailKind =
  | 'placed'
  | 'dispatched'
  | 'delivered'
  | 'completed'
  | 'cancelled'
  | 'dispute_opened'
  | 'dispute_resolved_refund'
  | 'dispute_resolved_release'
  | 'dispute_withdrawn'
  | 'payout_released'
  /** The carrier could not deliver the parcel (issue 37): `detail` says where to collect it. */
  | 'delivery_failed'
  /** The carrier is taking the parcel back to the seller. */
  | 'returned_to_sender'
  /** The seller has the returned parcel back: the buyer is refunded in full. */
  | 'returned_parcel_refunded';

interface Letter {
  to: Party;
  subject: string;
  lines: string[];
  action: { label: string; url: string };
  /** The notification this letter's reader gets in the app (null: none, e.g. their own report). */
  notice: NotificationInput['kind'] | null;
}

/** “A”, “B” and “C”. */
function listTitles(titles: string[]): string {
  const quoted = titles.map((title) => `“${title}”`);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}` : (quoted[0] ?? '');
}

/** The letters one event of an order sends, each to its reader (exported for its unit test). */
export function letters(
  kind: OrderMailKind,
  p: OrderParties,
  origin: string,
  orderId: string,
  detail: string | null,
): Letter[] {
  const buyerUrl = (id: string) => ({ label: 'View your order', url: `${origin}/account/orders/${id}` });
  const sellerUrl = (id: string) => ({ label: 'View the sale', url: `${origin}/account/sales/${id}` });
  const ref = `order ${p.reference}`;
  // One book: “Its title”; several: 3 books (“A”, “B” and “C”), every one named.
  const title =
    p.titles.length > 1
      ? `${countOf(p.titles.length, 'book', 'books')} (${listTitles(p.titles)})`
      : `“${p.title}”`;
  const several = p.titles.length > 1;
  const has = plural(p.titles.length, 'has', 'have');
  switch (kind) {
    case 'placed':
      return [
        {
          to: p.buyer,
          subject: `Order confirmed: ${p.title}`,
          lines: [
            `Thanks for your order, ${p.buyer.name}. You paid ${formatPence(p.totalMinor)} for ${title} (${ref}).`,
            several
              ? 'The seller has 5 working days to send them, in one parcel. We will email you the tracking reference as soon as it is on its way.'
              : 'The seller has 5 working days to send it. We will email you the tracking reference as soon as it is on its way.',
            ...(p.delivery ? [deliveryLine(p.delivery)] : []),
            // What the buyer may do, on a durable medium (Consumer Contracts Regulations reg. 16).
            ...(p.trader
              ? [
                  traderSummary(p.trader),
                  `${CANCELLATION_RIGHTS_TITLE}:`,
                  ...CANCELLATION_RIGHTS,
                  ...modelCancellationForm(p.trader).split('\n'),
                ]
              : [PRIVATE_SELLER_NOTICE]),
          ],
          action: buyerUrl(orderId),
          notice: 'order_paid',
        },
        {
          to: p.seller,
          subject: `You sold ${p.title} — please send ${plural(p.titles.length, 'it', 'them')}`,
          lines: [
            `Good news, ${p.seller.name}: ${title} ${has} sold (${ref}).`,
            several
              ? 'Please post them together in one parcel within 5 working days and add the carrier and tracking reference, or the order will be cancelled and the buyer refunded.'
              : 'Please post it within 5 working days and add the carrier and tracking reference, or the order will be cancelled and the buyer refunded.',
            `You will receive ${formatPence(p.payoutMinor)} once the buyer confirms everything is OK.`,
          ],
          action: sellerUrl(orderId),
          notice: 'order_sold',
        },
      ];
    case 'dispatched':
      return [
        {
          to: p.buyer,
          subject: `On its way: ${p.title}`,
          lines: [
            `${title} ${has} been dispatched (${ref}). ${detail ?? ''}`.trim(),
            'When it arrives, check it matches the description and tap “Everything is OK”, or report a problem within 2 days.',
          ],
          action: buyerUrl(orderId),
          notice: 'order_dispatched',
        },
      ];
    case 'delivered':
      return [
        {
          to: p.buyer,
          subject: `Delivered: ${p.title}`,
          lines: [
            `${title} ${has} been delivered (${ref}).`,
            'If everything is as described, tap “Everything is OK” so the seller is paid. If something is wrong, report it within 2 days; after that the order completes automatically.',
          ],
          action: buyerUrl(orderId),
          notice: 'order_delivered',
        },
        {
          to: p.seller,
          subject: `Delivered: ${p.title}`,
          lines: [
            `${title} ${has} been delivered to the buyer (${ref}).`,
            `Your ${formatPence(p.payoutMinor)} is released when the buyer confirms, or automatically after 2 days.`,
          ],
          action: sellerUrl(orderId),
          notice: 'order_delivered',
        },
      ];
    case 'completed':
      return [
        {
          to: p.buyer,
          subject: `Order complete: ${p.title}`,
          lines: [`Your order for ${title} is complete (${ref}). Happy reading!`],
          action: buyerUrl(orderId),
          notice: 'order_completed',
        },
        p.payoutReleaseAfter
          ? {
              to: p.seller,
              subject: `Order complete: ${formatPence(p.payoutMinor)} on ${londonDay(p.payoutReleaseAfter)}`,
              lines: [
                `The order for ${title} is complete (${ref}).`,
                `${formatPence(p.payoutMinor)} will be released to your payouts on ${londonDay(p.payoutReleaseAfter)}, when the buyer’s 14-day return window closes.`,
              ],
              action: { label: 'View your payouts', url: `${origin}/account/payouts` },
              notice: 'order_completed',
            }
          : {
              to: p.seller,
              subject: `Payout released: ${formatPence(p.payoutMinor)}`,
              lines: [
                `The order for ${title} is complete (${ref}).`,
                `${formatPence(p.payoutMinor)} has been released to your payouts.`,
              ],
              action: { label: 'View your payouts', url: `${origin}/account/payouts` },
              notice: 'payout_released',
            },
      ];
    case 'cancelled':
      return [
        {
          to: p.buyer,
          subject: `Order cancelled and refunded: ${p.title}`,
          lines: [
            `Your order for ${title} has been cancelled (${ref}). ${detail ?? ''}`.trim(),
            `We have refunded ${formatPence(p.totalMinor)} to your original payment method; it usually shows within 5–10 working days.`,
          ],
          action: buyerUrl(orderId),
          notice: 'order_cancelled',
        },
        {
          to: p.seller,
          subject: `Order cancelled: ${p.title}`,
          lines: [`The order for ${title} has been cancelled (${ref}). ${detail ?? ''}`.trim()],
          action: sellerUrl(orderId),
          notice: 'order_cancelled',
        },
      ];
    case 'dispute_opened':
      return [
        {
          to: p.buyer,
          subject: `We have your report: ${p.title}`,
          lines: [
            `Thanks for telling us about ${ref}. The seller's payment is on hold while this is sorted out.`,
            `The seller has ${PROTECTION_RULES.sellerResponseWorkingDays} working days to answer: a refund, an offer, asking for the book back, or their side of it. If they don't answer in time, our team decides.`,
          ],
          action: buyerUrl(orderId),
          notice: null,
        },
        {
          to: p.seller,
          subject: `The buyer reported a problem: ${p.title}`,
          lines: [
            `The buyer of ${title} has reported a problem (${ref}): ${detail ?? ''}`.trim(),
            `Your payout is on hold. You have ${PROTECTION_RULES.sellerResponseWorkingDays} working days to answer from the sale page: refund in full, offer part of it back, ask for the book back, or tell us your side with photos. If you don't answer in time, our team decides.`,
          ],
          action: sellerUrl(orderId),
          notice: 'dispute_opened',
        },
      ];
    case 'dispute_resolved_refund':
      return [
        {
          to: p.buyer,
          subject: `Refund on its way: ${p.title}`,
          lines: [
            `We have resolved your report on ${ref} in your favour and refunded ${formatPence(p.totalMinor)}.`,
            detail ?? '',
          ].filter(Boolean),
          action: buyerUrl(orderId),
          notice: 'dispute_resolved',
        },
        {
          to: p.seller,
          subject: `Report resolved: ${p.title}`,
          lines: [`We have resolved the report on ${ref} by refunding the buyer.`, detail ?? ''].filter(
            Boolean,
          ),
          action: sellerUrl(orderId),
          notice: 'dispute_resolved',
        },
      ];
    case 'dispute_resolved_release':
      return [
        {
          to: p.buyer,
          subject: `Report resolved: ${p.title}`,
          lines: [
            `We have looked into your report on ${ref} and released the payment to the seller.`,
            detail ?? '',
          ].filter(Boolean),
          action: buyerUrl(orderId),
          notice: 'dispute_resolved',
        },
        {
          to: p.seller,
          subject: p.payoutReleaseAfter
            ? `Report resolved: ${formatPence(p.payoutMinor)} on ${londonDay(p.payoutReleaseAfter)}`
            : `Payout released: ${formatPence(p.payoutMinor)}`,
          lines: [
            p.payoutReleaseAfter
              ? `We have resolved the report on ${ref} in your favour. ${formatPence(p.payoutMinor)} will be released to your payouts on ${londonDay(p.payoutReleaseAfter)}, when the buyer’s 14-day return window closes.`
              : `We have resolved the report on ${ref} and released ${formatPence(p.payoutMinor)} to your payouts.`,
            detail ?? '',
          ].filter(Boolean),
          action: { label: 'View your payouts', url: `${origin}/account/payouts` },
          notice: 'dispute_resolved',
        },
      ];
    case 'payout_released':
      return [
        {
          to: p.seller,
          subject: `Payout released: ${formatPence(p.payoutMinor)}`,
          lines: [
            `The buyer’s 14-day return window for ${title} has closed (${ref}).`,
            `${formatPence(p.payoutMinor)} has been released to your payouts.`,
          ],
          action: { label: 'View your payouts', url: `${origin}/account/payouts` },
          notice: 'payout_released',
        },
      ];
    case 'delivery_failed':
      return [
        {
          to: p.buyer,
          subject: `The carrier could not deliver: ${p.title}`,
          lines: [
            `The carrier could not deliver ${title} (${ref}).`,
            detail ??
              'Look for the card the carrier left: it says where to collect the parcel or how to arrange another delivery.',
            'If it does not reach you, the carrier sends it back to the seller and you are refunded in full.',
          ],
          action: buyerUrl(orderId),
          notice: 'parcel_problem',
        },
        {
          to: p.seller,
          subject: `The carrier could not deliver: ${p.title}`,
          lines: [
            `The carrier could not deliver ${title} to the buyer (${ref}). We have told the buyer how to collect it.`,
            'There is nothing for you to do yet. If the carrier sends it back to you, confirm on the sale page when it arrives and the buyer is refunded.',
          ],
          action: sellerUrl(orderId),
          notice: 'parcel_problem',
        },
      ];
    case 'returned_to_sender':
      return [
        {
          to: p.buyer,
          subject: `Your parcel is going back to the seller: ${p.title}`,
          lines: [
            `The carrier could not deliver ${title} and is returning it to the seller (${ref}).`,
            `When the seller has it back, you are refunded ${formatPence(p.totalMinor)} in full.`,
          ],
          action: buyerUrl(orderId),
          notice: 'parcel_problem',
        },
        {
          to: p.seller,
          subject: `Coming back to you: ${p.title}`,
          lines: [
            `The carrier could not deliver ${title} and is returning it to you (${ref}).`,
            'When it arrives, open the sale and tap “It came back”: the buyer is refunded in full and the sale closes.',
          ],
          action: sellerUrl(orderId),
          notice: 'parcel_problem',
        },
      ];
    case 'returned_parcel_refunded':
      return [
        {
          to: p.buyer,
          subject: `Refunded: ${p.title}`,
          lines: [
            `The seller has the parcel back (${ref}), so we have refunded ${formatPence(p.totalMinor)} to your original payment method; it usually shows within 5–10 working days.`,
          ],
          action: buyerUrl(orderId),
          notice: 'refund',
        },
        {
          to: p.seller,
          subject: `Sale closed: ${p.title}`,
          lines: [
            `You confirmed ${title} came back (${ref}). The buyer is refunded and the sale is closed; you can put the book on sale again.`,
          ],
          action: sellerUrl(orderId),
          notice: 'refund',
        },
      ];
    case 'dispute_withdrawn':
      return [
        {
          to: p.seller,
          subject: `Report withdrawn: ${p.title}`,
          lines: [
            `The buyer has withdrawn their report on ${ref}.`,
            p.payoutReleaseAfter
              ? `${formatPence(p.payoutMinor)} will be released to your payouts on ${londonDay(p.payoutReleaseAfter)}, when the buyer’s 14-day return window closes.`
              : `${formatPence(p.payoutMinor)} has been released to your payouts.`,
          ],
          action: { label: 'View your payouts', url: `${origin}/account/payouts` },
          notice: 'dispute_resolved',
        },
      ];
  }
}

/**
 * Queues the step's emails to both parties (as the step needs) on `trx`, the transaction that
 * makes the step; it reads the order there too, so the letters describe the step's outcome.
 */
export async function queueOrderMail(
  trx: Database,
  deps: OrderMailDeps,
  orderId: string,
  kind: OrderMailKind,
  detail: string | null = null,
): Promise<void> {
  const parties = await orderParties(trx, orderId);
  if (!parties) return;
  // An order that has just completed, by whichever step: both sides are asked to review each
  // other (decision 0048). Queued first, so the step's own letter stays the latest one.
  await openReviewWindow(trx, deps, orderId);
  const all = letters(kind, parties, deps.origin, orderId, detail);
  await notify(
    trx,
    all.flatMap((letter) =>
      letter.notice
        ? [
            {
              userId: letter.to.id,
              kind: letter.notice,
              title: letter.subject,
              body: letter.lines.join(' '),
              link: letter.action.url,
              orderId,
            },
          ]
        : [],
    ),
  );
  for (const letter of all) {
    if (!letter.to.email) continue;
    const { action } = letter;
    await deps.mailer.send(
      {
        to: letter.to.email,
        subject: letter.subject,
        text: `${letter.lines.join('\n\n')}\n\n${action.label}: ${action.url}\n`,
        html: layout(letter.lines, action),
        template: `order.${kind}`,
        userId: letter.to.id,
      },
      { trx },
    );
  }
}

/**
 * A refund staff made on an order: the buyer is told what comes back, the seller what it costs
 * them. Queued on `trx`, the refund's transaction.
 */
export async function queueStaffRefundMail(
  trx: Database,
  deps: OrderMailDeps,
  orderId: string,
  refund: { amountMinor: number; full: boolean; reason: string; sellerDeductedMinor: number },
): Promise<void> {
  const p = await orderParties(trx, orderId);
  if (!p) return;
  const ref = `order ${p.reference}`;
  const letters: Letter[] = [
    {
      to: p.buyer,
      subject: `Refund of ${formatPence(refund.amountMinor)}: ${p.title}`,
      lines: [
        `We have refunded ${formatPence(refund.amountMinor)} on ${ref} for “${p.title}”${refund.full ? ', all that was left to refund' : ''}.`,
        `Why: ${refund.reason}`,
        'It goes back to the card you paid with, usually within 5 to 10 working days.',
      ],
      action: { label: 'View your order', url: `${deps.origin}/account/orders/${orderId}` },
      notice: 'refund',
    },
  ];
  if (refund.sellerDeductedMinor > 0) {
    letters.push({
      to: p.seller,
      subject: `Refund on ${p.reference}: ${formatPence(refund.sellerDeductedMinor)} from your payout`,
      lines: [
        `Our team refunded the buyer ${formatPence(refund.amountMinor)} on ${ref} for “${p.title}”.`,
        `Why: ${refund.reason}`,
        `${formatPence(refund.sellerDeductedMinor)} of it comes out of your payout for this sale. If you think this is wrong, reply to this email.`,
      ],
      action: { label: 'View your payouts', url: `${deps.origin}/account/payouts` },
      notice: 'refund',
    });
  }
  await notify(
    trx,
    letters.map((letter) => ({
      userId: letter.to.id,
      kind: 'refund' as const,
      title: letter.subject,
      body: letter.lines.join(' '),
      link: letter.action.url,
      orderId,
    })),
  );
  for (const letter of letters) {
    if (!letter.to.email) continue;
    await deps.mailer.send(
      {
        to: letter.to.email,
        subject: letter.subject,
        text: `${letter.lines.join('\n\n')}\n\n${letter.action.label}: ${letter.action.url}\n`,
        html: layout(letter.lines, letter.action),
        template: letter.to === p.buyer ? 'order.staff_refund' : 'order.staff_refund_seller',
        userId: letter.to.id,
      },
      { trx },
    );
  }
}

export interface OfferMail {
  to: { id: string; email: string };
  subject: string;
  lines: string[];
  action: { label: string; url: string };
  template: OfferTemplate;
  /** The round it is about (the notification leads to the thread and shows its book). */
  offerId: string;
}

/** Each offer email's template, and the notification its reader gets in the app. */
const OFFER_NOTICES = {
  'offer.made': 'offer_received',
  'offer.countered': 'offer_countered',
  'offer.accepted': 'offer_accepted',
  'offer.declined': 'offer_declined',
  'offer.expired': 'offer_expired',
  'offer.cancelled': 'offer_cancelled',
} as const satisfies Record<string, NotificationInput['kind']>;
export type OfferTemplate = keyof typeof OFFER_NOTICES;

/**
 * Queues one offer email on `trx`, the transaction of the offer step, and writes its reader's
 * notification there too.
 */
export async function queueOfferMail(trx: Database, deps: OrderMailDeps, mail: OfferMail): Promise<void> {
  await notify(trx, {
    userId: mail.to.id,
    kind: OFFER_NOTICES[mail.template],
    title: mail.subject,
    body: mail.lines.join(' '),
    link: mail.action.url,
    offerId: mail.offerId,
  });
  await deps.mailer.send(
    {
      to: mail.to.email,
      subject: mail.subject,
      text: `${mail.lines.join('\n\n')}\n\n${mail.action.label}: ${mail.action.url}\n`,
      html: layout(mail.lines, mail.action),
      template: mail.template,
      userId: mail.to.id,
    },
    { trx },
  );
}
