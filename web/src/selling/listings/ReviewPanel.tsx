import {
  BOOK_FORMAT_LABELS,
  conditionWithBookman,
  copyAttributesOf,
  dustJacketText,
  formatIsbn,
  formatPence,
  PARCEL_SIZE_LABELS,
  SELLING_STEP_LABELS,
  type SellerListing,
  type SellingStep,
} from '@reshelf/contracts';
import { CircleAlert, Pencil } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { BookCover } from '../../components/BookCover.tsx';
import { thumbUrl } from '../../lib/media.ts';

/** The book's publisher, year, category and ISBN, those it has. */
function bookFacts(book: NonNullable<SellerListing['book']>): string[] {
  return [
    book.publisher,
    book.publishedYear ? String(book.publishedYear) : null,
    book.category?.name ?? null,
    book.isbn13 ? `ISBN ${formatIsbn(book.isbn13)}` : null,
  ].filter((fact): fact is string => Boolean(fact));
}

/** Everything the listing will say, section by section, each with a link to change it. */
export function ReviewPanel({
  listing,
  editHref,
}: {
  listing: SellerListing;
  editHref: (step: SellingStep) => string;
}) {
  const book = listing.book;
  const missing = new Set(listing.missing);
  return (
    <div className="flex flex-col gap-4" data-testid="review">
      <Section title="Book details" step="details" missing={missing.has('details')} editHref={editHref}>
        {book ? (
          <div className="flex gap-4">
            <div className="w-16 shrink-0">
              <BookCover
                size="thumb"
                title={book.title}
                authors={book.authors}
                isbn13={book.isbn13}
                coverUrl={listing.photos[0] ? thumbUrl(listing.photos[0]) : book.coverUrl}
              />
            </div>
            <div className="min-w-0">
              <p className="font-serif text-lg font-semibold break-words">{book.title}</p>
              {book.subtitle ? <p className="break-words text-ink-soft">{book.subtitle}</p> : null}
              <p className="text-ink-muted">by {book.authors.join(', ')}</p>
              {bookFacts(book).length ? (
                <p className="text-sm text-ink-muted" data-testid="review-book-facts">
                  {bookFacts(book).join(' · ')}
                </p>
              ) : null}
              {listing.description ? (
                <p className="mt-2 text-sm break-words text-ink-soft">{listing.description}</p>
              ) : null}
            </div>
          </div>
        ) : null}
      </Section>
      <Section title="Condition" step="condition" missing={missing.has('condition')} editHref={editHref}>
        {listing.condition ? (
          <p data-testid="review-condition">
            <strong>{conditionWithBookman({ ...listing, condition: listing.condition })}</strong>
            {[
              ...(listing.format ? [BOOK_FORMAT_LABELS[listing.format]] : []),
              ...copyAttributesOf({ ...listing, condition: listing.condition }),
              ...(dustJacketText(listing) ? [dustJacketText(listing)] : []),
            ].map((feature) => `, ${feature}`)}
            {listing.conditionNotes ? (
              <span className="mt-1 block text-sm break-words text-ink-soft">{listing.conditionNotes}</span>
            ) : null}
          </p>
        ) : null}
      </Section>
      <Section title="Photos" step="photos" missing={missing.has('photos')} editHref={editHref}>
        {listing.photos.length ? (
          <ul className="flex flex-wrap gap-2">
            {listing.photos.map((url, index) => (
              <li key={url}>
                <img
                  src={thumbUrl(url)}
                  alt={`Your copy, view ${index + 1}`}
                  width={64}
                  height={64}
                  className="size-16 rounded-md border border-line object-cover"
                />
              </li>
            ))}
          </ul>
        ) : null}
      </Section>
      <Section title="Price" step="price" missing={missing.has('price')} editHref={editHref}>
        {listing.priceMinor !== null ? (
          <p className="font-serif text-2xl font-semibold" data-testid="review-price">
            {formatPence(listing.priceMinor)}
          </p>
        ) : null}
      </Section>
      <Section title="Postage" step="parcel" missing={missing.has('parcel')} editHref={editHref}>
        {listing.parcelSize ? (
          <p>
            {PARCEL_SIZE_LABELS[listing.parcelSize].name}: the buyer pays{' '}
            {formatPence(listing.postageMinor[listing.parcelSize])} postage
          </p>
        ) : null}
      </Section>
    </div>
  );
}

function Section({
  title,
  step,
  missing,
  editHref,
  children,
}: {
  title: string;
  step: SellingStep;
  missing: boolean;
  editHref: (step: SellingStep) => string;
  children: ReactNode;
}) {
  return (
    <section
      aria-label={title}
      className={`rounded-xl border bg-paper p-4 shadow-card sm:p-5 ${missing ? 'border-destructive/50' : 'border-line'}`}
    >
      <div className="mb-2 flex items-center justify-between gap-3">
        <h2 className="text-sm font-semibold tracking-widest text-ink-muted uppercase">{title}</h2>
        <Link
          to={editHref(step)}
          className="inline-flex items-center gap-1 text-sm font-semibold text-brand underline-offset-4 hover:underline"
        >
          <Pencil aria-hidden="true" className="size-3.5" />
          {missing ? 'Add' : 'Change'}
          <span className="sr-only"> {SELLING_STEP_LABELS[step].toLowerCase()}</span>
        </Link>
      </div>
      {missing ? (
        <p className="flex items-center gap-2 text-sm font-medium text-destructive">
          <CircleAlert aria-hidden="true" className="size-4" />
          Still needed before you can publish.
        </p>
      ) : (
        children
      )}
    </section>
  );
}
