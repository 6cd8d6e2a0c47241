import type { PhotoLayout } from '../lib/media.ts';
import { cn } from '../lib/utils.ts';
import { type PhotoPriority, StoredPhoto } from './StoredPhoto.tsx';

/** Cover colours: deep, bookish tones that keep white or paper-coloured text readable. */
const PALETTE = [
  { bg: '#8c2f24', fg: '#fff8f0', band: '#e8b04b' },
  { bg: '#3f5a45', fg: '#fbf7f0', band: '#e9dcc8' },
  { bg: '#1f3a5f', fg: '#f3ebde', band: '#e8b04b' },
  { bg: '#5b3a6b', fg: '#fbf7f0', band: '#f4e2dc' },
  { bg: '#2f4f4f', fg: '#fbf7f0', band: '#e8b04b' },
  { bg: '#7a4a1e', fg: '#fff8f0', band: '#f3ebde' },
  { bg: '#22304a', fg: '#fbf7f0', band: '#c9a227' },
  { bg: '#6b2737', fg: '#fff8f0', band: '#e9dcc8' },
  { bg: '#355c7d', fg: '#ffffff', band: '#f4e2dc' },
  { bg: '#4a4e2f', fg: '#fbf7f0', band: '#e8b04b' },
] as const;

/** A small, stable hash of a string (FNV-1a), so a book always gets the same colour. */
export function coverSeed(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

type BookCoverProps = {
  title: string;
  authors: string[];
  isbn13?: string | null;
  coverUrl?: string | null;
  className?: string;
  /** Larger type for the listing page; just the initial for small thumbnails in lists. */
  size?: 'card' | 'large' | 'thumb';
  /** Load at once (the listing page's main image) rather than when scrolled near. */
  eager?: boolean;
  /** A stored photo's fetch priority (StoredPhoto): "high" for the page's largest picture. */
  priority?: PhotoPriority | undefined;
  /** Where a stored photo is shown, for the size the browser picks (the grid's unless large). */
  photoLayout?: PhotoLayout | undefined;
};

/**
 * A book's cover at a fixed 3:4 shape, so nothing moves as pages load. A stored photo is shown
 * at the size its layout needs (StoredPhoto: AVIF or WebP, decision 0063). With no cover image
 * (the usual case: nothing is fetched from the network), it draws a typographic cover from the
 * title and author on a colour chosen from the ISBN.
 */
export function BookCover({
  title,
  authors,
  isbn13,
  coverUrl,
  className,
  size = 'card',
  eager = false,
  priority,
  photoLayout,
}: BookCoverProps) {
  const frame = cn('relative aspect-[3/4] w-full overflow-hidden rounded-lg shadow-card', className);
  if (coverUrl) {
    return (
      <div className={cn(frame, 'bg-paper-deep')} data-testid="cover-image">
        <StoredPhoto
          url={coverUrl}
          alt={`Cover of ${title}`}
          layout={photoLayout ?? (size === 'large' ? 'listing' : 'grid')}
          priority={priority ?? (eager ? 'eager' : 'lazy')}
          className="absolute inset-0 size-full object-cover"
        />
      </div>
    );
  }
  const seed = coverSeed(isbn13 ?? title);
  const colours = PALETTE[seed % PALETTE.length]!;
  const layout = (seed >>> 8) % 3;
  const author = authors.join(', ');
  const large = size === 'large';
  return (
    <div
      role="img"
      aria-label={`Cover of ${title}${author ? ` by ${author}` : ''}`}
      data-testid="generated-cover"
      className={cn(frame, 'flex flex-col')}
      style={{ backgroundColor: colours.bg, color: colours.fg }}
    >
      {/* The spine's shadow and a band, as on a cloth binding. */}
      <span aria-hidden="true" className="absolute inset-y-0 left-0 w-[6%] bg-black/20" />
      <span
        aria-hidden="true"
        className={cn(
          'absolute inset-x-0 h-[3%]',
          layout === 0 ? 'top-[12%]' : layout === 1 ? 'bottom-[20%]' : 'top-[8%]',
        )}
        style={{ backgroundColor: colours.band }}
      />
      {size === 'thumb' ? (
        <span aria-hidden="true" className="relative m-auto pl-[6%] font-serif text-lg font-semibold">
          {title.trim().charAt(0).toUpperCase()}
        </span>
      ) : (
        <div
          aria-hidden="true"
          className={cn(
            'relative flex h-full flex-col pr-[8%] pl-[14%]',
            layout === 1 ? 'justify-start pt-[14%]' : 'justify-center',
            large ? 'gap-4' : 'gap-2',
          )}
        >
          <span
            className={cn(
              'line-clamp-5 font-serif leading-tight font-semibold break-words [text-wrap:balance]',
              large ? 'text-3xl sm:text-4xl' : 'text-sm sm:text-base',
            )}
          >
            {title}
          </span>
          {author ? (
            <span
              className={cn(
                'line-clamp-2 opacity-85',
                large ? 'text-base sm:text-lg' : 'text-[0.7rem] sm:text-xs',
              )}
            >
              {author}
            </span>
          ) : null}
        </div>
      )}
    </div>
  );
}
