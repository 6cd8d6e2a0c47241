import { describe, expect, it } from 'vitest';
import { fieldName, findNul, NUL_MESSAGE, nulProblem } from './text.ts';

describe('findNul', () => {
  it('finds a NUL in the value, a nested string, an array item or a key', () => {
    expect(findNul('a\u0000b')).toEqual([]);
    expect(findNul({ title: 'ok', notes: 'x\u0000' })).toEqual(['notes']);
    expect(findNul({ items: [{ name: 'a' }, { name: 'b\u0000' }] })).toEqual(['items', 1, 'name']);
    expect(findNul({ tags: { 'k\u0000': 'v' } })).toEqual(['tags', 'k\u0000']);
  });

  it('passes text without one, and values that are not text', () => {
    expect(findNul({ title: 'Dune', price: 300, draft: false, at: null, list: [1, 'two'] })).toBeNull();
    expect(findNul(undefined)).toBeNull();
    expect(findNul(42)).toBeNull();
  });

  it('names the field as a person reads it', () => {
    expect(nulProblem(['items', 1, 'name'])).toBe(`items.1.name: ${NUL_MESSAGE}`);
    expect(nulProblem([])).toBe(NUL_MESSAGE);
    expect(fieldName(['k\u0000'])).toBe('k\\0');
  });
});
