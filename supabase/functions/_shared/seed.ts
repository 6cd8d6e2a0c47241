/**
 * seed-openlibrary-recent (spec §7), written once: the BFF runs it in-process (embedded
 * backend) and the Edge Function runs it on Deno (hosted). Plain TypeScript with no runtime
 * globals: the caller passes `fetch` (or not) and the bundled snapshot of real books.
 *
 * It gathers 40 real books — Open Library's recent books when a fetch is given, topped up or
 * replaced by the snapshot when Open Library cannot be read — and hands them, with the demo
 * people, to the SQL function `seed_openlibrary_recent`, which does the whole seed (or reset
 * and seed) in one statement: it succeeds whole or changes nothing.
 */
import { FunctionInputError, type SqlClient } from './admin.ts';

/** "Seed 40 books + orders" (spec §9). */
export const SEED_BOOK_COUNT = 40;

/** Recently published books, newest first, only the fields the seed uses. */
export const OPEN_LIBRARY_SEARCH_URL =
  'https://openlibrary.org/search.json?q=first_publish_year%3A%5B2024+TO+*%5D&sort=new' +
  '&fields=title,author_name,isbn,cover_i,first_publish_year,publisher&limit=100';

/** Open Library is asked for a few seconds at most; then the snapshot is used. */
export const OPEN_LIBRARY_TIMEOUT_MS = 5000;

export interface SeedInput {
  reset: boolean;
}

export interface SeedResult {
  /** Listings put on sale by this call. */
  listings: number;
  /** Orders created by this call. */
  orders: number;
}

/** One book as the SQL function takes it. */
export interface SeedBook {
  isbn13: string;
  isbn10: string | null;
  title: string;
  subtitle: string | null;
  authors: string[];
  publisher: string | null;
  published_year: number | null;
  page_count: number | null;
  description: string | null;
  cover_url: string | null;
  category: string | null;
  genres: string[];
}

/** A record of the bundled snapshot (api/src/seed/books-snapshot.json). */
export interface SnapshotBook {
  isbn13: string;
  title: string;
  subtitle?: string;
  authors: string[];
  publisher?: string;
  publishedYear?: number;
  pageCount?: number;
  category?: string;
  genres?: string[];
  description?: string;
}

/** The part of `fetch` the seed uses; both Node's and Deno's fit. */
export type FetchLike = (
  url: string,
  init?: { signal?: AbortSignal; headers?: Record<string, string> },
) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

export interface SeedDeps {
  /** The bundled snapshot of real books: the fallback, and the only source without `fetch`. */
  snapshot: readonly SnapshotBook[];
  /** Given (hosted mode): read Open Library's recent books first. Absent: the snapshot only. */
  fetch?: FetchLike;
  searchUrl?: string;
  timeoutMs?: number;
  /** Told where the books came from. */
  log?: (message: string) => void;
  /** The clock the orders are spread by (tests); the database's now() otherwise. */
  now?: Date;
}

/**
 * The people the seed sells and buys as: the demo sellers, charities and buyers of the
 * first-start catalogue (api/src/seed/catalogue-demo.ts; a test keeps the two in step).
 * Missing ones are created without a password, so nobody can sign in as them.
 */
export const DEMO_SEED_PEOPLE = {
  sellers: [
    { email: 'seller@reshelf.test', display_name: "Sam's Shelf", town: 'Bristol' },
    { email: 'margaret@reshelf.test', display_name: "Margaret's Bookcase", town: 'York' },
    { email: 'tom@reshelf.test', display_name: 'Tom Reads Sci-Fi', town: 'Manchester' },
    { email: 'attic@reshelf.test', display_name: 'The Attic Library', town: 'Norwich' },
    { email: 'priya@reshelf.test', display_name: "Priya's Picks", town: 'Leicester' },
  ],
  charities: [
    {
      email: 'charity@reshelf.test',
      display_name: 'Cherwell Valley Hospice Books',
      town: 'Banbury',
      name: 'Cherwell Valley Hospice Books',
      slug: 'cherwell-valley-hospice-books',
      registered_number: '1148392',
      description:
        'Every book we sell is donated by people across north Oxfordshire, and every penny of profit pays for hospice nursing at home and on our ward. Our volunteers sort, clean and check each book before it is listed.',
      website: 'https://cherwell-valley-hospice.example',
    },
    {
      email: 'pennine@reshelf.test',
      display_name: 'Pennine Animal Rescue Books',
      town: 'Hebden Bridge',
      name: 'Pennine Animal Rescue Books',
      slug: 'pennine-animal-rescue-books',
      registered_number: '1093517',
      description:
        'Pennine Animal Rescue rehomes more than four hundred animals a year from our centre above the Calder Valley. Our book volunteers list donated books online so that readers anywhere in the UK can help.',
      website: 'https://pennine-animal-rescue.example',
    },
    {
      email: 'leith@reshelf.test',
      display_name: 'Leith Literacy Trust',
      town: 'Edinburgh',
      name: 'Leith Literacy Trust',
      slug: 'leith-literacy-trust',
      registered_number: 'SC047215',
      description:
        'We run after-school reading clubs and give free books to families in Leith and north Edinburgh. Donated books that our clubs cannot use are sold here, and the money buys new ones for children who have none.',
      website: 'https://leith-literacy.example',
    },
  ],
  buyers: [
    { email: 'reader@reshelf.test', display_name: 'Alex Morgan', town: 'Cardiff' },
    { email: 'bookworm@reshelf.test', display_name: 'Jo Whitfield', town: 'Brighton' },
  ],
} as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The function's body: `{reset: boolean}`; an empty body means no reset. */
export function parseSeedInput(body: unknown): SeedInput {
  if (body === undefined || body === null) return { reset: false };
  if (!isRecord(body)) throw new FunctionInputError('The body must be an object like {"reset": false}');
  const unknown = Object.keys(body).filter((key) => key !== 'reset');
  if (unknown.length) throw new FunctionInputError(`Unknown field: ${unknown.join(', ')}`);
  if (body.reset === undefined) return { reset: false };
  if (typeof body.reset !== 'boolean') throw new FunctionInputError('reset must be true or false');
  return { reset: body.reset };
}

// ISBNs (the same rules as @reshelf/contracts' isbn.ts, which this file cannot import).

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

/** A valid ISBN-13 for an ISBN-10 or ISBN-13 (hyphens and spaces allowed), or null. */
export function toIsbn13(raw: string): string | null {
  const compact = raw.replace(/[\s-]/g, '').toUpperCase();
  if (/^97[89]\d{10}$/.test(compact)) {
    return isbn13CheckDigit(compact.slice(0, 12)) === compact[12] ? compact : null;
  }
  if (/^\d{9}[\dX]$/.test(compact) && isbn10CheckDigit(compact.slice(0, 9)) === compact[9]) {
    const first12 = `978${compact.slice(0, 9)}`;
    return first12 + isbn13CheckDigit(first12);
  }
  return null;
}

/** The ISBN-10 of a 978-prefixed ISBN-13 (979 ones have none). */
export function isbn13To10(isbn13: string): string | null {
  if (!isbn13.startsWith('978')) return null;
  const first9 = isbn13.slice(3, 12);
  return first9 + isbn10CheckDigit(first9);
}

function text(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.replace(/\s+/g, ' ').trim();
  return trimmed && trimmed.length <= max ? trimmed : null;
}

/**
 * Books from an Open Library search answer. Records without a title, an author or a valid
 * ISBN are passed over, as are ones the catalogue would refuse (a title over 300 characters).
 */
export function booksFromOpenLibrary(payload: unknown): SeedBook[] {
  const docs = isRecord(payload) && Array.isArray(payload.docs) ? payload.docs : [];
  const books: SeedBook[] = [];
  for (const doc of docs) {
    if (!isRecord(doc)) continue;
    const title = text(doc.title, 300);
    const authors = (Array.isArray(doc.author_name) ? doc.author_name : [])
      .map((name) => text(name, 200))
      .filter((name): name is string => name !== null)
      .slice(0, 20);
    const isbn13 = (Array.isArray(doc.isbn) ? doc.isbn : [])
      .map((isbn) => (typeof isbn === 'string' ? toIsbn13(isbn) : null))
      .find((isbn): isbn is string => isbn !== null);
    if (!title || authors.length === 0 || !isbn13) continue;
    const year = typeof doc.first_publish_year === 'number' ? doc.first_publish_year : null;
    const cover = typeof doc.cover_i === 'number' && doc.cover_i > 0 ? Math.trunc(doc.cover_i) : null;
    const publisher = Array.isArray(doc.publisher) ? text(doc.publisher[0], 200) : null;
    books.push({
      isbn13,
      isbn10: isbn13To10(isbn13),
      title,
      subtitle: null,
      authors,
      publisher,
      published_year: year !== null && year >= 1450 && year <= 2100 ? year : null,
      page_count: null,
      description: null,
      cover_url: cover ? `https://covers.openlibrary.org/b/id/${cover}-M.jpg` : null,
      category: null,
      genres: [],
    });
  }
  return books;
}

/** The snapshot's records as the SQL function takes them (no covers: the web draws them). */
export function booksFromSnapshot(snapshot: readonly SnapshotBook[]): SeedBook[] {
  return snapshot.map((book) => ({
    isbn13: book.isbn13,
    isbn10: isbn13To10(book.isbn13),
    title: book.title,
    subtitle: book.subtitle ?? null,
    authors: [...book.authors],
    publisher: book.publisher ?? null,
    published_year: book.publishedYear ?? null,
    page_count: book.pageCount ?? null,
    description: book.description ?? null,
    cover_url: null,
    category: book.category ?? null,
    genres: [...(book.genres ?? [])],
  }));
}

/**
 * 40 books: Open Library's recent ones when `fetch` is given and answers in time, topped up
 * from the snapshot when it has fewer; the snapshot alone without `fetch` or on any failure.
 */
export async function recentBooks(
  deps: SeedDeps,
): Promise<{ books: SeedBook[]; source: 'openlibrary' | 'snapshot' }> {
  let fetched: SeedBook[] = [];
  if (deps.fetch) {
    try {
      const response = await deps.fetch(deps.searchUrl ?? OPEN_LIBRARY_SEARCH_URL, {
        signal: AbortSignal.timeout(deps.timeoutMs ?? OPEN_LIBRARY_TIMEOUT_MS),
        headers: { accept: 'application/json', 'user-agent': 'Reshelf demo seed (staff dashboard)' },
      });
      if (!response.ok) throw new Error(`Open Library answered ${response.status}`);
      fetched = booksFromOpenLibrary(await response.json());
    } catch (error) {
      deps.log?.(
        `Open Library could not be read (${error instanceof Error ? error.message : String(error)}): using the snapshot`,
      );
      fetched = [];
    }
  }
  const books: SeedBook[] = [];
  const seen = new Set<string>();
  for (const book of [...fetched, ...booksFromSnapshot(deps.snapshot)]) {
    if (books.length === SEED_BOOK_COUNT) break;
    if (seen.has(book.isbn13)) continue;
    seen.add(book.isbn13);
    books.push(book);
  }
  const source = fetched.length > 0 ? 'openlibrary' : 'snapshot';
  deps.log?.(
    `seed-openlibrary-recent: ${Math.min(fetched.length, SEED_BOOK_COUNT)} books from Open Library, the rest from the snapshot`,
  );
  return { books, source };
}

/** Seeds (or resets and seeds) in one statement; answers what it created. */
export async function seedOpenLibraryRecent(
  sql: SqlClient,
  body: unknown,
  deps: SeedDeps,
): Promise<SeedResult> {
  const { reset } = parseSeedInput(body);
  const { books } = await recentBooks(deps);
  const rows = await sql.query<SeedResult>(
    'select listings, orders from public.seed_openlibrary_recent($1::jsonb, $2::jsonb, $3, coalesce($4::timestamptz, now()))',
    [
      JSON.stringify(books),
      JSON.stringify(DEMO_SEED_PEOPLE),
      reset,
      deps.now ? deps.now.toISOString() : null,
    ],
  );
  const row = rows[0];
  if (!row) throw new Error('seed_openlibrary_recent returned no row');
  return { listings: Number(row.listings), orders: Number(row.orders) };
}
