/**
 * Words that change with a count, through one rule on both sides (web, API, emails): the
 * en-GB plural rules of `Intl.PluralRules`, so "1 book", "0 books", "1.5 books", "2 books".
 * Every form is written out (`'book', 'books'`; `'has', 'have'`; `'copy', 'copies'`), never made
 * by adding an "s". `pnpm lint` refuses hand-made plurals (`n === 1 ? 'book' : 'books'`,
 * `'(s)'`): api/scripts/check-plurals.ts.
 */

const RULES = new Intl.PluralRules('en-GB');
const NUMBER = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 });

/** The form of a word (or words) for a count: plural(1, 'book', 'books') is "book", plural(3, 'has', 'have') "have". */
export function plural(count: number, one: string, other: string): string {
  return RULES.select(count) === 'one' ? one : other;
}

/** A count and the words after it: countOf(1, 'book', 'books') is "1 book", countOf(1234, 'sale', 'sales') "1,234 sales". */
export function countOf(count: number, one: string, other: string): string {
  return `${NUMBER.format(count)} ${plural(count, one, other)}`;
}
