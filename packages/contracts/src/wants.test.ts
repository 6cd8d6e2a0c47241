import { describe, expect, it } from 'vitest';
import {
  type CopyForWant,
  describeWantConditions,
  NO_CONDITIONS,
  WANT_WORDS,
  wantAccepts,
  wantInputSchema,
  wantMisses,
} from './wants.ts';

const plainCopy: CopyForWant = {
  condition: 'good',
  format: 'paperback',
  firstEdition: false,
  signed: false,
  dustJacket: null,
  printOnDemand: false,
  bookClub: false,
  allInMinor: 650,
};

describe('wantMisses', () => {
  it('takes any copy when nothing is asked', () => {
    expect(wantMisses(NO_CONDITIONS, plainCopy)).toEqual([]);
    expect(wantAccepts(NO_CONDITIONS, { ...plainCopy, printOnDemand: true, bookClub: true })).toBe(true);
  });

  it('a signed first edition ignores an unsigned first edition, and takes a signed one', () => {
    const collector = { ...NO_CONDITIONS, firstEdition: true, signed: true };
    expect(wantMisses(collector, { ...plainCopy, firstEdition: true })).toEqual(['signed']);
    expect(wantMisses(collector, plainCopy)).toEqual(['first_edition', 'signed']);
    expect(wantAccepts(collector, { ...plainCopy, firstEdition: true, signed: true })).toBe(true);
  });

  it('reads the condition scale best first, the price all-in, and a jacket graded "none" as none', () => {
    const want = {
      ...NO_CONDITIONS,
      minCondition: 'very_good' as const,
      maxAllInMinor: 600,
      dustJacket: true,
    };
    expect(wantMisses(want, { ...plainCopy, dustJacket: 'none' })).toEqual([
      'dust_jacket',
      'condition',
      'price',
    ]);
    expect(
      wantMisses(want, { ...plainCopy, condition: 'like_new', dustJacket: 'good', allInMinor: 600 }),
    ).toEqual([]);
  });

  it('refuses print-on-demand and book-club copies only when asked, and a format when named', () => {
    const want = { ...NO_CONDITIONS, noPrintOnDemand: true, noBookClub: true, format: 'hardback' as const };
    expect(wantMisses(want, { ...plainCopy, printOnDemand: true, bookClub: true })).toEqual([
      'format',
      'print_on_demand',
      'book_club',
    ]);
  });
});

describe('want words and input', () => {
  it('counts readers', () => {
    expect(WANT_WORDS.demand(1)).toBe('1 reader wants this');
    expect(WANT_WORDS.demand(3)).toBe('3 readers want this');
  });

  it('describes only the conditions asked', () => {
    expect(
      describeWantConditions({
        ...NO_CONDITIONS,
        signed: true,
        minCondition: 'very_good',
        maxAllInMinor: 600,
      }),
    ).toEqual(['Signed', 'Very good or better', 'Up to £6.00 all-in']);
  });

  it('reads an ISBN-10 as its ISBN-13 and refuses a bad one by name', () => {
    const parsed = wantInputSchema.parse({ target: { kind: 'edition', isbn: '0-14-143951-3' } });
    expect(parsed.target).toEqual({ kind: 'edition', isbn: '9780141439518' });
    expect(parsed.alerts).toBe('instant');
    const bad = wantInputSchema.safeParse({ target: { kind: 'edition', isbn: '12345' } });
    expect(bad.success).toBe(false);
  });
});
