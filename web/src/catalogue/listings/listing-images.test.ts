import { describe, expect, it } from 'vitest';
import { leadCardPicture, leadPicture, leadThumb } from './listing-images.ts';

describe('a listing’s lead picture', () => {
  const photo = '/storage/listings/l/p/1600.webp';
  const cover = 'https://covers.example/c.jpg';
  it('is the seller’s first photo, at card size its small one', () => {
    expect(leadPicture(photo, cover)).toBe(photo);
    expect(leadThumb(photo, cover)).toBe('/storage/listings/l/p/400.webp');
  });
  it('is the book’s cover only without a photo, and nothing (a drawn cover) without either', () => {
    expect(leadPicture(null, cover)).toBe(cover);
    expect(leadPicture(undefined, cover)).toBe(cover);
    expect(leadThumb(null, cover)).toBe(cover);
    expect(leadPicture(null, null)).toBeNull();
    expect(leadThumb(null, null)).toBeNull();
  });
  it('on a card is a stored photo as it is (its picture picks a size), any other at its small size', () => {
    expect(leadCardPicture(photo, cover)).toBe(photo);
    expect(leadCardPicture('/storage/listings/l/p/1600.jpg', null)).toBe('/storage/listings/l/p/400.jpg');
    expect(leadCardPicture(null, cover)).toBe(cover);
    expect(leadCardPicture(null, null)).toBeNull();
  });
});
