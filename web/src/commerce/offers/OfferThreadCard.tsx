/**
 * One offer thread on /account/offers: its rounds, where it stands, the time left, and the
 * buttons the server allows next (accept, decline, counter, withdraw, pay now). A message the
 * other person sent can be reported to our team; one we removed after a report says so instead.
 */
import { formatPence, type OfferThread, photoThumbUrl } from '@reshelf/contracts';
import { Flag } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ReportDialog } from '../../community/index.ts';
import { BookCover } from '../../components/BookCover.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { notify } from '../../components/ui/notify.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { formatWhen, timeLeft } from '../../lib/dates.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';
import { offerStatusLabel } from '../orders/format.ts';
import { useCounterOffer, useRespondToOffer, useWithdrawOffer } from './hooks.ts';
import { OfferAmountForm } from './OfferAmountForm.tsx';

const STATUS_TONES: Record<string, string> = {
  pending: 'bg-accent/25 text-accent-foreground',
  accepted: 'bg-moss-soft text-moss',
  purchased: 'bg-moss-soft text-moss',
};

export function ThreadCard({ thread }: { thread: OfferThread }) {
  const [countering, setCountering] = useState(false);
  const [confirming, setConfirming] = useState<'decline' | 'withdraw' | null>(null);
  const current = thread.rounds.at(-1);
  const onError = (error: unknown) => {
    setConfirming(null);
    notify.error(apiErrorMessage(error));
  };
  const respond = useRespondToOffer({
    onSuccess: (result) => {
      setConfirming(null);
      if (result.status === 'declined') notify.success('Offer declined');
      else if (thread.role === 'buyer')
        notify.success(
          `Accepted: pay by ${result.checkoutDeadline ? formatWhen(result.checkoutDeadline) : 'the deadline'}`,
        );
      else notify.success('Accepted: the book is held for the buyer for 24 hours');
    },
    onError,
  });
  const withdraw = useWithdrawOffer({
    onSuccess: () => {
      setConfirming(null);
      notify.success('Offer withdrawn');
    },
    onError,
  });
  const counter = useCounterOffer({
    onSuccess: () => {
      setCountering(false);
      notify.success('Counter-offer sent: they have 48 hours to answer');
    },
  });
  if (!current) return null;
  const them = thread.counterpartName;
  const { actions } = thread;
  const busy = respond.isPending || withdraw.isPending || counter.isPending;
  const image = thread.listing.imageUrl ? photoThumbUrl(thread.listing.imageUrl) : null;

  return (
    <li
      className="rounded-xl border border-line bg-paper p-4 shadow-card sm:p-5"
      data-testid="offer-thread"
      data-status={thread.status}
      data-offer-id={thread.currentId}
    >
      <div className="flex gap-4">
        <div className="w-14 shrink-0">
          <BookCover size="thumb" title={thread.listing.title} authors={[]} coverUrl={image} />
        </div>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-start justify-between gap-2">
            <p className="min-w-0 font-semibold break-words text-ink">
              {thread.bundle ? (
                `Bundle: ${thread.books.length} books`
              ) : thread.listing.slug ? (
                <Link to={`/listing/${thread.listing.slug}`} className="underline-offset-4 hover:underline">
                  {thread.listing.title}
                </Link>
              ) : (
                thread.listing.title
              )}
            </p>
            <span
              className={cn(
                'shrink-0 rounded-full px-2.5 py-0.5 text-xs font-semibold',
                STATUS_TONES[thread.status] ?? 'bg-paper-deep text-ink-muted',
              )}
              data-testid="offer-status"
            >
              {offerStatusLabel(thread.status)}
            </span>
          </div>
          <p className="mt-0.5 text-sm text-ink-muted">
            {thread.role === 'buyer' ? `Seller: ${them}` : `Buyer: ${them}`} ·{' '}
            {thread.bundle ? `${thread.books.length} books together, ` : ''}asking price{' '}
            {formatPence(thread.bundle ? thread.askingMinor : thread.listing.priceMinor)}
          </p>
          {thread.bundle ? (
            <ul
              className="mt-1 text-sm text-ink-soft"
              data-testid="offer-books"
              aria-label="Books in this offer"
            >
              {thread.books.map((book) => (
                <li key={book.id} className="break-words">
                  {book.slug ? (
                    <Link to={`/listing/${book.slug}`} className="underline-offset-4 hover:underline">
                      {book.title}
                    </Link>
                  ) : (
                    book.title
                  )}{' '}
                  <span className="text-ink-muted">({formatPence(book.priceMinor)})</span>
                </li>
              ))}
            </ul>
          ) : null}
          <p className="mt-2 text-sm font-semibold text-ink" data-testid="offer-summary">
            {summary(thread)}
          </p>
        </div>
      </div>

      <ol className="mt-4 flex flex-col gap-2 border-l-2 border-line pl-4 text-sm" aria-label="Rounds">
        {thread.rounds.map((round, index) => {
          const who = round.madeBy === thread.role ? 'You' : them;
          const verb = index === 0 ? 'offered' : 'countered with';
          return (
            <li key={round.id} data-testid="offer-round">
              <p className="text-ink-soft">
                <span className="font-semibold text-ink">
                  {who} {verb} {formatPence(round.amountMinor)}
                </span>{' '}
                · <time dateTime={round.createdAt}>{formatWhen(round.createdAt)}</time>
                {round.id !== current.id ? ` · ${offerStatusLabel(round.status).toLowerCase()}` : ''}
              </p>
              {round.messageRemoved ? (
                <p className="mt-0.5 text-ink-muted" data-testid="message-removed">
                  Message removed by Reshelf
                </p>
              ) : round.message ? (
                <div className="mt-0.5 flex flex-wrap items-baseline gap-x-3">
                  <p className="min-w-0 break-words text-ink-muted italic">“{round.message}”</p>
                  {round.madeBy !== thread.role ? <ReportMessage offerId={round.id} from={them} /> : null}
                </div>
              ) : null}
            </li>
          );
        })}
      </ol>

      {actions.canAccept ||
      actions.canDecline ||
      actions.canCounter ||
      actions.canWithdraw ||
      actions.canPay ? (
        <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:flex-wrap" data-testid="offer-actions">
          {actions.canPay ? (
            <Button asChild variant="cta">
              <Link to={`/checkout/offer?offer=${encodeURIComponent(thread.currentId)}`}>Pay now</Link>
            </Button>
          ) : null}
          {actions.canAccept ? (
            <Button
              variant="brand"
              disabled={busy}
              onClick={() => respond.mutate({ offerId: thread.currentId, action: 'accept' })}
            >
              Accept {formatPence(current.amountMinor)}
            </Button>
          ) : null}
          {actions.canCounter ? (
            <Button
              variant="outline"
              disabled={busy}
              aria-expanded={countering}
              onClick={() => {
                counter.reset();
                setCountering((open) => !open);
              }}
            >
              Counter
            </Button>
          ) : null}
          {actions.canDecline ? (
            <Button variant="outline" disabled={busy} onClick={() => setConfirming('decline')}>
              Decline
            </Button>
          ) : null}
          {actions.canWithdraw ? (
            <Button variant="outline" disabled={busy} onClick={() => setConfirming('withdraw')}>
              Withdraw
            </Button>
          ) : null}
        </div>
      ) : null}

      {countering &&
      actions.canCounter &&
      thread.counterMinMinor !== null &&
      thread.counterMaxMinor !== null ? (
        <div className="mt-4 rounded-lg border border-line bg-paper-deep/50 p-4">
          <OfferAmountForm
            label="Your counter-offer"
            hint={`Between ${formatPence(thread.counterMinMinor)} and ${formatPence(thread.counterMaxMinor)}. ${
              thread.role === 'seller'
                ? 'The buyer can accept, decline or counter once more.'
                : 'This is your one counter: the seller can then only accept or decline.'
            }`}
            limits={{
              minMinor: thread.counterMinMinor,
              maxMinor: thread.counterMaxMinor,
              tooLow: `Counter with at least ${formatPence(thread.counterMinMinor)}`,
              tooHigh: `Counter with at most ${formatPence(thread.counterMaxMinor)}`,
            }}
            submitLabel="Send counter-offer"
            pending={counter.isPending}
            error={counter.isError ? apiErrorMessage(counter.error) : null}
            onSubmit={(input) => counter.mutate({ offerId: thread.currentId, ...input })}
            testId="counter-form"
          />
        </div>
      ) : null}

      <ConfirmDialog
        open={confirming === 'decline'}
        onOpenChange={(open) => setConfirming(open ? 'decline' : null)}
        title="Decline this offer?"
        description={`${them}’s offer of ${formatPence(current.amountMinor)} for “${thread.listing.title}” closes, and we tell them.`}
        confirmLabel="Decline the offer"
        confirmVariant="destructive"
        pending={respond.isPending}
        onConfirm={() => respond.mutate({ offerId: thread.currentId, action: 'decline' })}
      />
      <ConfirmDialog
        open={confirming === 'withdraw'}
        onOpenChange={(open) => setConfirming(open ? 'withdraw' : null)}
        title="Withdraw your offer?"
        description={`Your offer of ${formatPence(current.amountMinor)} closes and ${them} can no longer accept it.`}
        confirmLabel="Withdraw the offer"
        confirmVariant="destructive"
        pending={withdraw.isPending}
        onConfirm={() => withdraw.mutate({ offerId: thread.currentId })}
      />
    </li>
  );
}

/** "Report" beside a message the other person sent: it goes to our team's queue. */
function ReportMessage({ offerId, from }: { offerId: string; from: string }) {
  const [open, setOpen] = useState(false);
  const report = trpc.community.moderation.member.message.useMutation();
  return (
    <>
      <Button
        variant="link"
        size="sm"
        className="h-auto gap-1 px-0 text-xs text-ink-muted hover:text-ink"
        onClick={() => setOpen(true)}
      >
        <Flag aria-hidden="true" className="size-3.5" />
        Report<span className="sr-only"> this message from {from}</span>
      </Button>
      <ReportDialog
        kind="offer_message"
        open={open}
        onOpenChange={setOpen}
        title="Report this message"
        description={`Tell our team what’s wrong with ${from}’s message. They aren’t told who reported it.`}
        send={(input) => report.mutateAsync({ offerId, ...input })}
      />
    </>
  );
}

/** One line saying where the thread stands and what happens next. */
function summary(thread: OfferThread): string {
  const current = thread.rounds.at(-1);
  if (!current) return '';
  const them = thread.counterpartName;
  const amount = formatPence(current.amountMinor);
  switch (thread.status) {
    case 'pending': {
      const left = timeLeft(current.expiresAt);
      const within = left ? ` (${left} left)` : '';
      const opening = thread.rounds.length === 1;
      if (current.madeBy !== thread.role) {
        const choices = thread.actions.canCounter ? 'accept, decline or counter' : 'accept or decline';
        return opening
          ? `${them} offers ${amount}: ${choices}${within}`
          : `${them} countered with ${amount}: ${choices}${within}`;
      }
      return `Waiting for ${them} to answer your ${opening ? 'offer' : 'counter-offer'} of ${amount}${within}`;
    }
    case 'accepted': {
      const deadline = current.checkoutDeadline;
      const left = deadline ? timeLeft(deadline) : null;
      if (thread.role === 'buyer') {
        return deadline
          ? `Accepted at ${amount}: pay by ${formatWhen(deadline)}${left ? ` (${left} left)` : ''}`
          : `Accepted at ${amount}`;
      }
      return deadline
        ? `Accepted at ${amount}: held for the buyer until ${formatWhen(deadline)}`
        : `Accepted at ${amount}`;
    }
    case 'purchased':
      return thread.role === 'buyer' ? `Bought for ${amount}` : `Sold for ${amount}`;
    case 'declined':
      return `Declined at ${amount}`;
    case 'withdrawn':
      return `Withdrawn at ${amount}`;
    case 'expired':
      return `The offer of ${amount} expired unanswered`;
    case 'lapsed':
      return `Accepted at ${amount} but not paid within 24 hours: the book went back on sale`;
    case 'cancelled':
      return `Our team cancelled this offer of ${amount}: we have emailed you about it`;
    default:
      return offerStatusLabel(thread.status);
  }
}
