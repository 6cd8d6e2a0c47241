import { describe, expect, it } from 'vitest';
import { fuzzySearchText } from './listings.service.ts';

describe('the text search matches misspellings with', () => {
  it('leaves out the little words every title shares', () => {
    expect(fuzzySearchText('the hobit')).toBe('hobit');
    expect(fuzzySearchText('Pride and Prejudise')).toBe('Pride Prejudise');
    expect(fuzzySearchText('The Lord of the Rings')).toBe('Lord Rings');
  });

  it('is empty for quoted phrases, -exclusions and little words alone', () => {
    expect(fuzzySearchText('"pride and prejudice"')).toBe('');
    expect(fuzzySearchText('austen -emma')).toBe('');
    expect(fuzzySearchText('the and of')).toBe('');
    expect(fuzzySearchText('well-read copy')).toBe('well-read copy');
  });
});
