import { describe, expect, it } from 'vitest';
import {
  ADMIN_TIERS,
  BUTTON_SIZES,
  BUTTON_VARIANTS,
  COOKIE_BANNER,
  formatPence,
  hasStaffRole,
  isStaffRole,
  parsePounds,
  percentOf,
  QUERY_CACHE,
  tierLevel,
} from './index.ts';

describe('money', () => {
  it('formats pence as pounds with two decimals', () => {
    expect(formatPence(0)).toBe('£0.00');
    expect(formatPence(5)).toBe('£0.05');
    expect(formatPence(299)).toBe('£2.99');
    expect(formatPence(123450)).toBe('£1,234.50');
    expect(formatPence(-150)).toBe('-£1.50');
  });

  it('refuses fractional pence rather than rounding silently', () => {
    expect(() => formatPence(1.5)).toThrow(/whole pence/);
  });

  it('parses typed pounds into pence', () => {
    expect(parsePounds('12')).toBe(1200);
    expect(parsePounds('12.5')).toBe(1250);
    expect(parsePounds('£1,234.56')).toBe(123456);
    expect(parsePounds('0.07')).toBe(7);
    expect(parsePounds('12.345')).toBeNull();
    expect(parsePounds('abc')).toBeNull();
    expect(parsePounds('-1')).toBeNull();
  });

  it('rounds percentages half up to the penny', () => {
    expect(percentOf(1000, 5)).toBe(50);
    expect(percentOf(1010, 5)).toBe(51); // 50.5 -> 51
    expect(percentOf(1009, 5)).toBe(50); // 50.45 -> 50
    expect(percentOf(799, 20)).toBe(160); // 159.8 -> 160
  });
});

describe('roles and tiers', () => {
  it('compares staff roles lower-cased', () => {
    expect(isStaffRole('admin')).toBe(true);
    expect(isStaffRole('ADMIN')).toBe(true);
    expect(isStaffRole(' Moderator ')).toBe(true);
    expect(isStaffRole('seller')).toBe(false);
    expect(hasStaffRole(['buyer', 'MODERATOR'])).toBe(true);
    expect(hasStaffRole([])).toBe(false);
  });

  it('ranks the global-admin tiers as the spec says', () => {
    expect(ADMIN_TIERS).toEqual({ super_admin: 4, ops_admin: 3, support_agent: 2, read_only: 1 });
    expect(tierLevel('ops_admin')).toBe(3);
    expect(tierLevel('unknown')).toBe(0);
    expect(tierLevel(null)).toBe(0);
  });
});

describe('spec constants', () => {
  it('keeps the query cache, cookie banner and button catalogue of section 9', () => {
    expect(QUERY_CACHE).toEqual({
      staleTimeMs: 300_000,
      gcTimeMs: 600_000,
      retry: 1,
      refetchOnWindowFocus: false,
    });
    expect(COOKIE_BANNER).toMatchObject({
      storageKey: 'cookie-consent',
      delayMs: 2000,
      slideInMs: 100,
      removalMs: 300,
    });
    expect(BUTTON_VARIANTS).toEqual([
      'default',
      'brand',
      'hero',
      'cta',
      'destructive',
      'outline',
      'secondary',
      'ghost',
      'link',
    ]);
    expect(BUTTON_SIZES).toEqual(['default', 'sm', 'lg', 'icon']);
  });
});
