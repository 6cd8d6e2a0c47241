/** The Open Library adapter at its HTTP boundary (never the network), and the offline one. */
import { describe, expect, it } from 'vitest';
import { createOfflineBookLookup, createOpenLibraryLookup, fromOpenLibrary } from './book-lookup.ts';

const ISBN = '9780141439518';
const RECORD = {
  title: 'Pride and Prejudice',
  subtitle: 'Penguin Classics',
  authors: [{ name: 'Jane Austen', url: 'https://openlibrary.org/authors/OL21594A' }],
  publishers: [{ name: 'Penguin Books' }],
  publish_date: 'April 29, 2003',
  number_of_pages: 480,
  cover: {
    large: 'https://covers.openlibrary.org/b/id/1-L.jpg',
    medium: 'https://covers.openlibrary.org/b/id/1-M.jpg',
  },
};

function fake(reply: { status: number; body?: unknown } | Error) {
  const urls: string[] = [];
  const fetch = async (input: string | URL | Request) => {
    urls.push(String(input));
    if (reply instanceof Error) throw reply;
    return new Response(JSON.stringify(reply.body ?? {}), { status: reply.status });
  };
  return { lookup: createOpenLibraryLookup({ fetch: fetch as typeof globalThis.fetch }), urls };
}

describe('book lookup', () => {
  it('asks Open Library for the ISBN and maps its record onto a book', async () => {
    const { lookup, urls } = fake({ status: 200, body: { [`ISBN:${ISBN}`]: RECORD } });
    expect(await lookup.lookup(ISBN)).toEqual({
      title: 'Pride and Prejudice',
      subtitle: 'Penguin Classics',
      authors: ['Jane Austen'],
      publisher: 'Penguin Books',
      publishedYear: 2003,
      pageCount: 480,
      coverUrl: 'https://covers.openlibrary.org/b/id/1-L.jpg',
      // This fake answers the edition's record with the same body, which names no work or series.
      workKey: null,
      series: null,
    });
    expect(urls).toEqual([
      `https://openlibrary.org/api/books?bibkeys=ISBN%3A${ISBN}&format=json&jscmd=data`,
      `https://openlibrary.org/isbn/${ISBN}.json`,
    ]);
  });

  it('answers "not found" for an unknown ISBN, an error, a failure to connect or a malformed record', async () => {
    expect(await fake({ status: 200, body: {} }).lookup.lookup(ISBN)).toBeNull();
    expect(await fake({ status: 500 }).lookup.lookup(ISBN)).toBeNull();
    expect(await fake(new TypeError('fetch failed')).lookup.lookup(ISBN)).toBeNull();
    expect(
      await fake({ status: 200, body: { [`ISBN:${ISBN}`]: { title: '' } } }).lookup.lookup(ISBN),
    ).toBeNull();
  });

  it('find tells "not found" from a failure, for callers that report it', async () => {
    expect(await fake({ status: 200, body: {} }).lookup.find(ISBN)).toEqual({ status: 'not_found' });
    expect(await fake({ status: 404 }).lookup.find(ISBN)).toEqual({ status: 'not_found' });
    expect(await fake({ status: 503 }).lookup.find(ISBN)).toEqual({
      status: 'error',
      message: 'Open Library answered HTTP 503',
    });
    expect(await fake(new TypeError('fetch failed')).lookup.find(ISBN)).toEqual({
      status: 'error',
      message: 'Could not reach Open Library',
    });
    expect(await fake({ status: 200, body: { [`ISBN:${ISBN}`]: { title: '' } } }).lookup.find(ISBN)).toEqual({
      status: 'error',
      message: 'Open Library’s record for this ISBN was malformed',
    });
    expect(await fake({ status: 200, body: [1, 2] }).lookup.find(ISBN)).toMatchObject({ status: 'error' });
    expect(await createOfflineBookLookup().find(ISBN)).toEqual({ status: 'not_found' });
  });

  it('keeps what it maps within the catalogue’s limits', () => {
    const book = fromOpenLibrary({
      ...RECORD,
      title: 'T'.repeat(400),
      publish_date: 'sometime',
      number_of_pages: 0,
      cover: { large: 'http://insecure.example/x.jpg' },
    });
    expect(book?.title).toHaveLength(300);
    expect(book?.publishedYear).toBeNull();
    expect(book?.pageCount).toBeNull();
    expect(book?.coverUrl).toBeNull();
  });

  it('offline, it knows nothing and never fails', async () => {
    expect(await createOfflineBookLookup().lookup(ISBN)).toBeNull();
  });
});
