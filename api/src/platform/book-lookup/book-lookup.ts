/**
 * The book lookup port: details of a book by ISBN from outside our catalogue. Two adapters:
 * offline (knows nothing: the seller types the details) and Open Library, used in hosted mode
 * where the BFF can reach the internet. The Open Library adapter never fails a listing: a slow,
 * missing or malformed answer is "not found" and the seller types the details instead. A found
 * book carries Open Library's work ("OL27448W", from `/isbn/{isbn}.json`) when that answer
 * names one; without it the book is still found and grouped by title and author (decision
 * 0082). Tests use the offline adapter, or the Open Library one with a fake fetch or a local
 * HTTP server shaped like Open Library's API.
 */
import { z } from 'zod';
import { type SeriesPlace, seriesOf } from './open-library-series.ts';

export interface ExternalBook {
  title: string;
  subtitle: string | null;
  authors: string[];
  publisher: string | null;
  publishedYear: number | null;
  pageCount: number | null;
  coverUrl: string | null;
  /** Open Library's work this edition belongs to ("OL27448W"), when it says. */
  workKey: string | null;
  /** The edition's series and volume (its `series` field, decision 0089), when it says. */
  series?: SeriesPlace | null;
}

/** What one lookup came to, for callers that report it (the covers backfill). */
export type LookupOutcome =
  | { status: 'found'; book: ExternalBook }
  | { status: 'not_found' }
  | { status: 'error'; message: string };

export interface BookLookupPort {
  readonly kind: 'offline' | 'openlibrary';
  /** The book with its work, or null for anything else (selling never fails on a lookup). */
  lookup(isbn13: string): Promise<ExternalBook | null>;
  /**
   * The same lookup, telling "not found" from a failure. Never throws. The work is asked for
   * only with `work` (a second request): the covers backfill needs none.
   */
  find(isbn13: string, options?: { work?: boolean }): Promise<LookupOutcome>;
}

export function createOfflineBookLookup(): BookLookupPort {
  return { kind: 'offline', lookup: async () => null, find: async () => ({ status: 'not_found' }) };
}

const openLibraryRecord = z.object({
  title: z.string().trim().min(1),
  subtitle: z.string().optional(),
  authors: z.array(z.object({ name: z.string() })).optional(),
  publishers: z.array(z.object({ name: z.string() })).optional(),
  publish_date: z.string().optional(),
  number_of_pages: z.number().int().optional(),
  cover: z.object({ large: z.string().optional(), medium: z.string().optional() }).optional(),
});

function clip(text: string | undefined, max: number): string | null {
  const value = text?.trim();
  return value ? value.slice(0, max) : null;
}

/** Maps Open Library's "data" record onto what our books table accepts (its checks and limits). */
export function fromOpenLibrary(record: unknown): ExternalBook | null {
  const parsed = openLibraryRecord.safeParse(record);
  if (!parsed.success) return null;
  const data = parsed.data;
  const year = Number(/\b(1[4-9]\d\d|20\d\d)\b/.exec(data.publish_date ?? '')?.[1]);
  const authors = (data.authors ?? [])
    .map((author) => author.name.trim().slice(0, 200))
    .filter(Boolean)
    .slice(0, 20);
  const cover = data.cover?.large ?? data.cover?.medium;
  return {
    title: data.title.trim().slice(0, 300),
    subtitle: clip(data.subtitle, 300),
    authors,
    publisher: clip(data.publishers?.[0]?.name, 200),
    publishedYear: Number.isInteger(year) && year >= 1450 && year <= 2100 ? year : null,
    pageCount:
      data.number_of_pages && data.number_of_pages >= 1 && data.number_of_pages <= 20_000
        ? data.number_of_pages
        : null,
    coverUrl: cover && /^https:\/\//.test(cover) && cover.length <= 2048 ? cover : null,
    workKey: null,
  };
}

const editionRecord = z.object({ works: z.array(z.object({ key: z.string() })).min(1) });

/** The work key in Open Library's edition record (`works: [{ key: "/works/OL…W" }]`), or null. */
export function workKeyOf(record: unknown): string | null {
  const parsed = editionRecord.safeParse(record);
  if (!parsed.success) return null;
  return /^\/works\/(OL[0-9]+W)$/.exec(parsed.data.works[0]!.key)?.[1] ?? null;
}

/** The series in Open Library's edition record (`series: ["Discworld ; 1"]`), or null. */
export function seriesOfEdition(record: unknown): SeriesPlace | null {
  if (!record || typeof record !== 'object') return null;
  return seriesOf((record as { series?: unknown }).series);
}

export function createOpenLibraryLookup(
  options: {
    baseUrl?: string;
    fetch?: typeof fetch;
    timeoutMs?: number;
    onError?: (error: unknown) => void;
  } = {},
): BookLookupPort {
  const send = options.fetch ?? fetch;
  const base = (options.baseUrl ?? 'https://openlibrary.org').replace(/\/$/, '');
  const timeoutMs = options.timeoutMs ?? 3_000;
  const failed = (error: unknown, message: string): LookupOutcome => {
    options.onError?.(error);
    return { status: 'error', message };
  };
  async function find(isbn13: string, { work = false }: { work?: boolean } = {}): Promise<LookupOutcome> {
    const key = `ISBN:${isbn13}`;
    let body: unknown;
    try {
      const response = await send(
        `${base}/api/books?bibkeys=${encodeURIComponent(key)}&format=json&jscmd=data`,
        { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) },
      );
      if (response.status === 404) return { status: 'not_found' };
      if (!response.ok) {
        return failed(new Error(`HTTP ${response.status}`), `Open Library answered HTTP ${response.status}`);
      }
      body = await response.json();
    } catch (error) {
      const name = (error as { name?: string } | null)?.name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        return failed(error, `No answer from Open Library within ${timeoutMs / 1000} s`);
      }
      if (error instanceof SyntaxError) return failed(error, 'Open Library’s answer was not JSON');
      return failed(error, 'Could not reach Open Library');
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      return failed(new Error('unexpected answer'), 'Open Library’s answer was not the expected shape');
    }
    const record = (body as Record<string, unknown>)[key];
    if (record === undefined) return { status: 'not_found' };
    const book = fromOpenLibrary(record);
    if (!book)
      return failed(new Error('unreadable record'), 'Open Library’s record for this ISBN was malformed');
    return { status: 'found', book: work ? { ...book, ...(await editionFor(isbn13)) } : book };
  }
  /**
   * The edition's work and series (from one answer), or nulls for any failure: the book is found
   * either way.
   */
  async function editionFor(isbn13: string): Promise<{ workKey: string | null; series: SeriesPlace | null }> {
    try {
      const response = await send(`${base}/isbn/${encodeURIComponent(isbn13)}.json`, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) return { workKey: null, series: null };
      const record: unknown = await response.json();
      return { workKey: workKeyOf(record), series: seriesOfEdition(record) };
    } catch {
      return { workKey: null, series: null };
    }
  }
  return {
    kind: 'openlibrary',
    find,
    async lookup(isbn13) {
      const outcome = await find(isbn13, { work: true });
      return outcome.status === 'found' ? outcome.book : null;
    },
  };
}
