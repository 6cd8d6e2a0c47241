/**
 * A fair price from Reshelf's own sales (issue 38, decision 0091): what the estimator answers and
 * the words the sell wizard, the charity bulk upload and the book and listing pages show it in.
 * The estimator itself is in api/src/commerce/fair-price.
 */
import { z } from 'zod';
import { CONDITION_LABELS, CONDITIONS, type Condition } from './constants.ts';
import { formatPence } from './money.ts';
import { countOf } from './plural.ts';

/** What a price band rests on, most specific first: this edition, the work, the format and genre. */
export const FAIR_PRICE_LEVELS = ['edition', 'work', 'format_genre'] as const;
export type FairPriceLevel = (typeof FAIR_PRICE_LEVELS)[number];

/** Levels a buyer is shown ("typical price"): only this book's own sales, never similar books'. */
export const FAIR_PRICE_PUBLIC_LEVELS: readonly FairPriceLevel[] = ['edition', 'work'];

export const fairPriceSchema = z.object({
  level: z.enum(FAIR_PRICE_LEVELS),
  /** How many sales the band rests on. */
  salesCount: z.number().int().positive(),
  /** The band: the 25th and 75th percentile of those sales' prices. */
  lowMinor: z.number().int().positive(),
  highMinor: z.number().int().positive(),
  /** The point suggestion: their median. */
  suggestionMinor: z.number().int().positive(),
});
export type FairPrice = z.infer<typeof fairPriceSchema>;

/** The estimator's question: an edition (a book id) in a condition, and the copy's format. */
export const fairPriceQuerySchema = z.object({
  bookId: z.string().uuid('Unknown book'),
  condition: z.enum(CONDITIONS, { message: 'Choose a condition' }),
  format: z.string().trim().min(1).max(40).nullish(),
});
export type FairPriceQuery = z.infer<typeof fairPriceQuerySchema>;

/** A charity bulk upload's preview asks for all its rows at once. */
export const FAIR_PRICE_MAX_BATCH = 500;

const WHERE: Record<FairPriceLevel, string> = {
  edition: 'for this edition',
  work: 'for this book (any edition)',
  format_genre: 'for similar books',
};

export const FAIR_PRICE_WORDS = {
  /** The sell wizard: "Suggested £4.50 · typical £3.90–£5.20 for this edition in Very good condition · from 23 sales". */
  suggestion: (price: FairPrice, condition: Condition) =>
    `Suggested ${formatPence(price.suggestionMinor)} · typical ${band(price)} ${WHERE[price.level]} in ${
      CONDITION_LABELS[condition]
    } condition · from ${countOf(price.salesCount, 'sale', 'sales')}`,
  /** The button that puts the suggestion in the price field. */
  use: (price: FairPrice) => `Use ${formatPence(price.suggestionMinor)}`,
  /** A bulk upload row: "Suggested £4.50 (£3.90–£5.20, 23 sales)". */
  short: (price: FairPrice) =>
    `Suggested ${formatPence(price.suggestionMinor)} (${band(price)}, ${countOf(price.salesCount, 'sale', 'sales')})`,
  /** Buyers, on a listing or book page. */
  typical: (price: FairPrice) => `Typical price ${band(price)} in this condition`,
  /** A book page, one line per condition: "Typical price £3.90–£5.20 in Very good condition". */
  typicalIn: (price: FairPrice, condition: Condition) =>
    `Typical price ${band(price)} in ${CONDITION_LABELS[condition]} condition (${countOf(price.salesCount, 'sale', 'sales')})`,
  /** Under the book page's lines, once. */
  typicalListBasis: 'Item prices of copies sold on Reshelf, before postage and buyer protection.',
  /** Under it: what the band is of (the book's own price, as the item price line shows it). */
  typicalBasis: (price: FairPrice) =>
    `The item price of ${countOf(price.salesCount, 'copy', 'copies')} sold on Reshelf, before postage and buyer protection`,
} as const;

function band(price: FairPrice): string {
  return `${formatPence(price.lowMinor)}–${formatPence(price.highMinor)}`;
}
