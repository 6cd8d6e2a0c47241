import { SHOWN_PRICE_WORDS } from '@reshelf/contracts';
import { cn } from '../../lib/utils.ts';

/**
 * "Includes buyer protection · + postage from £2.99", small, under an all-in price (decision
 * 0071): the figure above it is the all-in price the API sends (shownPrice), and postage
 * follows, from the book's own parcel band.
 */
export function ShownPriceNote({
  postageFromMinor,
  className,
}: {
  postageFromMinor: number;
  className?: string;
}) {
  return (
    <p className={cn('text-xs text-ink-muted', className)} data-testid="shown-price-note">
      <span>{SHOWN_PRICE_WORDS.includes} · </span>
      <span data-testid="postage-from">{SHOWN_PRICE_WORDS.postageFrom(postageFromMinor)}</span>
    </p>
  );
}
