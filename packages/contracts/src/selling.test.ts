import { describe, expect, it } from 'vitest';
import { formatIsbn, ISBN_MESSAGES, isbn10To13, isbn13To10, parseIsbn } from './isbn.ts';
import { notificationText } from './notifications.ts';
import { slugify } from './schemas.ts';
import {
  bookDetailsInputSchema,
  isbnInputSchema,
  priceMinorSchema,
  SELLING_MESSAGES,
  startListingInputSchema,
} from './selling.ts';
import { photoThumbUrl } from './selling-limits.ts';

describe('parsing ISBNs as people type them', () => {
  it('reads ISBN-13 with hyphens, spaces and a label', () => {
    for (const typed of [
      '9780141439518',
      '978-0-14-143951-8',
      '978 0 14 143951 8',
      'ISBN 978-0141439518',
      'isbn-13: 9780141439518',
    ]) {
      expect(parseIsbn(typed), typed).toEqual({
        ok: true,
        isbn13: '9780141439518',
        isbn10: '0141439513',
        typed: 'isbn13',
      });
    }
  });

  it('reads ISBN-10, including an X check digit in either case', () => {
    expect(parseIsbn('0-14-143951-3')).toEqual({
      ok: true,
      isbn13: '9780141439518',
      isbn10: '0141439513',
      typed: 'isbn10',
    });
    expect(parseIsbn('080442957X')).toMatchObject({
      ok: true,
      isbn13: '9780804429573',
      isbn10: '080442957X',
    });
    expect(parseIsbn('0-8044-2957-x')).toMatchObject({ ok: true, isbn13: '9780804429573' });
    expect(isbn10To13('080442957X')).toBe('9780804429573');
    expect(isbn13To10('9780804429573')).toBe('080442957X');
  });

  it('reads a 979 ISBN-13, which has no ISBN-10', () => {
    expect(parseIsbn('979-10-323-0569-0')).toEqual({
      ok: true,
      isbn13: '9791032305690',
      isbn10: null,
      typed: 'isbn13',
    });
  });

  it('says what is wrong: check digit, length, characters, prefix, nothing at all', () => {
    expect(parseIsbn('9780141439519')).toEqual({ ok: false, problem: 'check_digit' });
    expect(parseIsbn('0141439514')).toEqual({ ok: false, problem: 'check_digit' });
    expect(parseIsbn('0804429570')).toEqual({ ok: false, problem: 'check_digit' });
    expect(parseIsbn('978014143951')).toEqual({ ok: false, problem: 'length' });
    expect(parseIsbn('97801414395180')).toEqual({ ok: false, problem: 'length' });
    expect(parseIsbn('978-0-14-14395X-8')).toEqual({ ok: false, problem: 'characters' });
    expect(parseIsbn('pride and prejudice')).toEqual({ ok: false, problem: 'characters' });
    expect(parseIsbn('978014143951X')).toEqual({ ok: false, problem: 'characters' });
    expect(parseIsbn('1234567890123')).toEqual({ ok: false, problem: 'prefix' });
    expect(parseIsbn('   ')).toEqual({ ok: false, problem: 'empty' });
  });

  it('gives the schema’s messages for people, and the ISBN-13 when it is one', () => {
    expect(isbnInputSchema.parse(' 0-14-143951-3 ')).toBe('9780141439518');
    expect(isbnInputSchema.safeParse('9780141439519').error?.issues[0]?.message).toBe(
      ISBN_MESSAGES.check_digit,
    );
    expect(isbnInputSchema.safeParse('12345').error?.issues[0]?.message).toBe(ISBN_MESSAGES.length);
    expect(startListingInputSchema.parse({ isbn: null })).toEqual({ isbn: null });
  });

  it('hyphenates an ISBN by the ISBN ranges, as it is printed in the book', () => {
    // Group 0 (English), publisher 261 (HarperCollins), title 10221, check digit 7.
    expect(formatIsbn('9780261102217')).toBe('978-0-261-10221-7');
    expect(formatIsbn('9780141439518')).toBe('978-0-14-143951-8');
    expect(formatIsbn('0261102214')).toBe('0-261-10221-4');
    expect(formatIsbn('9791091146135')).toBe('979-10-91146-13-5');
    // Hyphens as typed are not trusted: the ranges decide.
    expect(formatIsbn('978-0261-102217')).toBe('978-0-261-10221-7');
    // Not a valid ISBN (a wrong check digit): shown as it came, never half-hyphenated.
    expect(formatIsbn('9780261102218')).toBe('9780261102218');
  });
});

describe('listing inputs', () => {
  it('refuses a price of 0, above £10,000 or in fractions of a penny', () => {
    expect(priceMinorSchema.safeParse(0).error?.issues[0]?.message).toBe(SELLING_MESSAGES.priceTooLow);
    expect(priceMinorSchema.safeParse(1_000_001).error?.issues[0]?.message).toBe(
      SELLING_MESSAGES.priceTooHigh,
    );
    expect(priceMinorSchema.safeParse(12.5).error?.issues[0]?.message).toBe(SELLING_MESSAGES.priceNotPence);
    expect(priceMinorSchema.parse(1)).toBe(1);
    expect(priceMinorSchema.parse(1_000_000)).toBe(1_000_000);
  });

  it('refuses a title over 300 characters and a book without an author', () => {
    const long = bookDetailsInputSchema.safeParse({ title: 'x'.repeat(301), authors: ['A'] });
    expect(long.error?.issues[0]?.message).toBe(SELLING_MESSAGES.titleTooLong);
    const noAuthor = bookDetailsInputSchema.safeParse({ title: 'Book', authors: ['  ', ''] });
    expect(noAuthor.error?.issues[0]?.message).toBe(SELLING_MESSAGES.authorsMissing);
    expect(bookDetailsInputSchema.parse({ title: '  Book ', authors: [' Ann ', ''], publisher: '' })).toEqual(
      {
        title: 'Book',
        authors: ['Ann'],
        publisher: null,
      },
    );
  });

  it('makes slugs from titles', () => {
    expect(slugify('Brontë’s Jane Eyre: A Biography!')).toBe('brontes-jane-eyre-a-biography');
    expect(slugify('Война и мир')).toBe('');
  });

  it('finds the thumbnail of a stored photo, and leaves other URLs alone', () => {
    expect(photoThumbUrl('/storage/listings/l/p/1600.webp')).toBe('/storage/listings/l/p/400.webp');
    expect(photoThumbUrl('https://x.supabase.co/storage/v1/object/public/b/listings/l/p/1600.webp')).toBe(
      'https://x.supabase.co/storage/v1/object/public/b/listings/l/p/400.webp',
    );
    expect(photoThumbUrl('https://covers.example/1600.webp.png')).toBe(
      'https://covers.example/1600.webp.png',
    );
  });

  it('words notifications', () => {
    expect(
      notificationText('wishlist_price_drop', {
        title: 'Emma',
        now: { allInMinor: 543, postageFromMinor: 299, band: 'large_letter' },
        wasAllInMinor: 700,
      }),
    ).toEqual({
      title: 'Price drop on your wishlist',
      body: 'Emma is now £5.43 (was £7.00), including buyer protection, + postage from £2.99.',
    });
    expect(notificationText('wishlist_sold', { title: 'Emma' }).title).toBe(
      'A book on your wishlist has sold',
    );
  });
});
