/**
 * "Ask for a bundle price": one offer on a seller's whole group in the basket, with the same
 * rules as an offer on one book (at least half the books' total, the seller has 48 hours to
 * answer, one counter each way, 24 hours to pay once accepted).
 */
import {
  type BasketGroup,
  COMMERCIAL_DEFAULTS,
  formatPence,
  type GroupQuote,
  minimumOfferMinor,
} from '@reshelf/contracts';
import { HandCoins } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../components/ui/dialog.tsx';
import { notify } from '../../components/ui/notify.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { trpc } from '../../lib/trpc.ts';
import { OfferAmountForm } from '../offers/OfferAmountForm.tsx';
import { booksWord } from './basket-view.ts';

/** The dialog's numbers: the least offer (half the books' prices) and the price now (after the tier). */
export function bundleOfferLimits(group: Pick<GroupQuote, 'itemSubtotalMinor' | 'discountedSubtotalMinor'>) {
  const subtotal = group.itemSubtotalMinor;
  return { subtotal, asking: group.discountedSubtotalMinor, least: minimumOfferMinor(subtotal) };
}

export function BundleOfferButton({ group, quote }: { group: BasketGroup; quote: GroupQuote | null }) {
  const [open, setOpen] = useState(false);
  if (!quote) return null;
  return (
    <>
      <Button variant="outline" className="sm:flex-1" onClick={() => setOpen(true)}>
        <HandCoins aria-hidden="true" />
        Ask for a bundle price
      </Button>
      <BundleOfferDialog group={group} quote={quote} open={open} onOpenChange={setOpen} />
    </>
  );
}

function BundleOfferDialog({
  group,
  quote,
  open,
  onOpenChange,
}: {
  group: BasketGroup;
  quote: GroupQuote;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const utils = trpc.useUtils();
  const { subtotal, asking, least } = bundleOfferLimits(quote);
  const make = trpc.commerce.offers.member.makeBundle.useMutation({
    onSuccess: () => {
      void utils.commerce.offers.member.list.invalidate();
      onOpenChange(false);
      notify.success(`Offer sent: the seller has ${COMMERCIAL_DEFAULTS.offerExpiryHours} hours to answer`);
    },
  });
  const listingIds = quote.items.map((item) => item.listingId);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) make.reset();
        onOpenChange(next);
      }}
    >
      <DialogContent>
        <DialogTitle>Ask for a bundle price</DialogTitle>
        <DialogDescription className="mt-2">
          {booksWord(listingIds.length)} from {group.sellerName}: {formatPence(subtotal)}
          {asking < subtotal ? `, ${formatPence(asking)} with their bundle discount` : ''}. Offer at least{' '}
          {formatPence(least)} for them all: the seller has {COMMERCIAL_DEFAULTS.offerExpiryHours} hours to
          accept, decline or counter. If they accept, you have{' '}
          {COMMERCIAL_DEFAULTS.acceptedOfferCheckoutHours} hours to pay.
        </DialogDescription>
        <ul className="mt-3 list-disc pl-5 text-sm text-ink-soft">
          {quote.items.map((item) => (
            <li key={item.listingId} className="break-words">
              {item.title} ({formatPence(item.priceMinor)})
            </li>
          ))}
        </ul>
        <div className="mt-5">
          <OfferAmountForm
            label="Your offer for the bundle"
            hint={`At least ${formatPence(least)}, and less than ${formatPence(asking)}.`}
            limits={{
              minMinor: least,
              maxMinor: asking - 1,
              tooLow: `Offer at least ${formatPence(least)}: half the books’ total of ${formatPence(subtotal)}.`,
              tooHigh: `That is what the books cost now or more: buy them together for ${formatPence(asking)} instead.`,
            }}
            submitLabel="Send offer"
            pending={make.isPending}
            error={make.isError ? apiErrorMessage(make.error) : null}
            onSubmit={(input) => make.mutate({ listingIds, ...input })}
            testId="bundle-offer-form"
          />
        </div>
      </DialogContent>
    </Dialog>
  );
}
