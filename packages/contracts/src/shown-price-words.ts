/**
 * The words beside a shown price (decision 0071), on their own so that a listing card can say
 * them without loading the pricing rules (pricing.ts re-exports them).
 */
import { formatPence } from './money.ts';

/** A shown price's figures (pricing.ts: ShownPrice). */
interface ShownFigures {
  allInMinor: number;
  postageFromMinor: number;
}

/** The words beside a shown price, on the web and in emails and notifications (one wording). */
export const SHOWN_PRICE_WORDS = {
  includes: 'Includes buyer protection',
  including: 'including buyer protection',
  postageFrom: (postageFromMinor: number) => `+ postage from ${formatPence(postageFromMinor)}`,
  /** In a sentence: "£4.89 including buyer protection, + postage from £2.29". */
  inline: (shown: ShownFigures) =>
    `${formatPence(shown.allInMinor)} ${SHOWN_PRICE_WORDS.including}, ${SHOWN_PRICE_WORDS.postageFrom(shown.postageFromMinor)}`,
} as const;
