/**
 * "Did you mean" (decision 0080), the part that needs no database: which words of a query may be
 * corrected, the spellings one slip away from a short word, how far two spellings are apart, the
 * choice among the dictionary's look-alikes, and the query with its corrections in place.
 */
import type { Correction } from '@reshelf/contracts';
import { FUZZY_STOPWORDS, SUGGESTION_WORDS } from '../listings/listings.service.ts';

/**
 * The words of q that may be corrected, lower case, each once, the first SUGGESTION_WORDS: not
 * inside "quotes" (asked for as typed), not -excluded, not a little word, not under three
 * letters (too few trigrams to resemble anything by more than chance), and not holding a digit
 * (a year, an edition, a part of an ISBN).
 */
export function correctableWords(q: string): string[] {
  const words = tokens(q)
    .filter((token) => token.correctable)
    .map((token) => token.word);
  return [...new Set(words)].slice(0, SUGGESTION_WORDS);
}

interface Token {
  /** The text as typed, with its quotes and spacing. */
  text: string;
  /** The word in it, lower case, without quotes or a leading minus ('' for spacing). */
  word: string;
  correctable: boolean;
}

/** q split into spacing and words, each word knowing whether it may be corrected. */
function tokens(q: string): Token[] {
  let quoted = false;
  return q.split(/(\s+)/).map((text) => {
    if (!text || /^\s+$/.test(text)) return { text, word: '', correctable: false };
    const opens = quoted || /^["“”]/.test(text);
    const quotes = (text.match(/["“”]/g) ?? []).length;
    if (quotes % 2 === 1) quoted = !quoted;
    const word = text.replace(/["“”]/g, '').toLowerCase();
    const correctable =
      !opens &&
      quotes === 0 &&
      !word.startsWith('-') &&
      /^\p{L}+$/u.test(word) &&
      [...word].length >= 3 &&
      !FUZZY_STOPWORDS.has(word);
    return { text, word, correctable };
  });
}

/** q with each corrected word replaced (lower case), everything else as typed. */
export function correctedText(q: string, corrections: readonly Correction[]): string {
  const byWord = new Map(corrections.map((c) => [c.from, c.to]));
  return tokens(q)
    .map((token) => (token.correctable ? (byWord.get(token.word) ?? token.text) : token.text))
    .join('');
}

/** Words at most this long are also looked up one slip away; trigrams alone miss them. */
export const SHORT_WORD = 6;

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * Every spelling one slip from a short word: a letter dropped, doubled, swapped with its
 * neighbour, replaced or added. Empty for longer words (their trigrams find their look-alikes),
 * and for words outside a–z.
 */
export function oneSlipFrom(word: string): string[] {
  if (word.length > SHORT_WORD || !/^[a-z]+$/.test(word)) return [];
  const out = new Set<string>();
  for (let i = 0; i <= word.length; i++) {
    const head = word.slice(0, i);
    const tail = word.slice(i);
    if (tail) out.add(head + tail.slice(1));
    if (tail.length > 1) out.add(head + tail[1] + tail[0] + tail.slice(2));
    for (const letter of LETTERS) {
      if (tail) out.add(head + letter + tail.slice(1));
      out.add(head + letter + tail);
    }
  }
  out.delete(word);
  return [...out].filter((candidate) => candidate.length >= 3);
}

/** Edits between two spellings: a letter dropped, added, replaced, or two neighbours swapped. */
export function slips(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      }
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** How many slips a word of this length may carry and still be corrected. */
export function slipsAllowed(word: string): number {
  const length = [...word].length;
  return length <= 4 ? 1 : length <= 8 ? 2 : 3;
}

/** A word of the dictionary that looks like a query's word, and how many editions carry it. */
export interface LookAlike {
  word: string;
  editions: number;
  similarity: number;
}

/**
 * The correction for a word the catalogue does not know: among the dictionary's look-alikes
 * (trigram neighbours, and for a short word its spellings one slip away), those within
 * slipsAllowed; the fewest slips first, then the most similar, then the commonest, then A–Z.
 * Null when none is close enough.
 */
export function chooseCorrection(word: string, lookAlikes: readonly LookAlike[]): string | null {
  const allowed = slipsAllowed(word);
  const ranked = lookAlikes
    .filter((candidate) => candidate.word !== word)
    .map((candidate) => ({ ...candidate, slips: slips(word, candidate.word) }))
    .filter((candidate) => candidate.slips <= allowed)
    .sort(
      (a, b) =>
        a.slips - b.slips ||
        b.similarity - a.similarity ||
        b.editions - a.editions ||
        (a.word < b.word ? -1 : a.word > b.word ? 1 : 0),
    );
  return ranked[0]?.word ?? null;
}
