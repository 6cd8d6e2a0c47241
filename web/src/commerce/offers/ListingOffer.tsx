/**
 * Offers on the listing page (brief §4): "Make an offer" for a signed-in buyer on someone
 * else's book on sale (signed out: sign in first and come back), or where their offer on this
 * book stands, with "Pay now" once it is accepted.
 */
import { COMMERCIAL_DEFAULTS, formatPence, type ListingDetail, minimumOfferMinor } from '@reshelf/contracts';
import { Clock, HandCoins } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../components/ui/dialog.tsx';
import { notify } from '../../components/ui/notify.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { formatWhen, timeLeft } from '../../lib/dates.ts';
import { loginPath, pathOf } from '../../lib/next-path.ts';
import { useSession } from '../../lib/session.ts';
import { trpc } from '../../lib/trpc.ts';
import { offerStatusLabel } from '../orders/format.ts';
import { useMakeOffer } from './hooks.ts';
import { OfferAmountForm } from './OfferAmountForm.tsx';

export function ListingOffer({ listing }: { listing: ListingDetail }) {
  const session = useSession();
  const location = useLocation();
  if (session.status === 'signed-in') {
    if (listing.seller.id === session.user.id) return null;
    return <BuyerOffer listing={listing} />;
  }
  if (session.status !== 'signed-out' || !listing.available) return null;
  return (
    <Button asChild variant="outline" size="lg" className="w-full">
      <Link to={loginPath(pathOf(location))}>
        <HandCoins aria-hidden="true" />
        Make an offer
      </Link>
    </Button>
  );
}

function BuyerOffer({ listing }: { listing: ListingDetail }) {
  const threads = trpc.commerce.offers.member.list.useQuery(
    { role: 'buyer', listingId: listing.id },
    { staleTime: 0 },
  );
  const [open, setOpen] = useState(false);
  if (threads.isPending || threads.isError) return null;
  const thread = threads.data[0];
  const current = thread?.rounds.at(-1);
  if (thread && current && thread.status === 'pending') {
    const left = timeLeft(current.expiresAt);
    return (
      <OfferState>
        {current.madeBy === 'buyer' ? (
          <>
            <p className="font-semibold text-ink">
              Your offer of {formatPence(current.amountMinor)} is waiting for the seller
            </p>
            <p className="mt-0.5">
              {left ? `They have ${left} to accept, decline or counter it.` : 'It is about to expire.'}
            </p>
          </>
        ) : (
          <>
            <p className="font-semibold text-ink">
              The seller countered with {formatPence(current.amountMinor)} — answer in your offers
            </p>
            <p className="mt-0.5">{left ? `You have ${left} to answer.` : 'It is about to expire.'}</p>
          </>
        )}
        <Link to="/account/offers?view=made" className="mt-2 inline-block font-semibold text-brand underline">
          {current.madeBy === 'buyer' ? 'See your offers' : 'Answer the counter-offer'}
        </Link>
      </OfferState>
    );
  }
  if (thread && current && thread.status === 'accepted') {
    return (
      <OfferState>
        <p className="font-semibold text-ink">
          Accepted at {formatPence(current.amountMinor)}
          {current.checkoutDeadline ? ` — pay by ${formatWhen(current.checkoutDeadline)}` : ''}
        </p>
        {thread.actions.canPay ? (
          <>
            <p className="mt-0.5">The book is held for you until then; after that it goes back on sale.</p>
            <Button asChild variant="cta" className="mt-3 w-full sm:w-auto">
              <Link to={`/checkout/offer?offer=${encodeURIComponent(thread.currentId)}`}>Pay now</Link>
            </Button>
          </>
        ) : (
          <Link
            to="/account/offers?view=made"
            className="mt-2 inline-block font-semibold text-brand underline"
          >
            See your offers
          </Link>
        )}
      </OfferState>
    );
  }
  if (!listing.available) return null;
  return (
    <div className="flex flex-col gap-2">
      {thread && current ? (
        <p className="text-sm text-ink-muted" data-testid="last-offer">
          Your last offer of {formatPence(current.amountMinor)}:{' '}
          {offerStatusLabel(thread.status).toLowerCase()}.
        </p>
      ) : null}
      <Button variant="outline" size="lg" className="w-full" onClick={() => setOpen(true)}>
        <HandCoins aria-hidden="true" />
        Make an offer
      </Button>
      <MakeOfferDialog listing={listing} open={open} onOpenChange={setOpen} />
    </div>
  );
}

function OfferState({ children }: { children: React.ReactNode }) {
  return (
    <div
      className="flex gap-3 rounded-lg border border-brand/25 bg-brand-soft/50 p-4 text-sm text-ink-soft"
      data-testid="offer-state"
      role="status"
    >
      <Clock aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand" />
      <div className="min-w-0">{children}</div>
    </div>
  );
}

function MakeOfferDialog({
  listing,
  open,
  onOpenChange,
}: {
  listing: ListingDetail;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const asking = listing.price.itemMinor;
  const least = minimumOfferMinor(asking);
  const make = useMakeOffer({
    onSuccess: () => {
      onOpenChange(false);
      notify.success(`Offer sent: the seller has ${COMMERCIAL_DEFAULTS.offerExpiryHours} hours to answer`);
    },
  });
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) make.reset();
        onOpenChange(next);
      }}
    >
      <DialogContent>
        <DialogTitle>Make an offer</DialogTitle>
        <DialogDescription className="mt-2">
          {listing.seller.displayName} is asking {formatPence(asking)} for “{listing.title}”. Offer at least{' '}
          {formatPence(least)}: the seller has {COMMERCIAL_DEFAULTS.offerExpiryHours} hours to accept, decline
          or counter. If they accept, you have {COMMERCIAL_DEFAULTS.acceptedOfferCheckoutHours} hours to pay.
          {/* An offer is on the item price; the shown price is all-in (decision 0071): say so. */} Buyer
          protection is added to the amount agreed, as it is in the {formatPence(listing.price.allInMinor)}{' '}
          shown for the asking price.
        </DialogDescription>
        <div className="mt-5">
          <OfferAmountForm
            label="Your offer"
            hint={`At least ${formatPence(least)}, and less than the asking price.`}
            limits={{
              minMinor: least,
              maxMinor: asking - 1,
              tooLow: `Offer at least ${formatPence(least)}: half the asking price of ${formatPence(asking)}.`,
              tooHigh: `That is the asking price or more: buy it now for ${formatPence(asking)} instead.`,
            }}
            submitLabel="Send offer"
            pending={make.isPending}
            error={make.isError ? apiErrorMessage(make.error) : null}
            onSubmit={(input) => make.mutate({ listingId: listing.id, ...input })}
            testId="offer-form"
          />
        </div>
      </DialogContent>
    </Dialog>
  );
}
