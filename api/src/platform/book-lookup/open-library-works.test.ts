/**
 * The Open Library adapter against a local HTTP server shaped like Open Library's API: a found
 * book carries its work's key from `/isbn/{isbn}.json`; a missing, malformed or failed edition
 * answer leaves the key null and the book still found.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenLibraryLookup } from './book-lookup.ts';
import { type FakeOpenLibrary, startFakeOpenLibrary } from './fake-open-library.ts';

const DATA = {
  title: 'The Hobbit',
  authors: [{ name: 'J. R. R. Tolkien' }],
  publishers: [{ name: 'George Allen & Unwin' }],
  publish_date: '1937',
};

let server: FakeOpenLibrary;

beforeAll(async () => {
  server = await startFakeOpenLibrary();
});

afterAll(async () => {
  await server.close();
});

describe('Open Library’s works', () => {
  it('are read from the edition’s record at /isbn/{isbn}.json', async () => {
    const isbn = '9780261102217';
    server.editions.set(isbn, {
      data: DATA,
      edition: { body: { key: '/books/OL1M', works: [{ key: '/works/OL27482W' }] } },
    });
    const lookup = createOpenLibraryLookup({ baseUrl: server.baseUrl });
    expect(await lookup.find(isbn, { work: true })).toEqual({
      status: 'found',
      book: expect.objectContaining({
        title: 'The Hobbit',
        authors: ['J. R. R. Tolkien'],
        workKey: 'OL27482W',
      }),
    });
    expect(server.requests.slice(-2)).toEqual([
      `/api/books?bibkeys=ISBN%3A${isbn}&format=json&jscmd=data`,
      `/isbn/${isbn}.json`,
    ]);
  });

  it('are null when the works field is missing or malformed, or the answer fails, and the book is still found', async () => {
    const lookup = createOpenLibraryLookup({ baseUrl: server.baseUrl });
    const cases: [string, NonNullable<Parameters<typeof server.editions.set>[1]['edition']>][] = [
      ['9780000000002', { body: { key: '/books/OL2M' } }],
      ['9780000000019', { body: { works: [] } }],
      ['9780000000026', { body: { works: 'OL1W' } }],
      ['9780000000033', { body: { works: [{ key: '/authors/OL26320A' }] } }],
      ['9780000000040', { body: { works: [{ key: '/works/OL1W/extra' }] } }],
      ['9780000000057', { body: { works: [{ name: 'no key' }] } }],
      ['9780000000064', { status: 500 }],
      ['9780000000071', { raw: '{"works": [' }],
    ];
    for (const [isbn, edition] of cases) {
      server.editions.set(isbn, { data: DATA, edition });
      const found = await lookup.lookup(isbn);
      expect(found, isbn).toMatchObject({ title: 'The Hobbit', workKey: null });
    }
    // No edition record at all (404).
    server.editions.set('9780000000088', { data: DATA });
    expect(await lookup.lookup('9780000000088')).toMatchObject({ workKey: null });
  });

  it('are not asked for when the book is not found, nor by a find that does not want them', async () => {
    const isbn = '9780261102224';
    server.editions.set(isbn, { data: DATA, edition: { body: { works: [{ key: '/works/OL1W' }] } } });
    const plain = createOpenLibraryLookup({ baseUrl: server.baseUrl });
    const asked = server.requests.length;
    expect(await plain.find(isbn)).toMatchObject({ status: 'found', book: { workKey: null } });
    expect(server.requests.slice(asked)).toEqual([
      `/api/books?bibkeys=ISBN%3A${isbn}&format=json&jscmd=data`,
    ]);

    const lookup = createOpenLibraryLookup({ baseUrl: server.baseUrl });
    const before = server.requests.length;
    expect(await lookup.find('9780000000095')).toEqual({ status: 'not_found' });
    expect(server.requests.slice(before)).toEqual([
      '/api/books?bibkeys=ISBN%3A9780000000095&format=json&jscmd=data',
    ]);
  });
});
