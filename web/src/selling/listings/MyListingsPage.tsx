import {
  countOf,
  formatIsbn,
  formatPence,
  MY_LISTING_FILTER_LABELS,
  MY_LISTING_FILTERS,
  type MyListing,
  SELLING_STEP_LABELS,
} from '@reshelf/contracts';
import { Heart, Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { z } from 'zod';
import { leadThumb } from '../../catalogue/index.ts';
import { BookCover } from '../../components/BookCover.tsx';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { RowsSkeleton } from '../../components/placeholders.tsx';
import { QueryError } from '../../components/QueryError.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../components/ui/dialog.tsx';
import { notify } from '../../components/ui/notify.ts';
import { QueryView, useFilterParams } from '../../kit/index.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';
import { TraderSetting } from '../trader/TraderSetting.tsx';
import { useDeleteDraft, useRelistListing, useWithdrawListings } from './hooks.ts';
import { StatusBadge } from './StatusBadge.tsx';
import { editPath, wizardPath } from './sell-state.ts';

const PAGE_SIZE = 24;
const UPDATED = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/** ?status= one of the filters (else all), ?page= from 1. */
const filters = z.object({
  status: z.enum(MY_LISTING_FILTERS).default('all'),
  page: z.coerce.number().int().min(1).default(1),
});

/** /account/listings: the seller's listings by status; bulk withdraw, relist, carry on drafts. */
export function MyListingsPage() {
  usePageMeta('Your listings');
  // Each page is its own step in the history, as the tabs are.
  const filterParams = useFilterParams(filters, { replace: false });
  const { status, page } = filterParams.values;
  const list = trpc.selling.listings.mine.useQuery({ status, page, pageSize: PAGE_SIZE }, { staleTime: 0 });
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirming, setConfirming] = useState<'withdraw' | { deleteDraft: MyListing } | null>(null);

  const withdraw = useWithdrawListings({
    onSuccess: (result) => {
      setSelected(new Set());
      setConfirming(null);
      if (result.done.length) {
        notify.success(`Withdrew ${countOf(result.done.length, 'listing', 'listings')}`);
      }
      for (const refused of result.refused) {
        notify.error(`${refused.title ?? 'A listing'}: ${refused.message}`, { duration: 8000 });
      }
    },
  });
  const relist = useRelistListing({
    onSuccess: (listing) => notify.success(`${listing.book?.title ?? 'Your book'} is back on sale`),
  });
  const deleteDraft = useDeleteDraft({
    onSuccess: () => {
      setConfirming(null);
      notify.success('Draft deleted');
    },
  });

  const items = list.data?.items ?? [];
  const selectable = items.filter((item) => item.status === 'active' && !item.lock);
  const chosen = selectable.filter((item) => selected.has(item.id));
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <div>
      <PageHeader
        title="Your listings"
        description="Everything you’ve listed, on sale or not, and drafts to finish."
        crumbs={[{ to: '/account', label: 'Your account' }]}
      >
        <Button asChild variant="brand" className="mt-5">
          <Link to="/sell/new">
            <Plus aria-hidden="true" />
            List a book
          </Link>
        </Button>
      </PageHeader>
      <PageBody>
        <TraderSetting />
        <nav aria-label="Filter by status" className="-mx-4 overflow-x-auto px-4 sm:mx-0 sm:px-0">
          <ul className="flex min-w-max gap-1 border-b border-line" data-testid="status-tabs">
            {MY_LISTING_FILTERS.map((filter) => {
              const current = filter === status;
              const count = list.data?.counts[filter];
              return (
                <li key={filter}>
                  <Link
                    to={filter === 'all' ? '/account/listings' : `/account/listings?status=${filter}`}
                    aria-current={current ? 'page' : undefined}
                    onClick={() => setSelected(new Set())}
                    className={cn(
                      '-mb-px flex items-center gap-1.5 border-b-2 px-3 py-2.5 text-sm font-semibold whitespace-nowrap transition-colors',
                      current
                        ? 'border-brand text-brand'
                        : 'border-transparent text-ink-muted hover:text-ink',
                    )}
                  >
                    {MY_LISTING_FILTER_LABELS[filter]}
                    {count !== undefined ? (
                      <span className="rounded-full bg-paper-deep px-1.5 text-xs text-ink-muted">
                        {count}
                      </span>
                    ) : null}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>

        {selectable.length ? (
          <div className="sticky top-[var(--shell-top,0px)] z-30 mt-4 flex flex-wrap items-center gap-3 rounded-xl border border-line bg-paper/95 p-3 shadow-card backdrop-blur-sm md:top-20">
            <label className="flex cursor-pointer items-center gap-2 text-sm font-semibold">
              <input
                type="checkbox"
                className="size-4 accent-brand"
                checked={chosen.length === selectable.length}
                ref={(box) => {
                  if (box) box.indeterminate = chosen.length > 0 && chosen.length < selectable.length;
                }}
                onChange={(event) =>
                  setSelected(event.target.checked ? new Set(selectable.map((item) => item.id)) : new Set())
                }
              />
              Select all on sale
            </label>
            <span className="text-sm text-ink-muted" aria-live="polite">
              {chosen.length} selected
            </span>
            <Button
              variant="outline"
              size="sm"
              className="ml-auto"
              disabled={chosen.length === 0}
              onClick={() => setConfirming('withdraw')}
              data-testid="bulk-withdraw"
            >
              Withdraw selected
            </Button>
          </div>
        ) : null}

        <div className="mt-4">
          <QueryView
            query={list}
            pending={
              <RowsSkeleton label="Loading your listings" rows={Array(4).fill('h-24 w-full rounded-xl')} />
            }
            error={(_message, retry) => (
              <QueryError what="your listings" onRetry={retry} retrying={list.isFetching} />
            )}
            empty={
              <div className="flex flex-col items-start gap-4 rounded-xl border border-dashed border-line p-6 text-ink-muted">
                <p>
                  {status === 'all'
                    ? 'You haven’t listed anything yet. It takes under a minute.'
                    : `No ${MY_LISTING_FILTER_LABELS[status].toLowerCase()} listings.`}
                </p>
                <Button asChild variant="brand">
                  <Link to="/sell/new">List a book</Link>
                </Button>
              </div>
            }
          >
            {(data) => (
              <ul className="flex flex-col gap-3" data-testid="my-listings">
                {data.items.map((item) => (
                  <ListingRow
                    key={item.id}
                    item={item}
                    selectable={item.status === 'active' && !item.lock}
                    selected={selected.has(item.id)}
                    onSelect={() => toggle(item.id)}
                    onRelist={() => relist.mutate({ listingId: item.id })}
                    relisting={relist.isPending && relist.variables?.listingId === item.id}
                    onDelete={() => setConfirming({ deleteDraft: item })}
                  />
                ))}
              </ul>
            )}
          </QueryView>
        </div>

        {list.data && list.data.total > PAGE_SIZE ? (
          <nav aria-label="Pages" className="mt-6 flex items-center justify-between">
            <Button
              variant="outline"
              disabled={page <= 1}
              onClick={() => filterParams.set({ page: page - 1 })}
            >
              Previous
            </Button>
            <span className="text-sm text-ink-muted">
              Page {page} of {Math.ceil(list.data.total / PAGE_SIZE)}
            </span>
            <Button
              variant="outline"
              disabled={page * PAGE_SIZE >= list.data.total}
              onClick={() => filterParams.set({ page: page + 1 })}
            >
              Next
            </Button>
          </nav>
        ) : null}
      </PageBody>

      <Dialog open={confirming !== null} onOpenChange={(open) => (open ? null : setConfirming(null))}>
        <DialogContent>
          {confirming === 'withdraw' ? (
            <>
              <DialogTitle>Withdraw {countOf(chosen.length, 'listing', 'listings')}?</DialogTitle>
              <DialogDescription className="mt-2 text-base">
                They come off sale and leave search. You can relist any of them later.
              </DialogDescription>
              <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
                <Button variant="outline" onClick={() => setConfirming(null)}>
                  Keep them on sale
                </Button>
                <Button
                  variant="destructive"
                  disabled={withdraw.isPending}
                  onClick={() => withdraw.mutate({ listingIds: chosen.map((item) => item.id) })}
                  data-testid="confirm-withdraw"
                >
                  {withdraw.isPending ? 'Withdrawing…' : 'Withdraw'}
                </Button>
              </div>
            </>
          ) : confirming ? (
            <>
              <DialogTitle>Delete this draft?</DialogTitle>
              <DialogDescription className="mt-2 text-base">
                {confirming.deleteDraft.title ?? 'The draft'} and its photos will be deleted. This can’t be
                undone.
              </DialogDescription>
              <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
                <Button variant="outline" onClick={() => setConfirming(null)}>
                  Keep it
                </Button>
                <Button
                  variant="destructive"
                  disabled={deleteDraft.isPending}
                  onClick={() => deleteDraft.mutate({ listingId: confirming.deleteDraft.id })}
                >
                  {deleteDraft.isPending ? 'Deleting…' : 'Delete draft'}
                </Button>
              </div>
            </>
          ) : null}
        </DialogContent>
      </Dialog>
    </div>
  );
}

function ListingRow({
  item,
  selectable,
  selected,
  onSelect,
  onRelist,
  relisting,
  onDelete,
}: {
  item: MyListing;
  selectable: boolean;
  selected: boolean;
  onSelect: () => void;
  onRelist: () => void;
  relisting: boolean;
  onDelete: () => void;
}) {
  const title = item.title ?? (item.isbn13 ? `ISBN ${formatIsbn(item.isbn13)}` : 'A new listing');
  const href = item.status === 'draft' ? wizardPath(item.id, item.missing[0] ?? 'review') : editPath(item.id);
  return (
    <li
      className={cn(
        'flex items-center gap-3 rounded-xl border bg-paper p-3 shadow-card sm:gap-4',
        selected ? 'border-brand' : 'border-line',
      )}
      data-testid="my-listing"
      data-status={item.status}
    >
      <div className="w-5 shrink-0">
        {selectable ? (
          <input
            type="checkbox"
            className="size-4 accent-brand"
            checked={selected}
            onChange={onSelect}
            aria-label={`Select ${title}`}
          />
        ) : null}
      </div>
      <div className="w-12 shrink-0 sm:w-14">
        <BookCover
          size="thumb"
          title={item.title ?? 'New listing'}
          authors={item.authors}
          isbn13={item.isbn13}
          coverUrl={leadThumb(item.photoUrl, item.coverUrl)}
        />
      </div>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <StatusBadge status={item.status} lock={item.lock} />
          {item.wishlistCount ? (
            <span className="inline-flex items-center gap-1 text-xs text-ink-muted">
              <Heart aria-hidden="true" className="size-3" />
              {item.wishlistCount}
            </span>
          ) : null}
        </div>
        <p className="mt-1 font-semibold">
          {/* A block, so the link is a full line tall (WCAG 2.5.8: 24 px). */}
          <Link to={href} className="block truncate underline-offset-4 hover:underline">
            {title}
          </Link>
        </p>
        <p className="truncate text-sm text-ink-muted">
          {item.priceMinor !== null ? (
            <span className="font-semibold text-ink">{formatPence(item.priceMinor)}</span>
          ) : null}
          {item.priceMinor !== null ? ' · ' : null}
          {item.status === 'draft' && item.missing.length
            ? `To do: ${item.missing.map((step) => SELLING_STEP_LABELS[step].toLowerCase()).join(', ')}`
            : `Updated ${UPDATED.format(new Date(item.updatedAt))}`}
        </p>
      </div>
      <div className="flex shrink-0 flex-col items-end gap-2 sm:flex-row sm:items-center">
        {item.status === 'draft' ? (
          <>
            <Button asChild size="sm" variant="brand">
              <Link to={href}>Continue</Link>
            </Button>
            <Button size="sm" variant="ghost" className="text-destructive" onClick={onDelete}>
              Delete
            </Button>
          </>
        ) : item.status === 'withdrawn' ? (
          <>
            <Button size="sm" variant="brand" onClick={onRelist} disabled={relisting} data-testid="relist">
              {relisting ? 'Relisting…' : 'Relist'}
            </Button>
            <Button asChild size="sm" variant="ghost">
              <Link to={href}>Edit</Link>
            </Button>
          </>
        ) : item.lock || item.status === 'removed' ? (
          <Button asChild size="sm" variant="ghost">
            <Link to={href}>View</Link>
          </Button>
        ) : (
          <Button asChild size="sm" variant="outline">
            <Link to={href}>Edit</Link>
          </Button>
        )}
      </div>
    </li>
  );
}
