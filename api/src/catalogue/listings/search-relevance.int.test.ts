/**
 * Search relevance as a person meets it, on the demo catalogue (the snapshot's real books): a
 * table of queries and the book that must come first on the search page (results by book,
 * catalogue.books.public.search), a table of misspellings with the book they mean and what the
 * page says ("Showing results for … — search instead for …"), and what the suggestions may
 * offer when a search finds nothing. Add a row when a query ranks the wrong book first.
 */
import {
  type BookSearchResult,
  CORRECTION_WORDS,
  type SearchResult,
  type SearchSuggestions,
} from '@reshelf/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalogueDemo } from '../../seed/catalogue-demo.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createBook, createListing, createPerson } from '../../testing/catalogue.ts';
import { api } from '../../testing/client.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await seedCatalogueDemo(t.database.handle.db);
});

afterAll(async () => {
  await t?.close();
});

/** Copy by copy (catalogue.listings.search), for integrators and the suggestions below. */
async function search(q: string): Promise<SearchResult> {
  return await api(t.app).catalogue.listings.search.query({ q });
}

/** By book, as the search page asks. */
async function searchBooks(q: string): Promise<BookSearchResult> {
  return await api(t.app).catalogue.books.public.search.query({ q });
}

/** What the page says above corrected results, or null when the words ran as typed. */
function didYouMean(result: BookSearchResult): string | null {
  if (result.correctedQuery === null) return null;
  return `${CORRECTION_WORDS.showing} ${result.correctedQuery} — ${CORRECTION_WORDS.instead} ${result.query}`;
}

async function suggestions(q: string): Promise<SearchSuggestions> {
  return await api(t.app).catalogue.discovery.public.suggestions.query({ q });
}

/** Query → the book that must come first, and why. */
const FIRST_RESULT: readonly (readonly [query: string, first: string, why: string])[] = [
  ['hobbit tolkien', 'The Hobbit', 'title and author both match; another Tolkien matches only the author'],
  ['tolkien hobbit', 'The Hobbit', 'word order does not matter'],
  ['the hobbit', 'The Hobbit', 'the exact title'],
  ['tolkien', 'The Hobbit', 'an author only: their books, the shorter title first'],
  ['tolkein', 'The Hobbit', 'a misspelt author ranks like the author spelt right'],
  ['george orwell', 'Nineteen Eighty-Four', 'the author, not other Georges that look a little like it'],
  ['king', 'The Shining', 'the author King, not titles that merely contain "king" (Thinking…)'],
  ['john green', 'The Fault in Our Stars', 'the author, not titles that look like "green" (Great…)'],
  ['ring', 'The Fellowship of the Ring', 'a title word, not a trigram look-alike (Wuthering)'],
  ['hawk', 'H is for Hawk', 'a title match outranks an author-only match (Hawking)'],
  ['emma', 'Emma', 'a one-word title outranks a description that mentions it'],
  ['9780261102354', 'The Fellowship of the Ring', 'an ISBN-13'],
  ['0-261-10221-4', 'The Hobbit', 'an ISBN-10 with hyphens'],
  ['pride and prejudise', 'Pride and Prejudice', 'a misspelt title'],
  ['hary poter', "Harry Potter and the Philosopher's Stone", 'a misspelt title, two words'],
  ['yorkshire moors', 'Wuthering Heights', 'words from the description only'],
];

describe('search relevance: the first result', () => {
  it.each(FIRST_RESULT)('“%s” → %s (%s)', async (query, first) => {
    const result = await searchBooks(query);
    expect(result.items[0]?.title, JSON.stringify(result.items.map((item) => item.title))).toBe(first);
  });

  it.each(FIRST_RESULT)('copy by copy too: “%s” → %s', async (query, first) => {
    const result = await search(query);
    expect(result.items[0]?.title, JSON.stringify(result.items.map((item) => item.title))).toBe(first);
  });
});

/**
 * Misspelling → the book meant, and the page's words. Transposed, dropped and doubled letters,
 * a letter replaced, authors' surnames, short words (where trigrams alone miss the slip) and
 * several words at once.
 */
const MISSPELLINGS: readonly (readonly [query: string, first: string, says: string])[] = [
  ['tolkein', 'The Hobbit', 'Showing results for tolkien — search instead for tolkein'],
  ['dickins', 'Great Expectations', 'Showing results for dickens — search instead for dickins'],
  ['steinbek', 'Of Mice and Men', 'Showing results for steinbeck — search instead for steinbek'],
  ['fitzgerlad', 'The Great Gatsby', 'Showing results for fitzgerald — search instead for fitzgerlad'],
  [
    'rowlnig',
    "Harry Potter and the Philosopher's Stone",
    'Showing results for rowling — search instead for rowlnig',
  ],
  ['pratchet', 'The Colour of Magic', 'Showing results for pratchett — search instead for pratchet'],
  ['atwod', "The Handmaid's Tale", 'Showing results for atwood — search instead for atwod'],
  ['brysen', 'Notes from a Small Island', 'Showing results for bryson — search instead for brysen'],
  ['huxly', 'Brave New World', 'Showing results for huxley — search instead for huxly'],
  ['pulman', 'Northern Lights', 'Showing results for pullman — search instead for pulman'],
  ['osmen', 'The Thursday Murder Club', 'Showing results for osman — search instead for osmen'],
  ['harrari', 'Sapiens', 'Showing results for harari — search instead for harrari'],
  ['dawkens', 'The Selfish Gene', 'Showing results for dawkins — search instead for dawkens'],
  ['kahnemann', 'Thinking, Fast and Slow', 'Showing results for kahneman — search instead for kahnemann'],
  ['roald dhal', 'Matilda', 'Showing results for roald dahl — search instead for roald dhal'],
  ['matlida', 'Matilda', 'Showing results for matilda — search instead for matlida'],
  ['frankenstien', 'Frankenstein', 'Showing results for frankenstein — search instead for frankenstien'],
  ['dracual', 'Dracula', 'Showing results for dracula — search instead for dracual'],
  ['gatsbby', 'The Great Gatsby', 'Showing results for gatsby — search instead for gatsbby'],
  [
    'mockingbrid',
    'To Kill a Mockingbird',
    'Showing results for mockingbird — search instead for mockingbrid',
  ],
  ['hobbbit', 'The Hobbit', 'Showing results for hobbit — search instead for hobbbit'],
  ['middlemarh', 'Middlemarch', 'Showing results for middlemarch — search instead for middlemarh'],
  ['sapeins', 'Sapiens', 'Showing results for sapiens — search instead for sapeins'],
  ['odysey', 'The Odyssey', 'Showing results for odyssey — search instead for odysey'],
  [
    'caterpiller',
    'The Very Hungry Caterpillar',
    'Showing results for caterpillar — search instead for caterpiller',
  ],
  [
    'pride and prejudise',
    'Pride and Prejudice',
    'Showing results for pride and prejudice — search instead for pride and prejudise',
  ],
  [
    'hary poter',
    "Harry Potter and the Philosopher's Stone",
    'Showing results for harry potter — search instead for hary poter',
  ],
  ['atomc habits', 'Atomic Habits', 'Showing results for atomic habits — search instead for atomc habits'],
  ['emam', 'Emma', 'Showing results for emma — search instead for emam'],
  ['mccarthy raod', 'The Road', 'Showing results for mccarthy road — search instead for mccarthy raod'],
];

describe('did you mean: a misspelling finds the book meant, and the page says so', () => {
  it('holds thirty misspellings, each once', () => {
    expect(new Set(MISSPELLINGS.map(([query]) => query)).size).toBe(30);
  });

  it.each(MISSPELLINGS)('“%s” → %s (%s)', async (query, first, says) => {
    const result = await searchBooks(query);
    expect(result.items[0]?.title, JSON.stringify(result.items.map((item) => item.title))).toBe(first);
    expect(didYouMean(result)).toBe(says);
  });

  it('leaves alone quoted words, -excluded words, ISBNs, and words spelt right', async () => {
    for (const query of ['"tolkein"', 'hobbit -tolkein', '9780261102354', 'tolkien', 'yorkshire moors']) {
      const result = await searchBooks(query);
      expect(result.correctedQuery, query).toBeNull();
      expect(result.corrections, query).toEqual([]);
    }
  });

  it('runs the words as typed when asked to (“search instead for”)', async () => {
    const result = await api(t.app).catalogue.books.public.search.query({ q: 'dickins', exact: true });
    expect(result.correctedQuery).toBeNull();
    expect(result.total).toBe(0);
  });
});

describe('search relevance: rules behind the table', () => {
  it('ranks a title match above an author-only match, however often the author’s name repeats', async () => {
    // Three authors called Ring: the full-text rank alone would put this book first.
    const sellerId = await createPerson(t.database.handle.db, 'rings@reshelf.test', 'The Rings');
    const bookId = await createBook(t.database.handle.db, {
      title: 'Poems',
      authors: ['Ann Ring', 'Bob Ring', 'Cy Ring'],
      category: 'fiction',
    });
    await createListing(t.database.handle.db, { sellerId, bookId, publishedAt: new Date() });
    for (const result of [await searchBooks('ring'), await search('ring')]) {
      const titles = result.items.map((item) => item.title);
      expect(titles.slice(0, 2)).toEqual(['The Fellowship of the Ring', 'Poems']);
    }
  });
});

describe('did you mean: suggestions when a search finds nothing', () => {
  it('never suggests a book that shares no word and no close spelling with the text', async () => {
    expect((await search('murakami')).total).toBe(0);
    const offered = await suggestions('murakami');
    expect(offered.titles.map((title) => title.title)).not.toContain('The Thursday Murder Club');
    expect(offered.titles).toEqual([]);
    // The categories are still there to browse.
    expect(offered.categories.length).toBeGreaterThan(0);
  });

  it('offers the book one misspelt word points to, even beside a word that matches nothing', async () => {
    expect((await search('hobit xyzzy')).total).toBe(0);
    expect((await suggestions('hobit xyzzy')).titles[0]?.title).toBe('The Hobbit');
    expect((await suggestions('orwel 1948')).titles[0]?.title).toBe('Nineteen Eighty-Four');
  });

  it('offers nothing for little words alone, which every title shares', async () => {
    expect((await suggestions('the of and')).titles).toEqual([]);
  });

  it('puts the book sharing the most words with the text first', async () => {
    const offered = (await suggestions('great expectashuns dikens')).titles.map((title) => title.title);
    expect(offered[0]).toBe('Great Expectations');
  });
});
