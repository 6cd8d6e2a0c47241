/**
 * /admin/offers (staff, moderators too): offer threads found by the book's title or either
 * party's email, filtered by status and by when the thread started, kept in the address. Each
 * thread shows its rounds (who offered what, messages, the deadline), the listing's price and
 * the discount asked. Open offers (pending, or accepted and not yet paid) can be cancelled with
 * a reason, e.g. for abuse: an accepted offer's book goes back on sale and both parties are
 * emailed. The figures at the top cover every offer, not only what the filters show.
 */
import {
  ADMIN_PERIOD_LABELS,
  ADMIN_PERIODS,
  type AdminPeriod,
  countOf,
  formatPence,
} from '@reshelf/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { Ban, Search } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { z } from 'zod';
import { Field } from '../../../components/form/Field.tsx';
import { AdminPageFrame, EmptyState, formatDateTime } from '../../../components/staff/AdminPageFrame.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { fieldClasses, Input, Label, Textarea } from '../../../components/ui/input.tsx';
import { toast } from '../../../components/ui/use-toast.ts';
import { FormDialog } from '../../../kit/FormDialog.tsx';
import { QueryView } from '../../../kit/QueryView.tsx';
import { useFilterParams } from '../../../kit/useFilterParams.ts';
import { apiErrorMessage } from '../../../lib/api-errors.ts';
import { type RouterOutputs, trpc } from '../../../lib/trpc.ts';
import { cn } from '../../../lib/utils.ts';
import { offerStatusLabel } from '../../orders/format.ts';
import { useCancelOffer } from './hooks.ts';

type Thread = RouterOutputs['commerce']['offers']['staff']['search'][number];

const STATUSES = [
  'pending',
  'accepted',
  'declined',
  'countered',
  'expired',
  'withdrawn',
  'purchased',
  'lapsed',
  'cancelled',
] as const;
type Status = (typeof STATUSES)[number];

/** Staff words for the filter (the parties' labels are phrased for them). */
const STATUS_LABELS: Record<Status, string> = {
  pending: 'Pending',
  accepted: 'Accepted, not yet paid',
  declined: 'Declined',
  countered: 'Countered',
  expired: 'Expired',
  withdrawn: 'Withdrawn',
  purchased: 'Bought',
  lapsed: 'Lapsed (not paid in time)',
  cancelled: 'Cancelled by staff',
};

const STATUS_TONES: Record<string, string> = {
  pending: 'bg-accent/25 text-accent-foreground',
  accepted: 'bg-moss-soft text-moss',
  purchased: 'bg-moss-soft text-moss',
  cancelled: 'bg-destructive/10 text-destructive',
};

function percent(value: number | null, digits = 0): string {
  return value === null ? '—' : `${value.toFixed(digits)}%`;
}

const filterSchema = z.object({
  q: z.string().default(''),
  status: z.enum(STATUSES).optional(),
  period: z.enum(ADMIN_PERIODS).optional(),
});

export function OffersPage() {
  const filters = useFilterParams(filterSchema);
  const { q, status, period } = filters.values;
  const form = useForm({ values: { q } });
  const threads = trpc.commerce.offers.staff.search.useQuery(
    { ...(q ? { q } : {}), ...(status ? { status } : {}), ...(period ? { period } : {}), limit: 50 },
    { placeholderData: keepPreviousData, staleTime: 0 },
  );

  const submit = form.handleSubmit((draft) => filters.set({ q: draft.q.trim() }));

  return (
    <AdminPageFrame
      title="Offers"
      description="Every offer and counter-offer between buyers and sellers. Find a thread by the book or either person's email, read its rounds, and cancel an open offer if something is wrong."
      testId="offers-page"
    >
      <Summary />
      <form
        onSubmit={submit}
        className="grid gap-3 rounded-xl border border-line bg-paper p-4 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_auto] lg:items-end"
        aria-label="Find offers"
      >
        <div className="flex flex-col gap-1 sm:col-span-2 lg:col-span-1">
          <Label htmlFor="offers-q">Book title, buyer or seller email</Label>
          <Input id="offers-q" {...form.register('q')} />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="offers-status">Status</Label>
          <select
            id="offers-status"
            value={status ?? ''}
            onChange={(event) =>
              filters.set({ status: (event.target.value || undefined) as Status | undefined })
            }
            className={`${fieldClasses} h-11`}
          >
            <option value="">Any</option>
            {STATUSES.map((value) => (
              <option key={value} value={value}>
                {STATUS_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="offers-period">Started</Label>
          <select
            id="offers-period"
            value={period ?? ''}
            onChange={(event) =>
              filters.set({ period: (event.target.value || undefined) as AdminPeriod | undefined })
            }
            className={`${fieldClasses} h-11`}
          >
            <option value="">Any time</option>
            {ADMIN_PERIODS.map((value) => (
              <option key={value} value={value}>
                {ADMIN_PERIOD_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit">
          <Search aria-hidden="true" />
          Search
        </Button>
      </form>

      <QueryView
        query={threads}
        pending="Loading offers…"
        empty={<EmptyState testId="offers-empty">No offers match.</EmptyState>}
      >
        {(data) => (
          <ul className="flex flex-col gap-3" data-testid="staff-offers">
            {data.map((thread) => (
              <ThreadCard key={thread.threadId} thread={thread} />
            ))}
          </ul>
        )}
      </QueryView>
    </AdminPageFrame>
  );
}

function Summary() {
  const summary = trpc.commerce.offers.staff.summary.useQuery(undefined, { staleTime: 0 });
  if (summary.isError) return <EmptyState>{apiErrorMessage(summary.error)}</EmptyState>;
  const data = summary.data;
  const figures = [
    {
      label: 'Open offers',
      value: data ? data.open.toLocaleString('en-GB') : '…',
      hint: 'Waiting for an answer, or accepted and not yet paid',
      testId: 'offers-open',
    },
    {
      label: 'Acceptance rate',
      value: data ? percent(data.acceptanceRate === null ? null : data.acceptanceRate * 100) : '…',
      hint: data
        ? `${data.accepted30} accepted of ${data.decided30} answered, started in the last 30 days`
        : 'Last 30 days',
      testId: 'offers-acceptance',
    },
    {
      label: 'Median discount asked',
      value: data ? percent(data.medianDiscountPercent, 1) : '…',
      hint: data
        ? `Below the price, across ${countOf(data.opened30, 'opening offer', 'opening offers')} in the last 30 days`
        : 'Last 30 days',
      testId: 'offers-median-discount',
    },
  ];
  return (
    <dl className="grid gap-3 sm:grid-cols-3" aria-busy={summary.isPending || undefined}>
      {figures.map((figure) => (
        <div key={figure.label} className="rounded-xl border border-line bg-paper p-4">
          <dt className="text-sm text-ink-muted">{figure.label}</dt>
          <dd className="mt-1 text-2xl font-semibold tabular-nums" data-testid={figure.testId}>
            {figure.value}
          </dd>
          <dd className="mt-1 text-xs text-ink-muted">{figure.hint}</dd>
        </div>
      ))}
    </dl>
  );
}

const cancelSchema = z.object({ reason: z.string() });

function ThreadCard({ thread }: { thread: Thread }) {
  const [open, setOpen] = useState(false);
  const cancel = useCancelOffer({
    onSuccess: (result) => {
      toast({
        title: 'Offer cancelled',
        description: result.released
          ? 'The book is back on sale and both people have been emailed.'
          : 'Both people have been emailed.',
      });
    },
  });
  const current = thread.rounds.at(-1);
  const who = (madeBy: 'buyer' | 'seller') =>
    madeBy === 'buyer' ? (thread.buyer.name ?? 'Buyer') : (thread.seller.name ?? 'Seller');

  return (
    <li
      className="min-w-0 rounded-xl border border-line bg-paper p-4"
      data-testid="staff-offer"
      data-status={thread.status}
      data-thread-id={thread.threadId}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-semibold break-words">
            {thread.listing.slug ? (
              <Link to={`/listing/${thread.listing.slug}`} className="hover:underline">
                {thread.listing.title}
              </Link>
            ) : (
              thread.listing.title
            )}
          </p>
          <p className="text-sm text-ink-soft">
            Price {formatPence(thread.listing.priceMinor)} · listing {thread.listing.status} · started{' '}
            {formatDateTime(thread.startedAt)}
          </p>
        </div>
        <span
          className={cn(
            'shrink-0 rounded-full px-2.5 py-0.5 text-xs font-semibold',
            STATUS_TONES[thread.status] ?? 'bg-paper-deep text-ink-muted',
          )}
          data-testid="staff-offer-status"
        >
          {STATUS_LABELS[thread.status as Status] ?? offerStatusLabel(thread.status)}
        </span>
      </div>
      <p className="mt-1 text-sm break-all text-ink-muted">
        Buyer {thread.buyer.email ?? '(deleted account)'} · seller{' '}
        {thread.seller.email ?? '(deleted account)'}
      </p>

      <ol className="mt-3 flex flex-col gap-2 border-l-2 border-line pl-4 text-sm" aria-label="Rounds">
        {thread.rounds.map((round) => (
          <li key={round.id} data-testid="staff-offer-round">
            <p>
              <span className="font-semibold">
                {round.round === 1 ? `${who(round.madeBy)} offered` : `${who(round.madeBy)} countered with`}{' '}
                {formatPence(round.amountMinor)}
              </span>{' '}
              <span className="text-ink-muted">
                ({round.discountPercent}% under the price, {round.madeBy}) · {formatDateTime(round.createdAt)}{' '}
                · {STATUS_LABELS[round.status as Status] ?? round.status}
              </span>
            </p>
            {round.message ? (
              <p className="mt-0.5 break-words text-ink-muted italic">“{round.message}”</p>
            ) : null}
            <p className="text-xs text-ink-muted">
              {round.checkoutDeadline
                ? `Checkout deadline ${formatDateTime(round.checkoutDeadline)}`
                : `Expires ${formatDateTime(round.expiresAt)}`}
            </p>
            {round.cancelReason ? (
              <p
                className="mt-0.5 text-xs break-words text-destructive"
                data-testid="staff-offer-cancel-reason"
              >
                Cancelled by staff: {round.cancelReason}
              </p>
            ) : null}
          </li>
        ))}
      </ol>

      {thread.canCancel && current ? (
        <div className="mt-3">
          <Button
            variant="outline"
            size="sm"
            onClick={() => {
              cancel.reset();
              setOpen(true);
            }}
          >
            <Ban aria-hidden="true" /> Cancel offer <span className="sr-only">on {thread.listing.title}</span>
          </Button>
        </div>
      ) : null}

      <FormDialog
        open={open}
        onOpenChange={setOpen}
        title="Cancel this offer?"
        description={
          thread.status === 'accepted'
            ? `The accepted offer of ${current ? formatPence(current.amountMinor) : ''} for “${thread.listing.title}” ends, the book goes back on sale, and we email the buyer and the seller.`
            : `The offer of ${current ? formatPence(current.amountMinor) : ''} for “${thread.listing.title}” closes, and we email the buyer and the seller.`
        }
        schema={cancelSchema}
        defaultValues={{ reason: '' }}
        submitLabel="Cancel the offer"
        submitVariant="destructive"
        cancelLabel="Keep it"
        onSubmit={async ({ reason }) => {
          if (current) await cancel.mutateAsync({ offerId: current.id, reason });
        }}
      >
        {(form) => (
          <Field label="Reason (for staff and the audit log)" error={form.formState.errors.reason?.message}>
            {(control) => (
              <Textarea {...control} maxLength={500} className="min-h-20" {...form.register('reason')} />
            )}
          </Field>
        )}
      </FormDialog>
    </li>
  );
}
