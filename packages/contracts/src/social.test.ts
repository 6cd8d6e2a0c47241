import { describe, expect, it } from 'vitest';
import {
  describeSavedSearch,
  feedInputSchema,
  followTargetSchema,
  savedSearchParamsSchema,
  savedSearchQuery,
  searchFieldsFromQuery,
} from './social.ts';

describe('saved searches from /search addresses', () => {
  it('reads every field of the address, in the API’s terms, and drops page, sort and unknown keys', () => {
    expect(
      searchFieldsFromQuery(
        '?q=dune&title=Dune&author=herbert&isbn=0441013597&publisher=Ace&yearFrom=1965&yearTo=1970' +
          '&format=hardback&firstEdition=1&signed=true&town=Leeds&condition=good,like_new,bogus' +
          '&minPrice=2&maxPrice=12.50&charity=1&genre=space-opera&sort=newest&page=4&asOf=x&junk=1',
      ),
    ).toEqual({
      q: 'dune',
      title: 'Dune',
      author: 'herbert',
      isbn: '0441013597',
      publisher: 'Ace',
      yearFrom: 1965,
      yearTo: 1970,
      format: 'hardback',
      firstEdition: true,
      signed: true,
      town: 'Leeds',
      condition: 'good,like_new',
      minPrice: 200,
      maxPrice: 1250,
      charityOnly: true,
      genre: 'space-opera',
    });
  });

  it('keeps one canonical address whatever the order and spelling of the fields', () => {
    const a = savedSearchParamsSchema.parse(
      searchFieldsFromQuery('maxPrice=12.5&q=Dune&format=hardback&charity=1'),
    );
    const b = savedSearchParamsSchema.parse(
      searchFieldsFromQuery('charity=1&format=hardback&q=Dune&maxPrice=12.50'),
    );
    expect(savedSearchQuery(a)).toBe('charity=1&format=hardback&maxPrice=12.50&q=Dune');
    expect(savedSearchQuery(b)).toBe(savedSearchQuery(a));
    expect(describeSavedSearch(a)).toBe('“Dune” · hardback · under £12.50 · charity sellers');
    // The ISBN is kept as an ISBN-13.
    expect(savedSearchParamsSchema.parse({ isbn: '0-441-01359-7' }).isbn).toBe('9780441013593');
  });

  it('refuses a search of nothing and says what is wrong with a field', () => {
    expect(
      savedSearchParamsSchema.safeParse(searchFieldsFromQuery('sort=newest')).error?.issues[0]?.message,
    ).toBe('Search for something before saving the search: type some words or choose a filter');
    expect(savedSearchParamsSchema.safeParse(searchFieldsFromQuery('yearFrom=nineteen')).success).toBe(false);
    expect(
      savedSearchParamsSchema.safeParse(searchFieldsFromQuery('isbn=123')).error?.issues[0]?.message,
    ).toBe('The ISBN must be a 10- or 13-digit ISBN');
  });
});

describe('follow targets and feed pages', () => {
  it('cleans an author’s name and refuses a blank one', () => {
    expect(followTargetSchema.parse({ kind: 'author', author: '  Jane\n Austen ' })).toEqual({
      kind: 'author',
      author: 'Jane Austen',
    });
    expect(followTargetSchema.safeParse({ kind: 'author', author: ' ' }).success).toBe(false);
    expect(followTargetSchema.safeParse({ kind: 'shop', id: 'x' }).success).toBe(false);
  });

  it('accepts only cursors the feed gave out', () => {
    expect(feedInputSchema.parse(undefined)).toEqual({ limit: 20 });
    const cursor = '2026-11-24T10:00:00.000Z|new_listing:0b0f4a4e-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
    expect(feedInputSchema.parse({ limit: 5, cursor })).toEqual({ limit: 5, cursor });
    expect(feedInputSchema.safeParse({ cursor: "x' or 1=1" }).success).toBe(false);
  });
});
