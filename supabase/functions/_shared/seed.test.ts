/** deno test: seed-openlibrary-recent's input rules and where its books come from. */
import snapshot from './books-snapshot.json' with { type: 'json' };
import { FunctionInputError, type SqlClient } from './admin.ts';
import {
  booksFromOpenLibrary,
  type FetchLike,
  parseSeedInput,
  recentBooks,
  SEED_BOOK_COUNT,
  seedOpenLibraryRecent,
  toIsbn13,
} from './seed.ts';

function assertEquals(actual: unknown, expected: unknown) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`expected ${e}, got ${a}`);
}

function inputError(body: unknown): string {
  try {
    parseSeedInput(body);
  } catch (error) {
    if (error instanceof FunctionInputError) return error.message;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(body)} to be refused`);
}

const answer = (status: number, body: unknown): ReturnType<FetchLike> =>
  Promise.resolve({ ok: status >= 200 && status < 300, status, json: () => Promise.resolve(body) });

Deno.test('the body is {reset: boolean}; empty means no reset', () => {
  assertEquals(parseSeedInput({ reset: true }), { reset: true });
  assertEquals(parseSeedInput({ reset: false }), { reset: false });
  assertEquals(parseSeedInput({}), { reset: false });
  assertEquals(parseSeedInput(undefined), { reset: false });
  assertEquals(inputError({ reset: 'yes' }), 'reset must be true or false');
  assertEquals(inputError({ reset: 1 }), 'reset must be true or false');
  assertEquals(inputError({ reset: false, books: [] }), 'Unknown field: books');
  assertEquals(inputError([true]), 'The body must be an object like {"reset": false}');
  assertEquals(inputError('reset'), 'The body must be an object like {"reset": false}');
});

Deno.test('ISBNs: ISBN-13 checked, ISBN-10 converted, anything else refused', () => {
  assertEquals(toIsbn13('9780141439518'), '9780141439518');
  assertEquals(toIsbn13('978-0-14-143951-8'), '9780141439518');
  assertEquals(toIsbn13('0141439513'), '9780141439518');
  assertEquals(toIsbn13('9780141439519'), null);
  assertEquals(toIsbn13('B00TEST000'), null);
});

Deno.test('Open Library records become books; unusable ones are passed over', () => {
  const books = booksFromOpenLibrary({
    docs: [
      {
        title: '  The  Lighthouse Year ',
        author_name: ['Ann Example', ''],
        isbn: ['notanisbn', '0141439513'],
        cover_i: 123456,
        first_publish_year: 2025,
        publisher: ['Example Press'],
      },
      { title: 'No author', author_name: [], isbn: ['9780141439518'] },
      { title: 'No ISBN', author_name: ['A. Writer'] },
      { title: 'x'.repeat(301), author_name: ['A. Writer'], isbn: ['9780141439518'] },
      'not a record',
    ],
  });
  assertEquals(books, [
    {
      isbn13: '9780141439518',
      isbn10: '0141439513',
      title: 'The Lighthouse Year',
      subtitle: null,
      authors: ['Ann Example'],
      publisher: 'Example Press',
      published_year: 2025,
      page_count: null,
      description: null,
      cover_url: 'https://covers.openlibrary.org/b/id/123456-M.jpg',
      category: null,
      genres: [],
    },
  ]);
  assertEquals(booksFromOpenLibrary({ unexpected: true }), []);
  assertEquals(booksFromOpenLibrary(null), []);
});

Deno.test('without fetch the snapshot gives the 40 books', async () => {
  const { books, source } = await recentBooks({ snapshot });
  assertEquals(source, 'snapshot');
  assertEquals(books.length, SEED_BOOK_COUNT);
  assertEquals(
    books.map((book) => book.isbn13),
    snapshot.slice(0, SEED_BOOK_COUNT).map((book) => book.isbn13),
  );
  assertEquals(books[0]?.cover_url, null);
});

Deno.test('Open Library first, topped up from the snapshot without repeating a book', async () => {
  const asked: string[] = [];
  const { books, source } = await recentBooks({
    snapshot,
    searchUrl: 'http://openlibrary.test/search.json',
    fetch: (url) => {
      asked.push(url);
      return answer(200, {
        docs: [
          { title: 'New Book', author_name: ['New Author'], isbn: ['9781408855652'], cover_i: 7 },
          { title: 'Pride and Prejudice', author_name: ['Jane Austen'], isbn: ['9780141439518'] },
        ],
      });
    },
  });
  assertEquals(asked, ['http://openlibrary.test/search.json']);
  assertEquals(source, 'openlibrary');
  assertEquals(books.length, SEED_BOOK_COUNT);
  assertEquals(books[0]?.title, 'New Book');
  assertEquals(books[0]?.cover_url, 'https://covers.openlibrary.org/b/id/7-M.jpg');
  assertEquals(new Set(books.map((book) => book.isbn13)).size, SEED_BOOK_COUNT);
});

Deno.test('offline, an error answer or a timeout: the snapshot', async () => {
  const logged: string[] = [];
  const failures: FetchLike[] = [
    () => Promise.reject(new TypeError('error sending request')),
    () => answer(503, { error: 'busy' }),
    () => answer(200, '<html>not json</html>'),
    (_url, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      }),
  ];
  for (const fetch of failures) {
    const { books, source } = await recentBooks({
      snapshot,
      fetch,
      timeoutMs: 20,
      log: (m) => logged.push(m),
    });
    assertEquals(source, 'snapshot');
    assertEquals(books[0]?.isbn13, snapshot[0]?.isbn13);
  }
  assertEquals(logged.filter((line) => line.startsWith('Open Library could not be read')).length, 3);
});

Deno.test('one statement: the books, the demo people and reset go to the SQL function', async () => {
  const sent: { text: string; params: unknown[] }[] = [];
  const sql: SqlClient = {
    query<Row>(text: string, params: unknown[] = []): Promise<Row[]> {
      sent.push({ text, params });
      return Promise.resolve([{ listings: 40, orders: 24 }] as Row[]);
    },
  };
  assertEquals(await seedOpenLibraryRecent(sql, { reset: true }, { snapshot }), { listings: 40, orders: 24 });
  assertEquals(sent.length, 1);
  const params = sent[0]?.params ?? [];
  assertEquals(JSON.parse(String(params[0])).length, SEED_BOOK_COUNT);
  assertEquals(Object.keys(JSON.parse(String(params[1]))), ['sellers', 'charities', 'buyers']);
  assertEquals(params[2], true);
  let refused = '';
  try {
    await seedOpenLibraryRecent(sql, { reset: 'please' }, { snapshot });
  } catch (error) {
    if (error instanceof FunctionInputError) refused = error.message;
  }
  assertEquals(refused, 'reset must be true or false');
  assertEquals(sent.length, 1);
});
