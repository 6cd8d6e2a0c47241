/**
 * The sell wizard's review step shows every field the seller chose (it left out the
 * format), the collectors' details among them, each in its step's section.
 */
import { BOOK_FORMAT_LABELS, CONDITION_LABELS, type SellerListing } from '@reshelf/contracts';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { ReviewPanel } from './ReviewPanel.tsx';

const LISTING: SellerListing = {
  id: '00000000-0000-4000-8000-000000000001',
  status: 'draft',
  slug: null,
  isbn13: '9780261102217',
  book: {
    id: '00000000-0000-4000-8000-000000000002',
    title: 'The Hobbit',
    subtitle: 'or There and Back Again',
    authors: ['J. R. R. Tolkien'],
    isbn13: '9780261102217',
    publisher: 'HarperCollins',
    publishedYear: 1991,
    coverUrl: null,
    category: { slug: 'fiction', name: 'Fiction' },
    editable: false,
  },
  condition: 'very_good',
  exLibrary: true,
  format: 'hardback',
  firstEdition: true,
  signed: true,
  firstPrinting: false,
  inscribed: true,
  bookClub: false,
  printOnDemand: false,
  dustJacket: 'near_fine',
  bookmanGrade: null,
  conditionNotes: 'A little foxing.',
  description: 'With its dust jacket.',
  photos: [],
  priceMinor: 2400,
  parcelSize: 'small',
  postageMinor: { small: 299, medium: 399, large: 499 },
  publishedAt: null,
  createdAt: '2026-12-01T10:00:00.000Z',
  updatedAt: '2026-12-01T10:00:00.000Z',
  missing: [],
  lock: null,
  wishlistCount: 0,
};

function text(listing: SellerListing): string {
  return renderToStaticMarkup(
    <MemoryRouter>
      <ReviewPanel listing={listing} editHref={(step) => `/sell/x?step=${step}`} />
    </MemoryRouter>,
  ).replace(/<[^>]+>/g, ' ');
}

describe('the review step', () => {
  it('shows the format, first edition, signed and ex-library with the condition, and every book detail', () => {
    const shown = text(LISTING);
    for (const words of [
      'The Hobbit',
      'or There and Back Again',
      'J. R. R. Tolkien',
      'HarperCollins',
      '1991',
      'Fiction',
      'ISBN 978-0-261-10221-7',
      `${CONDITION_LABELS.very_good} (Bookman: Very Good)`,
      BOOK_FORMAT_LABELS.hardback,
      'First edition',
      'Signed',
      'Inscribed',
      'Ex-library',
      'Dust jacket: Near Fine',
      'A little foxing.',
      'With its dust jacket.',
    ]) {
      expect(shown).toContain(words);
    }
  });

  it('says nothing of a format, edition, signature, jacket or Bookman grade the seller did not choose', () => {
    const shown = text({
      ...LISTING,
      format: null,
      firstEdition: false,
      signed: false,
      inscribed: false,
      exLibrary: false,
      dustJacket: null,
    });
    for (const words of [
      ...Object.values(BOOK_FORMAT_LABELS),
      'First edition',
      'Signed',
      'Inscribed',
      'Ex-library',
      'Dust jacket',
      'Bookman',
    ]) {
      expect(shown).not.toContain(words);
    }
  });
});
