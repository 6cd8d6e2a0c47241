import { describe, expect, it } from 'vitest';
import { formatPence } from './money.ts';
import { completeTheSetLine, listOfWords, seriesPlaceWords, volumeNumber } from './series-words.ts';

const volume = (position: number, have: boolean, lowestAllInMinor: number | null = null) => ({
  position,
  have,
  lowestAllInMinor,
});

describe('series words', () => {
  it('lists numbers as people do', () => {
    expect(listOfWords(['1'])).toBe('1');
    expect(listOfWords(['1', '2'])).toBe('1 and 2');
    expect(listOfWords(['1', '2', '4'])).toBe('1, 2 and 4');
    expect(listOfWords([])).toBe('');
  });

  it('writes half volumes with their half', () => {
    expect(volumeNumber(2)).toBe('2');
    expect(volumeNumber(2.5)).toBe('2.5');
    expect(seriesPlaceWords('His Dark Materials', 1, 3)).toBe('Series: His Dark Materials, book 1 of 3');
    expect(seriesPlaceWords('Discworld', null, 41)).toBe('Series: Discworld');
  });

  it('says what the member has and the one missing volume on sale', () => {
    const line = completeTheSetLine([
      volume(4, true),
      volume(1, true),
      volume(3, false, 499),
      volume(2, true),
    ]);
    expect(line).toBe(`You have 1, 2 and 4: 3 is on sale from ${formatPence(499)}`);
  });

  it('gives the lowest price of several missing volumes on sale', () => {
    const line = completeTheSetLine([volume(1, true), volume(2, false, 650), volume(3, false, 525)]);
    expect(line).toBe(`You have 1: 2 and 3 are on sale from ${formatPence(525)}`);
  });

  it('says which missing volumes are not on sale', () => {
    expect(completeTheSetLine([volume(1, true), volume(2, true), volume(3, false)])).toBe(
      'You have 1 and 2: 3 isn’t on sale yet',
    );
    expect(
      completeTheSetLine([volume(1, true), volume(2, false, 399), volume(3, false), volume(4, false)]),
    ).toBe(`You have 1: 2 is on sale from ${formatPence(399)}; 3 and 4 aren’t on sale yet`);
  });

  it('counts half volumes', () => {
    expect(
      completeTheSetLine([volume(1, true), volume(2, true), volume(2.5, false, 300), volume(3, true)]),
    ).toBe(`You have 1, 2 and 3: 2.5 is on sale from ${formatPence(300)}`);
  });

  it('has nothing to say before the member has any, and says so when the set is whole', () => {
    expect(completeTheSetLine([volume(1, false, 300), volume(2, false)])).toBeNull();
    expect(completeTheSetLine([volume(1, true), volume(2, true)])).toBe('You have 1 and 2: the whole set');
  });
});
