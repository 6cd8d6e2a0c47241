import { Heart } from 'lucide-react';
import { cn } from '../../lib/utils.ts';
import { useWishlist } from './use-wishlist.ts';

/**
 * The heart: on a listing card (a round button over the cover) or on the listing page (a
 * button with words). Pressed when the book is on the person's wishlist.
 */
export function WishlistButton({
  listingId,
  title,
  variant = 'card',
  available = true,
  className,
}: {
  listingId: string;
  title: string;
  variant?: 'card' | 'page';
  /** On sale (or reserved): it can be saved. A saved book no longer on sale can still be removed. */
  available?: boolean;
  className?: string;
}) {
  const { isWished, toggle } = useWishlist();
  const wished = isWished(listingId);
  if (!available && !wished) return null;
  const label = wished ? `Remove ${title} from your wishlist` : `Save ${title} to your wishlist`;
  if (variant === 'page') {
    return (
      <button
        type="button"
        onClick={() => toggle(listingId)}
        aria-pressed={wished}
        data-testid="wishlist-button"
        className={cn(
          'inline-flex h-12 cursor-pointer items-center justify-center gap-2 rounded-lg border px-5 text-base font-semibold transition-colors',
          wished
            ? 'border-brand/40 bg-brand-soft text-brand hover:bg-brand-soft/70'
            : 'border-ink/20 bg-paper text-ink hover:border-ink/35 hover:bg-paper-deep',
          className,
        )}
      >
        <Heart aria-hidden="true" className={cn('size-5', wished && 'fill-current')} />
        {wished ? 'On your wishlist' : 'Save to wishlist'}
        <span className="sr-only"> ({title})</span>
      </button>
    );
  }
  return (
    <button
      type="button"
      onClick={() => toggle(listingId)}
      aria-pressed={wished}
      aria-label={label}
      title={wished ? 'On your wishlist' : 'Save to wishlist'}
      data-testid="wishlist-heart"
      className={cn(
        'relative z-10 grid size-10 cursor-pointer place-items-center rounded-full border border-line bg-paper/95 text-ink-soft shadow-card backdrop-blur-sm transition-colors hover:text-brand focus-visible:outline-2 focus-visible:outline-brand',
        wished && 'text-brand',
        className,
      )}
    >
      <Heart aria-hidden="true" className={cn('size-5', wished && 'fill-current')} />
    </button>
  );
}
