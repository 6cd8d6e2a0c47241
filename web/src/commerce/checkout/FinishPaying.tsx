/**
 * "Finish paying": a buyer who left the payment page goes back to the same order and payment
 * (checkout.resume) while the book is held for them. Shown on the listing, in /account/orders
 * and on /checkout/cancel; anyone else sees the book as reserved.
 */
import { formatPence } from '@reshelf/contracts';
import { Lock, Timer } from 'lucide-react';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { formatTime } from '../../lib/dates.ts';
import { useSession } from '../../lib/session.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';

/** The button itself: opens the payment page again, or says why it cannot. */
export function FinishPayingButton({
  orderId,
  className,
  size = 'lg',
}: {
  orderId: string;
  className?: string;
  size?: 'default' | 'lg';
}) {
  const utils = trpc.useUtils();
  const resume = trpc.commerce.checkout.resume.useMutation({
    onSuccess: (result) => window.location.assign(result.redirectUrl),
    // The reservation may have just run out: show where things stand now.
    onError: () => {
      void utils.commerce.checkout.invalidate();
      void utils.commerce.orders.member.invalidate();
      void utils.catalogue.listings.bySlug.invalidate();
    },
  });
  const busy = resume.isPending || resume.isSuccess;
  return (
    <div className={cn('flex flex-col gap-3', className)}>
      <Button variant="cta" size={size} disabled={busy} onClick={() => resume.mutate({ orderId })}>
        <Lock aria-hidden="true" />
        {busy ? 'Opening the payment page…' : 'Finish paying'}
      </Button>
      {resume.isError ? (
        <Alert tone="error" data-testid="finish-paying-error">
          {apiErrorMessage(resume.error)}
        </Alert>
      ) : null}
    </div>
  );
}

/** "Reserved for you until 14:05", with the button, for the buyer holding the book. */
export function HeldForYou({
  orderId,
  reservedUntil,
  order,
  className,
}: {
  orderId: string;
  reservedUntil: string;
  /** The order's reference and what is left to pay, where the page does not show them already. */
  order?: { reference: string; totalMinor: number };
  className?: string;
}) {
  return (
    <section
      data-testid="held-for-you"
      aria-labelledby={`held-${orderId}`}
      className={cn('flex flex-col gap-3 rounded-xl border border-brand/30 bg-brand-soft/50 p-5', className)}
    >
      <div className="flex gap-3">
        <Timer aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand" />
        <div>
          <h2 id={`held-${orderId}`} className="text-lg font-semibold">
            Reserved for you until {formatTime(reservedUntil)}
          </h2>
          <p className="mt-1 text-sm text-ink-soft">
            You started paying for this book. Nothing has been taken yet: finish paying by then, or it goes
            back on sale.
          </p>
          {order ? (
            <p className="mt-2 text-sm text-ink-soft" data-testid="held-order">
              Order {order.reference} · <strong className="text-ink">{formatPence(order.totalMinor)}</strong>{' '}
              to pay
            </p>
          ) : null}
        </div>
      </div>
      <FinishPayingButton orderId={orderId} />
    </section>
  );
}

/**
 * The signed-in person's own order waiting for payment on this book while it is held for them:
 * `held` once known (null: none, or signed out), `settled` once there is an answer.
 */
export function useHeldOrder(listingId: string, enabled = true) {
  const session = useSession();
  const asked = enabled && listingId !== '' && session.status === 'signed-in';
  const held = trpc.commerce.checkout.held.useQuery(
    { listingId },
    { enabled: asked, staleTime: 0, retry: false },
  );
  let settled = true;
  if (asked) settled = !held.isPending;
  else if (enabled && session.status === 'loading') settled = false;
  return { held: held.data ?? null, settled };
}

/** On a checkout that cannot start: the order they already have for this book, if any. */
export function HeldForYouOnListing({ listingId, className }: { listingId: string; className?: string }) {
  const { held } = useHeldOrder(listingId);
  if (!held) return null;
  return (
    <HeldForYou
      orderId={held.orderId}
      reservedUntil={held.reservedUntil}
      order={held}
      className={className}
    />
  );
}
