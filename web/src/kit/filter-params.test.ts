import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { clearFilters, defaultFilters, readFilters, writeFilters } from './filter-params.ts';

const schema = z.object({
  q: z.string().trim().default(''),
  status: z.enum(['open', 'closed']).optional(),
  sort: z.enum(['newest', 'oldest']).default('newest'),
  page: z.coerce.number().int().min(1).default(1),
  cursor: z.string().optional(),
});

const params = (text: string) => new URLSearchParams(text);

describe('readFilters', () => {
  it('fills in defaults when the address has none of the filters', () => {
    expect(readFilters(schema, params(''))).toEqual({
      q: '',
      status: undefined,
      sort: 'newest',
      page: 1,
      cursor: undefined,
    });
    expect(defaultFilters(schema)).toEqual(readFilters(schema, params('other=1')));
  });

  it('reads typed values from the address', () => {
    expect(readFilters(schema, params('q=%20dune%20&status=closed&sort=oldest&page=3&cursor=abc'))).toEqual({
      q: 'dune',
      status: 'closed',
      sort: 'oldest',
      page: 3,
      cursor: 'abc',
    });
  });

  it('falls back to the default, field by field, for values that do not fit', () => {
    const values = readFilters(schema, params('status=lost&sort=sideways&page=-2&q=ok'));
    expect(values).toEqual({ q: 'ok', status: undefined, sort: 'newest', page: 1, cursor: undefined });
  });

  it('treats an empty param as missing', () => {
    expect(readFilters(schema, params('sort=&page=')).sort).toBe('newest');
  });
});

describe('writeFilters', () => {
  it('sets values and leaves defaults and empties out of the address', () => {
    const next = writeFilters(schema, params('q=old&sort=oldest'), { q: 'new', sort: 'newest' });
    expect(next.toString()).toBe('q=new');
    expect(writeFilters(schema, params('q=old'), { q: '' }).toString()).toBe('');
    expect(writeFilters(schema, params('status=open'), { status: undefined }).toString()).toBe('');
  });

  it('keeps params the schema does not know', () => {
    expect(writeFilters(schema, params('order=o1&q=a'), { q: 'b' }).toString()).toBe('order=o1&q=b');
  });

  it('goes back to the first page when another filter changes', () => {
    const next = writeFilters(schema, params('q=a&page=4&cursor=xyz'), { status: 'open' });
    expect(next.get('page')).toBeNull();
    expect(next.get('cursor')).toBeNull();
    expect(next.get('status')).toBe('open');
  });

  it('stays on the page when the filter is set to what it already is, or keepPage says so', () => {
    expect(writeFilters(schema, params('q=a&page=4'), { q: 'a' }).get('page')).toBe('4');
    expect(writeFilters(schema, params('q=a&page=4'), { q: 'b' }, { keepPage: true }).get('page')).toBe('4');
  });

  it('moves pages without touching the filters', () => {
    const next = writeFilters(schema, params('q=a&status=open'), { page: 2 });
    expect(next.toString()).toBe('q=a&status=open&page=2');
    expect(writeFilters(schema, next, { page: 1 }).toString()).toBe('q=a&status=open');
  });

  it('refuses a key that is not a filter', () => {
    expect(() => writeFilters(schema, params(''), { nope: 1 } as never)).toThrow('"nope" is not one of');
  });
});

describe('clearFilters', () => {
  it('drops every filter and keeps the other params', () => {
    expect(clearFilters(schema, params('q=a&status=open&page=2&order=o1')).toString()).toBe('order=o1');
  });
});
