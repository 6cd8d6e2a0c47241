/**
 * Search relevance as a person meets it, on the demo catalogue (the snapshot's real books): a
 * table of queries and the book that must come first, and what "did you mean" may offer when a
 * search finds nothing. Add a row when a query ranks the wrong book first.
 */
import type { SearchResult, SearchSuggestions } from '@reshelf/contracts';
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

async function search(q: string): Promise<SearchResult> {
  return await api(t.app).catalogue.listings.search.query({ q });
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
    const result = await search(query);
    expect(result.items[0]?.title, JSON.stringify(result.items.map((item) => item.title))).toBe(first);
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
    const titles = (await search('ring')).items.map((item) => item.title);
    expect(titles.slice(0, 2)).toEqual(['The Fellowship of the Ring', 'Poems']);
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
