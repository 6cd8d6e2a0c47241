import {
  type BookResult,
  CONDITION_LABELS,
  CONDITIONS,
  COPY_ATTRIBUTE_LABELS,
  countOf,
  formatPence,
  plural,
  type ResultGroup,
} from '@reshelf/contracts';
import { HeartHandshake } from 'lucide-react';
import { Link } from 'react-router-dom';
import { BookCover } from '../../components/BookCover.tsx';
import type { PhotoPriority } from '../../components/StoredPhoto.tsx';
import type { PhotoLayout } from '../../lib/media.ts';
import { cn } from '../../lib/utils.ts';
import { GRID_CLASSES } from './ListingGrid.tsx';
import { leadCardPicture } from './listing-images.ts';
import { ShownPriceNote } from './ShownPrice.tsx';

/**
 * Where a result goes: its one copy, when exactly one meets the filters (the buyer goes straight
 * to it); otherwise the book page, at the edition when the result is one.
 */
export function bookResultHref(result: BookResult): string {
  if (result.listingSlug) return `/listing/${result.listingSlug}`;
  const work = `/book/${encodeURIComponent(result.workSlug)}`;
  return result.editionId ? `${work}?edition=${result.editionId}` : work;
}

/** The edition's publisher, year and ISBN, as far as they are known. */
function editionLine(result: BookResult): string {
  return [result.publisher, result.publishedYear, result.isbn13 ? `ISBN ${result.isbn13}` : null]
    .filter((part) => part !== null && part !== '')
    .join(' · ');
}

/**
 * One result by book: an edition, or a work and its editions, with the copies on sale that meet
 * the filters ("8 copies from £3.49") and the lowest all-in price (the copy cards' words).
 */
export function BookResultCard({
  result,
  group,
  layout = 'browser',
  priority = 'lazy',
}: {
  result: BookResult;
  group: ResultGroup;
  layout?: PhotoLayout;
  priority?: PhotoPriority;
}) {
  const details = group === 'edition' ? editionLine(result) : countOf(result.editions, 'edition', 'editions');
  const marks = [
    result.firstEdition ? COPY_ATTRIBUTE_LABELS.firstEdition : null,
    result.signed ? COPY_ATTRIBUTE_LABELS.signed : null,
  ].filter((mark): mark is string => mark !== null);
  return (
    <article
      data-testid="book-result"
      data-copies={result.copies}
      className="group relative flex h-full flex-col gap-3 rounded-xl border border-line bg-paper p-3 shadow-card transition duration-200 hover:border-ink/25 hover:shadow-card-hover motion-safe:hover:-translate-y-0.5"
    >
      <BookCover
        title={result.title}
        authors={result.authors}
        isbn13={result.isbn13}
        coverUrl={leadCardPicture(null, result.coverUrl)}
        photoLayout={layout}
        priority={priority}
      />
      <div className="flex min-w-0 flex-1 flex-col">
        <h3 className="line-clamp-2 font-serif text-base leading-snug font-semibold">
          {/* The link covers the card (::after), and so does its focus ring (WCAG 2.4.7). */}
          <Link
            to={bookResultHref(result)}
            className="rounded-sm after:absolute after:inset-0 after:rounded-xl focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:outline-offset-2 focus-visible:after:outline-brand focus-visible:after:outline-solid"
          >
            {result.title}
          </Link>
        </h3>
        <p className="mt-0.5 line-clamp-1 text-sm text-ink-muted">{result.authors.join(', ')}</p>
        {details ? (
          <p className="mt-1 line-clamp-2 text-xs text-ink-muted" data-testid="result-edition">
            {details}
          </p>
        ) : null}
        {marks.length ? (
          <p className="mt-1.5 flex flex-wrap gap-1" data-testid="result-marks">
            {marks.map((mark) => (
              <span
                key={mark}
                className="rounded-full bg-paper-deep px-2 py-0.5 text-xs font-medium text-ink-soft"
              >
                {mark}
              </span>
            ))}
          </p>
        ) : null}
        <p className="mt-auto pt-3 text-sm text-ink-soft" data-testid="result-copies">
          {countOf(result.copies, 'copy', 'copies')} {plural(result.copies, 'at', 'from')}{' '}
          <span className="text-lg leading-none font-semibold text-ink" data-testid="card-price">
            {formatPence(result.lowestAllInMinor)}
          </span>
        </p>
        <ShownPriceNote postageFromMinor={result.postageFromMinor} className="mt-1" />
        <p className="mt-1 text-xs font-medium text-ink-muted" data-testid="card-condition">
          {CONDITIONS.filter((condition) => result.conditions.includes(condition))
            .map((condition) => CONDITION_LABELS[condition])
            .join(', ')}
        </p>
        {result.charity ? (
          <p className="mt-2 flex items-center gap-1.5 text-xs font-medium text-moss">
            <HeartHandshake aria-hidden="true" className="size-3.5 shrink-0" />
            <span className="truncate">From a charity seller</span>
          </p>
        ) : null}
      </div>
    </article>
  );
}

/** A grid of book results, the first few on the first screen. */
export function BookResultCards({
  results,
  group,
  firstScreen = 0,
  className,
}: {
  results: BookResult[];
  group: ResultGroup;
  firstScreen?: number;
  className?: string;
}) {
  return (
    <ul data-testid="results" data-group={group} className={cn(GRID_CLASSES, className)}>
      {results.map((result, index) => (
        <li key={`${result.workSlug}/${result.editionId ?? ''}`}>
          <BookResultCard
            result={result}
            group={group}
            priority={index === 0 && firstScreen > 0 ? 'high' : index < firstScreen ? 'eager' : 'lazy'}
          />
        </li>
      ))}
    </ul>
  );
}
