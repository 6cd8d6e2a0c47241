import { describe, expect, it } from 'vitest';
import { countOf, plural } from './plural.ts';

describe('plural', () => {
  it('takes the singular for exactly one and the plural otherwise (en-GB)', () => {
    expect(plural(1, 'book', 'books')).toBe('book');
    for (const n of [0, 2, 11, 21, 101, 1.5, -2]) expect(plural(n, 'book', 'books')).toBe('books');
    expect(plural(1, 'has', 'have')).toBe('has');
    expect(plural(3, 'has', 'have')).toBe('have');
  });
});

describe('countOf', () => {
  it('puts the count, grouped as in the UK, before its words', () => {
    expect(countOf(1, 'pre-loved book', 'pre-loved books')).toBe('1 pre-loved book');
    expect(countOf(0, 'sale', 'sales')).toBe('0 sales');
    expect(countOf(1234, 'copy', 'copies')).toBe('1,234 copies');
  });
});
