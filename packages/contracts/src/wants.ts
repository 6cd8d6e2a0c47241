/**
 * Wants (issue 38, decision 0088): what a member is looking for, not a copy. A want names a work
 * (any edition), an edition (a catalogued edition or an ISBN), or the rest of a series, with the
 * conditions a copy must meet. One rule decides whether a copy meets a want (`wantMisses`), and
 * one set of words describes a want and the demand for an edition, on every screen and email.
 */
import { z } from 'zod';
import { BOOK_FORMAT_LABELS, BOOK_FORMATS, type BookFormat } from './catalogue.ts';
import { CONDITION_LABELS, CONDITIONS, type Condition } from './constants.ts';
import type { DustJacketState } from './edition-words.ts';
import { normaliseIsbn } from './isbn.ts';
import { formatPence } from './money.ts';
import { countOf, plural } from './plural.ts';

export const WANT_KINDS = ['work', 'edition', 'series'] as const;
export type WantKind = (typeof WANT_KINDS)[number];

export const WANT_ALERTS = ['instant', 'daily', 'off'] as const;
export type WantAlerts = (typeof WANT_ALERTS)[number];
export const WANT_ALERT_LABELS: Record<WantAlerts, string> = {
  instant: 'Email me at once',
  daily: 'Email me once a day',
  off: 'Don’t email me (still told in the app)',
};

/** Where a want came from. */
export const WANT_SOURCES = ['reshelf', 'goodreads', 'storygraph'] as const;
export type WantSource = (typeof WANT_SOURCES)[number];

export const WANT_LIMITS = {
  /** Wants one member may keep (a big to-read shelf fits). */
  maxWants: 2000,
  /** The most a want's all-in price may be, in pence (£10,000.00); the least is 1p. */
  maxPriceMinor: 1_000_000,
} as const;

const PRICE_RANGE = `between ${formatPence(1)} and ${formatPence(WANT_LIMITS.maxPriceMinor)}`;

export const WANT_MESSAGES = {
  tooMany: `You have ${WANT_LIMITS.maxWants} wants already. Remove some to add more.`,
  notFound: 'That isn’t one of your wants (any more).',
  noTarget: 'Choose the book, the edition or the series you want.',
  badIsbn: 'That ISBN isn’t valid: check its 10 or 13 digits.',
  maxPrice: `The most you’d pay must be ${PRICE_RANGE}, in pence.`,
  /** The same, where a person types pounds (the book page's form). */
  maxPriceTyped: `Type the most you’d pay in pounds, ${PRICE_RANGE} (e.g. 12.50).`,
  ownListing: 'This is your own listing.',
} as const;

/** The conditions a copy must meet for a want. All optional: none means any copy. */
export const wantConditionsSchema = z.object({
  firstEdition: z.boolean().default(false),
  signed: z.boolean().default(false),
  dustJacket: z.boolean().default(false).meta({ description: 'The copy has its dust jacket' }),
  minCondition: z.enum(CONDITIONS).nullable().default(null),
  maxAllInMinor: z
    .number()
    .int(WANT_MESSAGES.maxPrice)
    .min(1, WANT_MESSAGES.maxPrice)
    .max(WANT_LIMITS.maxPriceMinor, WANT_MESSAGES.maxPrice)
    .nullable()
    .default(null)
    .meta({
      description: 'The most the member would pay, all-in (postage and Buyer Protection included), in pence',
    }),
  format: z.enum(BOOK_FORMATS).nullable().default(null),
  noPrintOnDemand: z.boolean().default(false),
  noBookClub: z.boolean().default(false),
});
export type WantConditions = z.output<typeof wantConditionsSchema>;

export const NO_CONDITIONS: WantConditions = {
  firstEdition: false,
  signed: false,
  dustJacket: false,
  minCondition: null,
  maxAllInMinor: null,
  format: null,
  noPrintOnDemand: false,
  noBookClub: false,
};

const isbnTarget = z
  .string()
  .trim()
  .transform((value, ctx) => {
    const isbn = normaliseIsbn(value);
    if (!isbn) {
      ctx.addIssue({ code: 'custom', message: WANT_MESSAGES.badIsbn });
      return z.NEVER;
    }
    return isbn;
  })
  .meta({ examples: ['9780141439518'] });

/** What a want is for: a work, an edition (its id or ISBN), or the rest of a series. */
export const wantTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('work'), workId: z.uuid() }),
  z
    .object({
      kind: z.literal('edition'),
      /** A catalogued edition. */
      bookId: z.uuid().optional(),
      /** Or an ISBN, catalogued or not yet. */
      isbn: isbnTarget.optional(),
    })
    .refine((target) => target.bookId !== undefined || target.isbn !== undefined, {
      message: WANT_MESSAGES.noTarget,
    }),
  z.object({ kind: z.literal('series'), seriesId: z.uuid() }),
]);
export type WantTarget = z.output<typeof wantTargetSchema>;

export const wantInputSchema = z.object({
  target: wantTargetSchema,
  conditions: wantConditionsSchema.default(NO_CONDITIONS),
  alerts: z.enum(WANT_ALERTS).default('instant'),
});
export type WantInput = z.input<typeof wantInputSchema>;

/** A copy as a want sees it: the listing's own attributes and its all-in price. */
export interface CopyForWant {
  condition: Condition;
  format: BookFormat | null;
  firstEdition: boolean;
  signed: boolean;
  dustJacket: DustJacketState | null;
  printOnDemand: boolean;
  bookClub: boolean;
  /** The buyer's all-in price (shownPrice's `allInMinor`: price, postage from, Buyer Protection). */
  allInMinor: number;
}

export type WantMiss =
  | 'first_edition'
  | 'signed'
  | 'dust_jacket'
  | 'condition'
  | 'price'
  | 'format'
  | 'print_on_demand'
  | 'book_club';

/** Why a copy does not meet a want, in the member's words ("It isn’t signed"). */
export const WANT_MISS_TEXT: Record<WantMiss, string> = {
  first_edition: 'It isn’t a first edition',
  signed: 'It isn’t signed',
  dust_jacket: 'It has no dust jacket',
  condition: 'Its condition is below what you asked for',
  price: 'It costs more than you’d pay',
  format: 'It isn’t in the format you asked for',
  print_on_demand: 'It’s a print-on-demand copy',
  book_club: 'It’s a book-club edition',
};

/** Best first: like new, very good, good, well read. */
function conditionRank(condition: Condition): number {
  return CONDITIONS.indexOf(condition);
}

/**
 * The one rule: what keeps a copy from meeting a want's conditions. An empty list means it
 * meets them. (Whether the copy is of the want's work, edition or series is the target's
 * question, answered by the matcher before this.)
 */
export function wantMisses(conditions: WantConditions, copy: CopyForWant): WantMiss[] {
  const misses: WantMiss[] = [];
  if (conditions.firstEdition && !copy.firstEdition) misses.push('first_edition');
  if (conditions.signed && !copy.signed) misses.push('signed');
  if (conditions.dustJacket && (copy.dustJacket === null || copy.dustJacket === 'none')) {
    misses.push('dust_jacket');
  }
  if (conditions.minCondition && conditionRank(copy.condition) > conditionRank(conditions.minCondition)) {
    misses.push('condition');
  }
  if (conditions.maxAllInMinor !== null && copy.allInMinor > conditions.maxAllInMinor) misses.push('price');
  if (conditions.format && copy.format !== conditions.format) misses.push('format');
  if (conditions.noPrintOnDemand && copy.printOnDemand) misses.push('print_on_demand');
  if (conditions.noBookClub && copy.bookClub) misses.push('book_club');
  return misses;
}

export function wantAccepts(conditions: WantConditions, copy: CopyForWant): boolean {
  return wantMisses(conditions, copy).length === 0;
}

/** "Signed", "First edition", "Very good or better", "Up to £6.00 all-in"… (only those asked). */
export function describeWantConditions(conditions: WantConditions): string[] {
  const words: string[] = [];
  if (conditions.firstEdition) words.push('First edition');
  if (conditions.signed) words.push('Signed');
  if (conditions.dustJacket) words.push('With its dust jacket');
  if (conditions.minCondition) {
    words.push(
      conditions.minCondition === CONDITIONS[0]
        ? CONDITION_LABELS[conditions.minCondition]
        : `${CONDITION_LABELS[conditions.minCondition]} or better`,
    );
  }
  if (conditions.format) words.push(BOOK_FORMAT_LABELS[conditions.format]);
  if (conditions.maxAllInMinor !== null) words.push(`Up to ${formatPence(conditions.maxAllInMinor)} all-in`);
  if (conditions.noPrintOnDemand) words.push('No print-on-demand');
  if (conditions.noBookClub) words.push('No book-club editions');
  return words;
}

/** "Any copy" when nothing is asked, else the conditions joined. */
export function wantConditionsLine(conditions: WantConditions): string {
  const words = describeWantConditions(conditions);
  return words.length ? words.join(' · ') : 'Any copy';
}

export const WANT_WORDS = {
  /** Shown to a seller listing an edition: "3 readers want this". */
  demand: (readers: number) =>
    `${countOf(readers, 'reader', 'readers')} ${plural(readers, 'wants', 'want')} this`,
  /**
   * After a want is changed. `madeOne`: its new conditions were another of the member's wants
   * for that target, so the two are now that one (decision 0093).
   */
  changed: (madeOne: boolean) =>
    madeOne ? 'You already wanted it that way: the two wants are now one' : 'Your want is changed',
  /** What each kind of want is called on the member's list. */
  kind: { work: 'Any edition', edition: 'This edition', series: 'The rest of the series' } as Record<
    WantKind,
    string
  >,
} as const;

/** A want as the member's list shows it. */
export const wantViewSchema = z.object({
  id: z.uuid(),
  kind: z.enum(WANT_KINDS),
  /** The book or series it names, for the list ("Dracula", "Discworld"). */
  title: z.string(),
  authors: z.array(z.string()),
  /** Where it leads: the work's page, the edition's page, or the series' first work. */
  path: z.string().nullable(),
  workId: z.uuid().nullable(),
  bookId: z.uuid().nullable(),
  isbn13: z.string().nullable(),
  seriesId: z.uuid().nullable(),
  conditions: wantConditionsSchema,
  alerts: z.enum(WANT_ALERTS),
  source: z.enum(WANT_SOURCES),
  shelf: z.string().nullable(),
  /** Copies on sale now that meet it. */
  matchesOnSale: z.number().int().min(0),
  createdAt: z.iso.datetime(),
});
export type WantView = z.infer<typeof wantViewSchema>;
