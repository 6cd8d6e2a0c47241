/**
 * "Add to basket" beside "Buy now" on a listing on sale: once the book is in, the button says
 * so and leads to the basket. Not shown to the book's own seller.
 */
import type { ListingDetail } from '@reshelf/contracts';
import { Check, ShoppingBasket } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '../../components/ui/button.tsx';
import { useSession } from '../../lib/session.ts';
import { cn } from '../../lib/utils.ts';
import { useAddToBasket, useInBasket } from './hooks.ts';

export function AddToBasketButton({
  listing,
  className,
  labelClassName,
}: {
  listing: ListingDetail;
  className?: string;
  /** For the words beside the icon: the listing page's phone bar keeps them for screen readers only. */
  labelClassName?: string;
}) {
  const session = useSession();
  const basket = useInBasket();
  const { addListing, pending } = useAddToBasket();
  if (session.status === 'signed-in' && session.user.id === listing.seller.id) return null;
  if (basket.has(listing.id)) {
    return (
      <Button asChild variant="outline" size="lg" className={cn('sm:flex-1', className)}>
        <Link to="/basket" data-testid="in-basket">
          <Check aria-hidden="true" />
          <span className={labelClassName}>In your basket</span>
        </Link>
      </Button>
    );
  }
  return (
    <Button
      variant="outline"
      size="lg"
      className={cn('sm:flex-1', className)}
      disabled={pending || (session.status === 'signed-in' && !basket.ready)}
      aria-busy={pending || undefined}
      onClick={() => addListing(listing)}
    >
      <ShoppingBasket aria-hidden="true" />
      <span className={labelClassName}>Add to basket</span>
    </Button>
  );
}
