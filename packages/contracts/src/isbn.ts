/**
 * ISBNs as people type them: with or without hyphens and spaces, ISBN-10 or ISBN-13.
 * The catalogue stores ISBN-13; an ISBN-10 is converted (978 prefix, new check digit).
 */

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
