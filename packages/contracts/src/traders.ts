/**
 * Traders and consumers (Consumer Contracts Regulations 2013; issue 35, decision 0073).
 * Charities and business sellers sell as traders: before the order the buyer is shown the
 * trader's name and geographic address (and charity or company number) and the cancellation
 * rights; a private seller is not a trader and says so. Every text a buyer sees about it is
 * here, written from the numbers below, and read by the listing page, checkout, the order
 * confirmation email and the code that enforces the windows (commerce/disputes).
 */
import { z } from 'zod';
import { COMMERCIAL_DEFAULTS } from './constants.ts';
import { formatPence } from './money.ts';

/** The cancellation rights a trader's buyer has, in days (regs. 29–30, 34). */
export const CANCELLATION_RULES = {
  /** The buyer may cancel without giving a reason within this many days of delivery. */
  cancelDays: COMMERCIAL_DEFAULTS.charityReturnDays,
  /** …and then has this many days from cancelling to send the book back. */
  sendBackDays: 14,
  /**
   * The trader refunds within this many days of getting the book back, or of the buyer's proof
   * of posting it (the tracking), whichever is first.
   */
  refundDays: 14,
  /** The refund includes the outbound postage, at the standard band the buyer paid (not more). */
  refundsOutboundPostage: true,
  /** The buyer pays to post the book back, unless it is faulty (then buyer protection covers it). */
  returnPostageBy: 'buyer',
} as const;

/** What a private seller's listing and checkout line say, word for word. */
export const PRIVATE_SELLER_NOTICE =
  "Sold by a private seller: consumer cancellation rights don't apply; buyer protection does";

/** The cancellation rights, one sentence each, as the buyer reads them before and after ordering. */
export const CANCELLATION_RIGHTS: readonly string[] = [
  `You may cancel within ${CANCELLATION_RULES.cancelDays} days of delivery without giving a reason.`,
  `After cancelling you have ${CANCELLATION_RULES.sendBackDays} more days to send the book back.`,
  `You are refunded within ${CANCELLATION_RULES.refundDays} days of the seller getting the book back (or of your proof of posting it), including the standard postage you paid to have it sent.`,
  'You pay the postage to send it back, unless the book is faulty or not as described: then buyer protection covers it.',
];

/** The heading over the rights. */
export const CANCELLATION_RIGHTS_TITLE = 'Your right to cancel';

/** The model cancellation form (Schedule 3, Part B), with the trader's details to fill in. */
export function modelCancellationForm(trader: {
  name: string;
  address: string;
  email: string | null;
}): string {
  return [
    'Model cancellation form',
    '(Complete and return this form only if you wish to withdraw from the contract)',
    `To: ${trader.name}, ${trader.address}${trader.email ? `, ${trader.email}` : ''}`,
    'I hereby give notice that I cancel my contract of sale of the following goods:',
    'Ordered on / received on:',
    'Name of consumer:',
    'Address of consumer:',
    'Signature of consumer (only if this form is notified on paper):',
    'Date:',
  ].join('\n');
}

/**
 * The order button's words (reg. 14(3): the button says that ordering means paying). One text
 * for every checkout: a single book, a basket, an offer.
 */
export function orderButtonLabel(totalMinor: number): string {
  return `${ORDER_BUTTON_WORDS} ${formatPence(totalMinor)}`;
}

/** The order button's words before the amount (tests that read the amount from the page use it). */
export const ORDER_BUTTON_WORDS = 'Place order and pay';

/** The trader a listing is sold by, shown before the order; null for a private seller. */
export const traderSchema = z.object({
  kind: z.enum(['charity', 'business']),
  name: z.string(),
  /** The geographic address, one line. */
  address: z.string(),
  /** "Registered charity number" or "Company number", and the number; null for a sole trader. */
  registration: z.object({ label: z.string(), number: z.string() }).nullable(),
  vatNumber: z.string().nullable(),
  email: z.string().nullable(),
});
export type Trader = z.infer<typeof traderSchema>;

/** The one-line address a buyer reads. */
export function traderAddress(parts: {
  addressLine1: string | null;
  addressLine2?: string | null;
  town: string | null;
  postcode: string | null;
}): string {
  return [parts.addressLine1, parts.addressLine2, parts.town, parts.postcode].filter(Boolean).join(', ');
}

/** Who the trader is, in one sentence (the order confirmation). */
export function traderSummary(trader: Trader): string {
  const registration = trader.registration
    ? ` (${trader.registration.label}: ${trader.registration.number})`
    : '';
  return `Sold by ${trader.name}, ${trader.address}${registration}.`;
}
