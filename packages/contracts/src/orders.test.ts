import { describe, expect, it } from 'vitest';
import { booksTitle } from './orders.ts';

describe('booksTitle', () => {
  it('names one book, or the first and how many more', () => {
    expect(booksTitle([])).toBe('');
    expect(booksTitle(['Emma'])).toBe('Emma');
    expect(booksTitle(['Emma', 'Persuasion'])).toBe('Emma and 1 more book');
    expect(booksTitle(['Emma', 'Persuasion', 'Sanditon'])).toBe('Emma and 2 more books');
  });
});
