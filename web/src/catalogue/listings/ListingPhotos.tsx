/**
 * The listing page's pictures, photo-first: the seller's photos lead, one to a slide
 * in a track that scrolls and snaps sideways (a swipe on touch, with no script involved), with
 * buttons, thumbnails and the arrow keys to step through them, and a lightbox to look closer.
 * The book's drawn cover stands in only when the seller gave no photo.
 *
 * The first photo is the page's largest paint: in the server's HTML, fetched first
 * (`fetchpriority="high"`, never lazy, and preloaded by the page's head: ListingPage), at the
 * size the page shows it in AVIF or WebP (StoredPhoto, decision 0063), with its size given so
 * nothing moves as it arrives.
 */
import { ChevronLeft, ChevronRight, ZoomIn, ZoomOut } from 'lucide-react';
import { type KeyboardEvent, useCallback, useRef, useState } from 'react';
import { BookCover } from '../../components/BookCover.tsx';
import { StoredPhoto } from '../../components/StoredPhoto.tsx';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../components/ui/dialog.tsx';
import { mediaUrl, thumbUrl } from '../../lib/media.ts';
import { cn } from '../../lib/utils.ts';

/**
 * The frame every photo is shown in: a book's 3:4, as the covers and the cards. The photo is
 * fitted inside it whatever its own shape; `width`/`height` give the browser the frame's shape
 * before it loads.
 */
const FRAME = { width: 600, height: 800 } as const;

export interface ListingPhotosProps {
  title: string;
  authors: string[];
  isbn13: string | null;
  coverUrl: string | null;
  /** The seller's photos (their large size), in the seller's order. */
  photos: string[];
}

/** "Pride and Prejudice, the copy for sale (photo 2 of 3)". */
function altText(title: string, index: number, count: number): string {
  return count > 1
    ? `${title}, the copy for sale (photo ${index + 1} of ${count})`
    : `${title}, the copy for sale`;
}

export function ListingPhotos({ title, authors, isbn13, coverUrl, photos }: ListingPhotosProps) {
  const track = useRef<HTMLUListElement>(null);
  const [shown, setShown] = useState(0);
  const [zoomed, setZoomed] = useState<number | null>(null);
  const count = photos.length;

  /** The photo being brought into view by `show`, until the track has scrolled there. */
  const heading = useRef<number | null>(null);
  /** Whether `show`'s scroll, cut off once, has been sent on to its photo. */
  const resumed = useRef(false);

  /**
   * Brings photo `index` into the track (smoothly, unless the visitor asked for less motion); when
   * focus was on the photo on show, it moves to the new one.
   */
  const show = useCallback((index: number) => {
    const element = track.current;
    if (!element) return;
    const next = Math.max(0, Math.min(index, element.children.length - 1));
    const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    if (element.contains(document.activeElement)) {
      element.children[next]?.querySelector('button')?.focus({ preventScroll: true });
    }
    heading.current = next;
    resumed.current = false;
    element.scrollTo({ left: next * element.clientWidth, behavior: reduce ? 'auto' : 'smooth' });
    setShown(next);
  }, []);

  if (count === 0) {
    return (
      <BookCover
        title={title}
        authors={authors}
        isbn13={isbn13}
        coverUrl={coverUrl}
        size="large"
        priority="high"
      />
    );
  }

  /**
   * A swipe (or any scroll not started by `show`) shows the photo mostly in view; while `show`
   * scrolls, the photos it passes on the way are not "shown".
   */
  const onScroll = (settled: boolean) => {
    const element = track.current;
    if (!element || element.clientWidth === 0) return;
    const at = Math.max(0, Math.min(count - 1, Math.round(element.scrollLeft / element.clientWidth)));
    if (heading.current !== null && at !== heading.current) {
      // A scroll `show` started that came to rest short of its photo (another scroll, such as
      // focus bringing a photo into view, cut it off) and the visitor has not touched the track
      // since: finish it, once, rather than show a photo nobody chose.
      if (!settled) return;
      if (!resumed.current) {
        resumed.current = true;
        element.scrollTo({ left: heading.current * element.clientWidth, behavior: 'auto' });
        return;
      }
    }
    heading.current = null;
    resumed.current = false;
    setShown(at);
  };
  /** The visitor's own hand on the track (a finger, a mouse, a wheel) wins over `show`. */
  const letGo = () => {
    heading.current = null;
    resumed.current = false;
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
      event.preventDefault();
      show((heading.current ?? shown) + (event.key === 'ArrowRight' ? 1 : -1));
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      show(event.key === 'Home' ? 0 : count - 1);
    }
  };

  return (
    <section
      aria-roledescription="carousel"
      aria-label="Photos of this copy"
      data-testid="listing-photos"
      className="flex flex-col gap-3"
    >
      <div className="relative">
        {/* One keyboard stop, the photo on show; the arrow keys move to the others. */}
        <ul
          ref={track}
          data-testid="photo-track"
          onScroll={count > 1 ? () => onScroll(false) : undefined}
          onScrollEnd={count > 1 ? () => onScroll(true) : undefined}
          // check-plurals: not words, the visitor's own hand only where there are photos to move between
          onPointerDown={count > 1 ? letGo : undefined}
          // check-plurals: not words, as above
          onWheel={count > 1 ? letGo : undefined}
          // check-plurals: not words, the arrow keys only where there are photos to move between
          onKeyDown={count > 1 ? onKeyDown : undefined}
          className="flex snap-x snap-mandatory overflow-x-auto overscroll-x-contain rounded-lg bg-paper-deep shadow-card [scrollbar-width:none] [&::-webkit-scrollbar]:hidden"
        >
          {photos.map((photo, index) => (
            <li
              key={photo}
              data-testid="photo-slide"
              aria-roledescription="slide"
              aria-label={`${index + 1} of ${count}`}
              className="w-full shrink-0 snap-center snap-always"
            >
              <button
                type="button"
                onClick={() => setZoomed(index)}
                className="group relative block aspect-[3/4] max-h-[46svh] w-full cursor-zoom-in md:max-h-none"
                aria-label={`Enlarge photo ${index + 1} of ${count}: ${altText(title, index, count)}`}
                tabIndex={index === shown ? 0 : -1}
              >
                <StoredPhoto
                  url={photo}
                  alt={altText(title, index, count)}
                  layout="listing"
                  priority={index === 0 ? 'high' : 'lazy'}
                  className="size-full object-contain"
                />
                <span
                  aria-hidden="true"
                  className="absolute right-2 bottom-2 grid size-9 place-items-center rounded-full bg-paper/90 text-ink shadow-card transition-opacity md:opacity-0 md:group-hover:opacity-100 md:group-focus-visible:opacity-100"
                >
                  <ZoomIn className="size-4" />
                </span>
              </button>
            </li>
          ))}
        </ul>
        {count > 1 ? (
          <>
            <StepButton
              side="previous"
              onClick={() => show(((heading.current ?? shown) + count - 1) % count)}
            />
            <StepButton side="next" onClick={() => show(((heading.current ?? shown) + 1) % count)} />
            <p
              data-testid="photo-counter"
              aria-live="polite"
              className="absolute top-2 left-2 rounded-full bg-ink/75 px-2.5 py-0.5 text-xs font-semibold text-paper tabular-nums"
            >
              {shown + 1} of {count}
            </p>
          </>
        ) : null}
      </div>

      {count > 1 ? (
        <ul className="flex gap-2 overflow-x-auto p-0.5" aria-label="Choose a photo">
          {photos.map((photo, index) => (
            <li key={photo} className="shrink-0">
              <button
                type="button"
                onClick={() => show(index)}
                aria-label={`Show photo ${index + 1} of ${count}`}
                aria-current={index === shown ? 'true' : undefined}
                className={cn(
                  'block size-16 cursor-pointer overflow-hidden rounded-md border-2 bg-paper-deep sm:size-20',
                  index === shown ? 'border-brand' : 'border-transparent opacity-80 hover:opacity-100',
                )}
              >
                <img
                  src={thumbUrl(photo)}
                  alt=""
                  width={80}
                  height={80}
                  loading="lazy"
                  decoding="async"
                  className="size-full object-cover"
                />
              </button>
            </li>
          ))}
        </ul>
      ) : null}

      <Lightbox
        title={title}
        photos={photos}
        index={zoomed}
        onIndexChange={(index) => {
          setZoomed(index);
          if (index !== null) show(index);
        }}
        onClosed={(index) =>
          track.current?.children[index]?.querySelector('button')?.focus({ preventScroll: true })
        }
      />
    </section>
  );
}

/** Previous or next photo; from the last the next is the first again (never a dead button). */
function StepButton({ side, onClick }: { side: 'previous' | 'next'; onClick: () => void }) {
  const Icon = side === 'previous' ? ChevronLeft : ChevronRight;
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={side === 'previous' ? 'Previous photo' : 'Next photo'}
      className={cn(
        'absolute top-1/2 grid size-10 -translate-y-1/2 cursor-pointer place-items-center rounded-full bg-paper/90 text-ink shadow-card transition-opacity hover:bg-paper',
        side === 'previous' ? 'left-2' : 'right-2',
      )}
    >
      <Icon aria-hidden="true" className="size-5" />
    </button>
  );
}

/**
 * A photo at its full size over the page: a modal dialog (focus trapped inside, Escape closes it
 * and focus goes back to the page's photo, the one last looked at here). The arrow keys and buttons move between
 * photos; the zoom button shows it at twice the size, to pan around.
 */
function Lightbox({
  title,
  photos,
  index,
  onIndexChange,
  onClosed,
}: {
  title: string;
  photos: string[];
  index: number | null;
  onIndexChange: (index: number | null) => void;
  /** Gives focus back: to the photo last shown here (the one now on show in the page). */
  onClosed: (index: number) => void;
}) {
  /** Shown at twice the size that fits the screen, to pan around (scroll or drag a finger). */
  const [closer, setCloser] = useState(false);
  const count = photos.length;
  const open = index !== null;
  const at = index ?? 0;
  const photo = photos[at];
  const step = (by: number) => {
    setCloser(false);
    onIndexChange((at + by + count) % count);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) {
          setCloser(false);
          onIndexChange(null);
        }
      }}
    >
      {open && photo ? (
        <DialogContent
          closeLabel="Close the photo"
          data-testid="photo-lightbox"
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            onClosed(at);
          }}
          className="flex h-dvh max-h-dvh w-screen max-w-none flex-col gap-3 rounded-none border-0 bg-ink p-3 text-paper sm:p-6 [&>button:last-child]:bg-paper/90 [&>button:last-child]:text-ink"
          onKeyDown={(event) => {
            if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
              event.preventDefault();
              step(event.key === 'ArrowRight' ? 1 : -1);
            }
          }}
        >
          <div className="flex items-center gap-3 pr-12">
            <DialogTitle className="min-w-0 truncate text-base font-semibold text-paper sm:text-lg">
              {title}: photo {at + 1} of {count}
            </DialogTitle>
            <DialogDescription className="sr-only">
              {count > 1 ? 'The arrow keys move between the photos. ' : ''}Escape closes it.
            </DialogDescription>
          </div>
          <div
            className={cn(
              'relative flex min-h-0 flex-1 rounded-lg',
              closer ? 'overflow-auto' : 'items-center justify-center overflow-hidden',
            )}
          >
            <img
              key={photo}
              src={mediaUrl(photo)}
              alt={altText(title, at, count)}
              width={FRAME.width}
              height={FRAME.height}
              className={
                closer
                  ? 'm-auto h-[200%] w-auto max-w-none'
                  : 'h-full max-h-full w-full max-w-full object-contain'
              }
            />
          </div>
          <div className="flex items-center justify-center gap-3">
            {count > 1 ? (
              <button
                type="button"
                onClick={() => step(-1)}
                aria-label="Previous photo"
                className="grid size-11 cursor-pointer place-items-center rounded-full bg-paper/90 text-ink"
              >
                <ChevronLeft aria-hidden="true" className="size-5" />
              </button>
            ) : null}
            <button
              type="button"
              onClick={() => setCloser((value) => !value)}
              aria-pressed={closer}
              className="inline-flex h-11 cursor-pointer items-center gap-2 rounded-full bg-paper/90 px-4 text-sm font-semibold text-ink"
            >
              {closer ? (
                <ZoomOut aria-hidden="true" className="size-4" />
              ) : (
                <ZoomIn aria-hidden="true" className="size-4" />
              )}
              {closer ? 'Fit to screen' : 'Zoom in'}
            </button>
            {count > 1 ? (
              <button
                type="button"
                onClick={() => step(1)}
                aria-label="Next photo"
                className="grid size-11 cursor-pointer place-items-center rounded-full bg-paper/90 text-ink"
              >
                <ChevronRight aria-hidden="true" className="size-5" />
              </button>
            ) : null}
          </div>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
