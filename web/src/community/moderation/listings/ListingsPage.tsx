/**
 * /admin/listings (staff, moderators too): find listings by title or slug, seller and status
 * (kept in the address), then remove one or restore it with a reason. The server records the
 * change in the audit log and emails the seller the reason.
 */
import { formatPence } from '@reshelf/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { ArchiveRestore, Search, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { z } from 'zod';
import { AdminPageFrame, EmptyState, formatDateTime } from '../../../components/staff/AdminPageFrame.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { fieldClasses, Input, Label } from '../../../components/ui/input.tsx';
import { toast } from '../../../components/ui/use-toast.ts';
import { QueryView } from '../../../kit/QueryView.tsx';
import { useFilterParams } from '../../../kit/useFilterParams.ts';
import { apiErrorMessage } from '../../../lib/api-errors.ts';
import { trpc } from '../../../lib/trpc.ts';
import { useSetListingRemoved } from './hooks.ts';

const STATUSES = ['active', 'draft', 'reserved', 'sold', 'removed', 'withdrawn'] as const;
type Status = (typeof STATUSES)[number];

const filterSchema = z.object({
  q: z.string().default(''),
  seller: z.string().default(''),
  status: z.string().default(''),
});
type Filter = keyof z.output<typeof filterSchema>;

export function ListingsPage() {
  const filters = useFilterParams(filterSchema);
  const filter = filters.values;
  const form = useForm({ values: filter });
  const status = (STATUSES as readonly string[]).includes(filter.status)
    ? (filter.status as Status)
    : undefined;
  const listings = trpc.community.moderation.listings.search.useQuery(
    {
      ...(filter.q ? { q: filter.q } : {}),
      ...(filter.seller ? { seller: filter.seller } : {}),
      ...(status ? { status } : {}),
      limit: 50,
    },
    { placeholderData: keepPreviousData },
  );

  const apply = form.handleSubmit((draft) =>
    filters.set({ q: draft.q.trim(), seller: draft.seller.trim(), status: draft.status.trim() }),
  );
  const field = (key: Filter) => ({ id: `listings-${key}`, ...form.register(key) });

  return (
    <AdminPageFrame
      title="Listings"
      description="Find any listing, and take down one that breaks the rules or put it back. The seller is emailed the reason."
      testId="listings-page"
    >
      <form
        onSubmit={apply}
        className="grid gap-3 rounded-xl border border-line bg-paper p-4 sm:grid-cols-2 lg:grid-cols-[2fr_2fr_1fr_auto] lg:items-end"
      >
        <div className="flex flex-col gap-1">
          <Label htmlFor="listings-q">Title or slug</Label>
          <Input {...field('q')} />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="listings-seller">Seller email or name</Label>
          <Input {...field('seller')} />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="listings-status">Status</Label>
          <select {...field('status')} className={`${fieldClasses} h-11`}>
            <option value="">Any</option>
            {STATUSES.map((value) => (
              <option key={value} value={value}>
                {value}
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
        query={listings}
        pending="Loading listings…"
        empty={<EmptyState testId="listings-empty">No listings match.</EmptyState>}
      >
        {(data) => (
          <ul className="flex flex-col gap-3" data-testid="staff-listings" aria-busy={listings.isFetching}>
            {data.map((listing) => (
              <ListingRow key={listing.id} listing={listing} />
            ))}
          </ul>
        )}
      </QueryView>
    </AdminPageFrame>
  );
}

interface Listing {
  id: string;
  slug: string | null;
  title: string | null;
  status: string;
  priceMinor: number | null;
  removedReason: string | null;
  sellerEmail: string | null;
  sellerName: string | null;
  createdAt: string;
  restorable: boolean;
  restoreUntil: string | null;
}

const CHANGEABLE = ['active', 'draft', 'withdrawn', 'removed'];

function ListingRow({ listing }: { listing: Listing }) {
  const [open, setOpen] = useState(false);
  const form = useForm({ defaultValues: { reason: '' } });
  const removed = listing.status === 'removed';
  const change = useSetListingRemoved({
    onSuccess: (result) => {
      toast({
        title: result.status === 'removed' ? 'Listing removed' : 'Listing restored',
        description: `${result.title ?? 'The listing'} is ${result.status}; ${result.sellerEmail ?? 'the seller'} has been emailed.`,
      });
      setOpen(false);
      form.reset();
    },
    onError: (error) =>
      toast({ variant: 'destructive', title: 'Listing not changed', description: apiErrorMessage(error) }),
  });
  return (
    <li
      data-testid="staff-listing"
      data-status={listing.status}
      className="flex flex-col gap-3 rounded-xl border border-line bg-paper p-4"
    >
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="font-semibold">
            {listing.slug && listing.status !== 'draft' ? (
              <Link to={`/listing/${listing.slug}`} className="hover:underline">
                {listing.title ?? listing.slug}
              </Link>
            ) : (
              (listing.title ?? 'Untitled draft')
            )}
          </p>
          <p className="text-sm text-ink-muted break-all">
            {listing.sellerName ?? 'Seller'} ({listing.sellerEmail ?? 'no email'}) · listed{' '}
            {formatDateTime(listing.createdAt)}
            {listing.priceMinor !== null ? ` · ${formatPence(listing.priceMinor)}` : ''}
          </p>
          {listing.removedReason ? <p className="mt-1 text-sm">Removed: {listing.removedReason}</p> : null}
          {removed && listing.restoreUntil ? (
            <p className="mt-1 text-sm text-ink-muted" data-testid="restore-window">
              {listing.restorable
                ? `Withdrawn by the clean-up: staff can restore it until ${formatDateTime(listing.restoreUntil)}.`
                : `Withdrawn by the clean-up more than 30 days ago: it stays withdrawn. The seller can list the book again.`}
            </p>
          ) : null}
        </div>
        <div className="flex shrink-0 items-center gap-2">
          <span className="rounded-full bg-brand-soft px-2 py-0.5 text-xs font-semibold text-brand">
            {listing.status}
          </span>
          {CHANGEABLE.includes(listing.status) && (!removed || listing.restorable) && !open ? (
            <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
              {removed ? <ArchiveRestore aria-hidden="true" /> : <Trash2 aria-hidden="true" />}
              {removed ? 'Restore…' : 'Remove…'}
            </Button>
          ) : null}
        </div>
      </div>
      {open ? (
        <form
          className="flex flex-col gap-2 sm:flex-row sm:items-end"
          onSubmit={form.handleSubmit(({ reason }) =>
            change.mutate({ listingId: listing.id, removed: !removed, reason }),
          )}
        >
          <div className="flex flex-1 flex-col gap-1">
            <Label htmlFor={`reason-${listing.id}`}>Reason (the seller is told)</Label>
            <Input id={`reason-${listing.id}`} maxLength={500} {...form.register('reason')} />
          </div>
          <div className="flex gap-2">
            <Button type="submit" variant={removed ? 'brand' : 'destructive'} disabled={change.isPending}>
              {removed ? 'Restore listing' : 'Remove listing'}
            </Button>
            <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : null}
    </li>
  );
}
