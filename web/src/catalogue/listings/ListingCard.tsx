import {
  CONDITION_LABELS,
  formatPence,
  type ListingCard as ListingCardData,
  type Rating,
} from '@reshelf/contracts';
import { HeartHandshake } from 'lucide-react';
import { Link } from 'react-router-dom';
import { BookCover } from '../../components/BookCover.tsx';
import { CardRating } from '../../components/rating.tsx';
import type { PhotoPriority } from '../../components/StoredPhoto.tsx';
import type { PhotoLayout } from '../../lib/media.ts';
import { cn } from '../../lib/utils.ts';
import { WishlistButton } from '../wishlist/WishlistButton.tsx';
import { leadCardPicture } from './listing-images.ts';
import { ShownPriceNote } from './ShownPrice.tsx';

export function ListingCard({
  listing,
  note,
  className,
  rating,
  layout = 'grid',
  priority = 'lazy',
}: {
  listing: ListingCardData;
  /** The grid the card is in, for the size of its photo. */
  layout?: PhotoLayout;
  /** On the first screen: "eager", or "high" for the first card (StoredPhoto). */
  priority?: PhotoPriority;
  note?: string | null;
  className?: string;
  /** The seller's rating (decision 0048), when they have reviews. */
  rating?: Rating | undefined;
}) {
  return (
    <article
      data-testid="listing-card"
      className={cn(
        'group relative flex h-full flex-col gap-3 rounded-xl border border-line bg-paper p-3 shadow-card transition duration-200 hover:border-ink/25 hover:shadow-card-hover motion-safe:hover:-translate-y-0.5',
        className,
      )}
    >
      <div className="relative">
        <BookCover
          title={listing.title}
          authors={listing.authors}
          isbn13={listing.isbn13}
          coverUrl={leadCardPicture(listing.photoUrl, listing.coverUrl)}
          photoLayout={layout}
          priority={priority}
        />
        <WishlistButton
          listingId={listing.id}
          title={listing.title}
          available={listing.status === 'active' || listing.status === 'reserved'}
          className="absolute top-2 right-2"
        />
        {listing.status === 'sold' || listing.status === 'withdrawn' || listing.status === 'removed' ? (
          <span className="absolute top-2 left-2 rounded-full bg-ink/85 px-2.5 py-1 text-xs font-semibold text-paper">
            {listing.status === 'sold' ? 'Sold' : 'No longer for sale'}
          </span>
        ) : null}
      </div>
      <div className="flex min-w-0 flex-1 flex-col">
        <h3 className="line-clamp-2 font-serif text-base leading-snug font-semibold">
          {/* The link covers the card (::after), and so does its focus ring (WCAG 2.4.7). */}
          <Link
            to={`/listing/${listing.slug}`}
            className="rounded-sm after:absolute after:inset-0 after:rounded-xl focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:outline-offset-2 focus-visible:after:outline-brand focus-visible:after:outline-solid"
          >
            {listing.title}
          </Link>
        </h3>
        <p className="mt-0.5 line-clamp-1 text-sm text-ink-muted">{listing.authors.join(', ')}</p>
        <CardRating rating={rating} />
        {note ? <p className="mt-2 line-clamp-3 text-sm text-ink-soft italic">“{note}”</p> : null}
        <div className="mt-auto flex flex-wrap items-end justify-between gap-x-2 gap-y-1 pt-3">
          <p className="text-lg leading-none font-semibold text-ink" data-testid="card-price">
            {formatPence(listing.allInMinor)}
          </p>
          <p className="text-xs font-medium text-ink-muted" data-testid="card-condition">
            {CONDITION_LABELS[listing.condition]}
            {listing.exLibrary ? ' · ex-library' : ''}
          </p>
        </div>
        <ShownPriceNote postageFromMinor={listing.postageFromMinor} className="mt-1" />
        {listing.charity ? (
          <p className="mt-2 flex items-center gap-1.5 text-xs font-medium text-moss">
            <HeartHandshake aria-hidden="true" className="size-3.5 shrink-0" />
            <span className="truncate">{listing.charity.name}</span>
          </p>
        ) : null}
      </div>
    </article>
  );
}
