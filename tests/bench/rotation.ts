/**
 * The inputs each catalogue scenario cycles through: thousands of distinct searches, filtered
 * browses and listing pages, generated deterministically from the seed's own vocabulary, so a
 * run's requests are mostly distinct and no cache (the public cache, or any other keyed by the
 * input) can answer most of them from memory. Pure (bench.test.ts).
 */
import { type BrowseInput, CONDITIONS, type SearchInput } from '@reshelf/contracts';
import { SNAPSHOT_BOOKS } from '../../api/src/seed/books.ts';
import { ADJECTIVES, FIRST, LAST, NOUNS, PHRASES, PLACES } from './seed.ts';

/** A small seeded PRNG (mulberry32): the same inputs in every run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: () => number, values: readonly T[]): T =>
  values[Math.floor(random() * values.length)]!;

/** One typing slip: two neighbouring letters swapped, or one dropped. */
function misspell(random: () => number, text: string): string {
  if (text.length < 5) return text;
  const at = 1 + Math.floor(random() * (text.length - 3));
  if (random() < 0.5) return text.slice(0, at) + text[at + 1] + text[at] + text.slice(at + 2);
  return text.slice(0, at) + text.slice(at + 1);
}

/** `count` distinct search inputs: titles, authors, places, description words, ISBNs, slips. */
export function searchInputs(count: number, seed = 22): SearchInput[] {
  const random = prng(seed);
  const kinds: Array<() => string> = [
    () => `the ${pick(random, ADJECTIVES)} ${pick(random, NOUNS)}`,
    () => `${pick(random, NOUNS)} of ${pick(random, PLACES)}`,
    () => `${pick(random, ADJECTIVES)} ${pick(random, NOUNS)}`,
    () => `${pick(random, FIRST)} ${pick(random, LAST)}`,
    () => pick(random, LAST),
    () =>
      pick(random, PHRASES)
        .split(' ')
        .slice(0, 2 + Math.floor(random() * 3))
        .join(' '),
    () => pick(random, SNAPSHOT_BOOKS).title,
    () => pick(random, pick(random, SNAPSHOT_BOOKS).authors),
    () => pick(random, SNAPSHOT_BOOKS).isbn13,
    () => misspell(random, `${pick(random, ADJECTIVES)} ${pick(random, NOUNS)}`.toLowerCase()),
    () => misspell(random, pick(random, SNAPSHOT_BOOKS).title),
    () => misspell(random, `${pick(random, FIRST)} ${pick(random, LAST)}`),
  ];
  const seen = new Set<string>();
  for (let attempt = 0; seen.size < count && attempt < count * 50; attempt++) {
    const q = pick(random, kinds)().trim().slice(0, 200).toLowerCase();
    if (q) seen.add(q);
  }
  return [...seen].map((q) => ({ q }));
}

export interface BrowseVocabulary {
  categories: readonly string[];
  genres: readonly string[];
}

/** `count` distinct filtered browses: category or genre, conditions, price band, sort, page. */
export function browseInputs(count: number, vocabulary: BrowseVocabulary, seed = 22): BrowseInput[] {
  const random = prng(seed);
  const sorts = ['newest', 'price_asc', 'price_desc'] as const;
  const seen = new Map<string, BrowseInput>();
  for (let attempt = 0; seen.size < count && attempt < count * 50; attempt++) {
    const input: BrowseInput = {};
    const scope = random();
    if (scope < 0.55 && vocabulary.categories.length) input.category = pick(random, vocabulary.categories);
    else if (scope < 0.8 && vocabulary.genres.length) input.genre = pick(random, vocabulary.genres);
    if (random() < 0.6) {
      const conditions = CONDITIONS.filter(() => random() < 0.5);
      if (conditions.length) input.condition = conditions.join(',');
    }
    if (random() < 0.6) {
      const low = 100 + 50 * Math.floor(random() * 40);
      input.minPrice = low;
      input.maxPrice = low + 50 * (1 + Math.floor(random() * 30));
    } else if (random() < 0.3) {
      input.maxPrice = 150 + 50 * Math.floor(random() * 40);
    }
    if (random() < 0.1) input.charityOnly = true;
    if (random() < 0.8) input.sort = pick(random, sorts);
    const page = random();
    if (page > 0.6) input.page = page > 0.95 ? 5 + Math.floor(random() * 16) : 2 + Math.floor(random() * 3);
    seen.set(JSON.stringify(input), input);
  }
  return [...seen.values()];
}

/** `count` distinct listing slugs spread over the whole table (`bench-1` … `bench-<listings>`). */
export function detailSlugs(count: number, listings: number): string[] {
  const n = Math.min(count, listings);
  // A stride coprime with the table size visits each listing once before repeating.
  let stride = 104_729;
  while (gcd(stride, listings) !== 1) stride++;
  return Array.from({ length: n }, (_, i) => `bench-${1 + ((i * stride) % listings)}`);
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
