/**
 * The staff's dispute queues, /admin/disputes (not as described) and /admin/shipping-disputes
 * (not received): open disputes oldest first, or resolved ones; each opens a panel with the
 * order's timeline and the two outcomes, refund the buyer or release to the seller, each with a
 * note both parties read and a confirmation.
 */
import {
  DISPUTE_KIND_LABELS,
  type DisputeKind,
  type DisputeQueueItem,
  formatPence,
  plural,
} from '@reshelf/contracts';
import { Scale } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { StaffConversation } from '../../../community/index.ts';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { Field } from '../../../components/form/Field.tsx';
import { LinkTabs } from '../../../components/LinkTabs.tsx';
import { QueryError } from '../../../components/QueryError.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Textarea } from '../../../components/ui/input.tsx';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '../../../components/ui/sheet.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { toast } from '../../../components/ui/use-toast.ts';
import { QueryView } from '../../../kit/QueryView.tsx';
import { apiErrorMessage } from '../../../lib/api-errors.ts';
import { formatWhen } from '../../../lib/dates.ts';
import { usePageMeta } from '../../../lib/page-meta.ts';
import { trpc } from '../../../lib/trpc.ts';
import { cn } from '../../../lib/utils.ts';
import { OrderBooks } from '../../orders/OrderBooks.tsx';
import {
  DeliveryAddress,
  DisputeInfo,
  OrderMoney,
  OrderStatusBadge,
  OrderTimeline,
  Tracking,
} from '../../orders/OrderParts.tsx';
import { StaffDisputeCase } from '../StaffDisputeCase.tsx';
import { useResolveDispute } from './hooks.ts';

const PAGES: Record<DisputeKind, { path: string; title: string; description: string }> = {
  item_not_as_described: {
    path: '/admin/disputes',
    title: 'Disputes',
    description: 'Buyers who say the book is not as described. Read both sides in the timeline, then decide.',
  },
  not_received: {
    path: '/admin/shipping-disputes',
    title: 'Shipping disputes',
    description: 'Parcels that did not arrive within the carrier’s window. Check the tracking, then decide.',
  },
};

const NOTE_MIN = 5;

type DisputeItem = DisputeQueueItem;

/** One queue page: open disputes of `kind` oldest first, or resolved ones. */
export function DisputeQueue({ kind }: { kind: DisputeKind }) {
  const page = PAGES[kind];
  usePageMeta(page.title);
  const [params] = useSearchParams();
  const status = params.get('status') === 'resolved' ? 'resolved' : 'open';
  const queue = trpc.commerce.disputes.legacy.queue.useQuery({ kind, status }, { staleTime: 0 });
  const [reviewing, setReviewing] = useState<DisputeItem | null>(null);
  return (
    <div
      className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-6 sm:px-6 md:py-8 lg:px-8"
      data-testid="dispute-queue"
    >
      <div>
        <p className="text-sm font-semibold uppercase tracking-widest text-brand">Reshelf staff</p>
        <h1 className="mt-1 text-3xl font-semibold sm:text-4xl">{page.title}</h1>
        <p className="mt-2 max-w-3xl text-ink-muted">{page.description}</p>
      </div>
      <LinkTabs
        label={page.title}
        tabs={[
          { to: page.path, label: 'Open', current: status === 'open' },
          { to: `${page.path}?status=resolved`, label: 'Resolved', current: status === 'resolved' },
        ]}
      />
      <QueryView
        query={queue}
        pending={
          <div role="status" aria-busy="true" aria-label="Loading disputes" className="flex flex-col gap-3">
            {[0, 1, 2].map((key) => (
              <Skeleton key={key} className="h-32 w-full rounded-xl" />
            ))}
          </div>
        }
        error={() => (
          <QueryError what="the disputes" onRetry={() => queue.refetch()} retrying={queue.isFetching} />
        )}
        empty={
          <div className="flex items-center gap-3 rounded-xl border border-dashed border-line p-6 text-ink-muted">
            <Scale aria-hidden="true" className="size-6 text-brand" />
            <p>
              {status === 'open'
                ? 'No open disputes. Nothing is waiting for you.'
                : 'No resolved disputes yet.'}
            </p>
          </div>
        }
      >
        {(data) => (
          <ul className="flex flex-col gap-3" data-testid="disputes">
            {data.map((item) => (
              <DisputeRow key={item.id} item={item} onReview={() => setReviewing(item)} />
            ))}
          </ul>
        )}
      </QueryView>
      <Sheet open={reviewing !== null} onOpenChange={(open) => (open ? undefined : setReviewing(null))}>
        {reviewing ? <ReviewPanel item={reviewing} onDone={() => setReviewing(null)} /> : null}
      </Sheet>
    </div>
  );
}

/** A report about some of an order's books, not all of them. */
function partial(item: DisputeItem): boolean {
  return item.bookCount > 1 && item.books.length < item.bookCount;
}

function DisputeRow({ item, onReview }: { item: DisputeItem; onReview: () => void }) {
  return (
    <li
      className="rounded-xl border border-line bg-paper p-4 shadow-card sm:p-5"
      data-testid="dispute-row"
      data-reference={item.reference}
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2">
            <span className="font-semibold break-words text-ink">{item.title}</span>
            <span className="rounded-full bg-paper-deep px-2.5 py-0.5 text-xs font-semibold text-ink-soft">
              {DISPUTE_KIND_LABELS[item.kind]}
            </span>
          </p>
          <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-sm">
            <dt className="text-ink-muted">Order</dt>
            <dd className="font-mono">{item.reference}</dd>
            <dt className="text-ink-muted">Buyer</dt>
            <dd className="break-words">{item.buyerName}</dd>
            <dt className="text-ink-muted">Seller</dt>
            <dd className="break-words">{item.sellerName}</dd>
            {partial(item) ? (
              <>
                <dt className="text-ink-muted">Books</dt>
                <dd className="break-words" data-testid="dispute-books">
                  {item.books.join(', ')} (of {item.bookCount} in the order)
                </dd>
              </>
            ) : null}
            <dt className="text-ink-muted">Amount</dt>
            <dd className="tabular-nums">
              {formatPence(item.refundableMinor)}
              {partial(item) ? ` of ${formatPence(item.totalMinor)}` : ''}
            </dd>
            <dt className="text-ink-muted">Opened</dt>
            <dd>{formatWhen(item.openedAt)}</dd>
          </dl>
          <p className="mt-2 line-clamp-3 text-sm break-words text-ink-soft" data-testid="dispute-reason">
            “{item.reason}”
          </p>
          {item.resolutionNote ? (
            <p className="mt-2 text-sm break-words text-ink-muted">
              <span className="font-semibold text-ink">
                {item.status === 'resolved_refund'
                  ? 'Refunded'
                  : item.status === 'resolved_release'
                    ? 'Released'
                    : 'Closed'}
                {item.resolvedAt ? ` ${formatWhen(item.resolvedAt)}` : ''}:
              </span>{' '}
              {item.resolutionNote}
            </p>
          ) : item.status === 'withdrawn' ? (
            <p className="mt-2 text-sm font-semibold text-ink-muted">Withdrawn by the buyer</p>
          ) : null}
        </div>
        <Button
          variant={item.status === 'open' ? 'brand' : 'outline'}
          className="shrink-0"
          onClick={onReview}
        >
          {item.status === 'open' ? 'Review' : 'View order'}
          <span className="sr-only"> {item.reference}</span>
        </Button>
      </div>
    </li>
  );
}

function ReviewPanel({ item, onDone }: { item: DisputeItem; onDone: () => void }) {
  const order = trpc.commerce.disputes.legacy.order.useQuery({ orderId: item.orderId }, { staleTime: 0 });
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | undefined>();
  const [confirming, setConfirming] = useState<'refund' | 'release' | null>(null);
  const resolve = useResolveDispute({
    onSuccess: (result, input) => {
      setConfirming(null);
      onDone();
      toast({
        title: input.outcome === 'refund' ? 'Buyer refunded' : 'Released to the seller',
        description:
          input.outcome === 'refund'
            ? `${formatPence(result.refundedMinor)} went back to ${item.buyerName} for order ${item.reference}.`
            : `${item.sellerName} is paid for order ${item.reference}.`,
      });
    },
  });
  const open = item.status === 'open';
  const payout = order.data?.payout?.amountMinor ?? null;
  const ask = (outcome: 'refund' | 'release') => {
    if (note.trim().length < NOTE_MIN) {
      setNoteError(`Write a short note for both parties (at least ${NOTE_MIN} characters)`);
      return;
    }
    setNoteError(undefined);
    resolve.reset();
    setConfirming(outcome);
  };
  return (
    <SheetContent side="right" className="w-full max-w-xl overflow-y-auto">
      <div className="flex flex-col gap-4 p-5 sm:p-6" data-testid="dispute-review">
        <div className="pr-10">
          <SheetTitle className="font-serif text-2xl font-semibold break-words">{item.title}</SheetTitle>
          <SheetDescription className="mt-1 flex flex-wrap items-center gap-2 text-sm text-ink-muted">
            <span>
              Order <span className="font-mono">{item.reference}</span> · {item.buyerName} bought from{' '}
              {item.sellerName}
            </span>
            {order.data ? <OrderStatusBadge status={order.data.status} /> : null}
          </SheetDescription>
        </div>
        <QueryView
          query={order}
          pending={
            <div
              role="status"
              aria-busy="true"
              aria-label="Loading the order"
              className="flex flex-col gap-3"
            >
              <Skeleton className="h-32 w-full rounded-xl" />
              <Skeleton className="h-48 w-full rounded-xl" />
            </div>
          }
          error={() => (
            <QueryError what="the order" onRetry={() => order.refetch()} retrying={order.isFetching} />
          )}
        >
          {(data) => (
            <>
              <DisputeInfo order={data} />
              <StaffDisputeCase disputeId={item.id} onDone={onDone} />
              <section aria-label="Conversation" className="flex flex-col rounded-xl border border-line p-4">
                <h3 className="text-sm font-semibold">Messages between them</h3>
                <StaffConversation through={{ disputeId: item.id }} />
              </section>
              {open ? (
                <section
                  aria-label="Resolve"
                  className="rounded-xl border border-brand/30 bg-brand-soft/40 p-5"
                  data-testid="resolve-panel"
                >
                  <h3 className="font-sans text-lg font-semibold">Resolve</h3>
                  {partial(item) ? (
                    <p className="mt-1 text-sm text-ink-soft">
                      The report is about{' '}
                      {plural(item.books.length, 'one book', `${item.books.length} books`)} of{' '}
                      {item.bookCount}: {item.books.join(', ')}. Refund the buyer{' '}
                      {formatPence(item.refundableMinor)}, what they paid for{' '}
                      {plural(item.books.length, 'it', 'them')}, through the payment provider (the rest of the
                      order completes), or release the payment to the seller. Both parties get your note by
                      email.
                    </p>
                  ) : (
                    <p className="mt-1 text-sm text-ink-soft">
                      Refund the buyer {formatPence(data.totalMinor)} in full through the payment provider, or
                      release {payout !== null ? formatPence(payout) : 'the payment'} to the seller. Both
                      parties get your note by email.
                    </p>
                  )}
                  <Field label="Note to both parties" error={noteError} className="mt-4">
                    {(control) => (
                      <Textarea
                        {...control}
                        rows={3}
                        value={note}
                        onChange={(event) => {
                          setNote(event.target.value);
                          setNoteError(undefined);
                        }}
                      />
                    )}
                  </Field>
                  {resolve.isError && confirming === null ? (
                    <Alert tone="error" className="mt-3">
                      {apiErrorMessage(resolve.error)}
                    </Alert>
                  ) : null}
                  <div className="mt-4 flex flex-col gap-2 sm:flex-row">
                    <Button variant="destructive" onClick={() => ask('refund')}>
                      Refund buyer
                    </Button>
                    <Button variant="brand" onClick={() => ask('release')}>
                      Release to seller
                    </Button>
                  </div>
                </section>
              ) : null}
              <OrderBooks order={data} viewer="staff" />
              <Tracking order={data} />
              <OrderTimeline order={data} viewer="staff" />
              <OrderMoney order={data} viewer="staff" />
              <DeliveryAddress order={data} viewer="staff" />
            </>
          )}
        </QueryView>
      </div>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(next) => (next ? undefined : setConfirming(null))}
        title={
          confirming === 'refund'
            ? `Refund ${formatPence(partial(item) ? item.refundableMinor : (order.data?.totalMinor ?? item.totalMinor))} to ${item.buyerName}?`
            : `Release the payment to ${item.sellerName}?`
        }
        description={
          <div className={cn('flex flex-col gap-2')}>
            <p>
              {confirming === 'refund' && partial(item)
                ? `The buyer gets back what they paid for ${item.books.join(', ')}; the seller is not paid for ${plural(item.books.length, 'it', 'them')}, and the rest of the order completes. This cannot be undone.`
                : confirming === 'refund'
                  ? 'The buyer gets their money back in full and the seller is not paid. This cannot be undone.'
                  : 'The order completes and the seller is paid. This cannot be undone.'}
            </p>
            <p className="break-words">
              Your note: <span className="italic">“{note.trim()}”</span>
            </p>
          </div>
        }
        confirmLabel={confirming === 'refund' ? 'Refund buyer' : 'Release to seller'}
        confirmVariant={confirming === 'refund' ? 'destructive' : 'brand'}
        cancelLabel="Back"
        pending={resolve.isPending}
        error={resolve.isError ? apiErrorMessage(resolve.error) : null}
        onConfirm={() =>
          confirming && resolve.mutate({ disputeId: item.id, outcome: confirming, note: note.trim() })
        }
      />
    </SheetContent>
  );
}
