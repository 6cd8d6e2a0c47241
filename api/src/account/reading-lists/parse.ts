/**
 * Reading a Goodreads or StoryGraph CSV export (decision 0090). The layout is known from the
 * header, which must be one of the two exactly (READING_LIST_COLUMNS); every row becomes its
 * title, authors, ISBN-13 (an ISBN-10 converted; Goodreads' `="…"` wrapping taken off), shelves
 * and whether it is owned, or the reason it cannot be read. A file that cannot be used at all
 * (not CSV, another layout, no rows, too many) is refused whole with the reason.
 *
 * Read with csv-parse, as the charity bulk upload reads its files: quoted fields with commas and
 * line breaks, a byte-order mark, CRLF or LF.
 */
import {
  normaliseIsbn,
  OWNED_SHELF,
  READING_LIST_COLUMNS,
  READING_LIST_LIMITS,
  READING_LIST_MESSAGES,
  READING_LIST_SOURCE_LABELS,
  READING_LIST_SOURCES,
  type ReadingListSource,
} from '@reshelf/contracts';
import { CsvError } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import { AppError } from '../../errors.ts';

export interface ReadingListEntry {
  /** The row's number in the file, the first book being row 1. */
  row: number;
  title: string;
  authors: string[];
  isbn13: string | null;
  shelves: string[];
  owned: boolean;
  /** Why the row cannot be used ("Row 9: no title"), or null. */
  error: string | null;
}

export interface ParsedReadingList {
  source: ReadingListSource;
  entries: ReadingListEntry[];
}

function readRecords(text: string): string[][] {
  try {
    return parse(text, {
      bom: true,
      relax_column_count: true,
      // Goodreads' ISBN cells, `="0141439513"`, are sometimes written without the outer quotes.
      relax_quotes: true,
      skip_empty_lines: true,
      max_record_size: 64 * 1024,
    });
  } catch (error) {
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines;
      throw new AppError(
        'BAD_INPUT',
        `${READING_LIST_MESSAGES.notCsv}${line ? ` (the problem is near line ${line})` : ''}.`,
      );
    }
    throw error;
  }
}

function detect(header: string[]): ReadingListSource {
  const cells = header.map((cell) => cell.trim());
  const source = READING_LIST_SOURCES.find((candidate) => {
    const columns = READING_LIST_COLUMNS[candidate];
    return columns.length === cells.length && columns.every((column, index) => column === cells[index]);
  });
  if (!source) throw new AppError('BAD_INPUT', READING_LIST_MESSAGES.unknownHeader);
  return source;
}

/** An ISBN cell's text: Goodreads writes `="0141439513"` (an Excel formula keeping the zeros). */
function isbnCell(value: string | undefined): string {
  const text = (value ?? '').trim();
  const wrapped = /^="?(.*?)"?$/.exec(text);
  return (wrapped ? wrapped[1]! : text).trim();
}

function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/** A list's own name for a book without an ISBN (a StoryGraph id): anything that is not ISBN-like. */
const ISBN_LIKE = /^[\dXx\s-]+$/;

function entryFrom(source: ReadingListSource, cells: string[], row: number): ReadingListEntry {
  const columns = READING_LIST_COLUMNS[source];
  const at = (column: string) => cells[columns.indexOf(column)] ?? '';
  const label = READING_LIST_SOURCE_LABELS[source];
  const entry: ReadingListEntry = {
    row,
    title: at('Title').trim(),
    authors: [],
    isbn13: null,
    shelves: [],
    owned: false,
    error: null,
  };
  if (cells.length !== columns.length) {
    entry.error = `Row ${row}: it has ${cells.length} fields, a ${label} export has ${columns.length}.`;
    return entry;
  }
  const isbnTexts =
    source === 'goodreads' ? [isbnCell(at('ISBN13')), isbnCell(at('ISBN'))] : [at('ISBN/UID').trim()];
  if (source === 'goodreads') {
    entry.authors = [at('Author').trim(), ...splitList(at('Additional Authors'))].filter(Boolean);
    entry.shelves = [at('Exclusive Shelf').trim(), ...splitList(at('Bookshelves'))].filter(Boolean);
    entry.owned = Number(at('Owned Copies')) > 0;
  } else {
    entry.authors = splitList(at('Authors'));
    entry.shelves = [at('Read Status').trim()].filter(Boolean);
    entry.owned = at('Owned?').trim().toLowerCase() === 'yes';
  }
  if (entry.owned) entry.shelves.push(OWNED_SHELF);
  entry.shelves = [...new Set(entry.shelves)];
  if (!entry.title) {
    entry.error = `Row ${row}: no title.`;
    return entry;
  }
  for (const text of isbnTexts) {
    if (!text || (source === 'storygraph' && !ISBN_LIKE.test(text))) continue;
    const isbn13 = normaliseIsbn(text);
    if (!isbn13) {
      entry.error = `Row ${row}: “${text}” isn’t a valid ISBN (check its 10 or 13 digits).`;
      return entry;
    }
    entry.isbn13 ??= isbn13;
  }
  return entry;
}

/** A Goodreads or StoryGraph export, read row by row (a row that cannot be read says why). */
export function parseReadingList(text: string): ParsedReadingList {
  if (text.length > READING_LIST_LIMITS.maxFileChars)
    throw new AppError('BAD_INPUT', READING_LIST_MESSAGES.tooBig);
  // Text PostgreSQL cannot store (the report is jsonb): refused whole, as the bulk upload does.
  if (text.includes('\u0000')) throw new AppError('BAD_INPUT', READING_LIST_MESSAGES.notText);
  const [header, ...body] = readRecords(text);
  if (!header) throw new AppError('BAD_INPUT', READING_LIST_MESSAGES.empty);
  const source = detect(header);
  if (body.length === 0) throw new AppError('BAD_INPUT', READING_LIST_MESSAGES.noRows);
  if (body.length > READING_LIST_LIMITS.maxRows)
    throw new AppError('BAD_INPUT', READING_LIST_MESSAGES.tooManyRows);
  return { source, entries: body.map((cells, index) => entryFrom(source, cells, index + 1)) };
}

/**
 * The titles a row may be catalogued under, best first: its own title without a trailing
 * parenthetical (Goodreads adds the series, "(The Lord of the Rings, #1)", or the edition,
 * "(Penguin Classics)"), then without a subtitle ("Sapiens: A Brief History…", "The Hobbit, or
 * There and Back Again").
 */
export function titleCandidates(title: string): string[] {
  const bare = title.replace(/(?:\s*\([^()]*\))+\s*$/, '').trim() || title.trim();
  const short = bare.split(/\s*:\s+|,\s+or,?\s+/i)[0]!.trim();
  return [...new Set([bare, short].filter(Boolean))];
}
