/** Reading the two real export layouts from the fixture files (tests/fixtures/reading-lists). */
import { readFileSync } from 'node:fs';
import { READING_LIST_MESSAGES } from '@reshelf/contracts';
import { describe, expect, it } from 'vitest';
import { parseReadingList, titleCandidates } from './parse.ts';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../../tests/fixtures/reading-lists/${name}`, import.meta.url), 'utf8');

describe('a Goodreads library export', () => {
  const { source, entries } = parseReadingList(fixture('goodreads_library_export.csv'));

  it('is known by its header and read row by row', () => {
    expect(source).toBe('goodreads');
    expect(entries).toHaveLength(30);
    expect(entries[0]).toEqual({
      row: 1,
      title: 'Pride and Prejudice',
      authors: ['Jane Austen'],
      isbn13: '9780141439518',
      shelves: ['read', 'classics', 'owned'],
      owned: true,
      error: null,
    });
  });

  it('takes the ="…" wrapping off the ISBNs, and reads custom shelves and a review with a line break', () => {
    const jane = entries.find((entry) => entry.title === 'Jane Eyre')!;
    expect(jane.isbn13).toBe('9780141441146');
    const persuasion = entries.find((entry) => entry.title === 'Persuasion')!;
    expect(persuasion.shelves).toEqual(['to-read', 'classics', 'favourites']);
    const hobbit = entries.find((entry) => entry.title.startsWith('The Hobbit'))!;
    expect(hobbit.isbn13).toBeNull();
    expect(hobbit.error).toBeNull();
  });

  it('says what is wrong with each bad row, by its number', () => {
    expect(entries.filter((entry) => entry.error).map((entry) => entry.error)).toEqual([
      'Row 11: it has 12 fields, a Goodreads export has 24.',
      'Row 17: no title.',
      'Row 23: “9781786892738” isn’t a valid ISBN (check its 10 or 13 digits).',
    ]);
  });
});

describe('a StoryGraph export', () => {
  const { source, entries } = parseReadingList(fixture('storygraph_export.csv'));

  it('is known by its header (after a byte-order mark), with CRLF and quoted line breaks', () => {
    expect(source).toBe('storygraph');
    expect(entries).toHaveLength(28);
    const wuthering = entries.find((entry) => entry.title === 'Wuthering Heights')!;
    // An ISBN-10 becomes its ISBN-13.
    expect(wuthering).toMatchObject({ isbn13: '9780141439556', shelves: ['read', 'owned'], owned: true });
    expect(entries.find((entry) => entry.title === 'Meditations')!.authors).toEqual(['Marcus Aurelius']);
  });

  it('reads a StoryGraph id as no ISBN, and says what is wrong with each bad row', () => {
    expect(entries.find((entry) => entry.title === 'Gone Girl')).toMatchObject({ isbn13: null, error: null });
    expect(entries.filter((entry) => entry.error).map((entry) => entry.error)).toEqual([
      'Row 7: “978014118249” isn’t a valid ISBN (check its 10 or 13 digits).',
      'Row 15: it has 6 fields, a StoryGraph export has 23.',
    ]);
  });
});

describe('a file that is neither', () => {
  it('is refused, naming what was expected', () => {
    expect(() => parseReadingList('title,author\nDune,Frank Herbert\n')).toThrow(
      READING_LIST_MESSAGES.unknownHeader,
    );
    expect(() => parseReadingList('"unclosed\n')).toThrow(READING_LIST_MESSAGES.notCsv);
  });

  it('with a NUL character is refused: it is not text', () => {
    const text = fixture('goodreads_library_export.csv').replace('Emma', 'Em\u0000ma');
    expect(() => parseReadingList(text)).toThrow(READING_LIST_MESSAGES.notText);
  });

  it('with the header and no rows is refused too', () => {
    const header = fixture('storygraph_export.csv').split('\r\n')[0]!;
    expect(() => parseReadingList(`${header}\r\n`)).toThrow(READING_LIST_MESSAGES.noRows);
  });
});

describe('the titles a row may be catalogued under', () => {
  it('drops a trailing series or edition note, then a subtitle', () => {
    expect(titleCandidates('Dracula (Penguin Classics)')).toEqual(['Dracula']);
    expect(titleCandidates('The Fellowship of the Ring (The Lord of the Rings, #1)')).toEqual([
      'The Fellowship of the Ring',
    ]);
    expect(titleCandidates('Sapiens: A Brief History of Humankind')).toEqual([
      'Sapiens: A Brief History of Humankind',
      'Sapiens',
    ]);
    expect(titleCandidates('The Hobbit, or There and Back Again')).toEqual([
      'The Hobbit, or There and Back Again',
      'The Hobbit',
    ]);
  });
});
