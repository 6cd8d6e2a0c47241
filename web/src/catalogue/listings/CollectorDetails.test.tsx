/**
 * The listing page's "Collector's details" block and the listing's JSON-LD edition: what a
 * collectable copy says (the Bookman grade beside the everyday grade, each attribute, the
 * dust jacket's grade), and nothing for a copy with nothing to say.
 */
import { CONDITION_LABELS, type ListingDetail } from '@reshelf/contracts';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CollectorDetails } from './CollectorDetails.tsx';
import { bookJsonLd } from './json-ld.ts';

const PLAIN: ListingDetail = {
  id: '00000000-0000-4000-8000-000000000001',
  slug: 'the-hobbit',
  status: 'active',
  available: true,
  unavailableReason: null,
  title: 'The Hobbit',
  subtitle: null,
  authors: ['J. R. R. Tolkien'],
  isbn13: '9780261102217',
  isbn10: null,
  publisher: null,
  publishedYear: 1937,
  pageCount: null,
  language: 'en',
  coverUrl: null,
  bookDescription: null,
  condition: 'very_good',
  exLibrary: false,
  format: 'hardback',
  firstEdition: false,
  signed: false,
  firstPrinting: false,
  inscribed: false,
  bookClub: false,
  printOnDemand: false,
  dustJacket: null,
  bookmanGrade: null,
  conditionNotes: null,
  description: null,
  photos: [],
  publishedAt: '2026-01-01T00:00:00.000Z',
  category: null,
  genres: [],
  seller: {
    id: '00000000-0000-4000-8000-000000000002',
    displayName: 'Ann Example',
    town: null,
    bio: null,
    avatarUrl: null,
    memberSince: '2025-01-01T00:00:00.000Z',
    activeListings: 1,
    charity: null,
  },
  charity: null,
  trader: null,
  returns: null,
  price: {
    itemMinor: 12_000,
    allInMinor: 12_670,
    postageMinor: 299,
    protectionMinor: 670,
    protectionVatMinor: 112,
    totalMinor: 12_969,
    parcelSize: 'small',
    protectionFixedMinor: 70,
    protectionPercent: 5,
  },
};

const SIGNED_FIRST: ListingDetail = {
  ...PLAIN,
  firstEdition: true,
  signed: true,
  dustJacket: 'near_fine',
};

function text(listing: ListingDetail): string {
  return renderToStaticMarkup(<CollectorDetails listing={listing} />)
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

describe('the collector’s details block', () => {
  it('shows a collectable copy’s Bookman grade beside its everyday grade, its attributes and its jacket', () => {
    const shown = text(SIGNED_FIRST);
    expect(shown).toContain('Collector’s details');
    expect(shown).toContain(`${CONDITION_LABELS.very_good} (Bookman: Very Good)`);
    expect(shown).toContain('First edition, Signed');
    expect(shown).toContain('Dust jacket Near Fine');
    // The seller's own grade, when they gave one.
    expect(text({ ...SIGNED_FIRST, bookmanGrade: 'near_fine' })).toContain(
      `${CONDITION_LABELS.very_good} (Bookman: Near Fine)`,
    );
  });

  it('shows no Bookman grade for a copy that is not collectable, and nothing at all for a plain copy', () => {
    const bookClub = text({ ...PLAIN, bookClub: true, exLibrary: true, dustJacket: 'none' });
    expect(bookClub).toContain('Ex-library, Book club edition');
    expect(bookClub).toContain('No dust jacket');
    expect(bookClub).not.toContain('Bookman');
    expect(text(PLAIN)).toBe('');
  });
});

describe('the listing’s JSON-LD', () => {
  it('names the edition a collector would ask about, and no edition for a plain copy', () => {
    expect(bookJsonLd({ ...SIGNED_FIRST, firstPrinting: true }, 'https://reshelf.test').bookEdition).toBe(
      'First edition, First printing',
    );
    expect(bookJsonLd(PLAIN, 'https://reshelf.test')).not.toHaveProperty('bookEdition');
  });
});
