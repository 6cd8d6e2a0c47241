import { describe, expect, it } from 'vitest';
import {
  browseInputSchema,
  buyerProtectionFee,
  COMMERCIAL_DEFAULTS,
  cleanSearchText,
  isbn10To13,
  isbn13To10,
  isValidIsbn13,
  normaliseIsbn,
  parseConditionList,
  priceBreakdown,
  searchInputSchema,
  vatOfInclusive,
} from './index.ts';

const RULE = {
  fixedMinor: COMMERCIAL_DEFAULTS.buyerProtectionFixedMinor,
  percent: COMMERCIAL_DEFAULTS.buyerProtectionPercent,
};

describe('buyer protection and the price breakdown', () => {
  it('charges 70p plus 5% of the item price, rounded half up', () => {
    expect(buyerProtectionFee(0, RULE)).toBe(70);
    expect(buyerProtectionFee(1000, RULE)).toBe(120); // 70 + 50
    expect(buyerProtectionFee(1010, RULE)).toBe(121); // 70 + 50.5 -> 51
    expect(buyerProtectionFee(1009, RULE)).toBe(120); // 70 + 50.45 -> 50
    expect(buyerProtectionFee(799, RULE)).toBe(110); // 70 + 39.95 -> 40
    expect(buyerProtectionFee(1_000_000, RULE)).toBe(50_070);
  });

  it('follows the settings when staff change them', () => {
    expect(buyerProtectionFee(2000, { fixedMinor: 50, percent: 3 })).toBe(110);
    expect(buyerProtectionFee(2000, { fixedMinor: 0, percent: 0 })).toBe(0);
  });

  it('refuses fractional or negative pence', () => {
    expect(() => buyerProtectionFee(10.5, RULE)).toThrow(RangeError);
    expect(() => buyerProtectionFee(-1, RULE)).toThrow(RangeError);
  });

  it('shows the VAT inside a VAT-inclusive amount (one sixth at 20%), rounded half up', () => {
    expect(vatOfInclusive(120)).toBe(20);
    expect(vatOfInclusive(110)).toBe(18); // 18.33
    expect(vatOfInclusive(111)).toBe(19); // 18.5 -> 19
    expect(vatOfInclusive(0)).toBe(0);
    expect(vatOfInclusive(105, 5)).toBe(5);
  });

  it('adds item, postage and protection into the total', () => {
    expect(priceBreakdown({ itemMinor: 799, postageMinor: 299, protection: RULE })).toEqual({
      itemMinor: 799,
      postageMinor: 299,
      protectionMinor: 110,
      protectionVatMinor: 18,
      totalMinor: 1208,
    });
    expect(priceBreakdown({ itemMinor: 2500, postageMinor: 549, protection: RULE }).totalMinor).toBe(
      2500 + 549 + 195,
    );
  });
});

describe('ISBNs', () => {
  it('accepts ISBN-13 with or without hyphens and spaces', () => {
    expect(normaliseIsbn('9780141439518')).toBe('9780141439518');
    expect(normaliseIsbn('978-0-14-143951-8')).toBe('9780141439518');
    expect(normaliseIsbn(' 978 0141 439518 ')).toBe('9780141439518');
    expect(normaliseIsbn('ISBN: 978-0-14-143951-8')).toBe('9780141439518');
  });

  it('converts ISBN-10 (including an X check digit) to ISBN-13', () => {
    expect(normaliseIsbn('0-14-143951-3')).toBe('9780141439518');
    expect(normaliseIsbn('0141439513')).toBe('9780141439518');
    expect(isbn10To13('080442957X')).toBe('9780804429573');
    expect(normaliseIsbn('080442957x')).toBe('9780804429573');
    expect(isbn13To10('9780141439518')).toBe('0141439513');
    expect(isbn13To10('9791032305690')).toBeNull();
  });

  it('rejects bad check digits and things that are not ISBNs', () => {
    expect(normaliseIsbn('9780141439519')).toBeNull();
    expect(normaliseIsbn('0141439514')).toBeNull();
    expect(normaliseIsbn('pride and prejudice')).toBeNull();
    expect(normaliseIsbn('')).toBeNull();
    expect(isValidIsbn13('1234567890123')).toBe(false);
  });
});

describe('catalogue inputs', () => {
  it('cleans control characters and runs of spaces from search text', () => {
    expect(cleanSearchText('  pride\u0000 and\n\tprejudice  ')).toBe('pride and prejudice');
  });

  it('refuses empty and over-long search text with a clear message', () => {
    const empty = searchInputSchema.safeParse({ q: '   ' });
    expect(empty.success).toBe(false);
    expect(empty.error?.issues[0]?.message).toBe('Enter something to search for');
    const long = searchInputSchema.safeParse({ q: 'x'.repeat(10_240) });
    expect(long.error?.issues[0]?.message).toBe('Search text can be at most 200 characters');
    expect(searchInputSchema.parse({ q: '📚 "unbalanced' }).q).toBe('📚 "unbalanced');
  });

  it('checks prices: not negative, at most £10,000, min not above max', () => {
    expect(browseInputSchema.safeParse({ minPrice: -1 }).error?.issues[0]?.message).toBe(
      'The minimum price cannot be negative',
    );
    expect(browseInputSchema.safeParse({ maxPrice: 1_000_001 }).success).toBe(false);
    const reversed = browseInputSchema.safeParse({ minPrice: 500, maxPrice: 100 });
    expect(reversed.error?.issues[0]).toMatchObject({ path: ['maxPrice'] });
    expect(browseInputSchema.parse({ minPrice: 0, maxPrice: 1_000_000 })).toMatchObject({
      page: 1,
      pageSize: 24,
    });
  });

  it('limits page size and page number', () => {
    expect(browseInputSchema.safeParse({ pageSize: 49 }).success).toBe(false);
    expect(browseInputSchema.safeParse({ page: 0 }).success).toBe(false);
    expect(browseInputSchema.safeParse({ page: 10_001 }).success).toBe(false);
    expect(browseInputSchema.safeParse({ page: 10_000 }).success).toBe(true);
  });

  it('reads a comma-separated list of conditions', () => {
    expect(browseInputSchema.safeParse({ condition: 'like_new,good' }).success).toBe(true);
    expect(browseInputSchema.safeParse({ condition: 'mint' }).success).toBe(false);
    expect(parseConditionList('good,like_new,good')).toEqual(['good', 'like_new']);
    expect(parseConditionList(undefined)).toEqual([]);
  });
});
