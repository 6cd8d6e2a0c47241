import { describe, expect, it } from 'vitest';
import { hasPhotoSizes, PHOTO_WIDTHS, photoSizeKey, photoSizeUrl } from './photos.ts';
import { photoThumbUrl, SELLING_LIMITS } from './selling-limits.ts';

describe('the sizes of a stored photo', () => {
  it('are found beside its large size, by width and format, on either storage', () => {
    expect(photoSizeUrl('/storage/listings/l/p/1600.webp', 720, 'avif')).toBe(
      '/storage/listings/l/p/720.avif',
    );
    expect(
      photoSizeUrl('https://x.supabase.co/storage/v1/object/public/b/listings/l/p/1600.webp', 1080, 'webp'),
    ).toBe('https://x.supabase.co/storage/v1/object/public/b/listings/l/p/1080.webp');
    expect(photoSizeKey('demo-covers/abc', 400, 'avif')).toBe('demo-covers/abc/400.avif');
  });

  it('the smallest WebP is the thumbnail every photo has always had', () => {
    const url = '/storage/listings/l/p/1600.webp';
    expect(PHOTO_WIDTHS[0]).toBe(SELLING_LIMITS.photoThumbPx);
    expect(photoSizeUrl(url, PHOTO_WIDTHS[0], 'webp')).toBe(photoThumbUrl(url));
  });

  it('only a stored large size has them; a signed address keeps its query', () => {
    expect(hasPhotoSizes('/storage/demo-covers/h/1600.webp')).toBe(true);
    expect(hasPhotoSizes('/storage/messages/t/p/1600.webp?expires=1&sig=x')).toBe(true);
    expect(photoSizeUrl('/storage/messages/t/p/1600.webp?expires=1&sig=x', 400, 'avif')).toBe(
      '/storage/messages/t/p/400.avif?expires=1&sig=x',
    );
    for (const other of [
      'https://covers.openlibrary.org/b/isbn/9780141439549-L.jpg',
      'https://covers.example/1600.webp.png',
      '/storage/listings/l/p/400.webp',
      '/storage/listings/l/p/1600.jpg',
    ]) {
      expect(hasPhotoSizes(other)).toBe(false);
      expect(photoSizeUrl(other, 720, 'avif')).toBe(other);
    }
  });
});
