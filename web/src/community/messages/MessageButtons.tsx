/**
 * Ways into a conversation: "Message the seller" on a listing page, "Message the buyer/seller"
 * on an order page. Each opens (or starts) the one thread about that listing and buyer and goes
 * there; signed out, "Message the seller" goes to sign in and comes back.
 */
import type { ListingDetail } from '@reshelf/contracts';
import { Loader2, MessageCircle } from 'lucide-react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { Button } from '../../components/ui/button.tsx';
import { notify } from '../../components/ui/notify.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { loginPath, pathOf } from '../../lib/next-path.ts';
import { useSession } from '../../lib/session.ts';
import { trpc } from '../../lib/trpc.ts';

export function MessageSellerButton({ listing }: { listing: ListingDetail }) {
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const start = trpc.community.messages.member.startForListing.useMutation({
    onSuccess: ({ threadId }) => navigate(`/messages/${threadId}`),
    onError: (error) => notify.error(apiErrorMessage(error)),
  });
  if (session.status === 'signed-out') {
    return (
      <Button asChild variant="outline" size="lg" className="w-full">
        <Link to={loginPath(pathOf(location))} data-testid="message-seller">
          <MessageCircle aria-hidden="true" className="size-4" />
          Message the seller
        </Link>
      </Button>
    );
  }
  if (session.status !== 'signed-in' || session.user.id === listing.seller.id) return null;
  // The charity's own team answers its messages; they do not write to themselves.
  if (listing.charity && session.user.charitySlug === listing.charity.slug) return null;
  return (
    <Button
      variant="outline"
      size="lg"
      className="w-full"
      data-testid="message-seller"
      disabled={start.isPending}
      onClick={() => start.mutate({ listingId: listing.id })}
    >
      {start.isPending ? (
        <Loader2 aria-hidden="true" className="size-4 animate-spin" />
      ) : (
        <MessageCircle aria-hidden="true" className="size-4" />
      )}
      {listing.charity ? 'Message the charity' : 'Message the seller'}
    </Button>
  );
}

export function MessageOrderButton({ orderId, role }: { orderId: string; role: 'buyer' | 'seller' }) {
  const navigate = useNavigate();
  const start = trpc.community.messages.member.startForOrder.useMutation({
    onSuccess: ({ threadId }) => navigate(`/messages/${threadId}`),
    onError: (error) => notify.error(apiErrorMessage(error)),
  });
  return (
    <Button
      variant="outline"
      size="sm"
      className="mt-3"
      data-testid="message-order"
      disabled={start.isPending}
      onClick={() => start.mutate({ orderId })}
    >
      {start.isPending ? (
        <Loader2 aria-hidden="true" className="size-4 animate-spin" />
      ) : (
        <MessageCircle aria-hidden="true" className="size-4" />
      )}
      {role === 'buyer' ? 'Message the seller' : 'Message the buyer'}
    </Button>
  );
}
