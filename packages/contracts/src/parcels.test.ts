import { describe, expect, it } from 'vitest';
import {
  DEFAULT_POSTAGE_RATES,
  DELIVERY_METHODS,
  estimateBook,
  PARCEL_TOO_HEAVY,
  type ParcelBook,
  POSTAGE_BAND_LIMITS,
  PROTECTION_RULES,
  parcelFor,
  postageFor,
  postageFromFor,
  priceGroup,
} from './index.ts';

const paperback = (pageCount: number | null = 320): ParcelBook => ({
  format: 'paperback',
  pageCount,
  parcelSize: 'small',
});
const hardback = (pageCount: number | null = 400): ParcelBook => ({
  format: 'hardback',
  pageCount,
  parcelSize: 'medium',
});
const large = (pageCount: number | null = 240): ParcelBook => ({
  format: 'hardback',
  pageCount,
  parcelSize: 'large',
});

describe('estimateBook and parcelFor (decision 0083): postage from the book', () => {
  it('posts a 320-page paperback as a Large Letter', () => {
    const parcel = parcelFor([paperback()]);
    expect(parcel.band).toBe('large_letter');
    expect(parcel.weightG).toBeLessThanOrEqual(POSTAGE_BAND_LIMITS.large_letter.weightG);
    expect(parcel.thicknessMm).toBeLessThanOrEqual(POSTAGE_BAND_LIMITS.large_letter.thicknessMm);
  });

  it('posts two paperbacks together as a Small Parcel (too thick for a letter)', () => {
    const parcel = parcelFor([paperback(), paperback()]);
    expect(parcel.band).toBe('small_parcel');
    expect(parcel.bookCount).toBe(2);
    expect(parcel.thicknessMm).toBeGreaterThan(POSTAGE_BAND_LIMITS.large_letter.thicknessMm);
  });

  it('posts a 900-page hardback and a large book as Small Parcels, and a pile of large books as a Medium Parcel', () => {
    const tome = estimateBook(hardback(900));
    expect(tome.weightG).toBeGreaterThan(estimateBook(hardback(400)).weightG);
    expect(parcelFor([hardback(900)]).band).toBe('small_parcel');
    expect(parcelFor([large()]).band).toBe('small_parcel');
    expect(parcelFor([large(), large()]).band).toBe('medium_parcel');
  });

  it('takes the seller size’s typical pages when the edition’s are unknown, and a paperback when the format is', () => {
    expect(estimateBook(paperback(null))).toEqual(estimateBook(paperback(320)));
    expect(estimateBook({ format: null, pageCount: 320, parcelSize: 'small' })).toEqual(
      estimateBook(paperback()),
    );
  });

  it('refuses past 20 kg with words a buyer understands', () => {
    const pile = Array.from({ length: 20 }, () => large(600));
    expect(() => parcelFor(pile)).toThrow(new RangeError(PARCEL_TOO_HEAVY));
    expect(() => priceGroup({ items: pile.map((book) => ({ ...book, priceMinor: 500 })) })).toThrow(
      PARCEL_TOO_HEAVY,
    );
  });

  it('charges what the label costs, and "+ postage from" is the cheapest method', () => {
    for (const method of DELIVERY_METHODS) {
      expect(postageFor('small_parcel', method)).toBe(DEFAULT_POSTAGE_RATES.small_parcel[method]);
    }
    expect(postageFromFor('large_letter')).toBe(
      Math.min(DEFAULT_POSTAGE_RATES.large_letter.home, DEFAULT_POSTAGE_RATES.large_letter.drop_off),
    );
  });

  it('caps a seller-paid return’s postage at the dearest rate on the card', () => {
    const rates = Object.values(DEFAULT_POSTAGE_RATES).flatMap((byMethod) => Object.values(byMethod));
    expect(PROTECTION_RULES.returnPostageCapMinor).toBe(Math.max(...rates));
  });
});
