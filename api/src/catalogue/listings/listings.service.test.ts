import { describe, expect, it } from 'vitest';
import { fuzzySearchText, SUGGESTION_WORDS, suggestionWords } from './listings.service.ts';

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

describe('"did you mean" compares one by one', () => {
  it('the words of the text, without little words, short words, quotes or -exclusions', () => {
    expect(suggestionWords('The Hobit xyzzy')).toEqual(['hobit', 'xyzzy']);
    expect(suggestionWords('"pride and prejudise" -zombies')).toEqual(['pride', 'prejudise']);
    expect(suggestionWords('H is for Hawk')).toEqual(['hawk']);
    expect(suggestionWords('the of and')).toEqual([]);
  });

  it('each word once, at most eight of them', () => {
    expect(suggestionWords('dune Dune DUNE')).toEqual(['dune']);
    expect(suggestionWords('one two three four five six seven eight nine ten eleven')).toHaveLength(
      SUGGESTION_WORDS,
    );
  });
});
