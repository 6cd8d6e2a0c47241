import { describe, expect, it } from 'vitest';
import { isRouteId } from './route-ids.ts';

describe('isRouteId', () => {
  it('takes the API’s ids and nothing else', () => {
    expect(isRouteId('0b7e4f5c-3a1d-4c2e-9f6a-2d8b1c0e7a93')).toBe(true);
    expect(isRouteId('00000000-0000-4000-8000-000000000000')).toBe(true);
    for (const value of [
      'abc',
      '',
      '0b7e4f5c3a1d4c2e9f6a2d8b1c0e7a93',
      '0b7e4f5c-3a1d-4c2e-9f6a-2d8b1c0e7a9',
      null,
      undefined,
    ]) {
      expect(isRouteId(value), String(value)).toBe(false);
    }
  });
});
