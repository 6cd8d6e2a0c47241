import { describe, expect, it } from 'vitest';
import { exceedsViewport } from './overflow-guard.ts';

describe('exceedsViewport', () => {
  it('is true only when the page is wider than the viewport by more than 1 px', () => {
    expect(exceedsViewport(390, 390)).toBe(false);
    expect(exceedsViewport(391, 390)).toBe(false);
    expect(exceedsViewport(392, 390)).toBe(true);
    expect(exceedsViewport(1600, 1280)).toBe(true);
  });
});
