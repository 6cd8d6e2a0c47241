import { describe, expect, it } from 'vitest';
import {
  chooseCorrection,
  correctableWords,
  correctedText,
  oneSlipFrom,
  SHORT_WORD,
  slips,
  slipsAllowed,
} from './book-search.words.ts';

describe('correctableWords', () => {
  it('takes the words worth correcting, lower case, each once', () => {
    expect(correctableWords('The Hobit TOLKEIN hobit')).toEqual(['hobit', 'tolkein']);
  });

  it('leaves alone quoted words, -excluded words, little words, short words and numbers', () => {
    expect(correctableWords('"pride and prejudise" -zombeis orwel 1948 of it 2nd')).toEqual(['orwel']);
    expect(correctableWords('“tolkein hobit” dragons')).toEqual(['dragons']);
  });
});

describe('correctedText', () => {
  it('replaces the corrected words and keeps everything else as typed', () => {
    const corrections = [{ from: 'tolkein', to: 'tolkien' }];
    expect(correctedText('The Hobbit  Tolkein', corrections)).toBe('The Hobbit  tolkien');
    expect(correctedText('"tolkein" tolkein -tolkein', corrections)).toBe('"tolkein" tolkien -tolkein');
  });
});

describe('oneSlipFrom', () => {
  it('spells a short word every way one slip away', () => {
    const spellings = oneSlipFrom('raod');
    expect(spellings).toContain('road'); // swapped
    expect(spellings).toContain('rad'); // dropped
    expect(spellings).toContain('raaod'); // doubled
    expect(spellings).toContain('rood'); // replaced
    expect(spellings).not.toContain('raod');
    expect(spellings.every((spelling) => spelling.length >= 3)).toBe(true);
  });

  it('leaves longer words to their trigrams', () => {
    expect(oneSlipFrom('x'.repeat(SHORT_WORD + 1))).toEqual([]);
    expect(oneSlipFrom('brontë')).toEqual([]);
  });
});

describe('slips', () => {
  it('counts drops, additions, replacements and swaps of neighbours as one each', () => {
    expect(slips('tolkein', 'tolkien')).toBe(1);
    expect(slips('hobbbit', 'hobbit')).toBe(1);
    expect(slips('atomc', 'atomic')).toBe(1);
    expect(slips('dickins', 'dickens')).toBe(1);
    expect(slips('hawk', 'hawkng')).toBe(2);
    expect(slips('same', 'same')).toBe(0);
  });

  it('allows more slips in longer words', () => {
    expect(slipsAllowed('emam')).toBe(1);
    expect(slipsAllowed('pratchet')).toBe(2);
    expect(slipsAllowed('frankenstien')).toBe(3);
  });
});

describe('chooseCorrection', () => {
  it('prefers the fewest slips, then the most similar, then the commonest', () => {
    expect(
      chooseCorrection('hawkng', [
        { word: 'hawk', editions: 9, similarity: 0.5 },
        { word: 'hawking', editions: 1, similarity: 0.5 },
      ]),
    ).toBe('hawking');
    expect(
      chooseCorrection('gren', [
        { word: 'grey', editions: 1, similarity: 0.4 },
        { word: 'green', editions: 5, similarity: 0.4 },
      ]),
    ).toBe('green');
  });

  it('offers nothing too far away', () => {
    expect(chooseCorrection('emam', [{ word: 'madam', editions: 3, similarity: 0.3 }])).toBeNull();
    expect(chooseCorrection('tolkien', [{ word: 'tolkien', editions: 3, similarity: 1 }])).toBeNull();
  });
});
