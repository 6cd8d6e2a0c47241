import { describe, expect, it } from 'vitest';
import { parseSeries, seriesOf } from './open-library-series.ts';

describe('an Open Library edition’s series', () => {
  it.each([
    ['Discworld ; 1', 'Discworld', 1],
    ['Discworld; 12', 'Discworld', 12],
    ['His Dark Materials -- 2', 'His Dark Materials', 2],
    ['His Dark Materials — 3', 'His Dark Materials', 3],
    ['Harry Potter (1)', 'Harry Potter', 1],
    ['Harry Potter #4', 'Harry Potter', 4],
    ['A Song of Ice and Fire, book 1', 'A Song of Ice and Fire', 1],
    ['His dark materials ; bk. 2', 'His dark materials', 2],
    ['The Hunger Games, Book 2', 'The Hunger Games', 2],
    ['The Lord of the Rings, Part 2', 'The Lord of the Rings', 2],
    ['Harry Potter ; 2.5', 'Harry Potter', 2.5],
    ['Discworld series ; 3', 'Discworld', 3],
    ['Harry Potter book 3', 'Harry Potter', 3],
    ['Discworld (book 5)', 'Discworld', 5],
    ['Discworld ; 1st', 'Discworld', 1],
    ['Discworld ; v. 7', 'Discworld', 7],
  ])('reads “%s” as %s, volume %s', (text, name, position) => {
    expect(parseSeries(text)).toEqual({ name, position });
  });

  it('keeps a series named without a volume, dropping “series” and an imprint in brackets', () => {
    expect(parseSeries('Wolf Hall trilogy')).toEqual({ name: 'Wolf Hall trilogy', position: null });
    expect(parseSeries('Discworld series')).toEqual({ name: 'Discworld', position: null });
    expect(parseSeries('Penguin modern classics (Penguin)')).toEqual({
      name: 'Penguin modern classics',
      position: null,
    });
  });

  it('reads nothing from nothing, a bare number or an impossible volume', () => {
    expect(parseSeries('')).toBeNull();
    expect(parseSeries('   ')).toBeNull();
    expect(parseSeries('12')).toBeNull();
    expect(parseSeries('Discworld ; 0')).toEqual({ name: 'Discworld', position: null });
  });

  it('takes a numbered series before a bare one, from a list or a single string', () => {
    expect(seriesOf(['Corgi books', 'Discworld ; 1'])).toEqual({ name: 'Discworld', position: 1 });
    expect(seriesOf('His Dark Materials -- 2')).toEqual({ name: 'His Dark Materials', position: 2 });
    expect(seriesOf(['Wolf Hall trilogy'])).toEqual({ name: 'Wolf Hall trilogy', position: null });
    expect(seriesOf(undefined)).toBeNull();
    expect(seriesOf([42, null])).toBeNull();
  });
});
