import { describe, expect, it } from 'vitest';
import {
  describeTextFault,
  fieldName,
  findTextFault,
  LONE_SURROGATE_MESSAGE,
  NUL_MESSAGE,
  textProblem,
} from './text.ts';

describe('findTextFault', () => {
  it('finds a NUL in the value, a nested string, an array item or a key', () => {
    expect(findTextFault('a\u0000b')).toEqual({ path: [], message: NUL_MESSAGE });
    expect(findTextFault({ title: 'ok', notes: 'x\u0000' })?.path).toEqual(['notes']);
    expect(findTextFault({ items: [{ name: 'a' }, { name: 'b\u0000' }] })?.path).toEqual([
      'items',
      1,
      'name',
    ]);
    expect(findTextFault({ tags: { 'k\u0000': 'v' } })?.path).toEqual(['tags', 'k\u0000']);
  });

  it('finds half of a surrogate pair, and passes whole pairs', () => {
    expect(textProblem('broken \ud800')).toBe(LONE_SURROGATE_MESSAGE);
    expect(textProblem('\udc00 broken')).toBe(LONE_SURROGATE_MESSAGE);
    expect(textProblem('a book 📚 and ü')).toBeNull();
    expect(findTextFault({ title: 'x\udfff' })).toEqual({ path: ['title'], message: LONE_SURROGATE_MESSAGE });
  });

  it('passes text without one, and values that are not text', () => {
    expect(findTextFault({ title: 'Dune', price: 300, draft: false, at: null, list: [1, 'two'] })).toBeNull();
    expect(findTextFault(undefined)).toBeNull();
    expect(findTextFault(42)).toBeNull();
  });

  it('names the field as a person reads it', () => {
    expect(describeTextFault({ path: ['items', 1, 'name'], message: NUL_MESSAGE })).toBe(
      `items.1.name: ${NUL_MESSAGE}`,
    );
    expect(describeTextFault({ path: [], message: NUL_MESSAGE })).toBe(NUL_MESSAGE);
    expect(fieldName(['k\u0000'])).toBe('k\\0');
  });
});
