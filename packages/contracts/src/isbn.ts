/**
 * ISBNs as people type them: with or without hyphens and spaces, ISBN-10 or ISBN-13.
 * The catalogue stores ISBN-13; an ISBN-10 is converted (978 prefix, new check digit).
 */
import { parse } from 'isbn3';

function isbn13CheckDigit(first12: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(first12[i]) * (i % 2 === 0 ? 1 : 3);
  return String((10 - (sum % 10)) % 10);
}

function isbn10CheckDigit(first9: string): string {
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(first9[i]) * (10 - i);
  const check = (11 - (sum % 11)) % 11;
  return check === 10 ? 'X' : String(check);
}

export function isValidIsbn13(value: string): boolean {
  return /^97[89]\d{10}$/.test(value) && isbn13CheckDigit(value.slice(0, 12)) === value[12];
}

export function isValidIsbn10(value: string): boolean {
  return /^\d{9}[\dX]$/.test(value) && isbn10CheckDigit(value.slice(0, 9)) === value[9];
}

export function isbn10To13(isbn10: string): string {
  const first12 = `978${isbn10.slice(0, 9)}`;
  return first12 + isbn13CheckDigit(first12);
}

/** The ISBN-10 of a 978-prefixed ISBN-13 (979 ones have none). */
export function isbn13To10(isbn13: string): string | null {
  if (!isbn13.startsWith('978')) return null;
  const first9 = isbn13.slice(3, 12);
  return first9 + isbn10CheckDigit(first9);
}

/**
 * A valid ISBN-13 for text that is an ISBN-10 or ISBN-13 (hyphens, spaces and an "ISBN"
 * label allowed), or null when it is not one.
 */
export function normaliseIsbn(input: string): string | null {
  const compact = input
    .trim()
    .replace(/^isbn(?:-1[03])?:?\s*/i, '')
    .replace(/[\s\u2010-\u2015-]/g, '')
    .toUpperCase();
  if (isValidIsbn13(compact)) return compact;
  if (isValidIsbn10(compact)) return isbn10To13(compact);
  return null;
}

/** Why text is not an ISBN, so a person can be told what to fix. */
export type IsbnProblem = 'empty' | 'characters' | 'length' | 'prefix' | 'check_digit';

export type IsbnParse =
  | { ok: true; isbn13: string; isbn10: string | null; typed: 'isbn10' | 'isbn13' }
  | { ok: false; problem: IsbnProblem };

/** What to tell a person about each problem. */
export const ISBN_MESSAGES: Record<IsbnProblem, string> = {
  empty: 'Enter the ISBN from the back cover or the copyright page',
  characters: 'An ISBN has only digits (and an X at the end of some 10-digit ISBNs)',
  length: 'An ISBN has 10 or 13 digits: check you have typed them all',
  prefix: 'A 13-digit ISBN starts with 978 or 979',
  check_digit: 'That ISBN’s last digit doesn’t match the others: check it against the book',
};

/**
 * Parses an ISBN as a person typed it (hyphens, spaces, an "ISBN" label, a lower-case x),
 * saying what is wrong when it is not one: the wrong characters, the wrong length, a 13-digit
 * number that is not a book's (978/979), or a check digit that does not match.
 */
export function parseIsbn(input: string): IsbnParse {
  const compact = input
    .trim()
    .replace(/^isbn(?:-1[03])?:?\s*/i, '')
    .replace(/[\s\u2010-\u2015-]/g, '')
    .toUpperCase();
  if (compact === '') return { ok: false, problem: 'empty' };
  if (!/^\d+X?$/.test(compact)) return { ok: false, problem: 'characters' };
  if (compact.length === 13) {
    if (compact.endsWith('X')) return { ok: false, problem: 'characters' };
    if (!/^97[89]/.test(compact)) return { ok: false, problem: 'prefix' };
    if (!isValidIsbn13(compact)) return { ok: false, problem: 'check_digit' };
    return { ok: true, isbn13: compact, isbn10: isbn13To10(compact), typed: 'isbn13' };
  }
  if (compact.length === 10) {
    if (!isValidIsbn10(compact)) return { ok: false, problem: 'check_digit' };
    return { ok: true, isbn13: isbn10To13(compact), isbn10: compact, typed: 'isbn10' };
  }
  return { ok: false, problem: 'length' };
}

/**
 * An ISBN as it is printed in the book, hyphenated by the ISBN ranges: "978-0-261-10221-7",
 * "0-261-10221-4" (decision 0055). The one formatter for every ISBN the site shows. The ranges
 * are the International ISBN Agency's, as the isbn3 package keeps them; hyphens already in the
 * text are not trusted. Text that is no valid ISBN, or in no range yet, is shown as it came.
 */
export function formatIsbn(isbn: string): string {
  const parsed = parse(isbn);
  if (!parsed) return isbn;
  return parsed.isIsbn10 ? (parsed.isbn10h ?? isbn) : parsed.isbn13h;
}
