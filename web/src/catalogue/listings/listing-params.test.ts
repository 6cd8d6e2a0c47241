import { describe, expect, it } from 'vitest';
import { coverSeed } from '../../components/BookCover.tsx';
import {
  activeFilterCount,
  poundsToPence,
  readListingParams,
  readsByBook,
  toApiInput,
  toBookInput,
  withChanges,
} from './listing-params.ts';
import { pageWindow } from './Pagination.tsx';

describe('listing params in the URL', () => {
  it('reads filters, pounds and the page, ignoring what makes no sense', () => {
    const params = readListingParams(
      new URLSearchParams(
        'q=hobbit&category=fantasy&condition=good,mint,like_new&minPrice=2&maxPrice=7.50&charity=1&sort=price_asc&page=3&asOf=2026-11-21T10:00:00.000Z',
      ),
    );
    expect(params).toMatchObject({
      q: 'hobbit',
      category: 'fantasy',
      conditions: ['good', 'like_new'],
      charityOnly: true,
      sort: 'price_asc',
      page: 3,
    });
    expect(toApiInput(params)).toEqual({
      category: 'fantasy',
      condition: 'good,like_new',
      minPrice: 200,
      maxPrice: 750,
      charityOnly: true,
      sort: 'price_asc',
      page: 3,
      pageSize: 24,
      asOf: '2026-11-21T10:00:00.000Z',
    });
    const odd = readListingParams(new URLSearchParams('page=-4&sort=random&minPrice=abc&maxPrice=99999999'));
    expect(odd.page).toBe(1);
    expect(odd.sort).toBeUndefined();
    expect(toApiInput(odd)).toEqual({ page: 1, pageSize: 24 });
  });

  it('swaps a reversed price range rather than failing', () => {
    const params = readListingParams(new URLSearchParams('minPrice=10&maxPrice=2'));
    expect(toApiInput(params)).toMatchObject({ minPrice: 200, maxPrice: 1000 });
  });

  it('keeps fixed filters of the page (a category page’s own category)', () => {
    const params = readListingParams(new URLSearchParams('category=cookery'));
    expect(toApiInput(params, { category: 'fiction' }).category).toBe('fiction');
  });

  it('starts again at page 1 when a filter changes, but not when the page does', () => {
    const current = new URLSearchParams('q=emma&page=4&asOf=2026-11-21T10:00:00.000Z');
    expect(withChanges(current, { condition: 'good' }).toString()).toBe('q=emma&condition=good');
    expect(withChanges(current, { page: '5' }).toString()).toBe(
      'q=emma&page=5&asOf=2026-11-21T10%3A00%3A00.000Z',
    );
    expect(withChanges(current, { q: null }).toString()).toBe('');
  });

  it('reads typed pounds as pence', () => {
    expect(poundsToPence('4.50')).toBe(450);
    expect(poundsToPence('£12')).toBe(1200);
    expect(poundsToPence('')).toBeUndefined();
    expect(poundsToPence('ten')).toBeUndefined();
    expect(poundsToPence('10001')).toBeUndefined();
  });
});

describe('page links', () => {
  it('shows the first, the last and two either side of the current page', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(10, 42)).toEqual([1, 'gap', 8, 9, 10, 11, 12, 'gap', 42]);
    expect(pageWindow(42, 42)).toEqual([1, 'gap', 40, 41, 42]);
  });
});

describe('generated covers', () => {
  it('give a book the same colour every time', () => {
    expect(coverSeed('9780141439518')).toBe(coverSeed('9780141439518'));
    expect(coverSeed('9780141439518')).not.toBe(coverSeed('9780261102217'));
  });
});

describe('advanced search and the Following filter in the address', () => {
  it('reads the advanced fields, drops bad ones, and sends them to the API', () => {
    const params = readListingParams(
      new URLSearchParams(
        'title=Dune&author=Herbert&isbn=0441013597&publisher=Ace&yearFrom=1965&yearTo=19x0&format=scroll&firstEdition=1&signed=0&town=Leeds&following=1',
      ),
    );
    expect(params.advanced).toEqual({
      title: 'Dune',
      author: 'Herbert',
      isbn: '0441013597',
      publisher: 'Ace',
      yearFrom: 1965,
      firstEdition: true,
      town: 'Leeds',
    });
    expect(params.following).toBe(true);
    expect(activeFilterCount(params)).toBe(8);
    expect(toApiInput(params)).toMatchObject({
      title: 'Dune',
      yearFrom: 1965,
      firstEdition: true,
      town: 'Leeds',
    });
    // Changing an advanced field starts again at page 1.
    expect(withChanges(new URLSearchParams('page=3&asOf=x&title=a'), { title: 'b' }).toString()).toBe(
      'title=b',
    );
  });
});

describe('results by book in the URL', () => {
  it('reads the grouping and "search as typed", and maps the filters over copies', () => {
    const params = readListingParams(
      new URLSearchParams(
        'q=tolkein&exact=1&group=work&condition=good&minPrice=2&maxPrice=7.50&format=hardback&firstEdition=1&signed=1&charity=1&sort=price_asc&page=2&asOf=2026-11-21T10:00:00.000Z',
      ),
    );
    expect(params.group).toBe('work');
    expect(params.exact).toBe(true);
    expect(toBookInput(params, { genre: 'fantasy' })).toEqual({
      q: 'tolkein',
      exact: true,
      group: 'work',
      genre: 'fantasy',
      condition: 'good',
      minPrice: 200,
      maxPrice: 750,
      format: 'hardback',
      firstEdition: true,
      signed: true,
      charityOnly: true,
      sort: 'price_asc',
      page: 2,
      pageSize: 24,
    });
    const plain = readListingParams(new URLSearchParams('group=nonsense'));
    expect(plain.group).toBe('edition');
    expect(toBookInput(plain)).toEqual({ group: 'edition', page: 1, pageSize: 24 });
  });

  it('reads by book unless an advanced field the book search lacks is asked for', () => {
    expect(readsByBook(readListingParams(new URLSearchParams('q=dune&format=paperback&signed=1')))).toBe(
      true,
    );
    for (const key of [
      'title=Dune',
      'author=Herbert',
      'isbn=9780441013593',
      'publisher=Ace',
      'yearFrom=1965',
      'yearTo=1970',
      'town=Leeds',
    ]) {
      expect(readsByBook(readListingParams(new URLSearchParams(`q=dune&${key}`))), key).toBe(false);
    }
  });

  it('a new grouping or "search as typed" starts again at page 1', () => {
    const search = new URLSearchParams('q=tolkein&page=3&asOf=x');
    expect(withChanges(search, { group: 'work' }).toString()).toBe('q=tolkein&group=work');
    expect(withChanges(search, { exact: '1' }).toString()).toBe('q=tolkein&exact=1');
  });
});
